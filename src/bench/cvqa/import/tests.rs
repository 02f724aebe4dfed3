use super::*;

const HEADER: &str = "img_path,query,answer,new query,new answer,type";

fn csv(name: &str, text: &str) -> CsvFile {
    parse_csv(Path::new(name), text.as_bytes()).unwrap()
}

fn questions() -> String {
    format!(
        "{HEADER}\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct\n\
             b.jpg,Is it day?,yes,Would it be day if the sun set?,no,boolean\n"
    )
}

#[test]
fn parses_quotes_crlf_bom_and_newlines() {
    let text = format!(
        "\u{feff}{HEADER},response,new_response\r\na.jpg,\"Q \"\"one\"\"\",1,\"line1\r\nline2\",2,direct,\"r, 1\",\r\n"
    );
    let f = csv("m_responses.csv", &text);
    assert!(f.has_responses);
    assert_eq!(f.rows.len(), 1);
    let r = &f.rows[0];
    assert_eq!(r.query, "Q \"one\"");
    assert_eq!(r.new_query, "line1\r\nline2");
    assert_eq!(r.response, Some(("r, 1".into(), String::new())));
    assert_eq!(r.line, 2);
    assert_eq!(model_from_path(&f.path), "m");
}

#[test]
fn columns_by_name_in_any_order() {
    let f = csv(
        "q.csv",
        "type,New_Answer,answer,img_path,new query,query,extra\ndirect,3,2,x.jpg,nq,q,z\n",
    );
    let r = &f.rows[0];
    assert_eq!(
        (r.qtype.as_str(), r.new_answer.as_str(), r.query.as_str()),
        ("direct", "3", "q")
    );
    assert_eq!(f.ignored_columns, vec!["extra".to_string()]);
}

#[test]
fn split_of_types() {
    assert_eq!(split_of("indirect"), Some("real"));
    assert_eq!(split_of("abs_counting_6"), Some("synthetic"));
    assert_eq!(split_of("abs_counting_7"), None);
    assert_eq!(split_of("Direct"), None);
}

