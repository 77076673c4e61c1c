//! Policy loading: any text as a policy file is loaded or refused with an error pointing into
//! it, never a panic; a loaded set runs its inline tests (`skilllint policy test`) and renders
//! its rules (`rules`, `rules --format markdown`, `rule CODE`) without panicking either.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match skilllint::policy::load_text(Path::new("org.yaml"), text) {
        Ok(set) => {
            let _ = skilllint::policy::testing::run(&set);
            let catalog = set.catalog();
            let _ = skilllint::render::rules_table(catalog);
            let _ = skilllint::render::rules_markdown(catalog);
            for rule in &set.rules {
                if let Some(meta) = catalog.get(rule.code) {
                    let _ = skilllint::render::rule_explanation(meta);
                }
            }
        }
        Err(error) => {
            let _ = skilllint::render::full::policy_error(&error, false);
        }
    }
});
