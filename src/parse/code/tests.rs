use super::*;

const SDK: &str = "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n";

fn one(lang: Lang, text: &str) -> Registration {
    let doc = parse_code(lang, text, &Context::default());
    assert_eq!(doc.registrations.len(), 1, "{doc:#?}");
    doc.registrations
        .into_iter()
        .next()
        .unwrap_or_else(|| unreachable!())
}

fn json(node: Option<&Node>) -> String {
    node.map(|n| n.to_json().to_string()).unwrap_or_default()
}

fn names(lang: Lang, text: &str) -> Vec<String> {
    parse_code(lang, text, &Context::default())
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
fn files_are_told_apart_by_extension() {
    assert_eq!(Lang::of_file_name("index.ts"), Some(Lang::TypeScript));
    assert_eq!(Lang::of_file_name("index.d.ts"), None);
    assert_eq!(Lang::of_file_name("app.tsx"), Some(Lang::Tsx));
    assert_eq!(Lang::of_file_name("server.mjs"), Some(Lang::JavaScript));
    assert_eq!(Lang::of_file_name("server.py"), Some(Lang::Python));
    assert_eq!(Lang::of_file_name("Makefile"), None);
}

#[test]
fn only_files_naming_an_sdk_and_a_registration_are_parsed() {
    assert!(may_register_tools(
        Lang::TypeScript,
        &format!("{SDK}server.registerTool(\"x\", {{}}, f)")
    ));
    assert!(!may_register_tools(
        Lang::TypeScript,
        "server.registerTool(\"x\", {}, f)"
    ));
    assert!(!may_register_tools(Lang::TypeScript, SDK));
    assert!(may_register_tools(
        Lang::Python,
        "from mcp.server.fastmcp import FastMCP\n@mcp.tool()\ndef f(): ..."
    ));
    assert!(!may_register_tools(Lang::Python, "import os\n"));
}

#[test]
fn a_zod_shape_becomes_the_closed_object_schema_the_sdk_sends() {
    let text = format!(
        "{SDK}const LIMIT = 5;\nserver.registerTool(\"find\", {{\n  description: 'Finds ' + \"things\",\n  inputSchema: {{\n    q: z.string().min(1).max(200).describe(\"Query\"),\n    limit: z.number().int().max(LIMIT).default(3),\n    kind: z.enum([\"a\", \"b\"]).optional(),\n    at: z.string().nullable(),\n  }},\n  annotations: {{ readOnlyHint: true }},\n}}, async () => ({{}}));\n"
    );
    let r = one(Lang::TypeScript, &text);
    assert_eq!(json(r.entry.get("description")), "\"Finds things\"");
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"additionalProperties":false,"properties":{"at":{"type":["string","null"]},"kind":{"enum":["a","b"],"type":"string"},"limit":{"default":3,"maximum":5,"type":"integer"},"q":{"description":"Query","maxLength":200,"minLength":1,"type":"string"}},"required":["q","at"],"type":"object"}"#
    );
    assert_eq!(json(r.entry.get("annotations")), r#"{"readOnlyHint":true}"#);
    // Every span is in the file: the name's on its literal, a property's on its key.
    let name = r.entry.get("name").map(|n| n.span).unwrap_or_default();
    assert_eq!(&text[name.start..name.end], "\"find\"");
    let property = r
        .entry
        .get("inputSchema")
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.member("limit"))
        .map(|m| m.key_span)
        .unwrap_or_default();
    assert_eq!(&text[property.start..property.end], "limit");
}

