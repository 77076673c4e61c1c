//! SE004 `secret-slug-duplicate`: Two SECRETS.md entries declare the same slug.

use crate::check::{RepoContext, Sink};

pub(super) fn secret_slug_duplicate(repo: &RepoContext<'_>, sink: &mut Sink) {
    for (slug, declarations) in &repo.contracts.secret_slugs {
        let Some((first_file, first_span)) = declarations.first() else {
            continue;
        };
        for (file, span) in declarations.iter().skip(1) {
            sink.report(
                *file,
                *span,
                format!("secret slug `{slug}` is already declared"),
            )
            .label("declared again here")
            .secondary(*first_file, *first_span, "first declared here")
            .help("slugs are unique across the workspace inventory, which hosts merge from every SECRETS.md; rename one or merge the entries");
        }
    }
}
