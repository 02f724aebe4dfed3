use super::*;

#[test]
fn relative_paths() {
    let r = |t: &str, b: &str| relative_path(Path::new(t), Path::new(b)).map(|p| path_string(&p));
    assert_eq!(r("/a/b/img", "/a/b").as_deref(), Some("img"));
    assert_eq!(r("/a/img", "/a/b/c").as_deref(), Some("../../img"));
    assert_eq!(r("/a/b", "/a/b").as_deref(), Some("."));
    assert_eq!(r("/x/y", "/a"), None);
    assert_eq!(r("/x/y", "/").as_deref(), Some("x/y"));
}

#[test]
fn image_paths_are_relative_to_the_output() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("imgs/sub")).unwrap();
    std::fs::create_dir_all(d.path().join("out")).unwrap();
    let ip = ImagePaths::new(&d.path().join("imgs"), &d.path().join("out/r.jsonl")).unwrap();
    assert_eq!(ip.item_path("a.png"), "../imgs/a.png");
    let ip = ImagePaths::new(&d.path().join("out"), &d.path().join("out/r.jsonl")).unwrap();
    assert_eq!(ip.item_path("a.png"), "a.png");
}

#[test]
fn write_refuses_to_clobber() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("o.jsonl");
    write_jsonl(&p, ["{}", "{\"a\":1}"], false, &Default::default()).unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "{}\n{\"a\":1}\n");
    assert!(matches!(
        write_jsonl(&p, ["{}"], false, &Default::default()),
        Err(ImportError::Exists { .. })
    ));
    write_jsonl(&p, ["{\"b\":2}"], true, &Default::default()).unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "{\"b\":2}\n");
    // no temporary files left behind
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
}

#[test]
fn quote_escapes_controls() {
    assert_eq!(quote("a\x1b[31mb\u{85}`"), "`a␛[31mb\\u{85}\\``");
    assert_eq!(quote(&"x".repeat(100)).chars().count(), 83);
}

#[test]
fn tables_skip_blank_rows_and_count_lines() {
    let t = Table::parse(
        Path::new("t.csv"),
        b"\xEF\xBB\xBFChart ID,Answer\r\nG1_Q1_1,\"a\r\nb\"\r\n,\r\nG1_Q1_2,3\r\n",
        &["chart id", "answer"],
    )
    .unwrap();
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.get(&t.rows[0], "answer"), "a\r\nb");
    assert_eq!((t.rows[1].row, t.rows[1].line), (3, 5));
    assert_eq!(
        t.err(&t.rows[1], "answer", "bad").to_string(),
        "t.csv: row 3 (line 5), column `Answer`: bad"
    );
    let e = Table::parse(Path::new("t.csv"), b"a,b\n", &["chart id"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.csv: missing column `chart id` (found: `a`, `b`)"
    );
}

#[test]
fn columns_are_normalized() {
    assert_eq!(norm_column(" New_Query "), "new query");
    assert_eq!(norm_column("chart  ID"), "chart id");
}
