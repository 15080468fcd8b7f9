import RoutesSyntax

/// The fixes of one rule: an uninhabited enum in `Fixes/<RuleName>Fixes.swift`.
protocol RuleFixes {
    /// The rule whose diagnostics it fixes (its `RuleID` constant).
    static var rule: RuleID { get }
    /// The fixes of one of its diagnostics, best first: the safe ones exact, the unsafe ones
    /// candidates that `FixCheck` checks before they are offered.
    static func fixes(_ diagnostic: Diagnostic, _ context: FixContext) -> [Fix]
}

/// Every rule's fixes. A rule that declares fixes (`RuleDefinition.fixes`) has its file here,
/// and the other way round (`FixTests` checks both, and the applicability of each fix).
enum FixRegistry {
    static var all: [any RuleFixes.Type] { [
        SyntaxErrorFixes.self,
        UndefinedNameFixes.self,
        WrongKindFixes.self,
        DuplicateDeclarationFixes.self,
        ImportErrorFixes.self,
        MissingDependencyFixes.self,
        ShadowedBranchFixes.self,
        WildcardMismatchFixes.self,
        PushInSheetFixes.self,
        UnusedDeclarationFixes.self,
        UnusedSuppressionFixes.self,
        UnbuildableLinkFixes.self,
    ] }

    /// The fixes of a rule, if it has any.
    static func fixer(_ rule: RuleID) -> (any RuleFixes.Type)? { all.first { $0.rule == rule } }

    /// The fixes of a diagnostic, each safe one that would delete a `//` comment made unsafe:
    /// a comment is a person's note, and no safe fix loses one (`lint --fix` applies safe fixes
    /// unseen). A comment whose text the fix writes again (a moved line) is not deleted.
    /// (A stale suppression's fix removes a comment: that one is its point.)
    static func fixes(of fixer: any RuleFixes.Type, _ diagnostic: Diagnostic, _ context: FixContext) -> [Fix] {
        var fixes = fixer.fixes(diagnostic, context)
        guard fixer.rule != .unusedSuppression else { return fixes }
        for i in fixes.indices where fixes[i].applicability == .safe && deletesComments(fixes[i], context) {
            fixes[i].applicability = .unsafe
        }
        return fixes
    }

    /// Whether an edit of the fix replaces a `//` comment whose text none of its edits writes.
    static func deletesComments(_ fix: Fix, _ context: FixContext) -> Bool {
        for (file, edits) in fix.edits {
            guard edits.contains(where: { !$0.range.isEmpty }) else { continue }
            let tree = context.project.files[file].syntax
            for edit in edits where !edit.range.isEmpty {
                var token = tree.tokenIndex(at: edit.range.lowerBound)
                while token < tree.tokens.count && tree.tokens[token].start < edit.range.upperBound {
                    let t = tree.tokens[token]
                    token += 1
                    guard t.kind == .lineComment, t.start >= edit.range.lowerBound, t.end <= edit.range.upperBound else { continue }
                    let text = tree.source.text(t.range)
                    if !fix.edits.values.contains(where: { $0.contains { $0.newText.contains(text) } }) { return true }
                }
            }
        }
        return false
    }

    /// Whether every file a fix edits is valid UTF-8: the text of one that is not was read with
    /// replacement characters, and an edit of it would write them over what the file holds.
    static func editsValidText(_ fix: Fix, _ context: FixContext) -> Bool {
        fix.edits.keys.allSatisfy { context.project.files[$0].text.invalidUTF8.isEmpty }
    }

    /// Whether a fix is offered only once `FixCheck` holds: an unsafe one, a fix of an error
    /// (it writes what the mistake meant rather than removing what nothing uses), or one that
    /// edits a file with syntax errors.
    static func needsCheck(_ fix: Fix, _ context: FixContext) -> Bool {
        fix.applicability == .unsafe || fix.diagnostic.severity == .error
            || fix.edits.keys.contains { !context.project.files[$0].keptSyntax.diagnostics.isEmpty }
    }
}
