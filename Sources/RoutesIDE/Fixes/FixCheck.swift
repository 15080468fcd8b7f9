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

    /// Whether a fix holds: the check above, of the fix alone.
    static func holds(_ fix: Fix, _ context: FixContext) -> Bool { failures([fix], context) == nil }

    /// Whether each of `fixes` holds (as `holds(_:_:)` tells), and how many analyses that
    /// took. The fixes must not overlap (see `IDE.selectNonOverlapping(_:)`): they are
    /// checked together first, with one analysis, as a round of `routes lint --fix` applies
    /// them; when the group does not hold, a fix whose own diagnostic is still there is checked
    /// alone, and the rest as two halves, each in the same way. A group of fixes that hold,
    /// the common case, costs one analysis instead of one per fix (a file with a thousand
    /// syntax errors each with a safe fix took a minute and a half to fix); one fix that
    /// does not hold costs a few more per halving. The group's verdict is that of the texts a
    /// round writes: fixes that each hold alone may fail together, and are then told apart.
    static func holding(_ fixes: [Fix], _ context: FixContext) -> (verdicts: [Bool], analyses: Int) {
        var verdicts = [Bool](repeating: false, count: fixes.count)
        var analyses = 0
        func settle(_ group: ArraySlice<Int>) {
            guard let first = group.first else { return }
            if group.count == 1 {
                analyses += 1
                verdicts[first] = holds(fixes[first], context)
                return
            }
            analyses += 1
            guard let notFixed = failures(group.map { fixes[$0] }, context) else {
                for i in group { verdicts[i] = true }
                return
            }
            let rest = group.enumerated().filter { !notFixed.contains($0.offset) }.map(\.element)
            for (offset, i) in group.enumerated() where notFixed.contains(offset) {
                analyses += 1
                verdicts[i] = holds(fixes[i], context)
            }
            if rest.count < group.count {
                settle(rest[...])
            } else {
                let middle = group.startIndex + group.count / 2
                settle(group[..<middle])
                settle(group[middle...])
            }
        }
        settle(Array(fixes.indices)[...])
        return (verdicts, analyses)
    }

    /// Nil when the fixes applied together hold (each one's diagnostic gone, no error, no
    /// diagnostic of their rules and no unused suppression that was not there before, each
    /// range moved by the fixes' edits, as `Fix.map(_:in:)` moves it for one fix); else the
    /// positions of the fixes whose diagnostics are still there (none when the group fails
    /// otherwise, or a changed file would grow past the size limit).
    private static func failures(_ fixes: [Fix], _ context: FixContext) -> Set<Int>? {
        let session = context.session
        var changed: [FileID: [UInt8]] = [:]
        var maps: [FileID: EditMap.Indexed] = [:]
        var moves: [FileID: [TextMove]] = [:]
        for fix in fixes {
            for move in fix.moves { moves[move.file, default: []].append(move) }
        }
        for file in Set(fixes.flatMap(\.edits.keys)) {
            let edits = IDE.edits(of: fixes, in: file)
            let bytes = IDE.apply(edits, to: context.project.files[file].text.bytes)
            if bytes.count > SourceLimits.maxFileBytes { return [] }
            changed[file] = bytes
            maps[file] = EditMap.Indexed(edits)
        }
        var reported = Set(changed.keys)
        for fix in fixes { reported.insert(fix.diagnostic.file) }
        guard let after = analysis(changed: changed, reported: reported, context) else { return [] }
        // Where a range is once every fix is applied (as `Fix.map(_:in:)` for one fix).
        func map(_ range: Range<Int>, in file: FileID) -> Range<Int> {
            guard let edits = maps[file] else { return range }
            for move in moves[file] ?? [] where move.source.lowerBound <= range.lowerBound && range.upperBound <= move.source.upperBound {
                let start = edits.end(of: move.destination) + move.offset + (range.lowerBound - move.source.lowerBound)
                return start..<(start + range.count)
            }
            return edits.map(range)
        }
        let rules = Set(fixes.map(\.diagnostic.rule))
        func watched(_ d: Diagnostic) -> Bool { d.severity == .error || rules.contains(d.rule) || d.rule == .unusedSuppression }
        let fixedDiagnostics = Set(fixes.map(\.diagnostic))
        var known = Set<Key>()
        for existing in session.diagnostics where watched(existing) && !fixedDiagnostics.contains(existing) {
            known.insert(Key(rule: existing.rule, file: existing.file, range: map(existing.range, in: existing.file)))
        }
        var targets: [Key: [(fix: Int, message: String)]] = [:]
        for (i, fix) in fixes.enumerated() {
            let d = fix.diagnostic
            targets[Key(rule: d.rule, file: d.file, range: map(d.range, in: d.file)), default: []].append((i, Diagnostic.withoutNumbers(d.message)))
        }
        // Where the moved texts that keep their meaning are once the fixes are applied.
        var ownTexts: [(file: FileID, range: Range<Int>)] = []
        for (file, list) in moves {
            for move in list where move.keepsItsMeaning {
                let start = (maps[file]?.end(of: move.destination) ?? move.destination) + move.offset
                ownTexts.append((file, start..<(start + move.source.count)))
            }
        }
        var holds = true
        var notFixed = Set<Int>()
        for found in after.diagnostics {
            let key = Key(rule: found.rule, file: found.file, range: found.range)
            if let list = targets[key] {
                let message = Diagnostic.withoutNumbers(found.message)
                let same = list.filter { $0.message == message }
                if !same.isEmpty {
                    holds = false
                    for target in same { notFixed.insert(target.fix) }
                    continue
                }
            }
            if watched(found) && !known.contains(key) {
                // An error of a moved declaration's own (not a syntax error: the move wrote
                // the text well) is what its old place hid.
                let own = found.rule != .syntaxError && !rules.contains(found.rule)
                    && ownTexts.contains { $0.file == found.file && $0.range.lowerBound <= found.range.lowerBound && found.range.upperBound <= $0.range.upperBound }
                if !own { holds = false }
            }
        }
        return holds ? nil : notFixed
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
