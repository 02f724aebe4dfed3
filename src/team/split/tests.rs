use super::*;

fn check_invariants(a: &Assignment, n: usize, r: usize, k: usize) {
    assert_eq!(a.len(), n);
    for i in 0..n {
        let rs = a.reviewers_of(i);
        assert_eq!(rs.len(), k);
        assert!(
            rs.windows(2).all(|w| w[0] < w[1]),
            "distinct, ascending: {rs:?}"
        );
        assert!(rs.iter().all(|&x| (x as usize) < r));
    }
    let loads = a.loads();
    assert_eq!(loads.iter().sum::<usize>(), n * k);
    let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
    assert!(hi - lo <= 1, "loads {loads:?}");
}

#[test]
fn every_item_goes_to_overlap_reviewers_balanced() {
    for (n, r, k) in [
        (12, 3, 2),
        (13, 3, 2),
        (100, 4, 2),
        (101, 5, 3),
        (7, 7, 7),
        (1, 3, 1),
        (0, 2, 1),
        (1000, 6, 2),
    ] {
        for seed in [0, 1, 99] {
            let a = assign(n, r, k, seed).unwrap();
            check_invariants(&a, n, r, k);
        }
    }
}

#[test]
fn deterministic_for_a_seed() {
    let a = assign(500, 5, 2, 7).unwrap();
    assert_eq!(a, assign(500, 5, 2, 7).unwrap());
    assert_ne!(a, assign(500, 5, 2, 8).unwrap());
    // splitmix64's published first output for seed 0 (the reference C code by Vigna).
    assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
}

#[test]
fn pairs_are_spread() {
    // 4 reviewers, overlap 2: 6 pairs; 120 items → 20 each if perfectly spread.
    let a = assign(120, 4, 2, DEFAULT_SEED).unwrap();
    for x in 0..4 {
        for y in x + 1..4 {
            let s = a.shared(x, y);
            assert!((15..=25).contains(&s), "pair {x}-{y} shares {s}");
        }
    }
}

#[test]
fn bad_arguments() {
    assert_eq!(assign(5, 3, 0, 1), Err(SplitError::ZeroOverlap));
    assert_eq!(
        assign(5, 3, 4, 1),
        Err(SplitError::TooMuchOverlap {
            overlap: 4,
            reviewers: 3
        })
    );
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(check_reviewers(&[]), Err(SplitError::NoReviewers));
    assert!(matches!(
        check_reviewers(&names(&["a", "../x"])),
        Err(SplitError::BadName(_))
    ));
    assert!(matches!(
        check_reviewers(&names(&["a", ""])),
        Err(SplitError::BadName(_))
    ));
    assert_eq!(
        check_reviewers(&names(&["a", "b", "a"])),
        Err(SplitError::Duplicate("a".into()))
    );
    assert!(check_reviewers(&names(&["ann", "bo.b", "c_3", "dé"])).is_ok());
}

#[test]
fn jsonl_lines_are_copied_byte_identical() {
    let content = b"{\"id\":\"a\",  \"x\": 1.0}\r\n{\"id\": oops}\n\n{\"id\":\"c\",\"n\":1e3}\n";
    let store = Store::from_bytes("set.jsonl".into(), Format::Jsonl, content.to_vec()).unwrap();
    let names = vec!["r1".to_string(), "r2".to_string()];
    let s = split(&store, None, &names, 2, 1, Path::new("out")).unwrap();
    assert_eq!(s.unreadable, vec!["#2".to_string()]);
    for f in &s.files {
        assert_eq!(f.items, 3);
        assert_eq!(
            f.bytes,
            b"{\"id\":\"a\",  \"x\": 1.0}\n{\"id\": oops}\n{\"id\":\"c\",\"n\":1e3}\n"
        );
    }
    assert_eq!(s.files[1].path, Path::new("out/set.r2.jsonl"));
}

#[test]
fn json_document_keeps_its_other_keys() {
    let doc = "{\n  \"verdict\": 1,\n  \"title\": \"t\",\n  \"items\": [\n    {\"id\": \"a\", \"v\": 1.50},\n    {\"id\": \"b\"}\n  ],\n  \"zz\": [1e2]\n}\n";
    let store =
        Store::from_bytes("set.json".into(), Format::Json, doc.as_bytes().to_vec()).unwrap();
    let names = vec!["x".to_string(), "y".to_string()];
    let s = split(&store, Some(doc.as_bytes()), &names, 1, 3, Path::new("o")).unwrap();
    let total: usize = s.files.iter().map(|f| f.items).sum();
    assert_eq!(total, 2);
    for f in &s.files {
        let text = String::from_utf8(f.bytes.clone()).unwrap();
        assert!(
            text.starts_with(
                "{\n  \"verdict\": 1,\n  \"title\": \"t\",\n  \"items\": [\n    {\"id\": \""
            ),
            "{text}"
        );
        assert!(text.ends_with("\n  ],\n  \"zz\": [1e2]\n}\n"), "{text}");
        let back = Store::from_bytes(f.path.clone(), Format::Json, f.bytes.clone()).unwrap();
        assert_eq!(back.len(), 1);
    }
    let all: String = s
        .files
        .iter()
        .map(|f| String::from_utf8(f.bytes.clone()).unwrap())
        .collect();
    assert!(all.contains("{\"id\": \"a\", \"v\": 1.50}"));
}
