#!/usr/bin/env python3
"""The alternatives suite (data/README.md, mates/): wuzi's own losing choices.

For every position of the forced-line suite whose win is the sparring engine's, take the
position one move earlier (wuzi to move, before the move that let the win in), let wuzi
choose a move there, and ask the sparring engine whether that move also lets in a forced
win (it is then to move, and its progress announces +M within --oracle-ms). Where it does,
the position after wuzi's choice is a suite position of its own: a win wuzi would have had
to see, one ply inside its own search, to avoid the loss.

    scripts/mates-alternatives.py --wuzi target/release/wuzi \\
        --sparring path/to/pbrain-x --out data/mates/alternatives.txt

prints how many of wuzi's choices lose (the defence measure: fewer is better) and writes the
losing ones in the suite's format (`wuzi_search::bench::mates`), added to the positions
already in --out (a run at another time or by another build adds its own choices). Run with
--sparring-move to let the sparring engine choose instead of wuzi (its own figure; it is
also the judge, so that figure flatters it). The engines get one thread each and nothing
else should run beside them. Standard library only.
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys

RULE_CODE = {"freestyle": 0, "standard": 1, "renju": 4}


def read_suite(path):
    """The sparring engine's positions of a suite file: (fields, moves)."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split()
            if len(fields) != 10 or fields[2] != "sparring" or fields[4] not in RULE_CODE:
                continue
            moves = re.findall(r"[a-z]\d+", fields[9]) if fields[9] != "-" else []
            rows.append((fields, moves))
    return rows


def protocol_move(engine, rule, width, moves, turn_ms):
    """Ask a Gomocup engine for its move in a position; returns (move, last Eval text)."""
    to_move = len(moves) % 2
    lines = [f"START {width}", f"INFO rule {RULE_CODE[rule]}", f"INFO timeout_turn {turn_ms}",
             "INFO timeout_match 100000000", "BOARD"]
    for i, m in enumerate(moves):
        own = 1 if i % 2 == to_move else 2
        lines.append(f"{ord(m[0]) - 97},{int(m[1:]) - 1},{own}")
    lines.append("DONE")
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    text, move = "", None
    try:
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
    except BrokenPipeError:
        proc.wait()
        return None, "?"  # the engine died before its position was sent
    for line in proc.stdout:
        text += line
        if re.fullmatch(r"\d+,\d+", line.strip()):
            x, y = map(int, line.strip().split(","))
            move = f"{chr(97 + x)}{y + 1}"
            break
    # END only after the answer: an engine reading it early stops its search at once.
    try:
        proc.stdin.write("END\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass  # the engine is gone already; its missing answer is reported as such
    proc.wait()
    evals = re.findall(r"Eval (\S+)", text)
    return move, evals[-1] if evals else "?"


def wuzi_move(wuzi, rule, size, moves, time):
    out = subprocess.run([wuzi, "analyze", "--rule", rule, "--size", size, "--time", time,
                          "--lines", "1", "".join(moves)], capture_output=True, text=True)
    m = re.search(r"^ 1\. (\S+)", out.stdout, re.M)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--wuzi", default="target/release/wuzi")
    ap.add_argument("--sparring", required=True, help="the sparring engine's pbrain binary")
    ap.add_argument("--suite", default="data/mates/suite.txt")
    ap.add_argument("--time", default="500ms", help="the chooser's time a move")
    ap.add_argument("--oracle-ms", type=int, default=1000, help="the judge's time a position")
    ap.add_argument("--sparring-move", action="store_true",
                    help="the sparring engine chooses instead of wuzi")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="write the losing choices here as suite positions")
    args = ap.parse_args()

    if args.out and args.sparring_move:
        ap.error("--out keeps wuzi's choices; leave it out with --sparring-move")
    rows = read_suite(args.suite)
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)", args.time)
    if not m:
        ap.error(f"--time {args.time}: write it as 500ms or 2s")
    turn_ms = int(float(m.group(1)) * (1 if m.group(2) == "ms" else 1000))

    def judge(row):
        fields, moves = row
        rule, size = fields[4], fields[5]
        before = moves[:-1]
        if args.sparring_move:
            choice, _ = protocol_move(args.sparring, rule, int(size.split("x")[0]), before,
                                      turn_ms)
        else:
            choice = wuzi_move(args.wuzi, rule, size, before, args.time)
        if choice is None:
            return fields, None, None
        if choice == moves[-1]:
            return fields, choice, fields[7].split(":", 1)[1]  # the game's own announcement
        answer, verdict = protocol_move(args.sparring, rule, int(size.split("x")[0]),
                                        before + [choice], args.oracle_ms)
        return fields, choice, verdict if answer is not None else None

    results = list(cf.ThreadPoolExecutor(args.jobs).map(judge, rows))
    lost = sum(1 for _, _, v in results if v is not None and v.startswith("+M"))
    failed = sum(1 for _, c, v in results if c is None or v is None)
    replayed = sum(1 for (f, m), (_, c, _) in zip(rows, results) if c == m[-1])
    who = "the sparring engine" if args.sparring_move else "wuzi"
    print(f"{who} at {args.time}: {lost}/{len(rows)} choices let in a forced win "
          f"({replayed} replay the game's move; {failed} without an answer)")
    if args.out:
        # Positions already in the file stay (a run at another time adds its own choices).
        kept = {}
        if os.path.exists(args.out):
            with open(args.out) as f:
                for line in f:
                    if line.strip() and not line.startswith("#"):
                        kept[line.split()[0]] = line.rstrip("\n")
        for (fields, choice, verdict), (_, moves) in zip(results, rows):
            if verdict is None or not verdict.startswith("+M") or choice == moves[-1]:
                continue
            name = f"{fields[0]}-{choice}"
            kept.setdefault(name, " ".join([
                name, fields[1], "sparring", fields[3], fields[4], fields[5], verdict[2:],
                f"sparring:{verdict}", fields[8], "".join(moves[:-1] + [choice])]))
        order = {f[0]: i for i, (f, _) in enumerate(rows)}
        with open(args.out, "w") as out:
            out.write("# wuzi's own losing choices: data/README.md, mates/ "
                      "(scripts/mates-alternatives.py)\n")
            for name in sorted(kept, key=lambda n: (order.get(n.rsplit("-", 1)[0], 1 << 30), n)):
                out.write(kept[name] + "\n")
        print(f"{args.out}: {len(kept)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
