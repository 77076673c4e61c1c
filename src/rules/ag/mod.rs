//! AG: slash commands (`commands/*.md`), subagents (`agents/*.md`) and the `AGENTS.md`/`CLAUDE.md`
//! instructions of plugins and projects (links that lead somewhere):
//! frontmatter that parses, the keys an agent needs, tool names that name a tool, and
//! `allowed-tools` grants that would pre-approve an unrestricted shell or arbitrary writes. Their
//! bodies are agent-read text: SE003 scans them for hidden characters.
//!
//! One file per rule, `<code>_<rule name>.rs`; what several rules of the family share stays here.

mod ag001_agent_frontmatter_invalid;
mod ag002_agent_field_missing;
mod ag003_agent_tool_unknown;
mod ag004_command_allowed_tools_unrestricted;
mod ag005_instructions_broken_link;
mod ag006_agent_key_misspelt;
mod ag007_agent_model_invalid;
mod ag008_command_script_missing;
#[cfg(test)]
mod tests;

use crate::check::{code, Check, RuleImpl};
use ag001_agent_frontmatter_invalid::agent_frontmatter_invalid;
use ag002_agent_field_missing::agent_field_missing;
use ag003_agent_tool_unknown::agent_tool_unknown;
use ag004_command_allowed_tools_unrestricted::command_allowed_tools_unrestricted;
use ag005_instructions_broken_link::instructions_broken_link;
use ag006_agent_key_misspelt::agent_key_misspelt;
use ag007_agent_model_invalid::agent_model_invalid;
use ag008_command_script_missing::command_script_missing;

#[rustfmt::skip]
pub const RULES: &[RuleImpl] = &[
    RuleImpl { code: code::AG001, check: Check::Unit(agent_frontmatter_invalid) },
    RuleImpl { code: code::AG002, check: Check::Unit(agent_field_missing) },
    RuleImpl { code: code::AG003, check: Check::Unit(agent_tool_unknown) },
    RuleImpl { code: code::AG004, check: Check::Unit(command_allowed_tools_unrestricted) },
    RuleImpl { code: code::AG005, check: Check::Unit(instructions_broken_link) },
    RuleImpl { code: code::AG006, check: Check::Unit(agent_key_misspelt) },
    RuleImpl { code: code::AG007, check: Check::Unit(agent_model_invalid) },
    RuleImpl { code: code::AG008, check: Check::Unit(command_script_missing) },
];
