//! SC016 `risky-tool-ungated`: A tool that writes, deletes, runs what it is given, moves money or
//! handles credentials has no confirmation gate its dialect can express.

use super::{risky_without_hints, takes_annotations};
use crate::check::{Sink, Unit};
use crate::diagnostic::Severity;
use crate::model::tools::Dialect;
use crate::rules::phrasing::tool_facts;
use crate::semantic::effect::{Basis, Effect, ToolEffect};

/// Why the tool needs a gate, for the message: "destructive", "exec", "financial and exec".
fn risk_words(effect: &ToolEffect<'_>, annotated_dialect: bool) -> Vec<&'static str> {
    let mut words = Vec::new();
    if effect.effect == Effect::Destructive || (annotated_dialect && effect.effect == Effect::Write)
    {
        words.push(effect.effect.as_str());
    }
    words.extend(effect.risky_capabilities().map(|c| c.as_str()));
    words
}

pub(super) fn risky_tool_ungated(unit: &Unit<'_>, sink: &mut Sink) {
    for effect in unit.tool_effects() {
        let tool = effect.tool;
        // The forge contract gates with `requiresConfirmation`, which TJ003 checks.
        if tool.dialect == Dialect::Forge
            || tool.provider_defined
            || effect.gate().is_some()
            || tool.unresolved("annotations")
        {
            continue;
        }
        // Docker's catalogue and tool catalogues (bundle manifests among them) keep MCP's
        // annotations where they have them: a write there needs hints as an MCP tool's does.
        let catalogue = matches!(tool.dialect, Dialect::Docker | Dialect::Catalogue);
        let annotated = takes_annotations(tool) || catalogue;
        if annotated && !risky_without_hints(effect) {
            continue;
        }
        let words = risk_words(effect, annotated);
        if words.is_empty() {
            continue;
        }
        let name = tool.display_name();
        let what = words.join(", ");
        let message = if tool.dialect == Dialect::Catalogue {
            format!("{what} tool `{name}` is listed without behaviour hints")
        } else if annotated {
            format!(
                "{what} tool `{name}` declares no behaviour hints and no confirmation parameter"
            )
        } else {
            format!("{what} tool `{name}` has no confirmation or preview parameter")
        };
        let diagnostic = sink.report(effect.file, tool.span(), message);
        let first = effect
            .effect_evidence()
            .filter(|_| words.contains(&effect.effect.as_str()))
            .or_else(|| {
                effect
                    .risky_capabilities()
                    .find_map(|c| effect.capability_evidence(c))
            });
        match first {
            Some(e) => {
                diagnostic.label(format!("{what}: {}", e.text));
            }
            None => {
                diagnostic.label(what.clone());
            }
        }
        // What the label quotes, where it was read when that is not the name: the operation that
        // deletes, the request method, a switch.
        let effect_evidence = effect.effect_evidence().filter(|e| {
            e.basis == Basis::Inferred
                && matches!(e.source, "operation" | "request" | "parameter")
                && words.contains(&effect.effect.as_str())
        });
        for e in effect_evidence
            .into_iter()
            .chain(
                effect
                    .risky_capabilities()
                    .filter_map(|c| effect.capability_evidence(c)),
            )
            .filter(|e| e.span != tool.span() && e.file == effect.file)
        {
            diagnostic.secondary(e.file, e.span, e.text.clone());
        }
        if let Some(declared) = effect.declared_risky() {
            diagnostic.severity(Severity::Error);
            diagnostic.secondary(
                declared.file,
                declared.span,
                format!("the contract itself declares it: {}", declared.text),
            );
        }
        diagnostic.help(if tool.dialect == Dialect::Catalogue {
            "the entry has no parameters to carry a confirmation: declare the server's behaviour hints on it (`\"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": …}`) as its `tools/list` does, so a client knows to ask before calling it"
        } else if annotated {
            "declare `annotations` (`readOnlyHint: false`, `destructiveHint`, `idempotentHint`) so a client knows to ask before calling it, or add a required boolean `user_confirmed` parameter"
        } else {
            "this dialect has no annotations: add a required boolean `user_confirmed` parameter (or a `dry_run` preview) so the call cannot run before the user agrees"
        });
        diagnostic.tool_facts(tool_facts(effect));
    }
}
