//! Facts that several rules of a unit read, derived once per unit from the [`UnitView`] and the
//! models: which tool is linked to which TOOL.md ([`links`]), which contracts a driver binds
//! ([`bindings`]), which schemas a unit holds and their object subschemas ([`schemas`]), the
//! skill's Tool Use Rules section and which tools its items name ([`tool_use_rules`]), and the
//! skill's name the repository-wide rules compare ([`skill_names`]). Facts are pure functions of
//! the unit, so it does not matter which rule asks first. No diagnostics, no edits: this module never imports
//! `check`, `rules`, `edit`, `fix`, `engine`, the triage modules or `render`.

pub mod bindings;
pub mod commands;
pub mod credentials;
pub mod cues;
pub mod effect;
pub(crate) mod handler;
pub mod invisible;
pub mod links;
mod memo;
pub mod operations;
pub mod permissions;
pub mod schemas;
pub mod skill_names;
pub mod tool_use_rules;

pub(crate) use memo::UnitMemo;

use crate::index::UnitView;
use crate::parse::markdown::{Section, TextBlock};
use crate::parse::Node;
use bindings::DriverBindings;
use effect::ToolEffects;
use links::Link;
use schemas::{Site, Subject};
use std::cell::OnceCell;
use std::rc::Rc;

/// The facts of one unit, each computed by the first rule that asks for it. Created per unit and
/// dropped with the unit's parses. The cells are private: the only way in is one accessor per fact.
#[derive(Debug, Default)]
pub struct UnitFacts<'a> {
    /// Every tools-file tool linked to a TOOL.md contract, in file and entry order (XC rules).
    tool_links: OnceCell<Vec<Link<'a>>>,
    /// Every driver of the unit with the contracts its entries resolve to (DR rules).
    driver_bindings: OnceCell<Vec<DriverBindings<'a>>>,
    /// The SKILL.md's Tool Use Rules section and its items, if it has one.
    tool_use_rules: OnceCell<Option<(Section<'a>, Vec<&'a TextBlock>)>>,
    /// For each tool name a rule asked about, the positions of the section's items that name it
    /// as a whole word.
    rule_mentions: UnitMemo<&'a str, usize>,
    /// Every word of the section's items with the position of its item, sorted and without
    /// repeats: a tool name's items are then a binary search away, not a scan of every item.
    rule_words: OnceCell<Vec<(&'a str, u32)>>,
    /// The object subschemas of each schema an SC rule walked, by the schema's address (never
    /// dereferenced: only compared).
    schema_sites: UnitMemo<*const Node, Site<'a>>,
    /// The schemas the SC rules check: the tools' input schemas, then the TOOL.md `inputs`.
    schema_subjects: OnceCell<Vec<Subject<'a>>>,
    /// Every tool's effect, capabilities and evidence, in file and entry order.
    tool_effects: OnceCell<ToolEffects<'a>>,
    /// The cues aimed at the model in the unit's agent-read text (PI rules).
    payloads: OnceCell<Vec<cues::Payload<'a>>>,
}

impl<'a> UnitFacts<'a> {
    /// The unit's linked (tool, contract) pairs, in file and entry order.
    pub(crate) fn tool_links(&'a self, unit: &UnitView<'a>) -> &'a [Link<'a>] {
        self.tool_links.get_or_init(|| links::find_links(unit))
    }

    /// Every tool of the unit with its effect, in file and entry order (the safety rules, SC003,
    /// policies).
    pub(crate) fn tool_effects(&'a self, unit: &UnitView<'a>) -> &'a ToolEffects<'a> {
        self.tool_effects
            .get_or_init(|| effect::find_effects(unit, self.tool_links(unit)))
    }

    /// The unit's drivers, each with its resolved bindings. Six rules read them.
    pub(crate) fn driver_bindings(&'a self, unit: &UnitView<'a>) -> &'a [DriverBindings<'a>] {
        self.driver_bindings
            .get_or_init(|| bindings::resolve_bindings(unit))
    }

    /// Every schema SC002–SC006 and SC013 check, for the six rules that read them.
    pub(crate) fn schema_subjects(&'a self, unit: &UnitView<'a>) -> &'a [Subject<'a>] {
        self.schema_subjects
            .get_or_init(|| schemas::find_subjects(unit))
    }

    /// The object subschemas of a schema of the unit. Six rules walk each input schema: walked
    /// once per unit, looked up by the schema's address.
    pub(crate) fn schema_sites(&'a self, schema: &'a Node) -> Rc<[Site<'a>]> {
        self.schema_sites
            .get(std::ptr::from_ref(schema), || schemas::sites(schema))
    }

    /// The cues aimed at the model in every agent-read text of the unit. Eight rules read them.
    pub(crate) fn payloads(&'a self, unit: &UnitView<'a>) -> &'a [cues::Payload<'a>] {
        self.payloads.get_or_init(|| cues::find_payloads(unit))
    }

    /// The SKILL.md's configured Tool Use Rules section and its items. Eight rules read it.
    pub(crate) fn tool_use_rules(
        &'a self,
        unit: &UnitView<'a>,
    ) -> Option<&'a (Section<'a>, Vec<&'a TextBlock>)> {
        self.tool_use_rules
            .get_or_init(|| tool_use_rules::find_section(unit))
            .as_ref()
    }

    /// The positions of the Tool Use Rules items that name `name` as a whole word; none without
    /// the section. Several rules ask this of every tool: each name's items are searched for
    /// once per unit.
    pub(crate) fn items_naming(&'a self, unit: &UnitView<'a>, name: &'a str) -> Rc<[usize]> {
        let items = self
            .tool_use_rules(unit)
            .map_or(&[][..], |(_, items)| items.as_slice());
        self.rule_mentions.get(name, || {
            tool_use_rules::items_naming(items, name, &self.rule_words)
        })
    }
}
