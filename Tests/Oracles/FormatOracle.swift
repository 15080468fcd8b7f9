import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import TestSupport

/// The formatter's properties (docs/formatting.md), checked on a set of files in memory: the
/// oracle of the property tests (`FormatterPropertyTests`) and of the fuzz target `fuzz-format`.
///
/// - It refuses only text with invalid UTF-8, or layout around syntax errors that the
///   parser's recovery reads; never a file without syntax errors, never as an internal error.
/// - It is idempotent, and keeps the comments in their order (trailing spaces aside).
/// - Formatting a range, then everything, is formatting everything.
/// - Every file's model and every diagnostic of the analysis are the same after formatting,
///   each position compared as a place among the tokens, numbers in messages and trailing
///   spaces in doc comments left out.
public enum FormatOracle {
    /// What fails, in words (nothing when every property holds). `files` by path; `paths` the
    /// entries of the project, in order, under the workspace `root`; `ranges` the ranges of a
    /// file of that size formatted alone, then whole.
    public static func check(files: [String: [UInt8]], entries paths: [String], root: String,
                             ranges: (Int) -> [Range<Int>] = FormatOracle.probeRanges(size:)) -> [String] {
        var problems: [String] = []
        let entries = paths.enumerated().map { i, p in
            ProjectEntry(canonicalPath: p, displayPath: String(p.dropFirst(root.count + 1)), group: i, workspaceRoot: root)
        }
        let before = Project(entries: entries, provider: MemoryProvider(bytes: files))
        var after = files
        for file in before.files {
            let tree = file.syntax
            let formatted: Formatted
            do {
                formatted = try Formatter.format(tree)
            } catch {
                if error.reason == .internalError || (tree.diagnostics.isEmpty && error.reason != .invalidUTF8) {
                    problems.append("\(file.path): refused: \(error.message)")
                }
                continue
            }
            after[file.path] = formatted.bytes
            let text = String(decoding: formatted.bytes, as: UTF8.self)
            // The editor's edits (whitespace only, in order) turn the text into the same.
            var edited = tree.source.bytes, lastStart = Int.max
            for edit in formatted.edits(from: tree).reversed() {
                guard edit.range.upperBound <= lastStart, edit.range.upperBound <= edited.count else {
                    problems.append("\(file.path): the formatting edits overlap or leave the text")
                    break
                }
                edited.replaceSubrange(edit.range, with: edit.replacement)
                lastStart = edit.range.lowerBound
            }
            if edited != formatted.bytes {
                problems.append("\(file.path): the formatting edits make another text:\n\(String(decoding: edited, as: UTF8.self))")
            }
            // Idempotent.
            do {
                let again = try Formatter.format(SyntaxTree.parse(SourceText(bytes: formatted.bytes)))
                if again.changed {
                    problems.append("\(file.path): not idempotent; formatted once:\n\(text)\ntwice:\n\(String(decoding: again.bytes, as: UTF8.self))")
                }
            } catch {
                problems.append("\(file.path): its formatted text is refused: \(error.message)\n\(text)")
            }
            // The same comments.
            if comments(tree) != comments(formatted.tree) {
                problems.append("\(file.path): the comments differ:\n\(comments(tree))\n\(comments(formatted.tree))")
            }
            // A range, then everything: the whole format.
            for range in ranges(tree.source.count) {
                do {
                    let part = try Formatter.format(tree, range: range)
                    let whole = try Formatter.format(SyntaxTree.parse(SourceText(bytes: part.bytes)))
                    if whole.bytes != formatted.bytes {
                        problems.append("\(file.path): formatting \(range) then everything differs from formatting everything:\n"
                                        + String(decoding: whole.bytes, as: UTF8.self))
                    }
                } catch {
                    problems.append("\(file.path): formatting \(range) is refused: \(error.message)")
                }
            }
        }
        let afterProject = Project(entries: entries, provider: MemoryProvider(bytes: after))
        guard before.files.map(\.path) == afterProject.files.map(\.path) else {
            return problems + ["the files read differ: \(before.files.map(\.path)) vs \(afterProject.files.map(\.path))"]
        }
        for (a, b) in zip(before.files, afterProject.files) {
            let x = describe(a.model, Places(a.syntax)), y = describe(b.model, Places(b.syntax))
            if x != y {
                let first = zip(x, y).first { $0 != $1 }.map { "\($0)\n  vs \($1)" } ?? "\(x.count) vs \(y.count) lines"
                problems.append("\(a.path): the model differs: \(first)")
            }
        }
        let d1 = describe(AnalysisSession.forEditor(project: before).diagnostics, before)
        let d2 = describe(AnalysisSession.forEditor(project: afterProject).diagnostics, afterProject)
        if d1 != d2 {
            problems.append("the diagnostics differ:\n" + d1.filter { !d2.contains($0) }.joined(separator: "\n")
                            + "\n  vs\n" + d2.filter { !d1.contains($0) }.joined(separator: "\n"))
        }
        return problems
    }

