import Foundation
import Testing
import TestSupport
import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The formatter's properties (docs/formatting.md), over every fixture, every example, 1,000
/// generated programs (each as generated and with its whitespace and comments shuffled) and
/// the fuzz seeds:
///
/// - it is idempotent: formatting its output changes nothing;
/// - the comments are the same, in the same order (trailing spaces aside);
/// - the model is the same: every file's lowered model and every diagnostic of the analysis,
///   with each position compared as a place among the tokens (the same token, however far it
///   moved); doc comments without trailing spaces; numbers in messages left out;
/// - formatting a range, then everything, is formatting everything;
/// - it refuses only text with invalid UTF-8, or layout around syntax errors that the
///   parser's recovery reads — never a file without syntax errors.
@Suite struct FormatterPropertyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `.routes` file under `Tests/Fixtures` and `Examples`.
    static let diskFiles: [String] = {
        var out: [String] = []
        for dir in ["Tests/Fixtures", "Examples"] {
            let root = packageRoot.appendingPathComponent(dir).resolvingSymlinksInPath()
            let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = e?.nextObject() as? URL {
                if url.pathExtension == "routes" { out.append(url.resolvingSymlinksInPath().path) }
            }
        }
        return out.sorted()
    }()

    @Test func thereAreFixturesAndExamples() {
        #expect(Self.diskFiles.count >= 150)
    }

    @Test(arguments: diskFiles)
    func everyFixtureAndExample(_ path: String) {
        // The file and everything it imports, read as the lint reads them; then in memory.
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let disk = Project(entries: [ProjectEntry(canonicalPath: path, displayPath: path, group: 0, workspaceRoot: directory)],
                           provider: FileSystemProvider())
        var files: [String: [UInt8]] = [:]
        for file in disk.files { files[file.path] = file.text.bytes }
        let problems = FormatOracle.check(files: files, entries: [path], root: directory)
        #expect(problems.isEmpty, "\(path):\n\(problems.joined(separator: "\n"))")
        // And with its layout shuffled, three ways (the syntax errors of the recovery
        // fixtures meet other layouts).
        guard let bytes = files[path] else { return }
        var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: path.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
        for k in 0..<3 {
            var shuffled = files
            let text = FormatOracle.shuffleLayout(String(decoding: bytes, as: UTF8.self), rng: &rng)
            shuffled[path] = Array(text.utf8)
            let problems = FormatOracle.check(files: shuffled, entries: [path], root: directory)
            #expect(problems.isEmpty, "\(path), shuffled (\(k)):\n\(text)\n\(problems.joined(separator: "\n"))")
        }
    }

    @Test func generatedPrograms() {
        var failures: [String] = []
        var changed = 0
        for seed in 0..<UInt64(1000) {
            let program = ProgramGenerator.generate(seed: seed)
            var rng = SplitMix64(seed: seed &* 7919 &+ 17)
            let shuffled = FormatOracle.shuffleLayout(program.text, rng: &rng)
            for (name, text) in [("as generated", program.text), ("shuffled", shuffled)] {
                let problems = FormatOracle.check(files: ["/ws/App.routes": Array(text.utf8)], entries: ["/ws/App.routes"], root: "/ws")
                if !problems.isEmpty {
                    failures.append("seed \(seed), \(name):\n\(text)\n" + problems.joined(separator: "\n"))
                }
            }
            if let f = try? Formatter.format(SyntaxTree.parse(SourceText(shuffled))), f.changed { changed += 1 }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        // The shuffled layouts are almost never canonical: the formatter had work to do.
        #expect(changed > 900)
    }

    /// The fuzz seeds and regression inputs of every target (files separated by lines `%%%`,
    /// as the fuzz targets read them; the bytes of the other targets are read as text too).
    static let fuzzInputs: [String] = {
        var out: [String] = []
        for dir in ["Fuzz/Corpus", "Fuzz/Regressions"] {
            let root = packageRoot.appendingPathComponent(dir)
            let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = e?.nextObject() as? URL {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { out.append(url.path) }
            }
        }
        return out.sorted()
    }()

    @Test func theFuzzInputsAreThere() {
        #expect(Self.fuzzInputs.count >= 100)
    }

    @Test(arguments: fuzzInputs)
    func everyFuzzInput(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let parts = FormatOracle.splitFiles(bytes)
        var files: [String: [UInt8]] = [:]
        for p in parts { files[p.path] = p.bytes }
        let problems = FormatOracle.check(files: files, entries: parts.map(\.path), root: "/fuzz")
        #expect(problems.isEmpty, "\(path):\n\(problems.joined(separator: "\n"))")
    }
}

/// The properties, checked on a set of files in memory.
enum FormatOracle {
    /// What fails, in words (nothing when every property holds).
    static func check(files: [String: [UInt8]], entries paths: [String], root: String) -> [String] {
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
            let size = tree.source.count
            for (k, start) in [0, size / 3, size / 2, size - 1].enumerated() where start >= 0 {
                let range = start..<min(size, start + 1 + k * 7)
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
            case .screen(let s, let uses, let nesting): kind = "screen \(name(s, p)) uses \(uses.map { name($0, p) }) \(nesting ?? -1)"
            case .anyOf(let branches): kind = "anyOf \(branches)"
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

    /// The text with its whitespace shuffled (another run of spaces, tabs, line breaks and
    /// blank lines wherever there is whitespace, sometimes where there is none between two
    /// tokens), and comments added: at the ends of lines, on lines of their own, doc comments,
    /// `// routes:ignore` comments. What it means may change (a doc comment, a suppression);
    /// the oracle compares the shuffled text with its format.
    static func shuffleLayout(_ text: String, rng: inout SplitMix64) -> String {
        let tree = SyntaxTree.parse(SourceText(text))
        var out = ""
        let runs = [" ", "  ", "\t", "\n", "\n\n\n", " \n    ", "\n\t\t", "\r\n", "   \n\n"]
        let comments = [" // note\n", "\n// own line\n", "\n/// doc\n", " // routes:ignore shadowed-branch\n",
                        "\n// routes:ignore unreachable-screen\n", "\n  // indented\n\n", "\n// routes:ignore unused-declaration\n\n"]
        var previousSignificant = false
        for t in tree.tokens {
            let piece = tree.text(of: t)
            switch t.kind {
            case .whitespace:
                if rng.below(10) < 2 {
                    out += comments[rng.below(comments.count)]
                } else if rng.below(3) == 0 {
                    out += runs[rng.below(runs.count)]
                } else {
                    out += piece
                }
                previousSignificant = false
            case .eof:
                break
            default:
                // Between two tokens written together (`a,` `(id`), sometimes a space.
                if previousSignificant && rng.below(8) == 0 { out += " " }
                out += piece
                previousSignificant = !t.kind.isTrivia
            }
        }
        return out
    }

    /// A fuzz input's files: the parts between lines `%%%` (as `Fuzz/Support/Exercise.swift`).
    static func splitFiles(_ data: [UInt8]) -> [(path: String, bytes: [UInt8])] {
        let separator = Array("\n%%%\n".utf8)
        var parts: [[UInt8]] = []
        var start = 0, i = 0
        while i + separator.count <= data.count, parts.count < 7 {
            if data[i] == separator[0] && Array(data[i..<(i + separator.count)]) == separator {
                parts.append(Array(data[start..<i]))
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(Array(data[start...]))
        return parts.enumerated().map { index, bytes in (index == 0 ? "/fuzz/App.routes" : "/fuzz/F\(index).routes", bytes) }
    }
}
