//! OpenAI Agents JS (`@openai/agents`): `agent.asTool({ toolName, toolDescription })`, an agent
//! the model calls with one `input` string, in a file that imports the SDK.

use super::{call_arguments, Reader, SyntaxNode};
use crate::parse::code::{
    find_all, implied, member, object, span_of, string_node, text_of, CodeDoc, Registration,
    Unresolved,
};

/// Every agent made a tool in the file, into `doc`.
pub(super) fn agent_tools<'t>(reader: &Reader<'_, 't>, root: SyntaxNode<'t>, doc: &mut CodeDoc) {
    let sdk = reader
        .scope
        .imports
        .values()
        .any(|m| m.starts_with("@openai/agents"));
    if !sdk {
        return;
    }
    let calls = find_all(root, |n| {
        n.kind() == "call_expression"
            && n.child_by_field_name("function").is_some_and(|f| {
                f.kind() == "member_expression"
                    && f.child_by_field_name("property")
                        .is_some_and(|p| text_of(p, reader.text) == "asTool")
            })
    });
    for call in calls {
        match as_tool(reader, call) {
            Some(Ok(registration)) => doc.registrations.push(registration),
            Some(Err(unresolved)) => doc.unresolved.push(unresolved),
            None => {}
        }
    }
}

fn as_tool<'t>(
    reader: &Reader<'_, 't>,
    call: SyntaxNode<'t>,
) -> Option<Result<Registration, Unresolved>> {
    let options = *call_arguments(call).first()?;
    let options = reader
        .resolve(options, 0)
        .ok()
        .filter(|o| o.kind() == "object")?;
    let unresolved = |why: String| Unresolved {
        part: "name",
        span: span_of(call),
        why,
    };
    let Some((_, name_value)) = reader.pair(options, "toolName") else {
        return Some(Err(unresolved(
            "`asTool` without `toolName` is named after the agent at run time".into(),
        )));
    };
    let (name, name_span) = match reader.string(name_value, 0) {
        Ok(read) => read,
        Err(why) => return Some(Err(unresolved(why))),
    };
    let mut members = vec![member("name", name_span, string_node(name, name_span))];
    let mut parts = super::Parts::default();
    if let Some((key_span, value)) = reader.pair(options, "toolDescription") {
        match reader.string(value, 0) {
            Ok((text, span)) => {
                members.push(member("description", key_span, string_node(text, span)))
            }
            Err(why) => parts.unresolved("description", span_of(value), why),
        }
    }
    // The SDK runs the agent on one string, strictly.
    let at = span_of(call);
    members.push(implied(
        "inputSchema",
        crate::parse::code::agent_input_schema(at),
    ));
    Some(Ok(Registration {
        form: "asTool",
        entry: object(at, members),
        built_schema: false,
        unresolved: parts.unresolved,
        handler: Vec::new(),
        handler_span: None,
    }))
}
