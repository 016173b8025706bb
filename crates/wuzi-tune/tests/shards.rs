//! Training data made in shards: the pieces of a data set, written apart and read back in
//! any order (as files or concatenated), are the records of one run; a piece given twice, an
//! unfinished piece and a cut file are refused; a stopped shard run again replaces its
//! unfinished piece; games no piece holds are noted.

use std::path::{Path, PathBuf};

use wuzi_core::shard::Shard;
use wuzi_core::Rule;
use wuzi_tune::datagen::{self, DatagenConfig};
use wuzi_tune::record::{load_data, read_pieces, Header, PieceWriter, Record, RECORD_BYTES};

fn config() -> DatagenConfig {
    DatagenConfig {
        rule: Rule::Freestyle,
        size: 11,
        games: 7,
        nodes: 200,
        seed: 3,
        openings: Vec::new(),
        random_share: 1.0,
        suite_random_plies: 2,
        balance_limit: 400,
        max_plies: 30,
        eval: wuzi_eval::eval::EvalChoice::Classic,
        proven_wins: false,
    }
}

/// Writes games `shard` of the data set as one piece appended to `path`.
fn write_shard(cfg: &DatagenConfig, shard: Shard, path: &Path) -> usize {
    let games = shard.block(cfg.games);
    let mut piece = PieceWriter::create(path, datagen::header(cfg, games.clone())).expect("open");
    let summary = datagen::run_games(cfg, games, &mut piece, &|_| {}).expect("datagen");
    assert_eq!(piece.finish().expect("finish") as usize, summary.positions);
    summary.positions
}

fn load(paths: &[PathBuf]) -> Vec<Record> {
    match load_data(paths) {
        Ok(l) => l.records,
        Err(e) => panic!("{paths:?}: {e}"),
    }
}

fn refused(paths: &[PathBuf]) -> String {
    match load_data(paths) {
        Ok(_) => panic!("{paths:?} loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn three_shards_are_the_data_set_of_one_run() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("wuzi-datagen-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let cfg = config();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    pool.install(|| {
        let whole = dir.join("whole.bin");
        let positions = write_shard(&cfg, Shard::WHOLE, &whole);
        let one = load(std::slice::from_ref(&whole));
        assert_eq!(one.len(), positions);
        assert!(positions > 20, "{positions} positions");
        // The records equal those of the plain run (no header there).
        let mut plain = Vec::new();
        datagen::run(&cfg, &mut plain, &|_| {}).expect("datagen");
        let from_file = std::fs::read(&whole).expect("read");
        assert_eq!(&from_file[RECORD_BYTES..], &plain[..]);

        // Shards 3, 1 and 2 in files of their own; shard 2 is stopped half way and run
        // again.
        let files: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}.bin"))).collect();
        let shard = |k| Shard::new(k, 3).expect("shard");
        for k in [3, 1, 2] {
            write_shard(&cfg, shard(k), &files[k - 1]);
        }
        let done = std::fs::read(&files[1]).expect("read");
        let mut stopped = done.clone();
        stopped.truncate(RECORD_BYTES * 3 + 17);
        stopped[48..56].copy_from_slice(&u64::MAX.to_le_bytes());
        std::fs::write(&files[1], &stopped).expect("write");
        let e = refused(&files);
        assert!(e.contains("unfinished"), "{e}");
        write_shard(&cfg, shard(2), &files[1]);
        assert_eq!(std::fs::read(&files[1]).expect("read"), done);

        // In any order, as files or as one concatenated file: the one run's records.
        let mixed = vec![files[1].clone(), files[2].clone(), files[0].clone()];
        assert_eq!(load(&mixed), one);
        let cat = dir.join("cat.bin");
        let mut bytes = Vec::new();
        for f in &mixed {
            bytes.extend(std::fs::read(f).expect("read"));
        }
        std::fs::write(&cat, &bytes).expect("write");
        assert_eq!(load(std::slice::from_ref(&cat)), one);
        let loaded = load_data(&mixed).expect("load");
        assert_eq!(loaded.notes.len(), 1);
        assert!(
            loaded.notes[0].contains("none missing"),
            "{:?}",
            loaded.notes
        );

        // A shard given twice, in two files or in one.
        let e = refused(&[files[0].clone(), files[1].clone(), files[0].clone()]);
        assert!(e.contains("given twice"), "{e}");
        let e = refused(&[cat.clone(), files[2].clone()]);
        assert!(e.contains("given twice"), "{e}");
        // The whole run and a shard of it overlap too.
        let e = refused(&[whole.clone(), files[2].clone()]);
        assert!(e.contains("given twice"), "{e}");
        // A cut file, and a piece that promises more records than follow.
        for cut in [3, RECORD_BYTES, 2 * RECORD_BYTES + 1] {
            std::fs::write(&cat, &bytes[..bytes.len() - cut]).expect("write");
            let e = refused(std::slice::from_ref(&cat));
            assert!(e.contains("promises") && e.contains("cut short"), "{e}");
        }
        // A missing shard is noted, and the others are read.
        let partial = load_data(&[files[0].clone(), files[2].clone()]).expect("load");
        let [first, _, third] = [0, 1, 2].map(|i| {
            read_pieces(&files[i]).expect("pieces")[0]
                .header
                .clone()
                .expect("header")
        });
        let note = &partial.notes[0];
        assert!(
            note.contains(&format!("missing games {}..{}", first.end, third.first)),
            "{note}"
        );
        // Another data set (another seed) in the same list is read beside it, in its place.
        let other_cfg = DatagenConfig {
            seed: 4,
            ..config()
        };
        let other = dir.join("other.bin");
        write_shard(&other_cfg, Shard::WHOLE, &other);
        let both = load(&[
            other.clone(),
            files[0].clone(),
            files[1].clone(),
            files[2].clone(),
        ]);
        let other_records = load(std::slice::from_ref(&other));
        assert_eq!(both.len(), other_records.len() + one.len());
        assert_eq!(&both[..other_records.len()], &other_records[..]);
        assert_eq!(&both[other_records.len()..], &one[..]);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn headers_round_trip_and_damage_is_refused() {
    let cfg = config();
    let mut h = datagen::header(&cfg, 2..5);
    h.records = Some(11);
    let bytes = h.encode();
    assert!(Header::is_header(&bytes));
    assert_eq!(Header::decode(&bytes, 0).expect("decode"), h);
    assert_ne!(
        datagen::fingerprint(&cfg),
        datagen::fingerprint(&DatagenConfig {
            nodes: 201,
            ..config()
        })
    );
    let mut bad = bytes;
    bad[8] = 2;
    assert!(Header::decode(&bad, 0).is_err(), "another version");
    let mut bad = bytes;
    bad[100] = 1;
    assert!(Header::decode(&bad, 0).is_err(), "a stray byte");
    let mut bad = bytes;
    bad[40..48].copy_from_slice(&99u64.to_le_bytes());
    assert!(Header::decode(&bad, 0).is_err(), "games past the data set");
}