#[test]
fn server_tool_takes_its_arguments_by_position() {
    let text = format!(
        "{SDK}server.tool(\"ping\", \"Pings.\", {{ host: z.string() }}, {{ readOnlyHint: true }}, async () => ({{}}));\nserver.tool(\"noop\", async () => ({{}}));\n"
    );
    let doc = parse_code(Lang::TypeScript, &text, &Context::default());
    let entries: Vec<String> = doc
        .registrations
        .iter()
        .map(|r| json(Some(&r.entry)))
        .collect();
    assert_eq!(entries.len(), 2);
    assert!(
        entries[0].contains(r#""annotations":{"readOnlyHint":true}"#),
        "{}",
        entries[0]
    );
    assert!(
        entries[0].contains(r#""description":"Pings.""#),
        "{}",
        entries[0]
    );
    // Without a shape the SDK lists an empty object schema.
    assert!(
        entries[1].contains(r#""inputSchema":{"properties":{},"type":"object"}"#),
        "{}",
        entries[1]
    );
}

#[test]
fn what_cannot_be_read_is_recorded_not_guessed() {
    let text = format!(
        "{SDK}import {{ Args }} from \"./args.js\";\nserver.registerTool(\"a\", {{ description: makeText(), inputSchema: Args }}, f);\nserver.registerTool(name(), {{}}, f);\n"
    );
    let doc = parse_code(Lang::TypeScript, &text, &Context::default());
    assert_eq!(doc.unresolved.len(), 1);
    assert_eq!(doc.unresolved[0].part, "name");
    let r = &doc.registrations[0];
    let parts: Vec<&str> = r.unresolved.iter().map(|u| u.part).collect();
    assert_eq!(parts, ["description", "inputSchema"]);
    assert!(r.entry.get("description").is_none());
    assert!(r.entry.get("inputSchema").is_none());
    assert!(
        r.unresolved[1].why.contains("imported from another module"),
        "{:?}",
        r.unresolved
    );
}

#[test]
fn look_alike_calls_are_no_registrations() {
    let text = format!(
        "{SDK}toolbox.tool(\"x\");\nprogram.command(\"rm\").action(f);\napp.post(\"/tool\", f);\nz.tool(1, 2);\n"
    );
    assert!(names(Lang::TypeScript, &text).is_empty());
}

#[test]
fn the_handler_calls_are_kept_with_imports_resolved() {
    let text = format!(
        "{SDK}import {{ exec }} from \"node:child_process\";\nimport fs from \"fs/promises\";\nasync function wipe(p) {{ await fs.rm(p); }}\nserver.tool(\"t\", async ({{ cmd }}) => {{ exec(cmd); await wipe(\"x\"); await fetch(u, {{ method: \"delete\" }}); }});\n"
    );
    let r = one(Lang::TypeScript, &text);
    let calls: Vec<(String, Option<String>)> = r
        .handler
        .iter()
        .map(|c| (c.callee.clone(), c.method.clone()))
        .collect();
    assert!(
        calls.contains(&("child_process.exec".into(), None)),
        "{calls:?}"
    );
    assert!(
        calls.contains(&("fetch".into(), Some("DELETE".into()))),
        "{calls:?}"
    );
    // A function of the file the handler calls is followed.
    assert!(
        calls.contains(&("fs/promises.rm".into(), None)),
        "{calls:?}"
    );
}

#[test]
fn fastmcp_reads_the_signature_and_the_docstring() {
    let text = "from typing import Annotated, Optional\nfrom mcp.server.fastmcp import FastMCP, Context\nfrom pydantic import Field\nmcp = FastMCP('x')\n\n@mcp.tool(title=\"Search\")\nasync def search(ctx: Context, q: Annotated[str, Field(description=\"Query\", max_length=80)], limit: int = 10, tag: Optional[str] = None) -> list:\n    \"\"\"Searches the index.\"\"\"\n    return []\n";
    let r = one(Lang::Python, text);
    assert_eq!(json(r.entry.get("name")), "\"search\"");
    assert_eq!(json(r.entry.get("description")), "\"Searches the index.\"");
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"properties":{"limit":{"default":10,"type":"integer"},"q":{"description":"Query","maxLength":80,"type":"string"},"tag":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null}},"required":["q"],"type":"object"}"#
    );
}

#[test]
fn the_low_level_tool_reads_literals_and_same_file_models() {
    let text = "from mcp.types import Tool\nfrom pydantic import BaseModel\nclass Args(BaseModel):\n    path: str\n    depth: int = 2\nNAME = 'walk'\nTOOLS = [Tool(name=NAME, description='Walks.', inputSchema=Args.model_json_schema()), Tool(name='x', description=f'Uses {y}.', inputSchema={'type': 'object', 'properties': {}})]\n";
    let doc = parse_code(Lang::Python, text, &Context::default());
    assert_eq!(doc.registrations.len(), 2);
    assert_eq!(
        json(doc.registrations[0].entry.get("inputSchema")),
        r#"{"properties":{"depth":{"default":2,"type":"integer"},"path":{"type":"string"}},"required":["path"],"type":"object"}"#
    );
    assert!(doc.registrations[0].built_schema);
    assert!(!doc.registrations[1].built_schema);
    // An f-string description keeps its substitutions as written.
    assert_eq!(
        json(doc.registrations[1].entry.get("description")),
        "\"Uses {y}.\""
    );
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 5000;
    let nested = format!(
        "{}z.string(){}",
        "z.array(".repeat(depth),
        ")".repeat(depth)
    );
    let text = format!("{SDK}server.tool(\"deep\", {{ a: {nested} }}, f);\n");
    let doc = parse_code(Lang::TypeScript, &text, &Context::default());
    assert_eq!(doc.registrations.len(), 1);
    assert_eq!(doc.registrations[0].unresolved[0].part, "inputSchema");
    let python = format!(
        "from mcp import x\n@mcp.tool()\ndef f(a: {}str{}): ...\n",
        "list[".repeat(depth),
        "]".repeat(depth)
    );
    let doc = parse_code(Lang::Python, &python, &Context::default());
    assert_eq!(doc.registrations.len(), 1);
}

