import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// An automatic fix of one diagnostic, as a plain value: a title, text edits per file (byte
/// ranges of the files as the session analysed them, and the text that replaces them), and
/// whether it keeps what the program means (`safe`, applied by `routes lint --fix`) or may
/// change it (`unsafe`, applied with `--unsafe-fixes`; editors offer both).
///
/// Each rule's fixes are a function in a file of their own, `Fixes/<RuleName>Fixes.swift`,
/// that names the rule by its `RuleID` constant; the rule's file declares what they do
/// (`RuleDefinition.fixes`), and `FixRegistry` lists them.
///
/// A safe fix is exact by construction: it removes what nothing uses. An unsafe one changes
/// what the program means, in ways the text alone cannot always tell (a name that resolves
/// now brings its screen's `uses` into the checks, a moved branch builds where it did not), so
/// it is offered only when the program analysed with it applied no longer has its diagnostic
/// and has no error it did not have (`FixCheck`). So is a safe fix of a file with syntax
/// errors: the declaration it removes was read by the parser's recovery, and what is left
/// around it may read differently.
public struct Fix: Sendable, Hashable {
    /// What an editor shows: "Use `settingsStore`".
    public var title: String
    public var applicability: FixApplicability
    /// Whether it is the one fix clearly right for its diagnostic (LSP `isPreferred`).
    public var isPreferred: Bool
    /// The diagnostic it fixes.
    public var diagnostic: Diagnostic
    /// The edits of each file it changes: non-overlapping, at most one insertion per offset.
    public var edits: [FileID: [TextEdit]]
    /// Text it moves (deleted by one of its edits, inserted again by another).
    public var moves: [TextMove]

    public init(title: String, applicability: FixApplicability, isPreferred: Bool = false, diagnostic: Diagnostic,
                edits: [FileID: [TextEdit]], moves: [TextMove] = []) {
        self.title = title
        self.applicability = applicability
        self.isPreferred = isPreferred
        self.diagnostic = diagnostic
        self.edits = edits.mapValues { $0.sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) } }
        self.moves = moves
    }

    /// Where a range of `file` is once the fix is applied: moved by the edits before it; a
    /// range inside text the fix moves goes with that text; a range that meets a replaced
    /// range covers its replacement.
    public func map(_ range: Range<Int>, in file: FileID) -> Range<Int> {
        let edits = self.edits[file] ?? []
        for move in moves where move.file == file && move.source.lowerBound <= range.lowerBound && range.upperBound <= move.source.upperBound {
            let start = EditMap.end(of: move.destination, edits) + move.offset + (range.lowerBound - move.source.lowerBound)
            return start..<(start + range.count)
        }
        return EditMap.map(range, edits)
    }
}

/// Text a fix moves: the bytes `source` of `file` (as analysed) are deleted by one of its
/// edits and inserted again by its insertion at `destination`, `offset` bytes into the
/// inserted text.
public struct TextMove: Sendable, Hashable {
    public var file: FileID
    public var source: Range<Int>
    public var destination: Int
    public var offset: Int
    /// Whether the moved text means the same wherever it stands (a top-level declaration
    /// such as a `link`): an error inside it once moved is its own, which the place it came
    /// from hid (a `link` inside a block is a syntax error and is not judged), not one the
    /// fix made, and does not stop the fix (see `FixCheck`).
    public var keepsItsMeaning: Bool

    public init(file: FileID, source: Range<Int>, destination: Int, offset: Int, keepsItsMeaning: Bool = false) {
        self.file = file
        self.source = source
        self.destination = destination
        self.offset = offset
        self.keepsItsMeaning = keepsItsMeaning
    }
}

extension IDE {
    /// The fixes of one diagnostic of the context's session, best first (none when it has
    /// none, or none that is exact).
    public static func fixes(for diagnostic: Diagnostic, context: FixContext) -> [Fix] {
        guard let fixer = FixRegistry.fixer(diagnostic.rule),
              context.project.files.indices.contains(diagnostic.file) else { return [] }
        return FixRegistry.fixes(of: fixer, diagnostic, context).filter {
            FixRegistry.editsValidText($0, context) && (!FixRegistry.needsCheck($0, context) || FixCheck.holds($0, context))
        }
    }

