//! SE002 `secret-value-in-manifest`: A secret value is written into a linted file.

use super::VALUE_KEYS;
use crate::check::{Sink, Unit};
use crate::parse::node::Node;
use crate::semantic::credentials::find_credentials;
use crate::source::{FileId, Span};

/// The values of the value-carrying keys SE002 reported in the inventory, to look up whether a
/// credential lies inside one. A lookup is a binary search: scanning every value for every
/// credential made an inventory of many entries, each value a credential, quadratic.
#[derive(Default)]
struct ReportedValues {
    /// The inventory the spans are in.
    file: Option<FileId>,
    spans: Vec<Span>,
    /// After [`Self::index`]: the greatest `end` among `spans[..=i]` (spans sorted by start).
    max_end: Vec<usize>,
}

impl ReportedValues {
    fn index(&mut self) {
        self.spans.sort_unstable_by_key(|s| (s.start, s.end));
        let mut max_end = 0;
        self.max_end = self
            .spans
            .iter()
            .map(|s| {
                max_end = max_end.max(s.end);
                max_end
            })
            .collect();
    }

    /// Whether one of the values holds all of `span` (in `file`).
    fn covers(&self, file: FileId, span: Span) -> bool {
        if self.file != Some(file) {
            return false;
        }
        // The values starting at or before `span`; one of them holds it when the furthest
        // reaching of them ends at or after it.
        let starting_before = self.spans.partition_point(|s| s.start <= span.start);
        starting_before
            .checked_sub(1)
            .and_then(|last| self.max_end.get(last))
            .is_some_and(|end| span.end <= *end)
    }
}

pub(super) fn secret_value_in_manifest(unit: &Unit<'_>, sink: &mut Sink) {
    // Values already reported as value-carrying keys are not reported again as credentials.
    let mut reported_values = ReportedValues::default();
    if let Some((file, doc)) = unit.secrets() {
        reported_values.file = Some(file);
        let entries = doc
            .frontmatter()
            .and_then(|fm| fm.root.get("secrets"))
            .and_then(Node::as_array)
            .unwrap_or_default();
        for entry in entries {
            let Some(members) = entry.as_object() else {
                continue;
            };
            let slug = entry.get("slug").and_then(Node::as_str);
            for member in members
                .iter()
                .filter(|m| VALUE_KEYS.contains(&m.key.as_str()))
            {
                let owner = match slug {
                    Some(slug) => format!("secret `{slug}`"),
                    None => "a SECRETS.md entry".to_string(),
                };
                sink.report(
                    file,
                    member.key_span,
                    format!("{owner} carries a `{}` field", member.key),
                )
                .label("a SECRETS.md lists secrets; it never holds their values")
                .help("delete the field and store the value in the vault the host resolves the slug against; if a real value was committed, revoke it, since it stays in the repository history");
                reported_values.spans.push(member.value.span);
            }
        }
    }
    reported_values.index();
    for file in unit.files.all() {
        let text = unit.text(file);
        for credential in find_credentials(text) {
            if reported_values.covers(file, credential.span) {
                continue;
            }
            sink.report(
                file,
                credential.span,
                format!(
                    "{} contains a literal {} (`{}`)",
                    unit.repo.file_name(file),
                    credential.what,
                    credential.shown
                ),
            )
            .label("credential in plain text")
            .help("revoke this credential now (it stays in the repository history), then load it at run time from the environment or a secret store declared in a SECRETS.md");
        }
    }
}
