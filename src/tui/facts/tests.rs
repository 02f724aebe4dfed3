use super::*;

fn ix(rows: &[(&str, &str)]) -> Index {
    Index::of_texts(rows)
}

#[test]
fn match_indices_are_the_matched_chars() {
    let text = "real-00001 How many plates are there?";
    let idx = match_indices(text, "plates");
    let hit: String = idx.iter().map(|&i| text.chars().nth(i).unwrap()).collect();
    assert_eq!(hit, "plates", "{idx:?}");
    // char indices, not bytes
    let idx = match_indices("Würde Café", "cafe");
    assert_eq!(idx, vec![6, 7, 8, 9]);
    assert!(match_indices(text, "").is_empty());
}

#[test]
fn fuzzy_search_ranks_and_filters() {
    let meta = ix(&[
        ("real-00001", "How many plates are there?"),
        ("real-00002", "How many cows can you see?"),
        ("real-00003", "Is the TV on? Würde das Café offen sein?"),
    ]);
    assert_eq!(search(&meta, "cows", None, 10), vec![1]);
    assert_eq!(search(&meta, "hmny plt", None, 10)[0], 0);
    // diacritics fold (cafe finds Café); an uppercase query is case-sensitive (smart case)
    assert_eq!(search(&meta, "cafe", None, 10), vec![2]);
    assert_eq!(search(&meta, "Café", None, 10), vec![2]);
    assert!(search(&meta, "CAFE", None, 10).is_empty());
    assert_eq!(search(&meta, "real-00002", None, 10)[0], 1);
    assert_eq!(search(&meta, "how many", Some(&[1]), 10), vec![1]);
    assert_eq!(search(&meta, "", None, 2), vec![0, 1]);
    assert!(search(&meta, "zebra", None, 10).is_empty());
}

#[test]
fn bit_sets() {
    let mut a = BitSet::new(130);
    a.set(0, true);
    a.set(64, true);
    a.set(129, true);
    assert_eq!(a.ones().collect::<Vec<_>>(), vec![0, 64, 129]);
    let mut f = BitSet::full(130);
    assert_eq!(f.count(), 130);
    f.and_with(&a);
    assert_eq!(f, a);
    a.invert();
    assert_eq!(a.count(), 127);
    assert!(!a.get(129) && a.get(128) && !a.get(500));
}

/// `Index::facet` (a binary search of the sorted facets) finds every facet the index
/// holds, of every kind, and nothing else.
#[test]
fn facet_finds_every_facet_the_index_holds() {
    for f in [
        "chartom.jsonl",
        "chartom-qa.jsonl",
        "cvqa.jsonl",
        "generic.jsonl",
    ] {
        let path = format!("{}/tests/fixtures/samples/{f}", env!("CARGO_MANIFEST_DIR"));
        let store = Store::open(std::path::Path::new(&path)).unwrap();
        let ix = index(&store, 2);
        assert!(ix.facets.len() > 3, "{f}");
        for (kind, name, bits) in &ix.facets {
            let found = ix.facet(*kind, name);
            assert!(
                found.is_some_and(|b| std::ptr::eq(b, bits)),
                "{f}: {kind:?} {name:?}"
            );
            assert!(ix.facet(*kind, &format!("{name}\u{0}not")).is_none());
            for i in 0..ix.len() {
                assert_eq!(
                    ix.has(i, *kind, name),
                    bits.get(i),
                    "{f}: {kind:?} {name:?} {i}"
                );
            }
        }
        assert!(ix.facet(Kind::Model, "no such model").is_none());
    }
}

