use super::*;

fn names(lang: Lang, text: &str) -> Vec<String> {
    parse_code(lang, text)
        .registrations
        .iter()
        .filter_map(|r| {
            r.entry
                .get("name")
                .and_then(Node::as_str)
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn typescript_register_tool_is_read() {
    let text = r#"import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
server.registerTool("read_file", { description: "Reads " + "a file", inputSchema: { path: z.string() } }, async () => ({}));
"#;
    assert_eq!(names(Lang::TypeScript, text), ["read_file"]);
}
