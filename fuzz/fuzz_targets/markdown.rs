//! Markdown sections, blocks, links and comments: never panics; spans stay inside the text; the
//! line-based pass, when it takes a text, builds exactly what pulldown-cmark's events build.
#![no_main]
use libfuzzer_sys::fuzz_target;
use skilllint::parse::markdown::{parse_markdown, parse_markdown_with_pulldown};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let md = parse_markdown(text, 0);
    for block in &md.blocks {
        assert!(block.span.end <= text.len());
    }
    if let Some(section) = md.section("Tool Use Rules") {
        let _ = md.blocks_in(section.content).count();
    }
    assert_eq!(md, parse_markdown_with_pulldown(text, 0), "{text:?}");
});