/// `position_of` finds the first item whose id is exactly the one asked: not an id that
/// merely contains it, nor one it starts or ends in the text of its neighbours (the ids
/// are kept one after the other with no separator), nor an empty id.
#[test]
fn position_of_finds_the_first_item_with_exactly_this_id() {
    let ids = [
        "a", "aa", "aaa", "ba", "ab", "x-1", "x-10", "x-1", "", "b", "é", "aé", "éa", "c",
    ];
    let rows: Vec<(&str, &str)> = ids.iter().map(|i| (*i, "")).collect();
    let index = ix(&rows);
    let mut asked: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    asked.extend(
        [
            "aaaa", "x-", "1", "-1", "bab", "aab", "abaaa", "c ", "é", "aéé",
        ]
        .map(String::from),
    );
    for q in &asked {
        let want = ids.iter().position(|i| i == q);
        assert_eq!(index.position_of(q), want, "{q:?}");
        let twice = ids.iter().filter(|i| *i == q).count() > 1;
        assert_eq!(index.id_shared(q), twice, "{q:?}");
    }
    // Many ids that contain the one asked before it comes.
    let mut many: Vec<String> = (0..500).map(|k| format!("{k}-id-{k}")).collect();
    many.push("id".into());
    let rows: Vec<(&str, &str)> = many.iter().map(|i| (i.as_str(), "")).collect();
    let index = ix(&rows);
    assert_eq!(index.position_of("id"), Some(500));
    assert_eq!(index.position_of("-id-"), None);
    assert_eq!(index.position_of("499-id-499"), Some(499));
    assert!(!index.id_shared("id"));
    // the second after many that contain it, and one of those twice
    many.push("id".into());
    many.push("7-id-7".into());
    let rows: Vec<(&str, &str)> = many.iter().map(|i| (i.as_str(), "")).collect();
    let index = ix(&rows);
    assert!(index.id_shared("id") && index.id_shared("7-id-7"));
    assert!(!index.id_shared("8-id-8") && !index.id_shared("-id-"));
    // the first hit among many, and the second too
    let mut many: Vec<String> = vec!["id".into()];
    many.extend((0..500).map(|k| format!("{k}-id-{k}")));
    let rows: Vec<(&str, &str)> = many.iter().map(|i| (i.as_str(), "")).collect();
    assert!(!ix(&rows).id_shared("id"));
    many.push("id".into());
    let rows: Vec<(&str, &str)> = many.iter().map(|i| (i.as_str(), "")).collect();
    assert!(ix(&rows).id_shared("id"));
    // An index built by several threads (its ids in several texts): every item's id,
    // ids that contain others, ids twice, items without an id.
    let mut lines = String::new();
    for k in 0..400 {
        let id = match k % 7 {
            0 => String::new(),
            1 => format!("\"id\": \"q-{}\", ", k / 2),
            2 => format!("\"id\": \"{k}q-{k}\", "),
            _ => format!("\"id\": \"q-{k}\", "),
        };
        lines.push_str(&format!(
            "{{{id}\"benchmark\": \"mmlu\", \"question\": \"q\", \"responses\": []}}\n"
        ));
    }
    let many = Store::from_bytes(
        "t.jsonl".into(),
        crate::store::Format::Jsonl,
        lines.into_bytes(),
    );
    for store in [many.unwrap()] {
        for threads in [1, 3] {
            let built = crate::tui::facts::index(&store, threads);
            for i in 0..built.len() {
                let id = built.id(i);
                let first = (0..built.len()).find(|&j| built.id(j) == id);
                assert_eq!(built.position_of(id), first, "{threads} threads: {id}");
                let count = (0..built.len()).filter(|&j| built.id(j) == id).count();
                assert_eq!(built.id_shared(id), count > 1, "{threads} threads: {id}");
            }
        }
    }
}

/// The index cache writes a kind as its place in `Kind::ALL`: the places are those of
/// the cache's format (`verdict index 12`: the metadata's facet after `Run`, then the lines that disagree).
#[test]
fn kinds_keep_their_places_in_the_cache() {
    use crate::bench::Facet;
    let want = [
        Kind::Benchmark,
        Kind::Facet(Facet::ChartType),
        Kind::Facet(Facet::Version),
        Kind::Facet(Facet::Dimension),
        Kind::Facet(Facet::Group),
        Kind::Facet(Facet::LmEvalFilter),
        Kind::Facet(Facet::Answer),
        Kind::Facet(Facet::Epoch),
        Kind::Facet(Facet::Disagree),
        Kind::Facet(Facet::Task),
        Kind::Facet(Facet::Run),
        Kind::Facet(Facet::Metadata),
        Kind::Facet(Facet::LinesDisagree),
        Kind::Model,
        Kind::Wrong,
        Kind::Reviewer,
        Kind::Done,
        Kind::Status,
        Kind::Disagreement,
        Kind::NeedsAdjudication,
        Kind::Adjudicated,
        Kind::Facet(Facet::SuspectKey),
        Kind::Facet(Facet::Failed),
        Kind::Facet(Facet::RunsDisagree),
        Kind::ReviewerStatus,
    ];
    assert_eq!(Kind::ALL, want);
    for (k, kind) in want.iter().enumerate() {
        assert_eq!(kind.index(), k);
    }
    let mut sorted = want;
    sorted.sort();
    assert_eq!(sorted, want);
}
