import TestSupport
import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE


/// Text with markers: `|` is the cursor, `‹...›` marks expected ranges. Offsets are bytes
/// of the text without the markers.
struct Marked {
    var text: String
    var cursor: Int?
    var ranges: [Range<Int>] = []

    init(_ marked: String) {
        var out: [UInt8] = []
        var open: [Int] = []
        var cursor: Int? = nil
        var ranges: [Range<Int>] = []
        for scalar in marked.unicodeScalars {
            switch scalar {
            case "|": cursor = out.count
            case "‹": open.append(out.count)
            case "›": ranges.append(open.removeLast()..<out.count)
            default: out.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        self.text = String(decoding: out, as: UTF8.self)
        self.cursor = cursor
        self.ranges = ranges.sorted { $0.lowerBound < $1.lowerBound }
    }
}

/// A workspace in memory under `/ws`: every file is an entry (as the language server loads
/// a workspace). The first file (by default `App.routes`) is the one under test; markers in
/// any file are stripped and remembered.
struct Workspace {
    let project: Project
    let session: AnalysisSession
    /// The file under test.
    let file: FileID
    let cursor: Int
    /// Marked ranges, by file name.
    let ranges: [String: [Range<Int>]]
    let texts: [String: String]

    init(_ main: String, name: String = "App.routes", others: [String: String] = [:]) {
        var texts: [String: String] = [:]
        var ranges: [String: [Range<Int>]] = [:]
        var cursor = 0
        for (n, t) in [(name, main)] + others.sorted(by: { $0.key < $1.key }) {
            let m = Marked(t)
            texts[n] = m.text
            ranges[n] = m.ranges
            if n == name { cursor = m.cursor ?? 0 }
        }
        var files: [String: String] = [:]
        for (n, t) in texts { files["/ws/" + n] = t }
        let names = [name] + others.keys.sorted()
        project = Project(entries: names.enumerated().map { i, n in
            ProjectEntry(canonicalPath: "/ws/" + n, displayPath: n, group: i, workspaceRoot: "/ws")
        }, provider: MemoryProvider(files: files))
        session = AnalysisSession.forEditor(project: project)
        file = project.file(atPath: "/ws/" + name)!
        self.cursor = cursor
        self.ranges = ranges
        self.texts = texts
    }

    func id(_ name: String) -> FileID { project.file(atPath: "/ws/" + name)! }
    func name(_ id: FileID) -> String { String(project.files[id].path.dropFirst(4)) }
    func text(_ id: FileID) -> String { project.files[id].text.string }

    /// The byte offset of the `n`th occurrence (from 0) of `needle` in a file, plus `delta`.
    func offset(of needle: String, in name: String? = nil, occurrence n: Int = 0, delta: Int = 0) -> Int {
        let bytes = Array(texts[name ?? self.name(file)]!.utf8)
        let pattern = Array(needle.utf8)
        var found = -1
        var i = 0
        while i + pattern.count <= bytes.count {
            if Array(bytes[i..<(i + pattern.count)]) == pattern {
                found += 1
                if found == n { return i + delta }
            }
            i += 1
        }
        Issue.record("`\(needle)` not found")
        return 0
    }

    func completions(snippets: Bool = false) -> [CompletionItem] {
        IDE.completions(session: session, file: file, offset: cursor, snippets: snippets)
    }
    func labels() -> [String] { completions().map(\.label) }
}

/// Applies non-overlapping edits to a text.
func apply(_ edits: [TextEdit], to text: String) -> String {
    var bytes = Array(text.utf8)
    for e in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
        bytes.replaceSubrange(e.range, with: Array(e.newText.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The declarations most tests start from (the seed app's, `Examples/Seed/App.routes`).
let seedDeclarations = """
    /// The landing screen.
    screen Home
    screen Settings
    /// One item, modally.
    screen Detail(id: String) sheet
    screen Login
    /// The app's state.
    dependency appStore: AppStore
    dependency settingsStore: SettingsStore from Home
    dependency loginStore: LoginStore
    optional detailStore: DetailStore
    /// Signed in?
    flag isLoggedIn
    /// Detail after Detail.
    builder detail {
      screen Detail uses detailStore {
        detail
      }
    }

    """

/// The seed app's `root`, which goes with `seedDeclarations`.
let seedRoot = """
    root {
      conditional isLoggedIn {
        wildcard Home {
          screen Home uses appStore {
            anyOf {
              screen Settings uses settingsStore
              if let detailStore {
                detail
              } else {
                empty
              }
            }
          }
        }
      } else {
        wildcard Login {
          screen Login uses loginStore
        }
      }
    }
    """

/// The seed app: its declarations and its `root`.
let seedApp = seedDeclarations + seedRoot


/// `Tests/Fixtures`.
let fixturesDirectory: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").resolvingSymlinksInPath()

/// Every `.routes` file under `Tests/Fixtures`, sorted.
func fixtureFiles() -> [String] {
    let root = fixturesDirectory.path
    guard let e = FileManager.default.enumerator(atPath: root) else { return [] }
    var out: [String] = []
    while let p = e.nextObject() as? String {
        if p.hasSuffix(".routes") { out.append(root + "/" + p) }
    }
    return out.sorted()
}

/// `SourceLocation` of RoutesIDE (Testing has one too).
typealias Location = RoutesIDE.SourceLocation

/// The first line where two observations differ, for a failure message.
func firstDifference(_ got: [String], _ expected: [String]) -> String {
    zip(got, expected).first { $0 != $1 }.map { "first difference \($0)\n  vs \($1)" } ?? "they differ in length (\(got.count) vs \(expected.count))"
}