    /// One fix for as many diagnostics as can be fixed at once: of each diagnostic (of `files`,
    /// all when nil), its preferred fix (else its first) of an allowed applicability (safe, and
    /// unsafe too with `unsafe`) that edits only `editable` files (any when nil), in the
    /// session's order, leaving out a fix whose edits overlap or touch one taken before. Apply
    /// them, analyse again, and repeat for the rest.
    public static func fixAll(context: FixContext, files: Set<FileID>? = nil, editable: Set<FileID>? = nil,
                              unsafe: Bool) -> [Fix] {
        // Per diagnostic, its allowed fixes, the preferred one first: the first that holds is
        // taken (one that needs no check holds).
        var orders: [[Fix]] = []
        for diagnostic in context.session.diagnostics where files?.contains(diagnostic.file) ?? true {
            guard let fixer = FixRegistry.fixer(diagnostic.rule),
                  unsafe || Rules.info(diagnostic.rule)?.fixability == .safe else { continue }
            let allowed = FixRegistry.fixes(of: fixer, diagnostic, context).filter { fix in
                (unsafe || fix.applicability == .safe) && fix.edits.keys.allSatisfy { editable?.contains($0) ?? true }
                    && FixRegistry.editsValidText(fix, context)
            }
            let ordered = allowed.filter(\.isPreferred) + allowed.filter { !$0.isPreferred }
            if !ordered.isEmpty { orders.append(ordered) }
        }
        // The first fixes that the round would apply if they all held (those that overlap no
        // first fix before them) and that need a check (an unsafe one, one of an error, one
        // in a file with syntax errors) are checked together (`FixCheck.holding`): a fix
        // holds with the very fixes it is applied with, not with one that the round then
        // leaves out. The others, and the next fixes of a diagnostic whose first does not
        // hold, are checked one by one.
        let applied = nonOverlapping(orders.map { $0[0] })
        let together = applied.filter { FixRegistry.needsCheck(orders[$0][0], context) }
        let verdicts = FixCheck.holding(together.map { orders[$0][0] }, context).verdicts
        var firstHolds = [Bool?](repeating: nil, count: orders.count)
        for (i, order) in together.enumerated() { firstHolds[order] = verdicts[i] }
        var candidates: [Fix] = []
        for (i, ordered) in orders.enumerated() {
            var rest = ordered[...]
            if let verdict = firstHolds[i] {
                if verdict {
                    candidates.append(ordered[0])
                    continue
                }
                rest = ordered.dropFirst()
            }
            if let first = rest.first(where: { !FixRegistry.needsCheck($0, context) || FixCheck.holds($0, context) }) {
                candidates.append(first)
            }
        }
        return selectNonOverlapping(candidates)
    }

    /// The texts that rounds of `fixAll(context:files:editable:unsafe:)` leave (the fixes of
    /// `files`, editing only them): each round's fixes applied, the project analysed again in
    /// memory, until a round finds nothing, the texts come back to an earlier round's, a file
    /// would grow past the size limit, or `maxRounds`. What an editor's fix-all applies at
    /// once, as `routes lint --fix` does on disk (a round takes only fixes that do not touch,
    /// so that one round leaves the rest). Returns the changed files' final texts and how many
    /// fixes were applied.
    public static func fixAllRounds(context: FixContext, files: Set<FileID>, unsafe: Bool,
                                    maxRounds: Int = 10) -> (texts: [FileID: [UInt8]], fixes: Int) {
        let original = context.project
        var context = context
        var texts: [FileID: [UInt8]] = [:]
        var seen: Set<[FileID: [UInt8]]> = [[:]]
        var applied = 0
        for round in 0..<maxRounds {
            let fixes = fixAll(context: context, files: files, editable: files, unsafe: unsafe)
            guard !fixes.isEmpty else { break }
            var next = texts
            for file in Set(fixes.flatMap(\.edits.keys)) {
                let bytes = apply(edits(of: fixes, in: file), to: context.project.files[file].text.bytes)
                guard bytes.count <= SourceLimits.maxFileBytes else { return (texts, applied) }
                next[file] = bytes
            }
            for (file, bytes) in next where bytes == original.files[file].text.bytes { next[file] = nil }
            guard seen.insert(next).inserted else { break }
            texts = next
            applied += fixes.count
            guard round + 1 < maxRounds,
                  let after = FixCheck.analysis(changed: texts, reported: files, FixContext(session: context.session, provider: context.provider))
            else { break }
            context = FixContext(session: after, provider: context.provider)
        }
        return (texts, applied)
    }

