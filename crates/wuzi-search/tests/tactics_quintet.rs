//! The solver checks of `data/tactics/vcf-vct-quintet.jsonl` (renju): every non-bench case
//! must be answered right, and every win returned must pass the independent line checker.

mod common;

use common::{check_line, LineKind};
use std::time::{Duration, Instant};
use wuzi_core::{Board, Point};
use wuzi_search::threat::SolveResult;
use wuzi_search::vcf::VcfSolver;
use wuzi_search::vct::{VctLimits, VctSolver};
use wuzi_testkit::tactics::{load_cases, Case};

fn points(board: &Board, line: &[usize]) -> Vec<Point> {
    line.iter().map(|&c| board.point(c)).collect()
}

/// Solves one case with the solver its `solver` field names; returns the result, nodes and
/// time.
fn solve_case(
    case: &Case,
    node_limit: u64,
    pn: bool,
    deadline: Option<Instant>,
) -> (SolveResult, u64, Duration) {
    let mut board = case.board.clone();
    let start = Instant::now();
    let outcome = if case.is_vcf() {
        VcfSolver::new().solve(&mut board, case.attacker, case.max_depth, node_limit)
    } else {
        let limits = VctLimits {
            max_depth: case.max_depth,
            threat_depth: case.threshold,
            node_limit,
            deadline,
        };
        // `WUZI_TABLE_BITS` sizes the tables (for experiments; 18 by default).
        let bits = wuzi_testkit::env_or("WUZI_TABLE_BITS", 18);
        let mut solver = VctSolver::with_table_bits(bits);
        if pn {
            solver.solve_pn(&mut board, case.attacker, &limits)
        } else {
            solver.solve(&mut board, case.attacker, &limits)
        }
    };
    let elapsed = start.elapsed();
    assert_eq!(
        board.hash(),
        case.board.hash(),
        "{}: the board was not restored",
        case.name()
    );
    (outcome.result, outcome.nodes, elapsed)
}

fn kind(case: &Case) -> LineKind {
    if case.is_vcf() {
        LineKind::Vcf
    } else {
        LineKind::Vct {
            threat_depth: case.threshold,
        }
    }
}

#[test]
fn every_shared_case_is_answered_right() {
    check_shared_cases(false);
}

/// The same with the proof-number VCT.
#[test]
fn every_shared_case_is_answered_right_by_proof_numbers() {
    check_shared_cases(true);
}

