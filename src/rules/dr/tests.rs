use crate::diagnostic::Severity;
use crate::rules::phrasing::display_path;
use crate::semantic::bindings::candidate_paths;

/// Lints `files` with only `code` selected; (message, primary text, severity) per finding.
fn run(code: &str, files: &[(&str, &str)]) -> Vec<(String, String, Severity)> {
    crate::rule_testing::findings(code, files)
        .into_iter()
        .map(|(d, text)| (d.message, text, d.severity))
        .collect()
}

const TOOL: &str = "---
name: Create image
id: image-create
description: Generates an image.
version: 1.4.0
idempotent: true
timeout_ms: 60000
driver_constraints:
  forbid: [cli]
inputs:
  type: object
  required: [prompt, idempotency_key]
  properties:
    prompt: {type: string}
    seed: {type: integer}
    idempotency_key: {type: string}
outputs: {type: object}
mutates: []
---
";

fn driver(extra: &str) -> String {
    format!(
        "---
name: Images
id: images-http
description: Images over HTTP.
version: 1.0.0
kind: http
{extra}---
"
    )
}

#[test]
fn paths_resolve_from_root_and_driver_folder() {
    let bases = ["", ".drivers/x"];
    assert_eq!(
        candidate_paths(&bases, "./.tools/a/TOOL.md"),
        vec![".tools/a/TOOL.md", ".drivers/x/.tools/a/TOOL.md"]
    );
    // From the root it names a file above the lint root, which is in the run only when the
    // user named it so (`skilllint ../../.tools/a/TOOL.md .`).
    assert_eq!(
        candidate_paths(&bases, "../../.tools/a"),
        vec!["../../.tools/a/TOOL.md", ".tools/a/TOOL.md"]
    );
    assert!(candidate_paths(&bases, "https://example.com/TOOL.md").is_empty());
    assert_eq!(
        display_path("/implements/0/schema_narrowing"),
        "implements[0].schema_narrowing"
    );
}

#[test]
fn tool_resolves_by_id_path_or_folder() {
    for reference in [
        "image-create",
        ".tools/image-create/TOOL.md",
        "./.tools/image-create",
        "../../.tools/image-create/",
    ] {
        let entry = format!("implements:\n  - tool: {reference}\n    version: \"^1.0.0\"\n");
        let found = run(
            "DR003",
            &[
                (".tools/image-create/TOOL.md", TOOL),
                (".drivers/images-http/DRIVER.md", &driver(&entry)),
            ],
        );
        assert!(found.is_empty(), "{reference}: {found:?}");
    }
    let entry = "implements:\n  - tool: image-creat\n    version: \"^1.0.0\"\n";
    let found = run(
        "DR003",
        &[
            (".tools/image-create/TOOL.md", TOOL),
            (".drivers/images-http/DRIVER.md", &driver(entry)),
        ],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "image-creat");
}

#[test]
fn contract_checks_follow_the_binding() {
    let entry = "timeout_override_ms: 90000
implements:
  - tool: image-create
    version: \"^1.0.0\"
    schema_narrowing:
      drop_inputs: [prompt, idempotency_key, sede, seed]
    mapping:
      prompt: text
      size: {from: aspect_ratio}
      seed: seed
";
    let files = [
        (".tools/image-create/TOOL.md", TOOL),
        (".drivers/images-http/DRIVER.md", &driver(entry) as &str),
    ];
    // The idempotency key of the idempotent tool is DR007's, while DR007 runs.
    let dr006: Vec<(String, Severity)> =
        crate::rule_testing::findings_among(&["DR006", "DR007"], "DR006", &files)
            .into_iter()
            .map(|(d, text)| (text, d.severity))
            .collect();
    assert_eq!(
        dr006,
        [
            ("prompt".to_string(), Severity::Error),
            ("sede".to_string(), Severity::Warning)
        ]
    );
    // Alone, DR006 reports it as the required input it is.
    let alone: Vec<String> = run("DR006", &files).into_iter().map(|f| f.1).collect();
    assert_eq!(alone, ["prompt", "idempotency_key", "sede"]);
    let dr007 = run("DR007", &files);
    assert_eq!(dr007.len(), 1);
    assert_eq!(dr007[0].1, "idempotency_key");
    let dr008 = run("DR008", &files);
    assert_eq!(dr008.len(), 1);
    assert_eq!(dr008[0].1, "90000");
    let dr009 = run("DR009", &files);
    assert_eq!(dr009.len(), 1, "{dr009:?}");
    assert_eq!(dr009[0].1, "aspect_ratio");
    assert!(run("DR005", &files).is_empty());
}

#[test]
fn kind_constraints_and_version_ranges() {
    let cli = "---
name: Images CLI
id: images-cli
description: Images from a CLI.
version: 1.0.0
implements:
  - tool: image-create
    version: \"^2.0.0\"
---
";
    let files = [
        (".tools/image-create/TOOL.md", TOOL),
        (".cli/images/CLI.md", cli),
    ];
    let dr005 = run("DR005", &files);
    assert_eq!(dr005.len(), 1, "{dr005:?}");
    assert!(dr005[0].0.contains("forbids `cli`"));
    let dr004 = run("DR004", &files);
    assert_eq!(dr004.len(), 1);
    assert_eq!(dr004[0].1, "\"^2.0.0\"");
    // A CLI.md without `kind` is `kind: cli`, so the driver schema accepts it.
    assert!(run("DR002", &files).is_empty());
}

#[test]
fn schema_errors_land_on_their_keys() {
    let text = "---
name: Images
id: Images_HTTP
version: 1.0.0
kind: rest
implements:
  - tool: image-create
    timeout_ms: 5
---
";
    let found = run("DR002", &[(".drivers/images/DRIVER.md", text)]);
    let spans: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(
        spans,
        vec!["---", "id", "kind", "tool", "timeout_ms"],
        "{found:?}"
    );
    assert!(found[0].0.contains("lacks required `description`"));
    assert!(found[3]
        .0
        .contains("`implements[0]` lacks required `version`"));
    assert!(found[4]
        .0
        .contains("unknown key `timeout_ms` in `implements[0]`"));
}

#[test]
fn builtin_and_secrets() {
    let builtin = "---
name: Host images
id: host-images
description: Native.
version: 1.0.0
kind: builtin
install: []
network: {egress: [api.example.com]}
auth: {ref: openai-key}
implements:
  - tool: image-create
    version: \"^1\"
---
";
    let secrets = "---
secrets:
  - slug: openai-api-key
    name: OpenAI
    description: Key.
---
";
    let files = [
        (".tools/image-create/DRIVER.md", builtin),
        (".tools/image-create/TOOL.md", TOOL),
        ("SECRETS.md", secrets),
    ];
    let dr010 = run("DR010", &files);
    let spans: Vec<&str> = dr010.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(spans, vec!["egress", "auth"]);
    let dr011 = run("DR011", &files);
    assert_eq!(dr011.len(), 1);
    assert_eq!(dr011[0].1, "openai-key");
    for ok in ["openai-api-key", "../../SECRETS.md", "SECRETS.md", "./"] {
        let text = builtin.replace("openai-key", ok);
        let files = [
            (".tools/image-create/DRIVER.md", text.as_str()),
            ("SECRETS.md", secrets),
        ];
        assert!(run("DR011", &files).is_empty(), "{ok}");
    }
}
