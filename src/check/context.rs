//! [`Unit`]: what a unit rule is given. It reads as the unit's [`UnitView`] (through `Deref`) plus
//! one accessor per shared fact of [`UnitFacts`], and holds the unit's editable JSON views, which
//! fixes share and which are no fact. [`RepoContext`]: what a repository-wide rule is given, the
//! immutable [`Repo`] plus what the units left behind for those rules.

use crate::edit::json::JsonText;
use crate::model::tools::Tool;
use crate::parse::markdown::{Section, TextBlock};
use crate::parse::Node;
use crate::semantic::bindings::DriverBindings;
use crate::semantic::effect::ToolEffect;
use crate::semantic::links::Link;
use crate::semantic::schemas::{Site, Subject};
use crate::semantic::skill_names::SkillName;
use crate::semantic::UnitFacts;
use crate::source::FileId;
use std::cell::RefCell;
use std::ops::Deref;
use std::rc::Rc;

use crate::index::Repo;
pub use crate::index::UnitView;

/// The repository as a repository-wide rule sees it: the index (through `Deref`, as [`Unit`] reads
/// as its view) and the facts gathered from the units, which run first and whose parses are gone
/// by then. Keeping those facts here rather than in [`Repo`] means the index is never mutated
/// after it is built.
#[derive(Clone, Copy)]
pub struct RepoContext<'a> {
    pub repo: &'a Repo,
    /// Every skill's non-empty frontmatter `name`, in file order.
    pub skill_names: &'a [SkillName],
}

impl Deref for RepoContext<'_> {
    type Target = Repo;

    fn deref(&self) -> &Repo {
        self.repo
    }
}

/// One editable view of each JSON file a rule of the unit fixed, so the file's layout is read
/// once however many rules and tools fix it.
#[derive(Debug, Default)]
pub struct JsonTexts<'a>(RefCell<Vec<(FileId, Rc<JsonText<'a>>)>>);

/// One folder's files, parses and shared facts, as a unit rule sees them.
#[derive(Clone, Copy)]
pub struct Unit<'a> {
    view: UnitView<'a>,
    facts: &'a UnitFacts<'a>,
    json_texts: &'a JsonTexts<'a>,
}

impl<'a> Deref for Unit<'a> {
    type Target = UnitView<'a>;

    fn deref(&self) -> &UnitView<'a> {
        &self.view
    }
}

impl<'a> Unit<'a> {
    pub fn new(
        view: UnitView<'a>,
        facts: &'a UnitFacts<'a>,
        json_texts: &'a JsonTexts<'a>,
    ) -> Self {
        Unit {
            view,
            facts,
            json_texts,
        }
    }

    /// See [`UnitFacts::tool_links`].
    pub(crate) fn tool_links(&self) -> &'a [Link<'a>] {
        self.facts.tool_links(&self.view)
    }

    /// See [`UnitFacts::tool_effects`].
    pub(crate) fn tool_effects(&self) -> &'a [ToolEffect<'a>] {
        &self.facts.tool_effects(&self.view).list
    }

    /// The effect of `tool`, a tool of this unit.
    pub(crate) fn effect_of(&self, tool: &Tool) -> Option<&'a ToolEffect<'a>> {
        self.facts.tool_effects(&self.view).of(tool)
    }

    /// See [`UnitFacts::driver_bindings`].
    pub(crate) fn driver_bindings(&self) -> &'a [DriverBindings<'a>] {
        self.facts.driver_bindings(&self.view)
    }

    /// See [`UnitFacts::schema_subjects`].
    pub(crate) fn schema_subjects(&self) -> &'a [Subject<'a>] {
        self.facts.schema_subjects(&self.view)
    }

    /// See [`UnitFacts::schema_sites`].
    pub(crate) fn schema_sites(&self, schema: &'a Node) -> Rc<[Site<'a>]> {
        self.facts.schema_sites(schema)
    }

    /// See [`UnitFacts::tool_use_rules`].
    pub(crate) fn tool_use_rules(&self) -> Option<&'a (Section<'a>, Vec<&'a TextBlock>)> {
        self.facts.tool_use_rules(&self.view)
    }

    /// See [`UnitFacts::payloads`].
    pub(crate) fn payloads(&self) -> &'a [crate::semantic::cues::Payload<'a>] {
        self.facts.payloads(&self.view)
    }

    /// See [`UnitFacts::items_naming`].
    pub(crate) fn items_naming(&self, name: &'a str) -> Rc<[usize]> {
        self.facts.items_naming(&self.view, name)
    }

    /// The editable view of a JSON file, shared by every rule of the unit that fixes it.
    pub(crate) fn json_text(&self, id: FileId) -> Rc<JsonText<'a>> {
        let mut texts = self.json_texts.0.borrow_mut();
        if let Some((_, found)) = texts.iter().find(|(file, _)| *file == id) {
            return Rc::clone(found);
        }
        let made = Rc::new(JsonText::new(self.text(id), id));
        texts.push((id, Rc::clone(&made)));
        made
    }
}
