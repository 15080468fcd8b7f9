import RoutesModel
import RoutesSyntax

/// `unused-declaration`: a dependency, optional, flag or builder of a program that neither
/// `root` nor a builder it uses mentions.
public enum UnusedDeclaration: DeclarationRule {
    public static let id = RuleID("unused-declaration")
    public static let severity = Severity.warning
    public static let category = RuleCategory.hygiene
    public static let summary = "A dependency, optional, flag or builder that no used builder mentions."
    public static let marksUnnecessary = true
    public static let documentation = RuleDocumentation(
        what: """
            A dependency, optional, flag or builder that `root` and the builders it uses \
            (through references and nestings, whatever the conditions) never mention. Editors \
            grey it out. A name mentioned under a misspelling (an undefined name whose error \
            suggests it), or in a file this one imports, which cannot see it (an undefined name \
            whose error names this file), counts as mentioned, so the mistake is one error, \
            not also this warning.
            """,
        why: """
            Dead declarations mislead the next reader: a flag nothing tests does not switch \
            anything, and a builder nothing references builds nothing in this app.
            """,
        example: """
            screen Home
            flag isBlackFridayLive
            root { screen Home }
            """,
        fix: """
            Delete it, or use it where it was meant to be used.
            """)
    public static let fixes = [
        RuleFix(.safe, """
            Remove the declaration, with its doc comment, when nothing in the workspace names \
            it: no use, no misspelling that suggests it, no undefined name that stands for it, \
            no text the parser skipped.
            """),
        RuleFix(.unsafe, """
            The same when only text the parser skipped names it, when the declaration \
            holds comments (inside a builder's block, or after its first line), which the \
            removal would delete with it, or while a name in the workspace, at a place that \
            takes the declaration's kind, is undefined or of the wrong kind (`detailView` or \
            `Detail` written where the builder `detail` was meant): that name may have been \
            meant for the declaration.
            """),
    ]

    struct Finding {
        var declaration: Symbol
        var kind: DeclarationKind
    }

    /// The findings, by declaration number (the graph's order of files and declarations).
    static func checkDeclarations(_ facts: ProgramFacts) -> [Finding] {
        let project = facts.project
        var found: [Finding] = []
        for f in facts.program.files {
            // By index, reading a declaration whole only to report it.
            for i in project.files[f].model.declarations.indices {
                if let unused = finding(Symbol(file: f, declaration: i), facts) { found.append(unused) }
            }
        }
        let graph = facts.graph
        return found.sorted { graph.declarationNumber($0.declaration) < graph.declarationNumber($1.declaration) }
    }

    /// Declaration s's finding, if it is one no used builder mentions.
    static func finding(_ s: Symbol, _ facts: ProgramFacts) -> Finding? {
        let project = facts.project, graph = facts.graph
        let kind = project.kind(of: s)
        guard kind == .dependency || kind == .optional || kind == .flag || kind == .builder, !facts.hasSecondRoot,
              !facts.mentioned.contains(graph.declarationNumber(s)), !facts.guessed.contains(graph.declarationNumber(s)),
              !facts.isDuplicate(s) else { return nil }
        if kind == .builder, let builder = graph.builderIndex(s), facts.usedBuilders.contains(builder) { return nil }
        if kind == .builder && graph.builderIndex(s) == nil { return nil }
        return Finding(declaration: s, kind: kind)
    }

    static func finding(declaration number: Int, _ facts: ProgramFacts) -> Finding? {
        finding(facts.graph.declarationSymbol(number), facts)
    }

    static func declarationNumber(of finding: Finding, _ facts: ProgramFacts) -> Int {
        facts.graph.declarationNumber(finding.declaration)
    }

    /// The words, from the project as it is now (a finding kept over edits holds no position).
    static func message(_ finding: Finding, _ facts: ProgramFacts) -> String {
        let name = facts.project.declaration(finding.declaration).name.text
        return finding.kind == .builder
            ? "builder `\(name)` is never used: nothing reachable from `root` refers to it"
            : "\(finding.kind.rawValue) `\(name)` is never used"
    }

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        Diagnostic(Self.self, file: finding.declaration.file, range: facts.project.declaration(finding.declaration).name.range,
                   message: message(finding, facts), detail: DiagnosticDetail(finding.declaration))
    }
}

extension RuleID {
    public static let unusedDeclaration = UnusedDeclaration.id
}
