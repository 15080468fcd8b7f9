import RoutesAnalysis
import RoutesIDE
import RoutesModel
import RoutesSyntax

/// The fixes of any input (docs/dev/architecture.md, How fixes are made and applied): every
/// edit lies in its file, a fix's edits of a file are sorted and do not overlap, a safe fix
/// applied removes its diagnostic and adds no error (an unsafe one is checked so before it is
/// offered), and organizing imports keeps the set of files imported.
public func exerciseFixes(_ session: AnalysisSession, files: [(path: String, bytes: [UInt8])]) {
    let project = session.project
    let context = FixContext(session: session)
    func inBounds(_ edits: [TextEdit], _ f: FileID) -> Bool {
        var end = 0
        for e in edits {
            guard e.range.lowerBound >= end, e.range.upperBound <= project.files[f].text.count else { return false }
            end = e.range.upperBound
        }
        return true
    }
    // A few diagnostics: each unsafe fix offered costs an analysis.
    for d in session.diagnostics.prefix(6) {
        for fix in IDE.fixes(for: d, context: context) {
            for (f, edits) in fix.edits { invariant(inBounds(edits, f), "the edits of «\(fix.title)» overlap or leave \(project.files[f].path)") }
            guard fix.applicability == .safe else { continue }
            // The files as given (a file that is not valid UTF-8 is never edited: its text as
            // read has replacement characters, which would lex differently).
            var texts = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
            for (f, edits) in fix.edits {
                invariant(project.files[f].text.invalidUTF8.isEmpty, "«\(fix.title)» edits \(project.files[f].path), which is not valid UTF-8")
                texts[project.files[f].path] = IDE.apply(edits, to: project.files[f].text.bytes)
            }
            let entries = project.files.map {
                ProjectEntry(canonicalPath: $0.path, displayPath: $0.displayPath, group: $0.group, workspaceRoot: $0.workspaceRoot)
            }
            let after = AnalysisSession.forDiagnostics(project: Project(entries: entries, provider: MemoryProvider(files: texts)))
            let errors = Set(session.diagnostics.filter { $0.severity == .error }.map { "\($0.rule) \($0.file) \(fix.map($0.range, in: $0.file))" })
            // (Its diagnostic is the one of its rule and message where the fix put its range:
            // another error there, known before, is not it, as `FixCheck` reads it: an `else`
            // added where a `}` is missing too leaves that error at the end of the insertion.)
            let message = Diagnostic.withoutNumbers(d.message)
            for e in after.diagnostics {
                invariant(!(e.rule == d.rule && e.file == d.file && e.range == fix.map(d.range, in: d.file)
                            && Diagnostic.withoutNumbers(e.message) == message),
                          "«\(fix.title)» left its diagnostic «\(d.message)»")
                invariant(e.severity != .error || errors.contains("\(e.rule) \(e.file) \(e.range)"),
                          "«\(fix.title)» added the error «\(e.message)»")
            }
        }
    }
    for file in project.files.prefix(3) {
        let edits = IDE.organizeImports(project: project, file: file.id)
        guard !edits.isEmpty else { continue }
        invariant(inBounds(edits, file.id), "organizing the imports of \(file.path) edits outside it")
        let organized = Lowering.lower(SyntaxTree.parse(SourceText(bytes: IDE.apply(edits, to: file.text.bytes))))
        // What the imports name, not how they are spelled: organizing merges the spellings of
        // one file (`parts/a.routes`, `./parts/a.routes`, `parts/../parts/a.routes`).
        let folder = PathUtil.directory(of: file.path)
        func targets(_ imports: [Import]) -> Set<String> { Set(imports.map { PathUtil.join(folder, $0.path) }) }
        invariant(targets(organized.imports) == targets(file.model.imports),
                  "organizing the imports of \(file.path) changed what it imports")
    }
}
