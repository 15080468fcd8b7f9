import RoutesAnalysis
import RoutesEncoding
import RoutesIDE
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// Files in memory under `/fuzz`, so that a fuzz input never touches the disk.
public struct MemoryProvider: SourceProvider {
    public var files: [String: [UInt8]]
    public init(files: [String: [UInt8]]) { self.files = files }
    public func canonicalPath(_ path: String) -> String? {
        let p = PathUtil.normalize(path)
        return files[p] != nil ? p : nil
    }
    public func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        files[canonicalPath].map { .success($0) } ?? .failure(.notFound)
    }
}

/// Stops the fuzzer with a message: a broken invariant is a finding like a crash.
public func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

/// Everything `routes` does with source text, with the invariants that must hold for any
/// input: parse (lossless), model, every analysis, hover/completion/navigation at a few
/// offsets, the routing tree in every format, and the resolution of each screen's example
/// path (which must build that screen).
public func exercise(files: [(path: String, bytes: [UInt8])], probes: [Int] = []) {
    let provider = MemoryProvider(files: Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a }))
    let entries = files.enumerated().map { i, f in
        ProjectEntry(canonicalPath: f.path, displayPath: String(f.path.dropFirst("/fuzz/".count)), group: i, workspaceRoot: "/fuzz")
    }
    let session = AnalysisSession.forEditor(project: Project(entries: entries, provider: provider))
    let project = session.project
    let stopped = session.diagnostics.contains { $0.rule == .analysisLimit }
    checkLinks(session, input: files.flatMap(\.bytes))

    func key(_ d: Diagnostic) -> String { "\(d.rule) \(d.file) \(d.range) \(d.message) \(d.related.map { "\($0.file) \($0.range) \($0.message)" })" }
    // What a lint holds (no trees, no doc comments, no signatures, no texts but those with a
    // suppression comment, read again when asked for, no scopes but those the analyses
    // read), analysed as a lint analyses (`missing-dependency` before the flows), gives the
    // same diagnostics.
    let linted = Project.forLint(entries: entries, provider: provider)
    invariant(AnalysisSession.forLint(project: linted).diagnostics.map(key) == session.diagnostics.map(key),
              "a lint's project reports otherwise than a full one")
    invariant(!linted.files.contains { $0.isTextChangedSinceRead }, "a text read again differs from the first read")
    // A lint reads each plain `link` line as one token: the same errors and declarations as
    // read token by token.
    for file in files {
        let full = SyntaxTree.parse(SourceText(bytes: file.bytes))
        let lined = SyntaxTree.parse(SourceText(bytes: file.bytes), readingLinkLines: true)
        invariant(full.diagnostics == lined.diagnostics, "\(file.path) read with its link lines as tokens has other errors")
        let (a, b) = (Lowering.lower(full).declarations, Lowering.lower(lined).declarations)
        invariant(a.map { "\($0.kind) \($0.name) \($0.range) \($0.doc ?? "")" } == b.map { "\($0.kind) \($0.name) \($0.range) \($0.doc ?? "")" }
                  && a.map(\.link) == b.map(\.link), "\(file.path) read with its link lines as tokens lowers otherwise")
    }

    // Both variable layouts give the same answers (the lint's choice between them is one of
    // them, or the limit): the diagnostics of each layout alone are the same. Each within
    // 2^17 nodes, a sixteenth of a lint's budget: an input of entangled flags fits one layout
    // and would fill the whole budget in the other, seconds under AddressSanitizer (past the
    // fuzzer's timeout); such an input is compared only where both layouts fit.
    if !stopped {
        let layouts = [AnalysisLayout.conditionsAbove, .elementAbove].map {
            AnalysisSession.forDiagnostics(project: project, limits: AnalysisLimits(nodes: 1 << 17, layout: $0)).diagnostics
        }
        if !layouts.contains(where: { $0.contains { $0.rule == .analysisLimit } }) {
            invariant(layouts[0].map(key) == layouts[1].map(key),
                      "the two layouts disagree: \(layouts[0].map(key).filter { !layouts[1].map(key).contains($0) }) vs \(layouts[1].map(key).filter { !layouts[0].map(key).contains($0) })")
            invariant(layouts[0].map(key) == session.diagnostics.map(key), "a layout alone disagrees with the lint's choice")
        }
    }

    for file in project.files {
        // Lossless: the tree gives back the text (after the one-time UTF-8 repair).
        invariant(file.syntax.reconstructedBytes() == file.text.bytes, "the syntax tree of \(file.path) is not lossless")
        let size = file.text.bytes.count
        for d in project.diagnostics(in: file.id) {
            invariant(d.range.lowerBound >= 0 && d.range.upperBound <= size && d.range.lowerBound <= d.range.upperBound,
                      "diagnostic range \(d.range) outside \(file.path) (\(size) bytes)")
        }
    }
    for d in session.diagnostics {
        let size = project.files[d.file].text.bytes.count
        invariant(d.range.upperBound <= size && d.range.lowerBound <= d.range.upperBound, "analysis diagnostic range \(d.range) out of bounds")
        _ = project.locationText(file: d.file, offset: d.range.lowerBound)
    }

    // Editor features at a few offsets of each file.
    for file in project.files.prefix(3) {
        let size = file.text.bytes.count
        let offsets = ([0, size, size / 2] + probes.map { size == 0 ? 0 : $0 % (size + 1) }).prefix(8)
        for offset in offsets {
            _ = IDE.completions(session: session, file: file.id, offset: offset, snippets: true)
            _ = IDE.hover(session: session, file: file.id, offset: offset)
            _ = IDE.definition(project: project, file: file.id, offset: offset)
            _ = IDE.references(project: project, file: file.id, offset: offset, includeDeclaration: true)
            if IDE.prepareRename(project: project, file: file.id, offset: offset) != nil {
                _ = try? IDE.rename(project: project, file: file.id, offset: offset, newName: "renamed")
            }
            let word = IDE.wordRange(project: project, file: file.id, offset: offset)
            invariant(word.lowerBound >= 0 && word.upperBound <= size, "word range out of bounds")
            let replace = IDE.replaceRange(project: project, file: file.id, offset: offset)
            invariant(replace.lowerBound == word.lowerBound && replace.upperBound >= word.upperBound && replace.upperBound <= size,
                      "replace range \(replace) does not extend the word range \(word)")
            for h in IDE.documentHighlights(project: project, file: file.id, offset: offset) {
                invariant(h.range.lowerBound >= 0 && h.range.upperBound <= size, "highlight out of bounds")
            }
            let selection = IDE.selectionRanges(project: project, file: file.id, offset: offset)
            invariant(selection.last == 0..<size, "the last selection range is not the whole file")
            for (inner, outer) in zip(selection, selection.dropFirst()) {
                invariant(outer.lowerBound <= inner.lowerBound && inner.upperBound <= outer.upperBound && inner != outer,
                          "selection range \(inner) is not strictly inside \(outer)")
            }
        }
        _ = IDE.documentSymbols(project: project, file: file.id)
        _ = IDE.semanticTokens(project: project, file: file.id)
        _ = IDE.foldingRanges(project: project, file: file.id)
        for hint in IDE.inlayHints(project: project, file: file.id, range: 0..<size) {
            invariant(hint.offset >= 0 && hint.offset <= size, "inlay hint out of bounds")
        }
        for lens in IDE.codeLensDeclarations(project: project, file: file.id).prefix(4) {
            if let preview = IDE.codeLens(session: session, file: file.id, declaration: lens.declaration)?.preview,
               let path = preview.path {
                // What a lens runs is what routes/preview takes: its path parses and resolves in
                // its program under its flags and optionals.
                guard let program = project.programs.first(where: { $0.root.file == preview.rootFile }),
                      let parsed = try? PathLiteral.parse(path),
                      let environment = try? ProgramEnvironment(Environment(flags: preview.flags, optionals: preview.optionals),
                                                                program: program, project: project),
                      (try? Resolution.resolve(parsed, program: program, project: project, environment: environment)) != nil
                else { invariant(false, "the lens path \(path) does not resolve"); continue }
            }
        }
        if let name = file.model.declarations.first?.name.text {
            for symbol in IDE.workspaceSymbols(project: project, query: String(name.prefix(2))) {
                let r = symbol.location.range
                invariant(r.lowerBound >= 0 && r.upperBound <= project.files[symbol.location.file].text.count, "symbol out of bounds")
            }
        }
    }
    exerciseFixes(session, files: files)

    let hasErrors = (project.diagnostics + session.diagnostics).contains { $0.severity == .error }

    // An edit inside a comment or whitespace run keeps the analysis and moves positions: the
    // moved diagnostics must equal a fresh analysis of the edited text.
    if let seed = probes.first, let first = project.files.first {
        let tree = first.syntax
        let trivia = tree.tokens.filter { $0.kind == .lineComment || $0.kind == .whitespace || $0.kind == .docComment }
        if !trivia.isEmpty {
            let token = trivia[seed % trivia.count]
            // Now and then at the very start of a whitespace run (a space typed after a word).
            let a = token.kind == .whitespace && (seed / 19) % 3 == 0 ? token.start : token.start + 1 + (seed / 7) % max(1, Int(token.length))
            let b = min(token.end, a + (seed / 3) % 2)
            let insert = Array((token.kind == .whitespace ? [" ", "", "\t"] : ["x", "", "é", "/", "\n"])[seed % (token.kind == .whitespace ? 3 : 5)].utf8)
            if a <= b, b <= first.text.count {
                var bytes = first.text.bytes
                bytes.replaceSubrange(a..<b, with: insert)
                let newText = SourceText(bytes: bytes)
                if let (moved, edit) = project.applyingTriviaEdit(file: first.id, range: a..<b, replacement: insert, newSource: newText) {
                    var edited = files
                    edited[0].bytes = newText.bytes
                    let freshProvider = MemoryProvider(files: Dictionary(edited.map { ($0.path, $0.bytes) }, uniquingKeysWith: { x, _ in x }))
                    let fresh = AnalysisSession.forEditor(project: Project(entries: entries, provider: freshProvider))
                    // The docs (a `///` line may have changed) are what a fresh parse gives.
                    let movedDocs = moved.files.flatMap { $0.model.declarations.map { "\($0.name.text): \($0.doc ?? "-")" } }
                    let freshDocs = fresh.project.files.flatMap { $0.model.declarations.map { "\($0.name.text): \($0.doc ?? "-")" } }
                    invariant(movedDocs == freshDocs, "a trivia edit at \(a)..<\(b) left a doc comment stale")
                    let before = AnalysisSession.forEditor(project: project)
                    if before.canRebase(over: edit) {
                        let rebased = before.rebased(onto: moved, file: first.id, edit: edit)
                        func key(_ d: Diagnostic) -> String { "\(d.rule) \(d.file) \(d.range) \(d.message) \(d.related.map { "\($0.file) \($0.range) \($0.message)" })" }
                        invariant(rebased.diagnostics.map(key) == fresh.diagnostics.map(key),
                                  "a trivia edit at \(a)..<\(b) moved the diagnostics differently from a fresh analysis: "
                                  + "\(rebased.diagnostics.map(key).filter { !fresh.diagnostics.map(key).contains($0) }) vs \(fresh.diagnostics.map(key).filter { !rebased.diagnostics.map(key).contains($0) })")
                    }
                }
            }
        }
    }

    // An edit inside one declaration parses, lowers and resolves only that declaration: the
    // tree, the model, the diagnostics and (moved or run again) the analysis must equal a fresh
    // parse and analysis of the edited text.
    if let seed = probes.last, let first = project.files.first {
        let tree = first.syntax
        let code = tree.tokens.filter { !$0.kind.isTrivia && $0.kind != .eof }
        if !code.isEmpty {
            let token = code[(seed / 5) % code.count]
            let a = token.start + (seed / 11) % (Int(token.length) + 1)
            let b = min(token.end, a + (seed / 13) % 2)
            let insert = Array(["X", "", "?", "s", " sheet", "\n"][(seed / 17) % 6].utf8)
            var bytes = first.text.bytes
            bytes.replaceSubrange(a..<b, with: insert)
            let newText = SourceText(bytes: bytes)
            if let edit = project.applyingDeclarationEdit(file: first.id, range: a..<b, replacement: insert, newSource: newText) {
                var edited = files
                edited[0].bytes = newText.bytes
                let freshProvider = MemoryProvider(files: Dictionary(edited.map { ($0.path, $0.bytes) }, uniquingKeysWith: { x, _ in x }))
                let fresh = AnalysisSession.forEditor(project: Project(entries: entries, provider: freshProvider))
                if let f = fresh.project.file(atPath: first.path) {
                    let expected = fresh.project.files[f]
                    invariant(edit.tree.tokens == expected.syntax.tokens && edit.tree.nodes == expected.syntax.nodes,
                              "a declaration edit at \(a)..<\(b) gave another tree than a fresh parse")
                    invariant("\(edit.model.declarations)\(edit.model.nodes)" == "\(expected.model.declarations)\(expected.model.nodes)",
                              "a declaration edit at \(a)..<\(b) gave another model than a fresh lowering")
                }
                if let moved = edit.project {
                    let before = AnalysisSession.forEditor(project: project)
                    let after = edit.keepsAnalysis && before.canRebase(over: edit.shift)
                        // As the server does: an edit of a link judges the links again.
                        ? before.rebased(onto: moved, file: first.id, edit: edit.shift, relinking: edit.changesLinks)
                        : AnalysisSession.forEditor(project: moved)
                    func key(_ d: Diagnostic) -> String { "\(d.rule) \(d.file) \(d.range) \(d.message) \(d.related.map { "\($0.file) \($0.range) \($0.message)" })" }
                    invariant(after.diagnostics.map(key) == fresh.diagnostics.map(key),
                              "a declaration edit at \(a)..<\(b) gave other diagnostics than a fresh analysis: "
                              + "\(after.diagnostics.map(key).filter { !fresh.diagnostics.map(key).contains($0) }) vs \(fresh.diagnostics.map(key).filter { !after.diagnostics.map(key).contains($0) })")
                }
            }
        }
    }

    // Programs that share no file are analysed as if each were alone (each over a graph of
    // its own files; a builder's cycle is over its programs' screens):
    // each one's diagnostics, analysed from its root file alone, must be the same.
    if project.programs.count >= 2, !stopped {
        let fileSets = project.programs.map { Set($0.files) }
        let disjoint = fileSets.indices.allSatisfy { i in fileSets.indices.allSatisfy { j in i == j || fileSets[i].isDisjoint(with: fileSets[j]) } }
        let everyFileInOne = fileSets.reduce(0) { $0 + $1.count } == project.files.count
        if disjoint && everyFileInOne {
            func key(_ d: Diagnostic, in p: Project) -> String {
                "\(d.rule) \(p.files[d.file].path) \(d.range) \(d.message) \(d.related.map { "\(p.files[$0.file].path) \($0.range) \($0.message)" })"
            }
            for (program, files) in zip(project.programs, fileSets) {
                let rootPath = project.files[program.root.file].path
                let alone = AnalysisSession.forEditor(project: Project(entries: [ProjectEntry(canonicalPath: rootPath, displayPath: String(rootPath.dropFirst("/fuzz/".count)), group: 0, workspaceRoot: "/fuzz")], provider: provider))
                guard !alone.diagnostics.contains(where: { $0.rule == .analysisLimit }) else { continue }
                let together = session.diagnostics.filter { files.contains($0.file) }.map { key($0, in: project) }.sorted()
                let byItself = alone.diagnostics.map { key($0, in: alone.project) }.sorted()
                invariant(together == byItself, "the program of \(rootPath) is analysed differently beside other programs: "
                          + "\(together.filter { !byItself.contains($0) }) vs \(byItself.filter { !together.contains($0) })")
            }
        }
    }

    // A session made reusing an earlier one, after one file changed by a byte, keeps the
    // programs without that file and answers as a session made from scratch.
    if let seed = probes.first, !stopped, !files.isEmpty {
        var edited = files
        let i = seed % edited.count
        let alphabet = Array("ab{} \n\"".utf8)
        let byte = alphabet[(seed / 5) % alphabet.count]
        if edited[i].bytes.isEmpty { edited[i].bytes = [byte] } else { edited[i].bytes[(seed / 3) % edited[i].bytes.count] = byte }
        let editedProvider = MemoryProvider(files: Dictionary(edited.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a }))
        let editedProject = Project(entries: entries, provider: editedProvider)
        // A session of its own to hand over (the one above is still used below).
        let earlier = AnalysisSession.forEditor(project: Project(entries: entries, provider: provider))
        let reused = AnalysisSession.forEditor(project: editedProject, reusing: earlier)
        let fresh = AnalysisSession.forEditor(project: editedProject)
        func key(_ d: Diagnostic) -> String { "\(d.rule) \(d.file) \(d.range) \(d.message) \(d.related.map { "\($0.file) \($0.range) \($0.message)" })" }
        invariant(reused.diagnostics.map(key) == fresh.diagnostics.map(key),
                  "a session reusing the analysis of unchanged programs differs from a fresh one: "
                  + "\(reused.diagnostics.map(key).filter { !fresh.diagnostics.map(key).contains($0) }) vs \(fresh.diagnostics.map(key).filter { !reused.diagnostics.map(key).contains($0) })")
        for file in editedProject.files.prefix(3) {
            for (id, node) in file.model.nodes.enumerated() {
                guard case .screen = node.kind else { continue }
                invariant(reused.example(screenNode: id, file: file.id) == fresh.example(screenNode: id, file: file.id),
                          "a reused session gives another example for node \(id) of \(file.path)")
                let a = reused.scope(atNode: id, file: file.id).map { "\($0.symbol) \($0.status)" }
                let b = fresh.scope(atNode: id, file: file.id).map { "\($0.symbol) \($0.status)" }
                invariant(a == b, "a reused session gives other scope answers at node \(id) of \(file.path)")
            }
        }
    }

    // Previews: every format of the tree, and each screen's example path resolved.
    for program in project.programs.prefix(2) {
        let tree = RoutingTree(program: program, project: project)
        _ = tree.text
        _ = JSON.serialize(TreeJSON.tree(tree, project: project), pretty: true)
        _ = PreviewGraph.dot(tree)
        _ = PreviewGraph.mermaid(tree)
        guard let environment = try? ProgramEnvironment(Environment(flags: [:], optionals: [:]), program: program, project: project) else { continue }
        _ = environment
        var checked = 0
        for f in program.files {
            for (d, decl) in project.files[f].model.declarations.enumerated() where decl.kind == .screen {
                guard checked < 6 else { break }
                checked += 1
                let symbol = Symbol(file: f, declaration: d)
                guard case .reached(let path, let flags, let optionals) = session.example(screen: symbol) else { continue }
                let given = Environment(flags: Dictionary(flags, uniquingKeysWith: { a, _ in a }),
                                        optionals: Dictionary(optionals, uniquingKeysWith: { a, _ in a }))
                guard let env = try? ProgramEnvironment(given, program: program, project: project) else { continue }
                let literal = path.joined(separator: "/")
                guard let parsed = try? PathLiteral.parse(literal),
                      let resolution = try? Resolution.resolve(parsed, program: program, project: project, environment: env) else { continue }
                // The example path, under the example's environment, builds every element.
                // (Only without errors: an undefined name or a syntax hole is read as "may
                // build anything" by the analyses (docs/language.md#after-an-error) but builds
                // nothing in a resolution.)
                if project.programs.count == 1 && !hasErrors {
                    invariant(resolution.firstNotBuilt == nil,
                              "the example path \(literal) of \(project.declaration(symbol).name.text) does not build: \(resolution.text(project: project))")
                }
                _ = resolution.text(project: project)
                _ = JSON.serialize(TreeJSON.resolution(resolution, project: project), pretty: false)
            }
        }
    }
}
