import TestSupport
import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// An edit inside a comment or a run of whitespace keeps the analysis and only moves
/// positions (`Project.applyingTriviaEdit`, `AnalysisSession.rebased`). Whatever is asked of
/// the rebased session must equal what a fresh analysis of the new text answers.
@Suite struct TriviaEditTests {
    /// The example apps, one project each (files in memory under /ws).
    static func exampleProjects() throws -> [[String: String]] {
        let examples = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")
        var out: [[String: String]] = []
        for dir in ["Seed", "Shop", "Deeplinks", "Diagnostics"] {
            let url = examples.appendingPathComponent(dir)
            var files: [String: String] = [:]
            // Every analysis of `analysis-limit.routes` runs to the limit (a second in a debug
            // build): the random-edit tests would spend minutes on it.
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path)
            where name.hasSuffix(".routes") && name != "analysis-limit.routes" {
                files["/ws/" + name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
            out.append(files)
        }
        return out
    }

    static func project(_ files: [String: String]) -> Project {
        let provider = MemoryProvider(files: files)
        return Project(entries: files.keys.sorted().enumerated().map { i, p in
            ProjectEntry(canonicalPath: p, displayPath: String(p.dropFirst(4)), group: i, workspaceRoot: "/ws")
        }, provider: provider)
    }

    /// Everything an editor sees of a file, positions included.
    static func observe(_ session: AnalysisSession, _ file: FileID) -> [String] {
        let project = session.project
        var out = session.diagnostics.map { "\($0.rule) \($0.file) \($0.range) \($0.message) \($0.related.map { "\($0.file) \($0.range) \($0.message)" })" }
        out += IDE.documentSymbols(project: project, file: file).map { "\($0)" }
        out += project.guesses[file].sorted { $0.key < $1.key }.map { "guess \($0.key) → \($0.value)" }
        // Every declaration as hover shows it (doc comments included).
        for d in project.files[file].model.declarations {
            out.append("declaration \(d.kind) \(d.name.text) \(d.range) doc: \(d.doc ?? "-")")
            out.append("hover \(String(describing: IDE.hover(session: session, file: file, offset: d.name.range.lowerBound)))")
        }
        out += IDE.semanticTokens(project: project, file: file).map { "\($0)" }
        out += IDE.foldingRanges(project: project, file: file).map { "\($0)" }
        let size = project.files[file].text.count
        for offset in stride(from: 0, to: size, by: max(1, size / 40)) {
            out.append("hover \(offset) \(String(describing: IDE.hover(session: session, file: file, offset: offset)))")
            out.append("definition \(offset) \(IDE.definition(project: project, file: file, offset: offset))")
            out.append("completion \(offset) \(IDE.completions(session: session, file: file, offset: offset, snippets: true).map(\.label))")
        }
        return out
    }

    /// A program whose unreachable-screen message quotes the line and column of an `anyOf`.
    static let quotingPositions = ["/ws/App.routes": "screen Home   // the landing screen\nscreen Settings\nroot {\n  anyOf {   // two ways\n    screen Home\n    anyOf {\n      screen Home   // never built\n      screen Settings\n    }\n  }\n}\n"]

    /// A program whose unbuildable-link message quotes the line and column of a `screen`.
    static let linkQuotingPositions = ["/ws/App.routes": "screen Home   // the landing screen\nscreen Detail(id: Int)\nlink detail \"/d/{id}\" -> Detail(id: id)   // from the root\nroot {\n  screen Home {   // home first\n    screen Detail\n  }\n}\n"]

    @Test func randomEditsInCommentsAndWhitespaceMatchAFreshAnalysis() throws {
        var random = SplitMix64(seed: 20261121)
        var applied = 0, refused = 0
        for files in try Self.exampleProjects() + [Self.quotingPositions, Self.linkQuotingPositions] {
            var texts = files
            var session = AnalysisSession.forEditor(project: Self.project(texts))
            for _ in 0..<25 {
                let path = texts.keys.sorted()[Int(random.next() % UInt64(texts.count))]
                guard let file = session.project.file(atPath: path) else { continue }
                let tree = session.project.files[file].syntax
                // A random trivia token and a random edit inside it.
                let trivia = tree.tokens.indices.filter { [TokenKind.lineComment, .whitespace, .docComment].contains(tree.tokens[$0].kind) }
                guard !trivia.isEmpty else { continue }
                let token = tree.tokens[trivia[Int(random.next() % UInt64(trivia.count))]]
                // Now and then at the very start of a whitespace run (a space typed right
                // after a word), else inside the token or at its end.
                let atStart = token.kind == TokenKind.whitespace && random.next() % 3 == 0
                let a = atStart ? token.start : token.start + 1 + Int(random.next() % UInt64(token.length))
                let b = min(token.end, a + Int(random.next() % 3))
                let insert: String
                if token.kind == TokenKind.whitespace {
                    insert = ["", " ", "  ", "\t"][Int(random.next() % 4)]
                } else {
                    insert = ["", "x", "é😀", " more words", "/", "\n"][Int(random.next() % 6)]
                }
                var bytes = session.project.files[file].text.bytes
                guard a <= b, b <= bytes.count else { continue }
                bytes.replaceSubrange(a..<b, with: Array(insert.utf8))
                let newText = SourceText(bytes: bytes)
                texts[path] = newText.string
                let fresh = AnalysisSession.forEditor(project: Self.project(texts))
                guard let freshFile = fresh.project.file(atPath: path) else { continue }
                let expected = Self.observe(fresh, freshFile)
                if let (project, edit) = session.project.applyingTriviaEdit(file: file, range: a..<b, replacement: Array(insert.utf8), newSource: newText),
                   session.canRebase(over: edit) {
                    applied += 1
                    session = session.rebased(onto: project, file: file, edit: edit)
                    #expect(session.project.files[file].syntax.reconstructedBytes() == bytes)
                    let got = Self.observe(session, file)
                    #expect(got == expected, "after replacing \(a)..<\(b) of \(path) by \(insert.debugDescription): \(firstDifference(got, expected))")
                } else {
                    refused += 1
                    session = fresh
                }
            }
        }
        print("trivia edits: \(applied) rebased, \(refused) analysed again")
        // Not vacuous: most such edits take the fast way; some (a doc comment made, a file
        // with errors) are refused.
        #expect(applied > 30)
        #expect(refused > 0)
    }

    @Test func aMessageQuotingAPositionKeepsWhitespaceEditsOffTheFastWay() throws {
        let text = Self.quotingPositions["/ws/App.routes"]!
        let project = Self.project(Self.quotingPositions)
        let session = AnalysisSession.forEditor(project: project)
        #expect(session.diagnostics.contains { $0.message.contains("an earlier branch of the `anyOf` at 4:3") })
        func edit(at needle: String, _ insert: String) throws -> TriviaEdit {
            let at = text.utf8.count - text[text.range(of: needle)!.lowerBound...].utf8.count + 1
            var bytes = Array(text.utf8)
            bytes.insert(contentsOf: Array(insert.utf8), at: at)
            return try #require(project.applyingTriviaEdit(file: 0, range: at..<at, replacement: Array(insert.utf8), newSource: SourceText(bytes: bytes))?.edit)
        }
        // A space before that `anyOf` would move it to 4:4: analysed again.
        #expect(!session.canRebase(over: try edit(at: "\n  anyOf", " ")))
        // A comment edit moves nothing a message quotes.
        #expect(session.canRebase(over: try edit(at: "two ways", "x")))
    }

    @Test func anUnbuildableLinkQuotingAPositionKeepsWhitespaceEditsOffTheFastWay() throws {
        let text = Self.linkQuotingPositions["/ws/App.routes"]!
        let project = Self.project(Self.linkQuotingPositions)
        let session = AnalysisSession.forEditor(project: project)
        #expect(session.diagnostics.contains { $0.rule.rawValue == "unbuildable-link" && $0.message.contains("`screen Home` at 5:3") })
        func edit(at needle: String, _ insert: String) throws -> (Project, TriviaEdit, [UInt8]) {
            let at = text.utf8.count - text[text.range(of: needle)!.lowerBound...].utf8.count + 1
            var bytes = Array(text.utf8)
            bytes.insert(contentsOf: Array(insert.utf8), at: at)
            let (moved, edit) = try #require(project.applyingTriviaEdit(file: 0, range: at..<at, replacement: Array(insert.utf8),
                                                                          newSource: SourceText(bytes: bytes)))
            return (moved, edit, bytes)
        }
        // A space before that `screen` moves it to 5:4: the message must be made again.
        let (_, before, bytes) = try edit(at: "\n  screen Home", " ")
        #expect(!session.canRebase(over: before))
        let fresh = AnalysisSession.forEditor(project: Self.project(["/ws/App.routes": String(decoding: bytes, as: UTF8.self)]))
        #expect(fresh.diagnostics.contains { $0.rule.rawValue == "unbuildable-link" && $0.message.contains("`screen Home` at 5:4") })
        // A comment edit moves nothing a message quotes.
        #expect(session.canRebase(over: try edit(at: "home first", "x").1))
    }

    @Test func editsThatChangeTokensAreRefused() {
        let text = "screen Home  // a comment\n/// doc\nroot { screen Home }\n"
        let project = Self.project(["/ws/App.routes": text])
        let file = project.file(atPath: "/ws/App.routes")!
        func attempt(_ range: Range<Int>, _ insert: String) -> Bool {
            var bytes = Array(text.utf8)
            bytes.replaceSubrange(range, with: Array(insert.utf8))
            return project.applyingTriviaEdit(file: file, range: range, replacement: Array(insert.utf8), newSource: SourceText(bytes: bytes)) != nil
        }
        let space = text.utf8.count - text.drop(while: { $0 != " " }).utf8.count  // after `screen`
        let comment = Array(text.utf8).firstIndex(of: UInt8(ascii: "/"))!
        let doc = text.utf8.count - text[text.range(of: "/// doc")!.lowerBound...].utf8.count
        #expect(attempt(comment + 5 ..< comment + 5, "more"))                  // inside a comment
        #expect(attempt(space + 1 ..< space + 1, " "))                         // whitespace stays whitespace
        #expect(!attempt(space + 1 ..< space + 1, "x"))                        // a new token
        #expect(!attempt(comment + 2 ..< comment + 2, "/"))                    // a comment made a doc comment
        #expect(!attempt(comment + 5 ..< comment + 5, "\n"))                   // a comment split in two
        #expect(attempt(doc + 4 ..< doc + 4, "x"))                             // a doc comment stays one
        #expect(!attempt(doc + 3 ..< doc + 3, "/"))                            // `////` is a plain comment
        #expect(!attempt(space ..< space + 1, ""))                             // `screenHome`
        #expect(attempt(space ..< space, " "))                                 // a space typed after `screen`
        #expect(!attempt(space ..< space, "x"))                                // `screenx`
        let broken = Self.project(["/ws/App.routes": "root { screen Home  // c\n"])
        var bytes = Array("root { screen Home  // c\n".utf8)
        bytes.insert(UInt8(ascii: "x"), at: 22)
        #expect(broken.applyingTriviaEdit(file: 0, range: 22..<22, replacement: [UInt8(ascii: "x")], newSource: SourceText(bytes: bytes)) == nil,
                "a file with syntax errors is parsed again (its recovery depends on layout)")
    }
}

