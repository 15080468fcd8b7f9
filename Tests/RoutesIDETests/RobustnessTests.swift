import TestSupport
import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// Every function at every offset of every fixture, and of randomly edited fixtures: no
/// crash, and every answer is well-formed (ranges inside the file, edits on name tokens).
@Suite struct RobustnessTests {
    /// Checks the invariants of every answer at `offsets` of `file`.
    static func exercise(_ session: AnalysisSession, file: FileID, offsets: [Int], hoverEvery: Int = 1) {
        let project = session.project
        let count = project.files[file].text.count
        func inBounds(_ l: Location) -> Bool {
            project.files.indices.contains(l.file) && l.range.lowerBound >= 0 && l.range.upperBound <= project.files[l.file].text.count
        }
        let symbols = IDE.documentSymbols(project: project, file: file)
        #expect(symbols.allSatisfy { $0.range.upperBound <= count && $0.range.contains($0.selectionRange.lowerBound) })
        for (k, offset) in offsets.enumerated() {
            let items = IDE.completions(session: session, file: file, offset: offset, snippets: k % 2 == 0)
            #expect(items.allSatisfy { !$0.label.isEmpty })
            let word = IDE.wordRange(project: project, file: file, offset: offset)
            let clamped = max(0, min(offset, count))
            #expect(word.lowerBound <= clamped && clamped <= word.upperBound && word.upperBound <= count)
            if k % hoverEvery == 0, let hover = IDE.hover(session: session, file: file, offset: offset) {
                #expect(!hover.markdown.isEmpty && hover.range.upperBound <= count)
            }
            #expect(IDE.definition(project: project, file: file, offset: offset).allSatisfy { inBounds($0) })
            #expect(IDE.references(project: project, file: file, offset: offset, includeDeclaration: true).allSatisfy { inBounds($0) })
            if let prepared = IDE.prepareRename(project: project, file: file, offset: offset) {
                #expect(project.files[file].text.text(prepared.range) == prepared.placeholder)
                if k % 7 == 0 {
                    let edits = try? IDE.rename(project: project, file: file, offset: offset, newName: "renamed_\(k)")
                    for (f, list) in edits ?? [:] {
                        for e in list {
                            #expect(project.files[f].text.text(e.range) == prepared.placeholder)
                        }
                    }
                }
            } else {
                #expect(throws: RenameError.self) {
                    try IDE.rename(project: project, file: file, offset: offset, newName: "x")
                }
            }
        }
    }

    static func fixtureProject(_ path: String) -> Project {
        let root = fixturesDirectory.path
        return Project(entries: [ProjectEntry(canonicalPath: FileSystemProvider().canonicalPath(path) ?? path,
                                              displayPath: String(path.dropFirst(root.count + 1)), group: 0,
                                              workspaceRoot: FileSystemProvider().canonicalPath(root) ?? root)],
                       provider: FileSystemProvider())
    }

    @Test func theFixturesAreThere() {
        #expect(fixtureFiles().count >= 40)
    }

    @Test(arguments: fixtureFiles())
    func everyOffsetOfAFixture(_ path: String) {
        let project = Self.fixtureProject(path)
        let session = AnalysisSession.forEditor(project: project)
        for file in project.files.indices {
            let count = project.files[file].text.count
            Self.exercise(session, file: file, offsets: [-1] + Array(0...count) + [count + 1, Int.max / 2])
        }
    }

    /// Random edits of a fixture: delete a range, insert a fragment, or both.
    static func randomlyEdited(_ text: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        let fragments = ["{", "}", "screen ", "uses ", ", ", "anyOf {", "conditional ", "if let ", "if screen ", "wildcard ",
                         "else", "\n", "root {", "builder ", "import \"", "\"", "//", "///", "(", ")", ":", "sheet(",
                         "x", "Home", "é", "\u{FFFD}", "  ", "from ", "empty", "dependency d: D"]
        var bytes = text
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &rng)
            if Bool.random(using: &rng) && at < bytes.count {
                let end = min(bytes.count, at + Int.random(in: 1...12, using: &rng))
                bytes.removeSubrange(at..<end)
            } else {
                bytes.insert(contentsOf: Array(fragments.randomElement(using: &rng)!.utf8), at: min(at, bytes.count))
            }
        }
        // Sometimes a truncated file, or invalid UTF-8.
        if Int.random(in: 0..<5, using: &rng) == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))) }
        if Int.random(in: 0..<10, using: &rng) == 0 { bytes.insert(0xFF, at: Int.random(in: 0...bytes.count, using: &rng)) }
        return bytes
    }

    @Test func randomEditsOfEveryFixture() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for path in fixtureFiles() {
            let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            for round in 0..<6 {
                let edited = Self.randomlyEdited(original, rng: &rng)
                let provider = MemoryProvider(bytes: ["/ws/App.routes": edited])
                let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0,
                                                             workspaceRoot: "/ws")], provider: provider)
                let session = AnalysisSession.forEditor(project: project)
                let count = edited.count
                var offsets = (0..<40).map { _ in Int.random(in: 0...count, using: &rng) }
                offsets += [0, count]
                Self.exercise(session, file: 0, offsets: offsets, hoverEvery: round % 2 + 1)
            }
        }
    }

    @Test func everyOffsetOfAHalfWrittenProgram() {
        // Each prefix of a program is what an editor sends while it is typed from scratch.
        let program = seedDeclarations + """
            root {
              conditional isLoggedIn {
                wildcard Home {
                  screen Home uses appStore {
                    anyOf {
                      screen Settings uses settingsStore, appStore
                      if let detailStore { detail } else { empty }
                      if screen Login { empty }
                    }
                  }
                }
              } else { screen Login uses loginStore }
            }
            """
        let bytes = Array(program.utf8)
        var prefix = 0
        while prefix <= bytes.count {
            let provider = MemoryProvider(bytes: ["/ws/App.routes": Array(bytes.prefix(prefix))])
            let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0,
                                                         workspaceRoot: "/ws")], provider: provider)
            let session = AnalysisSession.forEditor(project: project)
            Self.exercise(session, file: 0, offsets: [prefix, prefix / 2, max(0, prefix - 1)])
            prefix += 3
        }
    }
}

