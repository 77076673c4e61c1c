//! PL004 `plugin-path-broken`: A path a plugin manifest or marketplace names is missing, leaves
//! the plugin, or holds no plugin.

use crate::check::{Sink, Unit};
use crate::model::plugin::PathProblem;
use crate::rules::phrasing::display_path;

pub(super) fn plugin_path_broken(unit: &Unit<'_>, sink: &mut Sink) {
    for (file, doc) in unit.manifests() {
        let root_name = if doc.marketplace {
            "marketplace"
        } else {
            "plugin"
        };
        for path in &doc.path_problems {
            let key = display_path(&path.pointer);
            let written = &path.written;
            let (message, label, help) = match path.problem {
                PathProblem::Missing => (
                    format!("`{key}` names `{written}`, which does not exist"),
                    format!("nothing at this path in the {root_name}"),
                    format!(
                        "fix the path (read from the {root_name} root) or add what it names; {} skips a component it cannot find",
                        doc.host.display()
                    ),
                ),
                PathProblem::Escapes => (
                    format!("`{key}` names `{written}`, outside the {root_name}"),
                    format!("leaves the {root_name} root"),
                    format!(
                        "a {root_name} is installed as its folder alone: move the file into it and name it with a `./` path"
                    ),
                ),
                PathProblem::NotAPlugin => (
                    format!("plugin source `{written}` holds no plugin"),
                    "no manifest, skills/, commands/, agents/, hooks/ or .mcp.json in this folder"
                        .to_string(),
                    "point the source at the plugin's folder (the one that holds its manifest folder or its components)"
                        .to_string(),
                ),
            };
            sink.report(file, path.span, message)
                .label(label)
                .help(help);
        }
    }
}
