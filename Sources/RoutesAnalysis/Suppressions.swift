import RoutesModel
import RoutesSyntax

/// The suppression comments of a project's files and what they suppress:
/// `// routes:ignore rule-id[, rule-id]` at the end of a line suppresses those rules'
/// diagnostics whose range starts on that line; alone on a line, on the line below. Then
/// the settings of each file's workspace: a rule `off` reports nothing, `warning` or `error`
/// changes its severity. What suppresses nothing is itself reported (`UnusedSuppression`).
struct Suppressions {
    /// One rule id of a suppression comment.
    struct Entry {
        var word: String
        var range: Range<Int>
        var used = false
    }

    /// A suppression comment: the line it applies to, and its entries.
    struct Comment {
        var file: FileID
        var line: Int
        var range: Range<Int>
        var entries: [Entry]
    }

    /// The suppression comments of a file (none without the marker anywhere in it).
    static func comments(in file: SourceFile) -> [Comment] {
        // A project that does not keep texts keeps those that mention the marker: a file
        // without its text has no suppression comment, and is not read again for it.
        guard file.keepsText else { return [] }
        let text = file.text
        guard SuppressionMarker.isMentioned(in: text.bytes) else { return [] }
        var out: [Comment] = []
        // (A lint drops the tokens after lowering: they are lexed again for the few files with
        // the marker.)
        let tokens = file.keptSyntax.hasTokens ? file.keptSyntax.tokens : Lexer.tokenize(text).tokens
        for token in tokens where token.kind == .lineComment {
            // `//`, spaces, the marker, then the rule ids separated by commas.
            var i = token.start + 2
            while i < token.end && (text.bytes[i] == 0x20 || text.bytes[i] == 0x09) { i += 1 }
            let marker = SuppressionMarker.word
            guard token.end - i >= marker.count, Array(text.bytes[i..<(i + marker.count)]) == marker else { continue }
            i += marker.count
            guard i == token.end || text.bytes[i] == 0x20 || text.bytes[i] == 0x09 else { continue }
            var entries: [Entry] = []
            var start: Int? = nil
            func close(_ end: Int) {
                guard let s = start else { return }
                var e = end
                while e > s && (text.bytes[e - 1] == 0x20 || text.bytes[e - 1] == 0x09) { e -= 1 }
                if e > s { entries.append(Entry(word: text.text(s..<e), range: s..<e)) }
                start = nil
            }
            while i < token.end {
                let b = text.bytes[i]
                if b == UInt8(ascii: ",") {
                    close(i)
                } else if start == nil && b != 0x20 && b != 0x09 {
                    start = i
                }
                i += 1
            }
            close(token.end)
            let line = text.line(containing: token.start)
            // Alone on its line: it applies to the next one.
            var k = token.start
            while k > 0 && (text.bytes[k - 1] == 0x20 || text.bytes[k - 1] == 0x09) { k -= 1 }
            let alone = k == text.lineStart(containing: token.start)
            out.append(Comment(file: file.id, line: alone ? line + 1 : line, range: token.range, entries: entries))
        }
        return out
    }

    /// `diagnostics` with the files' settings and suppressions applied, and the suppressions
    /// that suppressed nothing reported.
    /// `known`: the comments of files found before (by an earlier session, for files the same
    /// in both); `found` gets every file's comments as read (none used yet), for a later one.
    static func apply(_ diagnostics: [Diagnostic], project: Project, settings: [String: RuleSettings],
                      known: [FileID: [Comment]] = [:], found: inout [FileID: [Comment]]) -> [Diagnostic] {
        var comments: [FileID: [Comment]] = [:]
        for f in project.files.indices {
            let c = known[f] ?? Self.comments(in: project.files[f])
            if !c.isEmpty { comments[f] = c }
        }
        found = comments
        func setting(_ rule: RuleID, _ f: FileID) -> RuleSetting? {
            settings[project.files[f].workspaceRoot]?.rules[rule]
        }
        var out: [Diagnostic] = []
        out.reserveCapacity(diagnostics.count)
        for var d in diagnostics {
            let s = setting(d.rule, d.file)
            if s == .off { continue }
            if Rules.info(d.rule)?.suppressible ?? false, !(comments[d.file] ?? []).isEmpty {
                let line = project.files[d.file].text.line(containing: d.range.lowerBound)
                var suppressed = false
                for c in comments[d.file]!.indices where comments[d.file]![c].line == line {
                    for e in comments[d.file]![c].entries.indices where comments[d.file]![c].entries[e].word == d.rule.rawValue {
                        comments[d.file]![c].entries[e].used = true
                        suppressed = true
                    }
                }
                if suppressed { continue }
            }
            if let s { d.severity = s == .error ? .error : .warning }
            out.append(d)
        }
        // What suppressed nothing.
        for (f, list) in comments.sorted(by: { $0.key < $1.key }) {
            if setting(UnusedSuppression.id, f) == .off { continue }
            for c in list {
                if c.entries.isEmpty {
                    out.append(UnusedSuppression.diagnostic(.empty, file: f, range: c.range))
                }
                for e in c.entries where !e.used {
                    let finding: UnusedSuppression.Finding
                    if let info = Rules.info(RuleID(e.word)) {
                        // A rule turned off suppresses nothing here, but may elsewhere: not reported.
                        if setting(info.id, f) == .off { continue }
                        finding = info.suppressible ? .unused(info.id) : .notSuppressible(info.id)
                    } else {
                        finding = .unknown(e.word, suggestion: Suggestion.closest(to: e.word, among: Rules.all.map(\.id.rawValue)))
                    }
                    var d = UnusedSuppression.diagnostic(finding, file: f, range: e.range)
                    if let s = setting(UnusedSuppression.id, f) { d.severity = s == .error ? .error : .warning }
                    out.append(d)
                }
            }
        }
        return out
    }
}

/// A `// routes:ignore …` comment of a file, as the fixes of `UnusedSuppression` read it.
public struct SuppressionComment: Sendable, Hashable {
    /// The line (0-based) whose diagnostics it suppresses: its own, or the next one when it is
    /// alone on its line.
    public var line: Int
    /// The comment.
    public var range: Range<Int>
    /// Its rule ids as written, in order.
    public var entries: [Range<Int>]

    /// The suppression comments of a file.
    public static func all(in file: SourceFile) -> [SuppressionComment] {
        Suppressions.comments(in: file).map { SuppressionComment(line: $0.line, range: $0.range, entries: $0.entries.map(\.range)) }
    }
}
