//! Markdown sections, blocks, links and comments: never panics; spans stay inside the text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let md = skilllint::parse::markdown::parse_markdown(text, 0);
    for block in &md.blocks {
        assert!(block.span.end <= text.len());
    }
    if let Some(section) = md.section("Tool Use Rules") {
        let _ = md.blocks_in(section.content).count();
    }
});