    /// The fixes of a list that can be applied together, in order: a fix is left out when one
    /// of its edits overlaps an edit of a fix taken before, or touches it (two insertions at
    /// one offset would be ordered by chance), or is an insertion inside it. What was taken is
    /// kept per file as sorted ranges that never meet (those that do are merged), so only the
    /// last one that starts at or before an edit's end can meet the edit: n log n for fixes
    /// in the order of their offsets, as a session's diagnostics are (50,000 fixes took seconds
    /// when each was compared with every fix taken before).
    public static func selectNonOverlapping(_ fixes: [Fix]) -> [Fix] {
        nonOverlapping(fixes).map { fixes[$0] }
    }

    /// The indices of the fixes `selectNonOverlapping(_:)` takes, increasing.
    static func nonOverlapping(_ fixes: [Fix]) -> [Int] {
        // Per file, the taken ranges as closed intervals sorted by their start.
        var taken: [FileID: [ClosedRange<Int>]] = [:]
        func meets(_ edit: Range<Int>, _ list: [ClosedRange<Int>]) -> Bool {
            let e = edit.lowerBound ... edit.upperBound
            // The first taken range that starts after the edit's end; the one before it is the
            // only one that may meet the edit.
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if list[mid].lowerBound <= e.upperBound { lo = mid + 1 } else { hi = mid }
            }
            return lo > 0 && list[lo - 1].upperBound >= e.lowerBound
        }
        // Adds a range, merged with those it meets (the edits of one fix may meet each other):
        // the list's ranges stay apart.
        func insert(_ range: ClosedRange<Int>, into list: inout [ClosedRange<Int>]) {
            if list.last.map({ $0.upperBound < range.lowerBound }) ?? true {
                list.append(range)
                return
            }
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if list[mid].upperBound < range.lowerBound { lo = mid + 1 } else { hi = mid }
            }
            // list[lo] is the first that ends at or after the range's start.
            var merged = range, end = lo
            while end < list.count && list[end].lowerBound <= merged.upperBound {
                merged = min(merged.lowerBound, list[end].lowerBound) ... max(merged.upperBound, list[end].upperBound)
                end += 1
            }
            list.replaceSubrange(lo ..< end, with: [merged])
        }
        var out: [Int] = []
        for (index, fix) in fixes.enumerated() {
            let clash = fix.edits.contains { file, edits in
                guard let list = taken[file] else { return false }
                return edits.contains { meets($0.range, list) }
            }
            if clash { continue }
            for (file, edits) in fix.edits {
                var list = taken.removeValue(forKey: file) ?? []
                for edit in edits { insert(edit.range.lowerBound ... edit.range.upperBound, into: &list) }
                taken[file] = list
            }
            out.append(index)
        }
        return out
    }

    /// The edits of several fixes of one file, sorted (they must not overlap: see
    /// ``selectNonOverlapping(_:)``).
    public static func edits(of fixes: [Fix], in file: FileID) -> [TextEdit] {
        fixes.flatMap { $0.edits[file] ?? [] }.sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
    }

    /// One edit that turns `old` into `new`: the span between their common start and their
    /// common end replaced (a common part never splits a UTF-8 sequence, so the new text is
    /// whole characters).
    public static func replacement(of old: [UInt8], by new: [UInt8]) -> TextEdit {
        var start = 0
        while start < old.count && start < new.count && old[start] == new[start] { start += 1 }
        var end = 0
        while end < old.count - start && end < new.count - start && old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        // Out to whole characters on both sides (a continuation byte is 0b10xxxxxx).
        func continues(_ bytes: [UInt8], _ i: Int) -> Bool { i < bytes.count && bytes[i] & 0xC0 == 0x80 }
        while start > 0 && (continues(old, start) || continues(new, start)) { start -= 1 }
        while end > 0 && (continues(old, old.count - end) || continues(new, new.count - end)) { end -= 1 }
        return TextEdit(range: start..<(old.count - end), newText: String(decoding: new[start..<(new.count - end)], as: UTF8.self))
    }

    /// `bytes` with non-overlapping edits applied.
    public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.newText.utf8.count })
        var at = 0
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            let lo = max(at, min(edit.range.lowerBound, bytes.count))
            out.append(contentsOf: bytes[at..<lo])
            out.append(contentsOf: edit.newText.utf8)
            at = max(lo, min(edit.range.upperBound, bytes.count))
        }
        out.append(contentsOf: bytes[at...])
        return out
    }
}