#[test]
fn the_low_level_list_tools_handler_returns_tool_objects() {
    let text = "import { Server } from \"@modelcontextprotocol/sdk/server/index.js\";\nimport { ListToolsRequestSchema } from \"@modelcontextprotocol/sdk/types.js\";\nimport { zodToJsonSchema } from \"zod-to-json-schema\";\nconst WriteArgs = z.object({ path: z.string() });\nconst READ_TOOL = { name: \"read\", description: \"Reads.\", inputSchema: { type: \"object\", properties: {} }, annotations: { readOnlyHint: true } };\nconst NOT_A_TOOL = { name: \"x\" };\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({\n  tools: [READ_TOOL, { name: \"write\", description: `Writes.`, inputSchema: zodToJsonSchema(WriteArgs) }, { name: dynamicName(), inputSchema: {} }],\n}));\nserver.setRequestHandler(CallToolRequestSchema, async () => ({ tools: [{ name: \"no\", inputSchema: {} }] }));\n";
    let doc = parse_code(Lang::TypeScript, text, &Context::default());
    let entries: Vec<String> = doc
        .registrations
        .iter()
        .map(|r| json(Some(&r.entry)))
        .collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert!(
        entries[0].contains(r#""name":"read""#) && entries[0].contains(r#""readOnlyHint":true"#),
        "{}",
        entries[0]
    );
    assert!(!doc.registrations[0].built_schema);
    assert!(entries[1].contains(r#""inputSchema":{"additionalProperties":false,"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}"#), "{}", entries[1]);
    assert_eq!(doc.unresolved.len(), 1);
}

const MCP_GO: &str =
    "package main\n\nimport (\n\t\"os/exec\"\n\n\t\"github.com/mark3labs/mcp-go/mcp\"\n)\n\n";

#[test]
fn go_files_are_read_and_prefiltered() {
    assert_eq!(Lang::of_file_name("main.go"), Some(Lang::Go));
    assert_eq!(Lang::of_file_name("main_test.go"), None);
    assert!(may_register_tools(Lang::Go, "mcp.NewTool(\"x\")"));
    assert!(may_register_tools(Lang::Go, "&mcp.Tool{Name: \"x\"}"));
    assert!(!may_register_tools(
        Lang::Go,
        "package main\nfunc main() {}\n"
    ));
}

#[test]
fn mcp_go_options_become_the_schema_and_hints_the_sdk_sends() {
    let text = format!(
        "{MCP_GO}func tools() {{\n\ts.AddTool(mcp.NewTool(\"run\",\n\t\tmcp.WithDescription(\"Runs \" + \"it\"),\n\t\tmcp.WithString(\"cmd\", mcp.Required(), mcp.Description(\"Command\"), mcp.Enum(\"a\", \"b\")),\n\t\tmcp.WithNumber(\"timeout\", mcp.Min(1), mcp.Max(60)),\n\t\tmcp.WithIdempotentHintAnnotation(true),\n\t), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {{\n\t\texec.Command(r.GetString(\"cmd\", \"\")).Run()\n\t\treturn nil, nil\n\t}})\n}}\n"
    );
    let r = one(Lang::Go, &text);
    assert_eq!(r.form, "mcp.NewTool");
    assert_eq!(json(r.entry.get("description")), "\"Runs it\"");
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"properties":{"cmd":{"description":"Command","enum":["a","b"],"type":"string"},"timeout":{"maximum":60,"minimum":1,"type":"number"}},"required":["cmd"],"type":"object"}"#
    );
    // NewTool's defaults, one overridden.
    assert_eq!(
        json(r.entry.get("annotations")),
        r#"{"destructiveHint":true,"idempotentHint":true,"openWorldHint":true,"readOnlyHint":false}"#
    );
    assert_eq!(r.handler.len(), 1, "{:?}", r.handler);
    assert!(r
        .handler
        .iter()
        .any(|c| c.callee == "os/exec.Command" && !c.literal_argument));
    // A replaced annotation struct carries only what it says.
    let replaced = format!(
        "{MCP_GO}var t = mcp.NewTool(\"ls\", mcp.WithToolAnnotation(mcp.ToolAnnotation{{ReadOnlyHint: mcp.ToBoolPtr(true), Title: \"List\"}}))\n"
    );
    let r = one(Lang::Go, &replaced);
    assert_eq!(
        json(r.entry.get("annotations")),
        r#"{"readOnlyHint":true,"title":"List"}"#
    );
}

#[test]
fn go_sdk_literals_and_input_structs_are_read() {
    let text = "package main\n\nimport \"github.com/modelcontextprotocol/go-sdk/mcp\"\n\ntype In struct {\n\tPath string `json:\"path\" jsonschema:\"the file\"`\n\tLimit int `json:\"limit,omitempty\"`\n\tskip bool\n}\n\nfunc get(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) { return nil, nil, nil }\n\nfunc main() {\n\tmcp.AddTool(server, &mcp.Tool{Name: \"get\", Description: t(\"TOOL_GET\", \"Gets a file\"), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, get)\n\tserver.AddTool(&mcp.Tool{Name: \"put\", Description: \"Puts\", InputSchema: &jsonschema.Schema{Type: \"object\", Properties: map[string]*jsonschema.Schema{\"body\": {Type: \"string\", MaxLength: jsonschema.Ptr(10)}}, Required: []string{\"body\"}}}, put)\n}\n";
    let doc = parse_code(Lang::Go, text, &Context::default());
    assert_eq!(doc.registrations.len(), 2, "{doc:#?}");
    let get = &doc.registrations[0];
    assert_eq!(json(get.entry.get("description")), "\"Gets a file\"");
    assert_eq!(
        json(get.entry.get("inputSchema")),
        r#"{"properties":{"limit":{"type":"integer"},"path":{"description":"the file","type":"string"}},"required":["path"],"type":"object"}"#
    );
    // The go-sdk writes its plain `bool` hints always.
    assert_eq!(
        json(get.entry.get("annotations")),
        r#"{"idempotentHint":false,"readOnlyHint":true}"#
    );
    let put = &doc.registrations[1];
    assert_eq!(
        json(put.entry.get("inputSchema")),
        r#"{"properties":{"body":{"maxLength":10,"type":"string"}},"required":["body"],"type":"object"}"#
    );
    assert!(!put.built_schema);
}

#[test]
fn go_look_alikes_are_no_registrations() {
    let text = "package main\n\nimport \"example.com/registry\"\n\nvar a = registry.NewTool(\"x\")\nvar b = registry.Tool{Name: \"lint\", Version: \"1\"}\nvar c = NewTool(group, mcp.Tool{Name: name, Description: \"d\"})\n";
    let doc = parse_code(Lang::Go, text, &Context::default());
    assert!(doc.registrations.is_empty(), "{doc:#?}");
    // The tool whose name is a run-time value is counted, not guessed.
    assert_eq!(doc.unresolved.len(), 1, "{doc:#?}");
}

#[test]
fn go_pointer_helpers_give_what_they_point_to() {
    let text = "package main\n\nimport \"github.com/example/mcp\"\n\nvar t = mcp.Tool{Name: \"logs\", Description: utils.Ptr(\"Reads \" + \"logs\"), InputSchema: nil}\n";
    let r = one(Lang::Go, text);
    assert_eq!(json(r.entry.get("description")), "\"Reads logs\"");
}

#[test]
fn python_functions_registered_by_a_call_are_read() {
    let text = "from fastmcp import FastMCP\nfrom store import purge\n\ndef drop(key: str) -> str:\n    \"\"\"Drops a key.\"\"\"\n    return key\n\nclass S(FastMCP):\n    def find(self, q: str) -> list:\n        \"\"\"Finds.\"\"\"\n        return []\n\n    def setup(self):\n        def keep(text: str, ttl: int = 5) -> str:\n            \"\"\"Keeps text.\"\"\"\n            return text\n        wrapped = keep\n        wrapped = limit(wrapped)\n        self.tool(keep, name=\"kv_keep\", description=\"Keeps \" + \"it.\")\n        self.add_tool(self.find, \"kv_find\")\n        self.tool(name=\"kv_drop\")(drop)\n        self.tool(wrapped, name=\"kv_wrapped\")\n        self.add_tool(purge)\n        self.tool(\"not_a_function\")\n";
    let doc = parse_code(Lang::Python, text, &Context::default());
    let read: Vec<(String, String, String)> = doc
        .registrations
        .iter()
        .map(|r| {
            (
                json(r.entry.get("name")),
                json(r.entry.get("description")),
                json(r.entry.get("inputSchema")),
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            (
                "\"kv_keep\"".into(),
                "\"Keeps it.\"".into(),
                r#"{"properties":{"text":{"type":"string"},"ttl":{"default":5,"type":"integer"}},"required":["text"],"type":"object"}"#.into()
            ),
            (
                "\"kv_find\"".into(),
                "\"Finds.\"".into(),
                r#"{"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"}"#.into()
            ),
            (
                "\"kv_drop\"".into(),
                "\"Drops a key.\"".into(),
                r#"{"properties":{"key":{"type":"string"}},"required":["key"],"type":"object"}"#.into()
            ),
            // Wrapped before it is registered: the name is read, the rest is not guessed.
            ("\"kv_wrapped\"".into(), String::new(), String::new()),
        ],
        "{doc:#?}"
    );
    let wrapped: Vec<&str> = doc.registrations[3]
        .unresolved
        .iter()
        .map(|u| u.part)
        .collect();
    assert_eq!(wrapped, ["description", "inputSchema"]);
    assert!(doc.registrations[3].unresolved[0]
        .why
        .contains("bound more than once"));
    // An imported function without a given name is a registration not read.
    assert_eq!(doc.unresolved.len(), 1, "{doc:#?}");
    assert!(doc.unresolved[0].why.contains("`purge` is imported"));
    // Without a server SDK imported, `add_tool` is another library's.
    let other =
        "from toolbox import Box\nbox = Box()\ndef f(x: int): ...\nbox.add_tool(f, name=\"f\")\n";
    assert_eq!(
        parse_code(Lang::Python, other, &Context::default()),
        CodeDoc::default()
    );
    assert!(may_register_tools(
        Lang::Python,
        "from mcp.server.fastmcp import FastMCP\nmcp.add_tool(f)\n"
    ));
}

#[test]
fn typescript_tool_configs_built_from_spreads_are_read() {
    let text = "import { tool } from '@acme/mcp-utils';\nimport { injectableTool } from './util.js';\nimport { z } from 'zod';\nconst defs = {\n  list_rows: { description: 'Lists rows.', parameters: z.object({ table: z.string() }), annotations: { readOnlyHint: true } },\n  drop_table: { description: 'Drops a table.', parameters: z.object({ table: z.string() }) },\n} as const;\nexport function tools(db) {\n  return {\n    list_rows: tool({ ...defs.list_rows, async execute({ table }) { return db.rows(table); } }),\n    drop_table: injectableTool({ ...defs.drop_table, description: 'Drops a table for good.', execute: async ({ table }) => db.drop(table) }),\n  };\n}\nimport { helperTool } from './h.js';\nconst loop = { ...loop };\nconst x = helperTool({ ...loop, execute: () => 1 });\n";
    let doc = parse_code(Lang::TypeScript, text, &Context::default());
    let read: Vec<String> = doc
        .registrations
        .iter()
        .map(|r| json(Some(&r.entry)))
        .collect();
    assert_eq!(read.len(), 2, "{doc:#?}");
    assert!(
        read[0].contains(r#""name":"list_rows""#)
            && read[0].contains(r#""description":"Lists rows.""#)
            && read[0].contains(r#""readOnlyHint":true"#),
        "{}",
        read[0]
    );
    // A member written after the spread wins.
    assert!(
        read[1].contains(r#""description":"Drops a table for good.""#)
            && read[1].contains(r#""required":["table"]"#),
        "{}",
        read[1]
    );
}

#[test]
fn typescript_tool_arrays_are_read_where_the_file_lists_them() {
    let text = "import type { Tool } from '@modelcontextprotocol/sdk/types.js';\nconst shared = { type: 'object', properties: {} };\nexport function definitions() {\n  return [\n    { name: 'page_open', description: 'Opens a page.', inputSchema: shared },\n    { name: 'page_close', description: 'Closes it.', inputSchema: shared },\n  ] as const satisfies Tool[];\n}\nconst EXTRA = [{ name: 'extra_ping', inputSchema: shared }];\nconst server = { tools: EXTRA };\nconst HANDED = [{ name: 'handed_off', inputSchema: shared }];\nregisterAll(HANDED);\nconst one: Tool = { name: 'typed_one', inputSchema: shared };\nimport { ToolSchema } from '@modelcontextprotocol/sdk/types.js';\nexport const Parsed = ToolSchema.parse({ name: 'parsed_one', inputSchema: shared });\nconst notSdk = Other.parse({ name: 'other_one', inputSchema: shared });\n";
    let doc = parse_code(Lang::TypeScript, text, &Context::default());
    let found: Vec<String> = doc
        .registrations
        .iter()
        .map(|r| json(r.entry.get("name")))
        .collect();
    assert_eq!(
        found,
        [
            "\"page_open\"",
            "\"page_close\"",
            "\"extra_ping\"",
            "\"typed_one\"",
            "\"parsed_one\""
        ],
        "{doc:#?}"
    );
    assert_eq!(doc.unresolved.len(), 2, "{doc:#?}");
    assert!(doc.unresolved[0]
        .why
        .contains("`handed_off` is handed to code of another file"));
    assert!(doc.unresolved[1].why.contains("`other_one`"));
    // A ListTools handler returning a constant array reads the array's tools, once.
    let handler = "import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nconst A = { name: 'a', inputSchema: {} };\nconst TOOLS = [A, ...[{ name: 'b', inputSchema: {} }]];\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));\n";
    assert_eq!(names(Lang::TypeScript, handler), ["a", "b"]);
    assert!(parse_code(Lang::TypeScript, handler, &Context::default())
        .unresolved
        .is_empty());
}

#[test]
fn a_go_handler_of_another_package_is_not_read_for_a_method_of_the_file() {
    let text = format!(
        "{MCP_GO}import \"example.com/srv/pkg/tools\"\n\ntype S struct{{}}\n\nfunc (s *S) Exec(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {{\n\texec.Command(\"sh\", \"-c\", r.GetString(\"c\", \"\")).Run()\n\treturn nil, nil\n}}\n\nfunc (s *S) register() {{\n\ts.srv.AddTool(mcp.NewTool(\"pod_exec\", mcp.WithDescription(\"Runs in a pod.\")), tools.Exec)\n\ts.srv.AddTool(mcp.NewTool(\"local_exec\"), s.Exec)\n}}\n"
    );
    let doc = parse_code(Lang::Go, &text, &Context::default());
    assert_eq!(doc.registrations.len(), 2, "{doc:#?}");
    let pod = &doc.registrations[0];
    assert!(pod.handler.is_empty(), "{:?}", pod.handler);
    assert_eq!(pod.unresolved.len(), 1, "{:?}", pod.unresolved);
    assert_eq!(pod.unresolved[0].part, "handler");
    assert!(pod.unresolved[0]
        .why
        .contains("a function of the package `example.com/srv/pkg/tools`"));
    // The file's own method is still followed.
    assert!(doc.registrations[1]
        .handler
        .iter()
        .any(|c| c.callee == "os/exec.Command"));
}

/// A project's wrapper (`MustTool(name, description, handler, options...)`, calling another that
/// fills a `mcp.Tool{}` and applies the options), declared in one file and called in another.
const GO_WRAPPER: &str = "package dash\n\nimport \"github.com/mark3labs/mcp-go/mcp\"\n\nfunc MustTool[T any](name, description string, handler Handler[T], options ...mcp.ToolOption) Tool {\n\tt, h := build(name, description, handler, options...)\n\treturn Tool{t, h}\n}\n\nfunc build[T any](name, description string, handler Handler[T], options ...mcp.ToolOption) (mcp.Tool, any) {\n\tzero := mcp.Tool{}\n\t_ = zero\n\tt := mcp.Tool{Name: name, Description: description}\n\tfor _, o := range options {\n\t\to(&t)\n\t}\n\treturn t, nil\n}\n";

#[test]
fn go_wrappers_are_found_where_they_are_declared() {
    let wrappers = wrappers_of(Lang::Go, GO_WRAPPER);
    let found: Vec<(&str, WrapperRoles)> = wrappers
        .iter()
        .map(|w| (w.function.as_str(), w.roles.clone()))
        .collect();
    let at = |position| WrapperArg {
        position,
        field: None,
    };
    let roles = WrapperRoles {
        name: at(0),
        description: Some(at(1)),
        handler: Some(2),
        options: Some(3),
        sdk_hints: false,
        own_schema: false,
        own_hints: false,
    };
    assert_eq!(found, vec![("MustTool", roles.clone()), ("build", roles)]);
    assert!(wrappers.iter().all(|w| w.package == "dash" && !w.method));
    // The wrapper's own literals are its template: no tool, nothing unread.
    let doc = parse_code(Lang::Go, GO_WRAPPER, &Context::default());
    assert_eq!(doc, CodeDoc::default());
    // A function that builds a tool from a constant is no wrapper.
    let plain = "package p\n\nimport \"github.com/mark3labs/mcp-go/mcp\"\n\nfunc tool(description string) mcp.Tool {\n\treturn mcp.NewTool(\"fixed\", mcp.WithDescription(description))\n}\n";
    assert!(wrappers_of(Lang::Go, plain).is_empty());
}

#[test]
fn go_wrapper_calls_are_registrations() {
    let context = Context {
        wrappers: wrappers_of(Lang::Go, GO_WRAPPER),
        ..Context::default()
    };
    let text = "package tools\n\nimport (\n\t\"os\"\n\t\"github.com/mark3labs/mcp-go/mcp\"\n\tdash \"example.com/dash\"\n)\n\ntype In struct {\n\tFolder string `json:\"folder\" jsonschema:\"required,description=A folder\\\\, as a path\"`\n\tTags []string `json:\"tags,omitempty\" jsonschema:\"enum=a,enum=b\"`\n\tLimit int `json:\"limit\"`\n}\n\nfunc purge(ctx context.Context, in In) (string, error) {\n\treturn \"\", os.RemoveAll(in.Folder)\n}\n\nvar Purge = dash.MustTool(\"purge\", \"Purges \" + \"a folder.\", purge, mcp.WithReadOnlyHintAnnotation(true))\nvar Other = other.MustTool(\"not_ours\", \"d\", purge)\n";
    let doc = parse_code(Lang::Go, text, &context);
    assert_eq!(doc.registrations.len(), 1, "{doc:#?}");
    let r = &doc.registrations[0];
    assert_eq!(r.form, "tool wrapper");
    assert_eq!(json(r.entry.get("name")), "\"purge\"");
    assert_eq!(json(r.entry.get("description")), "\"Purges a folder.\"");
    // Only the hint the options set: the wrapper's `mcp.Tool{}` starts with none.
    assert_eq!(json(r.entry.get("annotations")), r#"{"readOnlyHint":true}"#);
    // invopop/jsonschema tags: required exactly where tagged, escaped commas, enums, items.
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"properties":{"folder":{"description":"A folder, as a path","type":"string"},"limit":{"type":"integer"},"tags":{"enum":["a","b"],"items":{"type":"string"},"type":"array"}},"required":["folder"],"type":"object"}"#
    );
    assert_eq!(r.handler.len(), 1, "{r:#?}");
    assert_eq!(r.handler[0].callee, "os.RemoveAll");
    // Without the context, the call is nothing (the file names no SDK registration).
    assert!(parse_code(Lang::Go, text, &Context::default())
        .registrations
        .is_empty());
}

#[test]
fn go_wrappers_of_new_tool_with_options_of_their_own() {
    // The name from a field of a struct parameter, the description from another, the caller's
    // options appended to the wrapper's own (a parameter it adds, read from a package variable).
    let declared = "package srv\n\nimport \"github.com/mark3labs/mcp-go/mcp\"\n\nvar reasonArgument = mcp.WithString(\"reason\", mcp.Description(\"Why\"))\n\ntype toolOptions struct {\n\tname string\n\tdescription string\n}\n\nfunc newTool(o toolOptions, extra ...mcp.ToolOption) mcp.Tool {\n\topts := []mcp.ToolOption{mcp.WithDescription(o.description), reasonArgument}\n\topts = append(opts, extra...)\n\treturn mcp.NewTool(o.name, opts...)\n}\n\nfunc plainTool(name, description string, extra ...mcp.ToolOption) mcp.Tool {\n\treturn mcp.NewTool(name, append([]mcp.ToolOption{mcp.WithDescription(description)}, extra...)...)\n}\n";
    let context = Context {
        wrappers: wrappers_of(Lang::Go, declared),
        ..Context::default()
    };
    let field = &context.wrappers[0].roles;
    assert_eq!(context.wrappers[0].function, "newTool");
    assert_eq!(field.name.field.as_deref(), Some("name"));
    assert!(field.own_schema && !field.own_hints, "{field:?}");
    let calls = "package srv\n\nimport \"github.com/mark3labs/mcp-go/mcp\"\n\nvar a = newTool(toolOptions{name: \"env_open\", description: \"Opens an environment.\"}, mcp.WithReadOnlyHintAnnotation(true))\nvar b = plainTool(\"env_list\", \"Lists environments.\", mcp.WithString(\"filter\"))\nvar c = newTool(options)\n";
    let doc = parse_code(Lang::Go, calls, &context);
    assert_eq!(doc.registrations.len(), 2, "{doc:#?}");
    let open = &doc.registrations[0];
    assert_eq!(json(open.entry.get("name")), "\"env_open\"");
    assert_eq!(
        json(open.entry.get("description")),
        "\"Opens an environment.\""
    );
    // `NewTool`'s defaults with the caller's hint over them.
    assert_eq!(
        json(open.entry.get("annotations")),
        r#"{"idempotentHint":false,"openWorldHint":true,"readOnlyHint":true}"#
    );
    // The wrapper's own parameter is not at the call: the schema is not read, never half-read.
    assert!(open.entry.get("inputSchema").is_none());
    assert!(
        open.unresolved.iter().any(|u| u.part == "inputSchema"),
        "{open:#?}"
    );
    let list = &doc.registrations[1];
    assert_eq!(
        json(list.entry.get("description")),
        "\"Lists environments.\""
    );
    assert_eq!(
        json(list.entry.get("inputSchema")),
        r#"{"properties":{"filter":{"type":"string"}},"type":"object"}"#
    );
    // A struct built at run time names no tool: counted, not guessed.
    assert_eq!(doc.unresolved.len(), 1, "{doc:#?}");
}

#[test]
fn typescript_optional_name_parameters_and_agents_entry_points() {
    // `toolName || "web_search"` with `toolName` optional: the fallback is the name whenever a
    // caller leaves it out; a parameter that is always given stays unread.
    let text = format!(
        "{SDK}export function register(server: McpServer, toolName?: string) {{\n  server.tool(toolName || \"web_search\", \"Searches the web.\", {{}}, async () => ({{ content: [] }}));\n}}\nexport function other(server: McpServer, toolName: string) {{\n  server.tool(toolName || \"never\", \"d\", {{}}, async () => ({{ content: [] }}));\n}}\n"
    );
    assert_eq!(names(Lang::TypeScript, &text), vec!["web_search"]);
    // The Agents SDK's realtime entry point, with a JSON Schema written out as `parameters`.
    let agents = "import { tool } from '@openai/agents/realtime';\n\nexport const checkout = tool({\n  name: 'checkout',\n  description: 'Buys the items in the cart.',\n  parameters: { type: 'object', properties: { item_ids: { type: 'array', items: { type: 'string' } } }, required: ['item_ids'], additionalProperties: false },\n  execute: async (input: any) => ({ ok: true }),\n});\n";
    let r = one(Lang::TypeScript, agents);
    assert_eq!(json(r.entry.get("name")), "\"checkout\"");
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"additionalProperties":false,"properties":{"item_ids":{"items":{"type":"string"},"type":"array"}},"required":["item_ids"],"type":"object"}"#
    );
    // Written out, the schema's root says what it says.
    assert!(!r.built_schema);
}

#[test]
fn go_handlers_and_input_structs_of_other_files_of_the_package() {
    let handler = "package tools\n\nimport \"os\"\n\ntype In struct {\n\tPath string `json:\"path\" jsonschema:\"the file\"`\n}\n\nfunc remove(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {\n\treturn nil, nil, os.Remove(in.Path)\n}\n";
    let registers = "package tools\n\nimport \"github.com/modelcontextprotocol/go-sdk/mcp\"\n\nfunc Register(server *mcp.Server) {\n\tmcp.AddTool(server, &mcp.Tool{Name: \"remove\", Description: \"Removes a file.\"}, remove)\n}\n";
    let package = GoPackage::new(vec![
        ("handler.go".to_string(), std::sync::Arc::from(handler)),
        ("register.go".to_string(), std::sync::Arc::from(registers)),
    ]);
    let mut context = Context::default();
    context
        .packages
        .insert("srv/tools".to_string(), std::sync::Arc::new(package));
    let doc = parse_code_at(Lang::Go, registers, &context, "srv/tools/register.go");
    assert_eq!(doc.registrations.len(), 1, "{doc:#?}");
    let r = &doc.registrations[0];
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"properties":{"path":{"description":"the file","type":"string"}},"required":["path"],"type":"object"}"#
    );
    assert_eq!(r.handler.len(), 1, "{r:#?}");
    assert_eq!(r.handler[0].callee, "os.Remove");
    // Read in another file, it points at where this one names the handler.
    let at = registers.find("remove)").unwrap_or_default();
    assert_eq!(r.handler[0].span, Span::new(at, at + "remove".len()));
    // Without the package, the handler is not followed and the schema is said to be unread.
    let alone = parse_code(Lang::Go, registers, &Context::default());
    assert!(alone.registrations[0].handler.is_empty());
    assert!(alone.registrations[0]
        .unresolved
        .iter()
        .any(|u| u.why.contains("not in this file")));
}

#[test]
fn typescript_constants_of_modules_imported_by_relative_path() {
    assert_eq!(
        modules::relative_specifiers("import a from \"./a.js\";\nconst b = require('../b');\nimport c from \"zod\";\nexport { d } from './d/index.js';\n"),
        vec!["../b", "./a.js", "./d/index.js"]
    );
    let exists = |p: &str| ["src/tools/get.ts", "src/lib/index.ts"].contains(&p);
    assert_eq!(
        modules::resolve_specifier("src/index.ts", "./tools/get.js", exists).as_deref(),
        Some("src/tools/get.ts")
    );
    assert_eq!(
        modules::resolve_specifier("src/tools/get.ts", "../lib", exists).as_deref(),
        Some("src/lib/index.ts")
    );
    assert_eq!(
        modules::resolve_specifier("index.ts", "../../x", exists),
        None
    );
    let module = "import { z } from \"zod\";\nconst schema = { id: z.string().describe(\"Id\") };\nexport const getTool = { name: \"get_item\", description: \"Gets an item.\", schema };\nconst local = \"module's\";\n";
    let file = format!("{SDK}import {{ getTool }} from \"./tools/get.js\";\nconst local = \"file's\";\nserver.registerTool(getTool.name, {{ description: getTool.description, inputSchema: getTool.schema, title: local }}, async () => ({{ content: [] }}));\n");
    let mut context = Context::default();
    context
        .modules
        .insert("src/tools/get.ts".into(), std::sync::Arc::from(module));
    let doc = parse_code_at(Lang::TypeScript, &file, &context, "src/index.ts");
    assert_eq!(doc.registrations.len(), 1, "{doc:#?}");
    let r = &doc.registrations[0];
    assert_eq!(json(r.entry.get("name")), "\"get_item\"");
    assert_eq!(
        json(r.entry.get("inputSchema")),
        r#"{"additionalProperties":false,"properties":{"id":{"description":"Id","type":"string"}},"required":["id"],"type":"object"}"#
    );
    // The file's own constant wins over the module's of the same name.
    assert_eq!(json(r.entry.get("title")), "\"file's\"");
    // Every span is inside the file: what the module's schema holds points into the
    // registration that takes it.
    let name = r.entry.get("name").map(|n| n.span).unwrap_or_default();
    assert!(name.end <= file.len(), "{name:?}");
    let id = r
        .entry
        .get("inputSchema")
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get("id"))
        .map(|n| n.span)
        .unwrap_or_default();
    assert!(
        r.entry.span.start <= id.start && id.end <= r.entry.span.end,
        "{id:?} {:?}",
        r.entry.span
    );
    // Without the module, the name is said to be imported.
    let alone = parse_code(Lang::TypeScript, &file, &Context::default());
    assert!(alone.registrations.is_empty());
    assert!(alone.unresolved[0]
        .why
        .contains("imported from another module"));
}

#[test]
fn a_schema_read_in_a_module_points_at_the_key_that_takes_it() {
    let module =
        "import { z } from \"zod\";\nexport const ArgsSchema = z.object({ path: z.string() });\n";
    let file = format!("{SDK}import {{ ListToolsRequestSchema }} from \"@modelcontextprotocol/sdk/types.js\";\nimport {{ zodToJsonSchema }} from \"zod-to-json-schema\";\nimport {{ ArgsSchema }} from \"./schemas.js\";\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({{\n  tools: [{{ name: \"read\", description: \"Reads a file.\", inputSchema: zodToJsonSchema(ArgsSchema) }}],\n}}));\n");
    let mut context = Context::default();
    context
        .modules
        .insert("schemas.ts".into(), std::sync::Arc::from(module));
    let doc = parse_code_at(Lang::TypeScript, &file, &context, "index.ts");
    assert_eq!(doc.registrations.len(), 1, "{doc:#?}");
    let path = doc.registrations[0]
        .entry
        .get("inputSchema")
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get("path"))
        .map(|n| n.span);
    let key = file.find("inputSchema").unwrap_or_default();
    assert_eq!(path, Some(Span::new(key, key + "inputSchema".len())));
}