#[test]
fn errors_name_file_row_and_column() {
    let e = parse_csv(
        Path::new("q.csv"),
        format!("{HEADER}\na.jpg,q,1,nq,2,direct\na.jpg,q,1,nq,2,sideways\n").as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "q.csv: row 2 (line 3), column `type`: unknown question type `sideways` (expected direct, indirect, boolean or abs_counting_1..abs_counting_6)"
    );
    let mut bad = format!("{HEADER}\na.jpg,q,1,").into_bytes();
    bad.extend_from_slice(b"n\xffq,2,direct\n");
    let e = parse_csv(Path::new("q.csv"), &bad).unwrap_err().to_string();
    assert_eq!(
        e,
        "q.csv: row 1 (line 2), column `new query`: invalid UTF-8 at byte 1 of the field"
    );
    let e = parse_csv(
        Path::new("q.csv"),
        format!("{HEADER}\na.jpg,q,1,nq,direct\n").as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(e, "q.csv: row 1 (line 2): has 5 fields, the header has 6");
    let e = parse_csv(Path::new("q.csv"), b"").unwrap_err().to_string();
    assert!(e.starts_with("q.csv: empty file"), "{e}");
    let e = parse_csv(Path::new("q.csv"), b"img_path,query,answer\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("q.csv: missing columns `new query`, `new answer`, `type`"),
        "{e}"
    );
}

#[test]
fn merges_models_by_row() {
    let q = csv("q.csv", &questions());
    let m1 = csv(
        "llava_responses.csv",
        &format!(
            "{HEADER},response,new_response\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct,Two,One\n\
                 b.jpg,Is it day?,yes,Would it be day if the sun set?,no,boolean,,No\n"
        ),
    );
    let mut m2 = m1.clone();
    m2.path = "other.csv".into();
    let imp = merge(
        vec![q, m1, m2],
        &Options {
            models: vec!["gpt".into()],
            images: None,
        },
    )
    .unwrap();
    assert_eq!(imp.items.len(), 2);
    let it = &imp.items[1];
    assert_eq!(it.id, "real-00002");
    assert_eq!(it.group, "boolean");
    assert_eq!(it.image.as_deref(), Some("b.jpg"));
    assert_eq!(
        it.source,
        Source {
            file: "q.csv".into(),
            row: 2
        }
    );
    let models: Vec<_> = it.responses.iter().map(|r| r.model.as_str()).collect();
    assert_eq!(models, ["gpt", "other"]);
    assert_eq!(it.responses[0].original, "");
    assert_eq!(it.responses[0].counterfactual, "No");
    assert_eq!(imp.summary.splits["real"]["direct"], 1);
    assert_eq!(imp.summary.splits["real"]["boolean"], 1);
    assert_eq!(
        imp.summary.models.keys().collect::<Vec<_>>(),
        ["gpt", "other"]
    );
    let line = serde_json::to_string(&imp.items[0]).unwrap();
    assert_eq!(
        line,
        r#"{"id":"real-00001","benchmark":"cvqa","split":"real","group":"direct","image":"a.jpg","original":{"question":"How many cats?","answer":"2"},"counterfactual":{"question":"How many cats, if one left?","answer":"1"},"responses":[{"model":"gpt","original":"Two","counterfactual":"One"},{"model":"other","original":"Two","counterfactual":"One"}],"source":{"file":"q.csv","row":1}}"#
    );
}

#[test]
fn mismatches_name_both_files_and_the_row() {
    let q = csv("q.csv", &questions());
    let m = csv(
        "m.csv",
        &format!(
            "{HEADER},response,new_response\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct,x,y\n\
                 b.jpg,Is it night?,yes,Would it be day if the sun set?,no,boolean,x,y\n"
        ),
    );
    let e = merge(vec![q.clone(), m], &Options::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "row 2 differs in column `query`: q.csv (line 3) has `Is it day?` but m.csv (line 3) has `Is it night?`; all CSVs of a set must describe the same questions row by row"
    );
    let short = csv(
        "s.csv",
        &format!("{HEADER}\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct\n"),
    );
    let e = merge(vec![q, short], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("q.csv has 2 rows but s.csv has 1"), "{e}");
}

#[test]
fn sets_by_split_and_model_name_rules() {
    let q = csv("q.csv", &questions());
    let s = csv(
        "syn.csv",
        &format!(
            "{HEADER}\ns.png,How many? Select the correct answer:A:1  B:2  C:3  D:4,B,nq? Select the correct answer:A:1  B:2  C:3  D:4,C,abs_counting_3\n"
        ),
    );
    let imp = merge(vec![q.clone(), s], &Options::default()).unwrap();
    let ids: Vec<_> = imp.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["real-00001", "real-00002", "synthetic-00001"]);
    assert_eq!(imp.summary.splits["synthetic"]["abs_counting_3"], 1);

    // too many --model names
    let e = merge(
        vec![q.clone()],
        &Options {
            models: vec!["x".into()],
            images: None,
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("1 --model name given but only 0"), "{e}");

    // the same model twice in one set
    let out = format!(
        "{HEADER},response,new_response\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct,1,2\n\
             b.jpg,Is it day?,yes,Would it be day if the sun set?,no,boolean,yes,no\n"
    );
    let a = csv("dir1/m_responses.csv", &out);
    let b = csv("dir2/m.csv", &out);
    let e = merge(vec![q, a, b], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("model `m` is given twice"), "{e}");
}

/// The authors' result files hold both splits: each row joins the set of its type.
#[test]
fn a_file_mixing_splits_is_split_per_row() {
    let mixed = format!(
        "{HEADER},response,new_response\nb,sq1,A,nq,B,abs_counting_1,A,fail\n\
             a,q1,1,nq,2,direct,1,2\nb,sq2,C,nq,D,abs_counting_2,3,D\na,q2,yes,nq,no,boolean,yes,no\n"
    );
    let f = csv("C-VQA_m-1_results.csv", &mixed);
    assert_eq!(model_from_path(&f.path), "m-1");
    let imp = merge(vec![f.clone()], &Options::default()).unwrap();
    let got: Vec<(&str, &str, usize, &str)> = imp
        .items
        .iter()
        .map(|i| {
            (
                i.id.as_str(),
                i.original.question.as_str(),
                i.source.row,
                i.responses[0].original.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("synthetic-00001", "sq1", 1, "A"),
            ("synthetic-00002", "sq2", 3, "3"),
            ("real-00001", "q1", 2, "1"),
            ("real-00002", "q2", 4, "yes"),
        ]
    );
    assert_eq!(imp.summary.models["m-1"], ["synthetic", "real"]);
    // with the question files of both splits, row by row
    let real = csv(
        "real.csv",
        &format!("{HEADER}\na,q1,1,nq,2,direct\na,q2,yes,nq,no,boolean\n"),
    );
    let syn = csv(
        "syn.csv",
        &format!("{HEADER}\nb,sq1,A,nq,B,abs_counting_1\nb,sq2,C,nq,D,abs_counting_2\n"),
    );
    let imp = merge(vec![real.clone(), syn, f.clone()], &Options::default()).unwrap();
    let ids: Vec<_> = imp.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "real-00001",
            "real-00002",
            "synthetic-00001",
            "synthetic-00002"
        ]
    );
    assert_eq!(imp.items[1].responses[0].original, "yes");
    assert_eq!(imp.items[1].source.row, 2);
    assert_eq!(imp.items[3].responses[0].counterfactual, "D");
    // a mismatch names the split's row and both lines
    let other = csv(
        "real2.csv",
        &format!("{HEADER}\na,q1,1,nq,2,direct\na,q3,yes,nq,no,boolean\n"),
    );
    let e = merge(vec![other, f.clone()], &Options::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "real row 2 differs in column `query`: real2.csv (line 3) has `q3` but C-VQA_m-1_results.csv (line 5) has `q2`; all CSVs of a set must describe the same questions row by row"
    );
    let short = csv("one.csv", &format!("{HEADER}\na,q1,1,nq,2,direct\n"));
    let e = merge(vec![f, short], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("C-VQA_m-1_results.csv has 2 real rows but one.csv has 1:"),
        "{e}"
    );
}

#[test]
fn model_names_of_the_authors_files() {
    for (file, model) in [
        ("C-VQA_vipergpt_results.csv", "vipergpt"),
        ("C_VQA_LLaVA-7B-v0_results.csv", "LLaVA-7B-v0"),
        ("qwen_results.csv", "qwen"),
        ("llava_responses.csv", "llava"),
        ("_results.csv", "_results"),
        ("C-VQA_.csv", "C-VQA_"),
    ] {
        assert_eq!(model_from_path(Path::new(file)), model, "{file}");
    }
}
