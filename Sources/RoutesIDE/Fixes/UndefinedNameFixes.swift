import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of `UndefinedName` (its documentation lists them, `UndefinedName.fixes`): use
/// the suggested name, write a presentation read as a builder with `as`, or declare the name
/// in the file that uses it.
enum UndefinedNameFixes: RuleFixes {
    static let rule = RuleID.undefinedName

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let finding = d.detail?.value(as: UndefinedName.Finding.self) else { return [] }
        var out: [Fix] = []
        if let suggestion = finding.suggestion {
            let rename = renamingTheDeclaration(d, finding, suggestion, context)
            out.append(Fix(title: "Use `\(suggestion)`", applicability: .unsafe, isPreferred: !(rename?.isPreferred ?? false), diagnostic: d,
                           edits: [d.file: ([d.range] + laterPlacesInItsList(d, context)).map { TextEdit(range: $0, newText: suggestion) }]))
            if let rename { out.append(rename) }
        }
        if let placement = finding.presentationOf {
            // From the placement's end (onto its line, where the formatter had put the name on
            // a line of its own), so that a fix of the placement itself (a shadowed branch
            // removed) meets this one and waits for the next round.
            let bytes = FixText(context.project.files[d.file]).bytes
            var start = d.range.lowerBound
            while start > 0 && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start - 1]) { start -= 1 }
            out.append(Fix(title: "Write `\(placement) as \(finding.name)`", applicability: .unsafe, isPreferred: true, diagnostic: d,
                           edits: [d.file: [TextEdit(range: start..<d.range.upperBound, newText: " as " + finding.name)]]))
        }
        if let declare = declaration(d, finding, context) { out.append(declare) }
        return out
    }

    /// When the suggested declaration is used nowhere, the other reading: the declaration is
    /// the misspelt one (`screen Hoem`, and `Home` written at every place). Preferred when the
    /// name is written alike at two places or more, each of them undefined with the same
    /// suggestion; not offered when a file that sees the declaration sees another of the name.
    static func renamingTheDeclaration(_ d: Diagnostic, _ finding: UndefinedName.Finding, _ suggestion: String,
                                       _ context: FixContext) -> Fix? {
        let project = context.project
        guard !finding.placeholder, let guess = project.guesses[d.file][d.range.lowerBound],
              project.declaration(guess).name.text == suggestion, project.uses(of: guess).isEmpty,
              Lexer.keyword(finding.name) == nil,
              // (No file that sees the declaration sees another of the name.)
              !project.files.indices.contains(where: { project.closures[$0].contains(guess.file) && project.scopes[$0][finding.name] != nil })
        else { return nil }
        let places = context.session.diagnostics.filter {
            $0.rule == .undefinedName && project.guesses[$0.file][$0.range.lowerBound] == guess
                && $0.detail?.value(as: UndefinedName.Finding.self)?.name == finding.name
        }.count
        return Fix(title: "Rename the declaration `\(suggestion)` to `\(finding.name)`", applicability: .unsafe, isPreferred: places >= 2,
                   diagnostic: d, edits: [guess.file: [TextEdit(range: project.declaration(guess).name.range, newText: finding.name)]])
    }

    /// The later places of the diagnostic's name in the `uses` list it stands in, read from
    /// the tokens after it (`uses stor, stor` is one diagnostic, at the first place: its name
    /// is renamed at every place).
    static func laterPlacesInItsList(_ d: Diagnostic, _ context: FixContext) -> [Range<Int>] {
        let file = context.project.files[d.file]
        let tokens = file.syntax.tokens, bytes = file.text.bytes
        var index = file.syntax.tokenIndex(at: d.range.lowerBound)
        guard index < tokens.count, tokens[index].range == d.range else { return [] }
        func next(after i: Int) -> Int? {
            var j = i + 1
            while j < tokens.count && tokens[j].kind.isSkipped { j += 1 }
            return j < tokens.count ? j : nil
        }
        var out: [Range<Int>] = []
        while let comma = next(after: index), tokens[comma].kind == .comma, let name = next(after: comma), tokens[name].kind == .identifier {
            if bytes[tokens[name].range].elementsEqual(bytes[d.range]) { out.append(tokens[name].range) }
            index = name
        }
        return out
    }

    /// The name declared in the diagnostic's file: a new declaration of the first kind the
    /// place accepts; or, when a file that imports this one declares it (the one declaration
    /// any file seeing this one has of the name), that declaration moved here. Nil when
    /// another declaration would then clash.
    static func declaration(_ d: Diagnostic, _ finding: UndefinedName.Finding, _ context: FixContext) -> Fix? {
        let project = context.project
        let here = d.file
        guard let kind = finding.expected.first else { return nil }
        // What the files that see this one declare under the name.
        var seen = Set<Symbol>()
        for other in project.files.indices where other != here && project.closures[other].contains(here) {
            if let symbol = project.scopes[other][finding.name] { seen.insert(symbol) }
        }
        let file = project.files[here]
        if seen.isEmpty {
            guard let text = FixSupport.declarationText(kind, finding.name, newline: FixText(file).newline) else { return nil }
            return Fix(title: "Declare \(kind.withArticle) `\(finding.name)`", applicability: .unsafe, diagnostic: d,
                       edits: [here: [FixSupport.insertion(of: text, kind: kind, in: file)]])
        }
        // Move the importing file's declaration here, when it is the only one and everything
        // it names means the same here.
        guard seen.count == 1, let moved = seen.first, moved.file != here, project.closures[moved.file].contains(here) else { return nil }
        let declaration = project.declaration(moved)
        guard finding.expected.contains(declaration.kind) else { return nil }
        let owner = project.files[moved.file]
        var names = FixSupport.names(under: declaration.body, in: owner.model)
        if let from = declaration.from { names.append(from) }
        for name in names where name.text != declaration.name.text {
            guard let meant = project.resolve(name, in: moved.file), project.scopes[here][name.text] == meant else { return nil }
        }
        let source = FixText(owner)
        let start = source.docCommentStart(before: declaration.range.lowerBound)
        // Its doc comment and text, and on a line of its own, the comment after it there (a
        // note on it, or a suppression of what is reported on that line).
        let alone = source.standsAlone(start..<declaration.range.upperBound)
        let end = alone ? source.trailingComment(after: declaration.range.upperBound)?.upperBound ?? declaration.range.upperBound
                        : declaration.range.upperBound
        var text = source.source.text((alone ? source.lineStart(start) : declaration.range.lowerBound)..<end)
        // Without the indentation of its first line (the insertion brings its own).
        text = String(text.drop { $0 == " " || $0 == "\t" })
        let insertion = FixSupport.insertion(of: text, kind: declaration.kind, in: file)
        return Fix(title: "Move the declaration of `\(finding.name)` from \(owner.displayPath) into this file",
                   applicability: .unsafe, diagnostic: d,
                   edits: [here: [insertion], moved.file: source.deletion(of: start..<end)])
    }
}