#[test]
fn loops_and_local_functions_bind_names_within_a_budget() {
    // A list too long to follow leaves what depends on it unresolved; the file's other calls of
    // the same local function are still read, each once.
    let items: Vec<String> = (0..25_000).map(|i| format!("{{ id: \"t{i}\" }}")).collect();
    let text = format!(
        "import {{ FastMCP }} from \"fastmcp\";\nconst server = new FastMCP({{}});\n\
         const add = (tool) => {{ if (a) server.addTool(tool); else server.addTool(tool); }};\n\
         const LIST = [{}];\n\
         for (const item of LIST) add({{ name: `x_${{item.id}}`, execute: async () => \"\" }});\n\
         add({{ name: \"kept\", execute: async () => \"\" }});\n\
         [\"a\", \"b\"].forEach((n) => add({{ name: `small_${{n}}`, execute: async () => \"\" }}));\n",
        items.join(",")
    );
    let doc = parse_code(Lang::JavaScript, &text, &Context::default());
    let found: Vec<&str> = doc
        .registrations
        .iter()
        .filter_map(|r| r.entry.get("name").and_then(|n| n.as_str()))
        .collect();
    assert_eq!(found, ["kept", "small_a", "small_b"]);
    assert_eq!(doc.unresolved.len(), 1, "{:?}", doc.unresolved);
    assert!(
        doc.unresolved[0].why.contains("`item`"),
        "{:?}",
        doc.unresolved
    );
}

