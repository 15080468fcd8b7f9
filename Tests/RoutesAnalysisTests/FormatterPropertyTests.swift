import Foundation
import Testing
import TestSupport
import Oracles
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
            let text = Self.shuffleLayout(String(decoding: bytes, as: UTF8.self), rng: &rng)
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
            let shuffled = Self.shuffleLayout(program.text, rng: &rng)
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
        let parts = FuzzInput.splitFiles(bytes)
        var files: [String: [UInt8]] = [:]
        for p in parts { files[p.path] = p.bytes }
        let problems = FormatOracle.check(files: files, entries: parts.map(\.path), root: "/fuzz")
        #expect(problems.isEmpty, "\(path):\n\(problems.joined(separator: "\n"))")
    }
}

extension FormatterPropertyTests {
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
}
