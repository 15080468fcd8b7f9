import RoutesModel
import RoutesSyntax

/// The suppression comments of a project's files and what they suppress:
/// `// routes:ignore rule-id[, rule-id] [reason]` at the end of a line suppresses those
/// rules' diagnostics whose range starts on that line; alone on a line, on the line below. Then
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
            var offset = token.start + 2
            while offset < token.end && (text.bytes[offset] == 0x20 || text.bytes[offset] == 0x09) { offset += 1 }
            let marker = SuppressionMarker.word
            guard token.end - offset >= marker.count, Array(text.bytes[offset..<(offset + marker.count)]) == marker else { continue }
            offset += marker.count
            guard offset == token.end || text.bytes[offset] == 0x20 || text.bytes[offset] == 0x09 else { continue }
            var entries: [Entry] = []
            var start: Int? = nil
            func close(_ end: Int) {
                guard let entryStart = start else { return }
                var entryEnd = end
                while entryEnd > entryStart && (text.bytes[entryEnd - 1] == 0x20 || text.bytes[entryEnd - 1] == 0x09) { entryEnd -= 1 }
                if entryEnd > entryStart { entries.append(Entry(word: text.text(entryStart..<entryEnd), range: entryStart..<entryEnd)) }
                start = nil
            }
            // An id ends at a space (or a `:`); after it a `,` continues the list, and anything
            // else is the reason, which suppresses nothing (`unreachable-screen -- not designed
            // yet`).
            var afterEntry = false
            while offset < token.end {
                let byte = text.bytes[offset]
                if byte == UInt8(ascii: ",") {
                    close(offset)
                    afterEntry = false
                } else if byte == 0x20 || byte == 0x09 || (byte == UInt8(ascii: ":") && start != nil) {
                    // (`unreachable-screen: why`, as other tools write a reason, ends the id too.)
                    if start != nil {
                        close(offset)
                        afterEntry = true
                    }
                } else if afterEntry {
                    break
                } else if start == nil {
                    start = offset
                }
                offset += 1
            }
            close(offset)
            let line = text.line(containing: token.start)
            // Alone on its line: it applies to the next one.
            var blankStart = token.start
            while blankStart > 0 && (text.bytes[blankStart - 1] == 0x20 || text.bytes[blankStart - 1] == 0x09) { blankStart -= 1 }
            let alone = blankStart == text.lineStart(containing: token.start)
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
            let fileComments = known[f] ?? Self.comments(in: project.files[f])
            if !fileComments.isEmpty { comments[f] = fileComments }
        }
        found = comments
        func setting(_ rule: RuleID, _ f: FileID) -> RuleSetting? {
            settings[project.files[f].workspaceRoot]?.rules[rule]
        }
        var out: [Diagnostic] = []
        out.reserveCapacity(diagnostics.count)
        for var diagnostic in diagnostics {
            let ruleSetting = setting(diagnostic.rule, diagnostic.file)
            if ruleSetting == .off { continue }
            if Rules.info(diagnostic.rule)?.suppressible ?? false, !(comments[diagnostic.file] ?? []).isEmpty {
                let line = project.files[diagnostic.file].text.line(containing: diagnostic.range.lowerBound)
                var suppressed = false
                for i in comments[diagnostic.file]!.indices where comments[diagnostic.file]![i].line == line {
                    for j in comments[diagnostic.file]![i].entries.indices where comments[diagnostic.file]![i].entries[j].word == diagnostic.rule.rawValue {
                        comments[diagnostic.file]![i].entries[j].used = true
                        suppressed = true
                    }
                }
                if suppressed { continue }
            }
            if let ruleSetting { diagnostic.severity = ruleSetting == .error ? .error : .warning }
            out.append(diagnostic)
        }
        // What suppressed nothing.
        for (f, list) in comments.sorted(by: { $0.key < $1.key }) {
            if setting(UnusedSuppression.id, f) == .off { continue }
            for comment in list {
                if comment.entries.isEmpty {
                    out.append(UnusedSuppression.diagnostic(.empty, file: f, range: comment.range))
                }
                for entry in comment.entries where !entry.used {
                    let finding: UnusedSuppression.Finding
                    if let info = Rules.info(RuleID(entry.word)) {
                        // A rule turned off suppresses nothing here, but may elsewhere: not reported.
                        if setting(info.id, f) == .off { continue }
                        finding = info.suppressible ? .unused(info.id) : .notSuppressible(info.id)
                    } else {
                        finding = .unknown(entry.word, suggestion: Suggestion.closest(to: entry.word, among: Rules.all.map(\.id.rawValue)))
                    }
                    var diagnostic = UnusedSuppression.diagnostic(finding, file: f, range: entry.range)
                    if let ruleSetting = setting(UnusedSuppression.id, f) { diagnostic.severity = ruleSetting == .error ? .error : .warning }
                    out.append(diagnostic)
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