#[test]
fn mcp_go_hints_follow_the_version_the_module_requires() {
    use crate::parse::code::NewToolHints;
    let hints =
        |require: &str| NewToolHints::of_go_mod(&format!("module m\n\ngo 1.22\n\n{require}\n"));
    assert_eq!(
        hints("require github.com/mark3labs/mcp-go v0.18.0"),
        Some(NewToolHints::None)
    );
    assert_eq!(
        hints("require github.com/mark3labs/mcp-go v0.21.0"),
        Some(NewToolHints::TrueOnly)
    );
    assert_eq!(
        hints("require (\n\tgithub.com/x/y v1.2.3\n\tgithub.com/mark3labs/mcp-go v0.26.1-0.20250101000000-abcdef012345 // indirect\n)"),
        Some(NewToolHints::TrueOnly)
    );
    assert_eq!(
        hints("require github.com/mark3labs/mcp-go v0.27.0"),
        Some(NewToolHints::All)
    );
    assert_eq!(
        hints("require github.com/mark3labs/mcp-go v1.0.0-beta.1"),
        Some(NewToolHints::All)
    );
    assert_eq!(
        hints("require github.com/modelcontextprotocol/go-sdk v1.0.0"),
        None
    );
    // A file reads its nearest module's.
    let mut context = Context::default();
    context.mcp_go.insert("old".into(), NewToolHints::None);
    context.mcp_go.insert("".into(), NewToolHints::TrueOnly);
    assert_eq!(
        context.new_tool_hints("old/cmd/main.go"),
        NewToolHints::None
    );
    assert_eq!(
        context.new_tool_hints("other/main.go"),
        NewToolHints::TrueOnly
    );
    assert_eq!(context.new_tool_hints("main.go"), NewToolHints::TrueOnly);
}