extension TriviaEditTests {
    /// A space typed right after a word (at the start of the whitespace after it) moves what
    /// follows, not the word: its end stays where it was.
    @Test func aSpaceTypedAfterAWordKeepsTheWordsRange() throws {
        let text = "/// Home.\nscreen Home\nflag beta\nroot {\n  conditional beta { screen Home } else { empty }\n}\n"
        let files = ["/ws/App.routes": text]
        for needle in ["screen Home\n", "flag beta\n", "conditional beta {", "screen Home }"] {
            let project = Self.project(files)
            let session = AnalysisSession.forEditor(project: project)
            let at = text.utf8.count - text[text.range(of: needle)!.lowerBound...].utf8.count + needle.firstIndex(of: " ")!.utf16Offset(in: needle)
            // The end of the word after the first space of the needle.
            let wordEnd = at + 1 + needle.dropFirst(needle.firstIndex(of: " ")!.utf16Offset(in: needle) + 1).prefix { $0.isLetter }.utf8.count
            var bytes = Array(text.utf8)
            bytes.insert(UInt8(ascii: " "), at: wordEnd)
            let newText = SourceText(bytes: bytes)
            let (moved, edit) = try #require(project.applyingTriviaEdit(file: 0, range: wordEnd..<wordEnd, replacement: [UInt8(ascii: " ")], newSource: newText))
            let rebased = session.rebased(onto: moved, file: 0, edit: edit)
            let fresh = AnalysisSession.forEditor(project: Self.project(["/ws/App.routes": newText.string]))
            #expect(Self.observe(rebased, 0) == Self.observe(fresh, 0), "a space after the word of `\(needle)`")
        }
    }

