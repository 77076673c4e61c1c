//! tools.json dialect detection and normalisation: never panics on any JSON.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let doc = skilllint::model::tools::parse_tools(text);
    for tool in &doc.tools {
        let _ = tool.schema();
        let _ = tool.name();
        let _ = tool.property_names().count();
    }
});
