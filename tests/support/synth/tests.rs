use super::*;
// Paths in full: the benches include this module too, where the tests are left out and
// imports would go unused.

fn gen_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut v = Vec::new();
    generate(n, seed, &mut v).unwrap();
    v
}

#[test]
fn splitmix_matches_reference_values() {
    // The published first outputs of splitmix64 from state 0.
    let mut r = Rng::new(0);
    assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
}

#[test]
fn deterministic_for_a_seed() {
    let a = gen_bytes(500, 7);
    let b = gen_bytes(500, 7);
    let c = gen_bytes(500, 8);
    assert_eq!(a, b);
    assert_ne!(a, c);
    // A prefix of a larger set is the smaller set (except a CHARTOM pair cut in two).
    let big = gen_bytes(800, 7);
    let n_lines = |v: &[u8]| v.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(n_lines(&a), 500);
    assert_eq!(n_lines(&big), 800);
    let cut = a[..a.len() - 1].iter().rposition(|&b| b == b'\n').unwrap();
    assert_eq!(&big[..cut], &a[..cut]);
}

#[test]
fn every_line_parses_and_the_mix_is_realistic() {
    let n = 3000;
    let bytes = gen_bytes(n, 42);
    let text = std::str::from_utf8(&bytes).unwrap();
    let mut counts = [0usize; 3];
    let mut ids = std::collections::HashSet::new();
    let mut reviewed = 0;
    let mut two_reviewers = 0;
    let mut lines = 0;
    for line in text.lines() {
        lines += 1;
        let it = verdict::bench::Item::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        // also valid for the editable view
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v.is_object());
        assert!(
            ids.insert(it.id.clone().unwrap()),
            "duplicate id {:?}",
            it.id
        );
        assert!((2..=3).contains(&it.responses.len()), "{line}");
        match it.benchmark() {
            verdict::bench::Benchmark::Cvqa => {
                counts[0] += 1;
                assert!(it.original.is_some() && it.counterfactual.is_some());
            }
            verdict::bench::Benchmark::Chartom => {
                counts[1] += 1;
                let hmi = it.mind.unwrap().hmi;
                assert!((0.0..=1.0).contains(&hmi));
                assert!(it.fact.as_ref().unwrap().key.is_some());
            }
            verdict::bench::Benchmark::ChartomQa => {
                counts[2] += 1;
                assert!(it.context.is_some());
                assert!(!it.bonus_points.is_empty());
            }
            verdict::bench::Benchmark::LmEval
            | verdict::bench::Benchmark::Inspect
            | verdict::bench::Benchmark::Declared
            | verdict::bench::Benchmark::Other => {
                panic!("unexpected benchmark: {line}")
            }
        }
        if !it.reviews.is_empty() {
            reviewed += 1;
            for r in it.reviews.values() {
                assert!(r.at.is_some());
            }
            // multi-response items keep grades under models.<model>
            if it.benchmark() != verdict::bench::Benchmark::Cvqa {
                let r = it.reviews.values().next().unwrap();
                let m = &it.responses[0].model;
                assert!(r.for_model(m, it.responses.len()).is_some(), "{line}");
            }
        }
        if it.reviews.len() == 2 {
            two_reviewers += 1;
        }
    }
    assert_eq!(lines, n);
    let share = |k: usize| counts[k] as f64 / n as f64;
    assert!((0.35..=0.45).contains(&share(0)), "cvqa {counts:?}");
    assert!((0.25..=0.35).contains(&share(1)), "chartom {counts:?}");
    assert!((0.25..=0.35).contains(&share(2)), "chartom-qa {counts:?}");
    let r = reviewed as f64 / n as f64;
    assert!((0.12..=0.22).contains(&r), "reviewed {reviewed}");
    assert!(two_reviewers > 0 && two_reviewers < reviewed);
    // ≈ 1.9 KB per item
    let per_item = bytes.len() as f64 / n as f64;
    assert!(
        (1700.0..=2100.0).contains(&per_item),
        "{per_item} bytes per item"
    );
    // number spellings a lossless store must keep
    assert!(text.contains("e3"), "no 1e3-style number");
    assert!(text.contains(".0,") || text.contains(".0]") || text.contains(".0}"));
    // text that needs escaping and non-ASCII letters
    assert!(text.contains("\\\"") && text.contains("\\n"));
    assert!(!text.is_ascii());
}

#[test]
fn spellings() {
    assert_eq!(spell(1.2), "1.2");
    assert_eq!(spell(12.0), "12.0");
    assert_eq!(spell(3000.0), "3e3");
    assert_eq!(spell(10000.0), "1e4");
    assert_eq!(spell(62500.0), "62500.0");
    assert_eq!(spell(0.012), "0.012");
    assert_eq!(fraction(1.0), "1.0");
    assert_eq!(fraction(0.294), "0.29");
}

/// The generator's HMI is the one `stats` recomputes from the same human answers.
#[test]
fn hmi_is_the_stats_rule() {
    let bytes = gen_bytes(600, 11);
    let mut checked = 0;
    for line in std::str::from_utf8(&bytes).unwrap().lines() {
        let it = verdict::bench::Item::parse(line).unwrap();
        let Some(fact) = it.fact.as_ref().filter(|f| f.strategies.is_some()) else {
            continue;
        };
        let again = chartom::hmi_from_fact(fact).unwrap().hmi;
        let given = it.mind.unwrap().hmi;
        assert_eq!(format!("{again:.2}"), format!("{given:.2}"), "{line}");
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}
