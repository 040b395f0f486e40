//! `specdiff diff`'s filters (`--include`, `--exclude`, `--all`) and its inputs and outputs
//! (gzip dumps, `--output` files), on the demo pair.

mod common;

use common::diff_demo::*;

#[test]
fn filters_and_all() {
    let d = &demos()[0];
    let (b, h) = (p(&d.base), p(&d.head));
    let r = json_report(&["--function", "dot_*", b, h], 0);
    let names: Vec<&str> = r["functions"].as_array().unwrap().iter().map(|f| f["qualname"].as_str().unwrap()).collect();
    assert_eq!(names, ["dot_sum"]);
    let r = json_report(&["--function", "scale", "--function", "__main__:total_area", b, h], 0);
    assert_eq!(r["functions"].as_array().unwrap().len(), 2);
    let r = json_report(&["--module", "no_such_module*", b, h], 0);
    assert!(r["functions"].as_array().unwrap().is_empty());
    assert!(
        r["warnings"].as_array().unwrap().iter().any(|w| w["code"] == "no_match_for_filters"),
        "{:#}",
        r["warnings"]
    );
    let changed = json_report(&["--module", "__main__", b, h], 0)["functions"].as_array().unwrap().len();
    let all = json_report(&["--module", "__main__", "--all", b, h], 0);
    let listed = all["functions"].as_array().unwrap();
    assert!(listed.len() > changed, "--all lists unchanged functions too ({} vs {changed})", listed.len());
    assert!(listed.iter().any(|f| changes(f).iter().any(|c| c["kind"] == "unchanged")));
    let text = stdout(&diff(&["--module", "__main__", "--all", b, h]));
    assert!(text.contains("__main__:Point.__init__"), "{text}");
}

#[test]
fn gzip_inputs_and_output_files() {
    use std::io::Write;
    let d = &demos()[0];
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("base.json.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&std::fs::read(&d.base).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let plain = diff(&["--format", "json", p(&d.base), p(&d.head)]);
    let zipped = diff(&["--format", "json", p(&gz), p(&d.head)]);
    assert_eq!(zipped.status.code(), Some(0), "{}", stderr(&zipped));
    assert_eq!(plain.stdout, zipped.stdout);

    let out = dir.path().join("comment.md");
    let o = diff(&["--format", "markdown", "-o", p(&out), p(&d.base), p(&d.head)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(md.starts_with("## specdiff: "), "{md}");
    let o = diff(&["-o", "/nonexistent-dir/x.txt", p(&d.base), p(&d.head)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write /nonexistent-dir/x.txt"), "{}", stderr(&o));
}