    /// Four short ranges of a text of `size` bytes: at its start, a third and half way in,
    /// and at its last byte.
    public static func probeRanges(size: Int) -> [Range<Int>] {
        [0, size / 3, size / 2, size - 1].enumerated().compactMap { index, start in
            start >= 0 ? start..<min(size, start + 1 + index * 7) : nil
        }
    }

    /// The comments of a tree, in order, without trailing spaces.
    static func comments(_ tree: SyntaxTree) -> [String] {
        tree.tokens.filter { $0.kind == .lineComment || $0.kind == .docComment }.map {
            var s = tree.text(of: $0)
            while s.last == " " || s.last == "\t" { s.removeLast() }
            return s
        }
    }

    /// Byte offsets as places among the tokens that are not whitespace: the first that ends
    /// after the offset, and how far into it (0 in the whitespace before it).
    struct Places {
        var starts: [Int] = []
        var ends: [Int] = []
        init(_ tree: SyntaxTree) {
            let bytes = tree.source.bytes
            for t in tree.tokens where t.kind != .whitespace && t.kind != .byteOrderMark && t.kind != .eof {
                starts.append(t.start)
                // A comment ends at its last non-blank character (the formatter drops the rest).
                var end = t.end
                if t.kind == .lineComment || t.kind == .docComment {
                    while end > t.start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
                }
                ends.append(end)
            }
        }
        func callAsFunction(_ offset: Int) -> String {
            var lo = 0, hi = ends.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ends[mid] <= offset { lo = mid + 1 } else { hi = mid }
            }
            return lo < starts.count ? "\(lo)+\(max(0, offset - starts[lo]))" : "\(lo)"
        }
        func callAsFunction(_ range: Range<Int>) -> String { "\(self(range.lowerBound))…\(self(range.upperBound))" }
    }

    static func name(_ n: Name?, _ p: Places) -> String { n.map { "\($0.text)@\(p($0.range))" } ?? "-" }

    static func withoutNumbers(_ s: String) -> String {
        var out = ""
        var digits = false
        for c in s {
            if c.isASCII && c.isNumber {
                if !digits { out.append("#") }
                digits = true
            } else {
                out.append(c)
                digits = false
            }
        }
        return out
    }

    /// A file's model, positions as places.
    static func describe(_ model: FileModel, _ p: Places) -> [String] {
        var out: [String] = []
        for i in model.imports { out.append("import \(i.path) \(p(i.range))") }
        for d in model.declarations {
            let doc = d.doc.map { $0.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }.joined(separator: "\n") } ?? "-"
            out.append("\(d.kind) \(name(d.name, p)) \(p(d.range)) doc=\(doc) \(d.parameters.map { "\(name($0.label, p)): \($0.type)" })"
                       + " \(d.presentation) type=\(d.type ?? "-") from=\(name(d.from, p)) body=\(d.body ?? -1)")
        }
        for (i, n) in model.nodes.enumerated() {
            let kind: String
            switch n.kind {
            case .screen(let s, let uses, let nesting):
                kind = "screen \(name(s, p)) uses \(uses.range) \(model.uses(uses).map { name($0, p) }) \(nesting ?? -1)"
            case .anyOf(let branches): kind = "anyOf \(branches.range) \(Array(model.branches(branches)))"
            case .conditional(let f, let a, let b): kind = "conditional \(name(f, p)) \(a) \(b)"
            case .ifLet(let o, let a, let b): kind = "ifLet \(name(o, p)) \(a) \(b ?? -1)"
            case .ifScreen(let s, let a, let b): kind = "ifScreen \(name(s, p)) \(a) \(b ?? -1)"
            case .wildcard(let s, let body): kind = "wildcard \(name(s, p)) \(body)"
            case .empty: kind = "empty"
            case .reference(let r): kind = "reference \(name(r, p))"
            case .missing: kind = "missing"
            }
            out.append("\(i) \(kind) \(p(n.range)) head \(p(n.head)) \(n.anyCondition)")
        }
        for d in model.diagnostics { out.append("\(d.rule) \(p(d.range)) \(withoutNumbers(d.message))") }
        out.append("skipped \(model.skippedNames)")
        return out
    }

    /// Diagnostics, positions as places in their files.
    static func describe(_ diagnostics: [Diagnostic], _ project: Project) -> [String] {
        var places: [Int: Places] = [:]
        func place(_ file: FileID, _ r: Range<Int>) -> String {
            if places[file] == nil { places[file] = Places(project.files[file].syntax) }
            return places[file]!(r)
        }
        return diagnostics.map { d in
            "\(project.files[d.file].path) \(d.rule) \(d.severity) \(place(d.file, d.range)) \(withoutNumbers(d.message))"
                + d.related.map { " [\(project.files[$0.file].path) \(place($0.file, $0.range)) \(withoutNumbers($0.message))]" }.joined()
        }
    }
}
