import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Checks a fix by analysing the project with it applied, for the fixes whose effect the text
/// alone cannot tell (a name that now resolves brings its screen's `uses` into the checks, a
/// moved branch builds where it did not): a fix is offered only when, after it, its
/// diagnostic is gone, no error appears that was not there before, no other diagnostic of
/// its rule appears (a fix that only moves the problem, as a branch moved before the one that
/// shadows it and shadowing it in turn, is none: `routes lint --fix` would go back and forth),
/// and no suppression stops suppressing (a line inserted between a `routes:ignore` comment
/// and the line it was written for: the next round would remove the comment, and then fix
/// what the person chose to keep).
///
/// The project is built again from the session's texts in memory (the files the fix leaves
/// alone are not parsed again), and only the programs holding the changed files (or the
/// diagnostic's) are analysed: one program's analysis per check.
enum FixCheck {
    /// A diagnostic's identity across the fix: its rule, file and range (moved by the fix).
    private struct Key: Hashable {
        var rule: RuleID
        var file: FileID
        var range: Range<Int>
    }

    static func holds(_ fix: Fix, _ context: FixContext) -> Bool {
        let session = context.session
        guard let after = analysis(applying: fix, context) else { return false }
        let diagnostic = fix.diagnostic
        let target = Key(rule: diagnostic.rule, file: diagnostic.file, range: fix.map(diagnostic.range, in: diagnostic.file))
        // What was there before, but the diagnostic fixed: an error the fix leaves where it
        // was is one of them, one it makes in the diagnostic's place is not.
        var known = Set<Key>()
        func watched(_ d: Diagnostic) -> Bool {
            d.severity == .error || d.rule == diagnostic.rule || d.rule == .unusedSuppression
        }
        for existing in session.diagnostics where watched(existing) && existing != diagnostic {
            known.insert(Key(rule: existing.rule, file: existing.file, range: fix.map(existing.range, in: existing.file)))
        }
        let message = Diagnostic.withoutNumbers(diagnostic.message)
        for found in after.diagnostics {
            let key = Key(rule: found.rule, file: found.file, range: found.range)
            // (The same message too: a zero-width error where the fix inserts, as a `}` missing
            // at the end of the file after an `else` added there, is another one, known.)
            if key == target && Diagnostic.withoutNumbers(found.message) == message { return false }
            if watched(found) && !known.contains(key) { return false }
        }
        return true
    }

    /// The analysis of the programs that hold the files `fix` changes (and its diagnostic's
    /// file), with the fix applied; nil when a changed file would grow past the size limit.
    static func analysis(applying fix: Fix, _ context: FixContext) -> AnalysisSession? {
        var changed: [FileID: [UInt8]] = [:]
        for (file, edits) in fix.edits {
            let bytes = IDE.apply(edits, to: context.project.files[file].text.bytes)
            if bytes.count > SourceLimits.maxFileBytes { return nil }
            changed[file] = bytes
        }
        return analysis(changed: changed, reported: Set(fix.edits.keys).union([fix.diagnostic.file]), context)
    }

    /// The analysis of the programs that hold the `reported` files, with the `changed` files'
    /// texts in place of theirs; nil when the project's files would not keep their ids.
    static func analysis(changed: [FileID: [UInt8]], reported: Set<FileID>, _ context: FixContext) -> AnalysisSession? {
        let session = context.session
        let project = session.project
        var texts: [String: [UInt8]] = [:]
        let cache = ParseCache()
        for file in project.files {
            if let bytes = changed[file.id] {
                texts[file.path] = bytes
            } else {
                texts[file.path] = file.text.bytes
                cache.remember(file.path, tree: file.keptSyntax, model: file.model)
            }
        }
        // Every file of the project is an entry, in the order of its id, so that each keeps
        // its id in the new project.
        let entries = project.files.map {
            ProjectEntry(canonicalPath: $0.path, displayPath: $0.displayPath, group: $0.group, workspaceRoot: $0.workspaceRoot)
        }
        let fixed = Project(entries: entries, provider: MemorySources(texts: texts, base: context.provider), cache: cache)
        guard fixed.files.count >= project.files.count,
              project.files.indices.allSatisfy({ fixed.files[$0].path == project.files[$0].path }) else { return nil }
        return AnalysisSession.forDiagnostics(project: fixed, limits: session.limits, reported: reported,
                               settings: session.settings)
    }
}