    /// Found by fuzz-analysis: an undefined builder (`detai`) among the branches.
    @Test func anEditBesideAnUndefinedNameMovesItsSuggestion() {
        let text = "screen Home\nscreen Settings\nroot {\n  anyOf {\n    screen Home\n    screen Settings\n   detai screen Home\n  }\n}\n"
        for insert in [" ", "\t", ""] {
            let project = Self.project(["/ws/App.routes": text])
            var bytes = Array(text.utf8)
            bytes.insert(contentsOf: Array(insert.utf8), at: 56)
            let newText = SourceText(bytes: bytes)
            guard let (moved, edit) = project.applyingTriviaEdit(file: 0, range: 56..<56, replacement: Array(insert.utf8), newSource: newText) else {
                Issue.record("the edit should be a trivia edit")
                continue
            }
            let rebased = AnalysisSession.forEditor(project: project).rebased(onto: moved, file: 0, edit: edit)
            let fresh = AnalysisSession.forEditor(project: Self.project(["/ws/App.routes": newText.string]))
            func key(_ d: Diagnostic) -> String { "\(d.rule) \(d.range) \(d.message) \(d.related.map { "\($0.range) \($0.message)" })" }
            #expect(rebased.diagnostics.map(key) == fresh.diagnostics.map(key))
        }
    }
}
