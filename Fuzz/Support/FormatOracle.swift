import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The formatter's invariants (docs/formatting.md), for any input: files in memory under
/// `/fuzz` (see `splitFiles`), each formatted whole and in part.
///
/// - Only a file with invalid UTF-8, or with syntax errors whose recovery its layout decides,
///   is refused; never one without syntax errors, never as an internal error.
/// - Formatting is idempotent, keeps the comments in their order, and formatting the range
///   `probe` and then everything is formatting everything.
/// - The model of every file and every diagnostic of the analysis are the same after
///   formatting, each position compared as a place among the tokens, numbers in messages
///   and trailing spaces in doc comments left out.
public func checkFormatting(files: [(path: String, bytes: [UInt8])], probe: Int) {
    let entries = files.enumerated().map { i, f in
        ProjectEntry(canonicalPath: f.path, displayPath: String(f.path.dropFirst("/fuzz/".count)), group: i, workspaceRoot: "/fuzz")
    }
    let before = Project(entries: entries, provider: MemoryProvider(files: Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })))
    var after = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
    for file in before.files {
        let tree = file.syntax
        let formatted: Formatted
        do {
            formatted = try Formatter.format(tree)
        } catch {
            invariant(error.reason != .internalError, "\(file.path): the formatter made a text that does not parse as the original: \(error.message)")
            invariant(!tree.diagnostics.isEmpty || error.reason == .invalidUTF8, "\(file.path): a file without syntax errors was refused: \(error.message)")
            continue
        }
        after[file.path] = formatted.bytes
        let again: Formatted
        do {
            again = try Formatter.format(SyntaxTree.parse(SourceText(bytes: formatted.bytes)))
        } catch {
            invariant(false, "\(file.path): the formatted text is refused: \(error.message)")
            continue
        }
        invariant(!again.changed, "\(file.path): formatting is not idempotent")
        invariant(formatComments(tree) == formatComments(formatted.tree), "\(file.path): the comments changed")
        let size = tree.source.count
        let start = size == 0 ? 0 : probe % size
        let range = start..<min(size, start + probe % 97)
        do {
            let part = try Formatter.format(tree, range: range)
            let whole = try Formatter.format(SyntaxTree.parse(SourceText(bytes: part.bytes)))
            invariant(whole.bytes == formatted.bytes, "\(file.path): formatting \(range), then everything, is not formatting everything")
        } catch {
            invariant(false, "\(file.path): formatting \(range) is refused: \(error.message)")
        }
    }
    let afterProject = Project(entries: entries, provider: MemoryProvider(files: after))
    invariant(before.files.map(\.path) == afterProject.files.map(\.path), "formatting changed which files are read")
    for (a, b) in zip(before.files, afterProject.files) {
        let x = describeModel(a.model, TokenPlaces(a.syntax)), y = describeModel(b.model, TokenPlaces(b.syntax))
        invariant(x == y, "\(a.path): formatting changed the model: \(zip(x, y).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "\(x.count) vs \(y.count)")")
    }
    let d1 = describeDiagnostics(AnalysisSession.forEditor(project: before).diagnostics, before)
    let d2 = describeDiagnostics(AnalysisSession.forEditor(project: afterProject).diagnostics, afterProject)
    invariant(d1 == d2, "formatting changed the diagnostics: \(d1.filter { !d2.contains($0) }) vs \(d2.filter { !d1.contains($0) })")
}

func formatComments(_ tree: SyntaxTree) -> [String] {
    tree.tokens.filter { $0.kind == .lineComment || $0.kind == .docComment }.map {
        var s = tree.text(of: $0)
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}

/// Byte offsets as places among the tokens that are not whitespace (comments without their
/// trailing spaces): the first that ends after the offset, and how far into it.
struct TokenPlaces {
    var starts: [Int] = []
    var ends: [Int] = []
    init(_ tree: SyntaxTree) {
        let bytes = tree.source.bytes
        for t in tree.tokens where t.kind != .whitespace && t.kind != .byteOrderMark && t.kind != .eof {
            starts.append(t.start)
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

func withoutNumbers(_ s: String) -> String {
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

func describeModel(_ model: FileModel, _ p: TokenPlaces) -> [String] {
    func name(_ n: Name?) -> String { n.map { "\($0.text)@\(p($0.range))" } ?? "-" }
    var out: [String] = []
    for i in model.imports { out.append("import \(i.path) \(p(i.range))") }
    for d in model.declarations {
        let doc = d.doc.map { $0.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }.joined(separator: "\n") } ?? "-"
        out.append("\(d.kind) \(name(d.name)) \(p(d.range)) doc=\(doc) \(d.parameters.map { "\(name($0.label)): \($0.type)" })"
                   + " \(d.presentation) type=\(d.type ?? "-") from=\(name(d.from)) body=\(d.body ?? -1)")
    }
    for (i, n) in model.nodes.enumerated() {
        let kind: String
        switch n.kind {
        case .screen(let s, let uses, let nesting): kind = "screen \(name(s)) uses \(uses.map(name)) \(nesting ?? -1)"
        case .anyOf(let branches): kind = "anyOf \(branches)"
        case .conditional(let f, let a, let b): kind = "conditional \(name(f)) \(a) \(b)"
        case .ifLet(let o, let a, let b): kind = "ifLet \(name(o)) \(a) \(b ?? -1)"
        case .ifScreen(let s, let a, let b): kind = "ifScreen \(name(s)) \(a) \(b ?? -1)"
        case .wildcard(let s, let body): kind = "wildcard \(name(s)) \(body)"
        case .empty: kind = "empty"
        case .reference(let r): kind = "reference \(name(r))"
        case .missing: kind = "missing"
        }
        out.append("\(i) \(kind) \(p(n.range)) head \(p(n.head)) \(n.anyCondition)")
    }
    for d in model.diagnostics { out.append("\(d.rule) \(p(d.range)) \(withoutNumbers(d.message))") }
    out.append("skipped \(model.skippedNames)")
    return out
}

func describeDiagnostics(_ diagnostics: [Diagnostic], _ project: Project) -> [String] {
    var places: [Int: TokenPlaces] = [:]
    func place(_ file: FileID, _ r: Range<Int>) -> String {
        if places[file] == nil { places[file] = TokenPlaces(project.files[file].syntax) }
        return places[file]!(r)
    }
    return diagnostics.map { d in
        "\(project.files[d.file].path) \(d.rule) \(d.severity) \(place(d.file, d.range)) \(withoutNumbers(d.message))"
            + d.related.map { " [\(project.files[$0.file].path) \(place($0.file, $0.range)) \(withoutNumbers($0.message))]" }.joined()
    }
}