fn check_shared_cases(pn: bool) {
    let cases = load_cases();
    assert!(cases.len() >= 40, "expected the 42 shared cases");
    let mut failures = Vec::new();
    for case in cases
        .iter()
        .filter(|c| !(c.bench_only || (pn && c.is_vcf())))
    {
        let (result, nodes, elapsed) = solve_case(case, 50_000_000, pn, None);
        let verdict = match (&result, &case.expected) {
            (SolveResult::Win(line), Some(_)) => {
                let line = points(&case.board, line);
                match check_line(&case.board, case.attacker, &line, kind(case)) {
                    Ok(depth) if depth <= case.max_depth => {
                        format!("win {} (depth {depth})", case.names(&line))
                    }
                    Ok(depth) => {
                        failures.push(format!("{}: line too deep ({depth})", case.name()));
                        String::new()
                    }
                    Err(e) => {
                        failures.push(format!(
                            "{}: bad line {}: {e}",
                            case.name(),
                            case.names(&line)
                        ));
                        String::new()
                    }
                }
            }
            (SolveResult::NoWin, None) => "none".to_string(),
            (other, _) => {
                let shown = match other {
                    SolveResult::Win(line) => {
                        format!("win {}", case.names(&points(&case.board, line)))
                    }
                    r => format!("{r:?}"),
                };
                failures.push(format!(
                    "{}: got {shown}, expected {}",
                    case.name(),
                    case.expected
                        .as_ref()
                        .map_or("NONE".to_string(), |l| case.names(l))
                ));
                String::new()
            }
        };
        eprintln!(
            "{:<60} {:>9} nodes {:>9.1} ms  {verdict}",
            case.name(),
            nodes,
            elapsed.as_secs_f64() * 1e3
        );
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

/// The heavy cases: run with `--ignored --nocapture` to see their times (proof-number VCT,
/// or the depth-first one with `WUZI_DFS` set; 120 s each at most).
#[test]
#[ignore]
fn bench_only_cases_report() {
    for case in load_cases().iter().filter(|c| c.bench_only) {
        let pn = std::env::var("WUZI_DFS").is_err();
        let deadline = Instant::now() + Duration::from_secs(120);
        let (result, nodes, elapsed) = solve_case(case, 2_000_000_000, pn, Some(deadline));
        let shown = match &result {
            SolveResult::Win(line) => {
                let line = points(&case.board, line);
                let check = check_line(&case.board, case.attacker, &line, kind(case));
                format!("win {} check {:?}", case.names(&line), check)
            }
            r => format!("{r:?}"),
        };
        eprintln!(
            "{:<60} {:>10} nodes {:>10.1} ms  {shown}",
            case.name(),
            nodes,
            elapsed.as_secs_f64() * 1e3
        );
    }
}

/// Solves the cases whose indices `WUZI_CASES` lists (comma separated), for profiling.
#[test]
#[ignore]
fn selected_cases() {
    let wanted: Vec<usize> = std::env::var("WUZI_CASES")
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let pn = std::env::var("WUZI_PN").is_ok();
    for case in load_cases().iter().filter(|c| wanted.contains(&c.index)) {
        let (result, nodes, elapsed) = solve_case(case, 2_000_000_000, pn, None);
        eprintln!(
            "{:<60} {:>10} nodes {:>10.1} ms  {:?}",
            case.name(),
            nodes,
            elapsed.as_secs_f64() * 1e3,
            match &result {
                SolveResult::Win(_) => "win".to_string(),
                r => format!("{r:?}"),
            }
        );
    }
}

/// The defence pruning checked from outside: in the VCT wins of the shared file (the lighter
/// ones), after the attacker's first threat that is not a four, every legal defender reply,
/// wherever it is, must still lose to a VCT within the attacker moves left.
#[test]
fn vct_threats_survive_every_reply() {
    let mut seen = std::collections::HashSet::new();
    for case in load_cases()
        .iter()
        .filter(|c| !c.bench_only && !c.is_vcf() && c.expected.is_some() && c.max_depth <= 5)
    {
        if !seen.insert((case.board.hash(), case.max_depth, case.threshold)) {
            continue;
        }
        let limits = VctLimits {
            max_depth: case.max_depth,
            threat_depth: case.threshold,
            node_limit: 50_000_000,
            deadline: None,
        };
        let mut solver = VctSolver::new();
        let mut board = case.board.clone();
        let SolveResult::Win(line) = solver.solve(&mut board, case.attacker, &limits).result else {
            panic!("{}: no win", case.name());
        };
        // Play up to the first attacker move that leaves no five point (a threat).
        let defender = case.attacker.opponent();
        let mut after = case.board.clone();
        let mut used = 0;
        let mut threat = None;
        for (i, &c) in line.iter().enumerate() {
            let color = if i % 2 == 0 { case.attacker } else { defender };
            after.make(color, c);
            if i % 2 == 0 {
                used += 1;
                if after.five_points(case.attacker).is_empty() {
                    threat = Some(c);
                    break;
                }
            }
        }
        let Some(threat) = threat else {
            continue;
        };
        let shorter = VctLimits {
            max_depth: case.max_depth - used,
            ..limits
        };
        let mut replies = 0;
        let mut nodes = 0;
        for q in after.empty_points() {
            if defender == wuzi_core::Color::Black && after.is_forbidden(q) {
                continue;
            }
            let mut t = after.clone();
            t.place(defender, q).expect("empty point");
            replies += 1;
            for pn in [false, true] {
                let out = if pn {
                    solver.solve_pn(&mut t, case.attacker, &shorter)
                } else {
                    solver.solve(&mut t, case.attacker, &shorter)
                };
                nodes += out.nodes;
                assert!(
                    out.result.is_win(),
                    "{}: after the threat {}, the reply {} is not refuted ({:?}, pn {pn})",
                    case.name(),
                    case.names(&[after.point(threat)]),
                    case.names(&[q]),
                    out.result
                );
            }
        }
        eprintln!(
            "{}: threat {} (move {used}), {replies} replies refuted, {nodes} nodes",
            case.name(),
            case.names(&[after.point(threat)])
        );
    }
}
