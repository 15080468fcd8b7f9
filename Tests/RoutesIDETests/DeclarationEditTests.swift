import TestSupport
import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// An edit inside one declaration parses, lowers and resolves only that declaration again
/// (`SyntaxTree.applyingDeclarationEdit`, `Project.applyingDeclarationEdit`), and keeps the
/// analysis when the declaration's analysed parts did not change. Every result must equal
/// what a fresh parse and analysis of the new text gives.
@Suite struct DeclarationEditTests {
    /// A random code edit inside a random top-level declaration of `text`: typing or deleting
    /// a character of a token, replacing a token by a name the file declares, adding a `?`, a
    /// presentation, a newline or a space, deleting a token.
    static func randomEdit(_ tree: SyntaxTree, names: [String], _ random: inout SplitMix64) -> (Range<Int>, [UInt8])? {
        let declarations = tree.root.childNodes.filter { $0.kind.isDeclaration }
        guard !declarations.isEmpty else { return nil }
        let d = declarations[random.below(declarations.count)]
        let tokens = d.tokenRange.filter { !tree.tokens[$0].kind.isTrivia }
        let t = tree.tokens[tokens[random.below(tokens.count)]]
        let at = t.start + random.below(t.length == 0 ? 1 : Int(t.length) + 1)
        switch random.below(9) {
        case 0, 1: return (at..<at, [UInt8(ascii: "a") + UInt8(random.below(26))])
        case 2: return (at..<at, [UInt8(ascii: "X")])
        case 3: return t.length > 0 ? (t.start..<(t.start + 1 + random.below(Int(t.length))), []) : nil
        case 4: return (t.range, Array(names[random.below(names.count)].utf8))
        case 5: return (t.end..<t.end, Array(["?", " sheet", " push", ".Inner", "\n", " ", " from Home", "(id: String)"][random.below(8)].utf8))
        case 6: return (t.range, [])
        case 7: return (t.end..<t.end, Array([" uses appStore", " { screen Home }", ", analytics", " else { empty }"][random.below(4)].utf8))
        default: return (t.range, Array(tree.text(of: t).utf8) + [UInt8(ascii: "s")])
        }
    }

    static func names(_ project: Project) -> [String] {
        project.files.flatMap { $0.model.declarations.map(\.name.text) } + ["Home", "appStore", "Unknown"]
    }

    /// The model as text (positions, names, node ids, their lists, lowering diagnostics).
    static func describe(_ m: FileModel) -> [String] {
        m.imports.map { "\($0)" } + m.declarations.map { "\($0)" } + m.nodes.map { "\($0)" }
            + m.useNames.map { "uses \($0)" } + m.branchIDs.map { "branch \($0)" }
            + m.diagnostics.map { "\($0)" }.sorted()
    }

    static func describe(_ p: Project) -> [String] {
        var out = p.diagnostics.map { "\($0)" }.sorted()
        for f in p.files.indices {
            out += p.resolutions[f].sorted { $0.key < $1.key }.map { "\(f) \($0.key) → \($0.value)" }
            out += p.guesses[f].sorted { $0.key < $1.key }.map { "\(f) \($0.key) guessed \($0.value)" }
        }
        return out
    }

    /// Tree, model, resolutions and diagnostics after many random edits equal a fresh parse's.
    @Test func randomEditsInsideDeclarationsMatchAFreshParse() throws {
        var random = SplitMix64(seed: 20261122)
        var spliced = 0, resolved = 0, kept = 0, refused = 0
        for files in try TriviaEditTests.exampleProjects() {
            var texts = files
            var project = TriviaEditTests.project(texts)
            for _ in 0..<400 {
                let path = texts.keys.sorted()[random.below(texts.count)]
                guard let file = project.file(atPath: path),
                      let (range, insert) = Self.randomEdit(project.files[file].syntax, names: Self.names(project), &random) else { continue }
                var bytes = project.files[file].text.bytes
                bytes.replaceSubrange(range, with: insert)
                let newText = SourceText(bytes: bytes)
                texts[path] = newText.string
                let fresh = TriviaEditTests.project(texts)
                guard let freshFile = fresh.file(atPath: path) else { project = fresh; continue }
                let context = "replacing \(range) of \(path) by \(String(decoding: insert, as: UTF8.self).debugDescription)"
                guard let edit = project.applyingDeclarationEdit(file: file, range: range, replacement: insert, newSource: newText) else {
                    refused += 1
                    project = fresh
                    if !fresh.files[freshFile].syntax.diagnostics.isEmpty {
                        texts[path] = files[path]
                        project = TriviaEditTests.project(texts)
                    }
                    continue
                }
                spliced += 1
                let expectedTree = fresh.files[freshFile].syntax
                #expect(edit.tree.tokens == expectedTree.tokens, "tokens after \(context)")
                #expect(edit.tree.nodes == expectedTree.nodes, "nodes after \(context)")
                #expect(edit.tree.reconstructedBytes() == bytes)
                let got = Self.describe(edit.model), expected = Self.describe(fresh.files[freshFile].model)
                #expect(got == expected, "model after \(context): \(firstDifference(got, expected))")
                if let p = edit.project {
                    resolved += 1
                    if edit.keepsAnalysis { kept += 1 }
                    let got = Self.describe(p), expected = Self.describe(fresh)
                    #expect(got == expected, "project after \(context): \(firstDifference(got, expected))")
                }
                project = fresh
                // Keep editing a file without errors (they accumulate otherwise, and a file
                // with errors is always parsed again).
                if !fresh.files[freshFile].syntax.diagnostics.isEmpty {
                    texts[path] = files[path]
                    project = TriviaEditTests.project(texts)
                }
            }
        }
        print("declaration edits: \(spliced) parsed alone (\(resolved) resolved alone, \(kept) keeping the analysis), \(refused) parsed again")
        // Not vacuous: each way is taken many times.
        #expect(spliced > 200)
        #expect(resolved > 100)
        #expect(kept > 30)
        #expect(refused > 100)
    }

    /// Sessions built on an edited project (the analysis kept and moved, or run again) answer
    /// every editor question as a fresh analysis of the new text does.
    @Test func sessionsAfterDeclarationEditsMatchAFreshAnalysis() throws {
        var random = SplitMix64(seed: 7)
        var rebased = 0, analysed = 0, relinked = 0
        for files in try TriviaEditTests.exampleProjects() + [TriviaEditTests.quotingPositions] {
            var texts = files
            var session = AnalysisSession.forEditor(project: TriviaEditTests.project(texts))
            for _ in 0..<100 {
                let path = texts.keys.sorted()[random.below(texts.count)]
                guard let file = session.project.file(atPath: path),
                      let (range, insert) = Self.randomEdit(session.project.files[file].syntax, names: Self.names(session.project), &random) else { continue }
                var bytes = session.project.files[file].text.bytes
                bytes.replaceSubrange(range, with: insert)
                let newText = SourceText(bytes: bytes)
                texts[path] = newText.string
                let fresh = AnalysisSession.forEditor(project: TriviaEditTests.project(texts))
                guard let freshFile = fresh.project.file(atPath: path),
                      let edit = session.project.applyingDeclarationEdit(file: file, range: range, replacement: insert, newSource: newText),
                      let project = edit.project else {
                    session = fresh
                    if let f = fresh.project.file(atPath: path), !fresh.project.files[f].syntax.diagnostics.isEmpty {
                        texts[path] = files[path]
                        session = AnalysisSession.forEditor(project: TriviaEditTests.project(texts))
                    }
                    continue
                }
                if edit.keepsAnalysis && session.canRebase(over: edit.shift) {
                    session = session.rebased(onto: project, file: file, edit: edit.shift, relinking: edit.changesLinks)
                    rebased += 1
                    if edit.changesLinks { relinked += 1 }
                } else {
                    session = AnalysisSession.forEditor(project: project)
                    analysed += 1
                }
                let got = TriviaEditTests.observe(session, file), expected = TriviaEditTests.observe(fresh, freshFile)
                #expect(got == expected, "after replacing \(range) of \(path) by \(String(decoding: insert, as: UTF8.self).debugDescription): \(firstDifference(got, expected))")
            }
        }
        print("declaration edits: \(rebased) sessions moved (\(relinked) with their links judged again), \(analysed) analysed again on the edited project")
        #expect(rebased > 10)
        #expect(relinked > 5)
        #expect(analysed > 10)
    }

    /// An edit inside a link keeps the analysis of the tree: the link rules alone are judged
    /// again, and find what a fresh analysis finds.
    @Test func aLinkEditJudgesTheLinksAgainOverTheKeptAnalysis() throws {
        let text = """
            screen Home
            screen Detail(id: Int)
            flag isPro
            link detail "/items/{id}" -> Home/Detail(id: id)
            link other "/things/{id}" -> Home/Detail(id: id)
            root {
              screen Home {
                conditional isPro { screen Detail } else { empty }
              }
            }

            """
        let session = AnalysisSession.forEditor(project: TriviaEditTests.project(["/ws/App.routes": text]))
        #expect(!session.diagnostics.contains { $0.rule.rawValue == "shadowed-link" || $0.rule.rawValue == "ambiguous-link" })
        // `/things/{id}` becomes `/items/{id}`: the two links now tie.
        let at = text.utf8.count - text[text.range(of: "things")!.lowerBound...].utf8.count
        var bytes = Array(text.utf8)
        bytes.replaceSubrange(at..<(at + 6), with: Array("items".utf8))
        let newText = SourceText(bytes: bytes)
        let edit = try #require(session.project.applyingDeclarationEdit(file: 0, range: at..<(at + 6), replacement: Array("items".utf8),
                                                                         newSource: newText))
        let project = try #require(edit.project)
        #expect(edit.keepsAnalysis && edit.changesLinks)
        let relinked = session.rebased(onto: project, file: 0, edit: edit.shift, relinking: true)
        #expect(relinked.analysedPrograms == 0)
        let fresh = AnalysisSession.forEditor(project: TriviaEditTests.project(["/ws/App.routes": newText.string]))
        #expect(relinked.diagnostics.map { "\($0)" } == fresh.diagnostics.map { "\($0)" })
        #expect(relinked.diagnostics.contains { $0.rule.rawValue == "ambiguous-link" })
        // The condition of a link's path is the kept analysis's.
        let edited = newText.string
        let other = edited.utf8.count - edited[edited.range(of: "link other")!.lowerBound...].utf8.count + 6
        #expect(IDE.hover(session: relinked, file: 0, offset: other)?.markdown.contains("isPro") == true)
    }

    @Test func whichEditsAreParsedAlone() {
        let text = "dependency store: Store\nscreen Home(id: String)\nflag beta\nroot {\n  screen Home uses store\n}\n"
        let project = TriviaEditTests.project(["/ws/App.routes": text])
        func attempt(_ needle: String, _ offset: Int, remove: Int = 0, _ insert: String) -> ProjectDeclarationEdit? {
            let at = text.utf8.count - text[text.range(of: needle)!.lowerBound...].utf8.count + offset
            var bytes = Array(text.utf8)
            bytes.replaceSubrange(at..<(at + remove), with: Array(insert.utf8))
            return project.applyingDeclarationEdit(file: 0, range: at..<(at + remove), replacement: Array(insert.utf8), newSource: SourceText(bytes: bytes))
        }
        // A type: the analysis stays.
        #expect(attempt("Store\n", 5, "X")?.keepsAnalysis == true)
        #expect(attempt("String)", 6, "?")?.keepsAnalysis == true)
        // A name used in `root`: resolved again, analysed again.
        let use = attempt("store\n}", 5, "s")
        #expect(use?.project != nil && use?.keepsAnalysis == false)
        #expect(use?.project?.diagnostics.contains { $0.rule == .undefinedName } == true)
        // A declaration's name: the names of the files that see it are resolved again.
        let renamed = attempt("beta", 4, "2")
        #expect(renamed?.project != nil && renamed?.keepsAnalysis == false)
        #expect(renamed?.nodes.resolvedAgain == [0])
        // Its presentation, or a rename where a name is declared twice: every file is.
        #expect(attempt("Home(id: String)", 16, " sheet")?.project == nil)
        let twice = TriviaEditTests.project(["/ws/App.routes": "flag beta\nflag beta\nflag gamma\nroot { empty }\n"])
        var bytes2 = Array("flag beta\nflag beta\nflag gamma\nroot { empty }\n".utf8)
        bytes2.insert(UInt8(ascii: "2"), at: 30)
        let renamedTwice = twice.applyingDeclarationEdit(file: 0, range: 30..<30, replacement: [UInt8(ascii: "2")],
                                                         newSource: SourceText(bytes: bytes2))
        #expect(renamedTwice != nil && renamedTwice?.project == nil)
        // Two declarations made of one, a syntax error, an edit across two declarations: refused.
        #expect(attempt("beta", 4, "\nflag gamma") == nil)
        #expect(attempt("Home(id", 4, "(") == nil)
        #expect(attempt("Store\n", 5, remove: 2, "") == nil)
        // Gluing the declaration to the next one's keyword is refused.
        let glued = "dependency a: T?flag c\n"
        let p2 = TriviaEditTests.project(["/ws/App.routes": glued])
        #expect(p2.diagnostics.isEmpty)
        var bytes = Array(glued.utf8)
        bytes.remove(at: 15)
        #expect(p2.applyingDeclarationEdit(file: 0, range: 15..<16, replacement: [], newSource: SourceText(bytes: bytes)) == nil)
        bytes = Array(glued.utf8)
        bytes.insert(UInt8(ascii: "?"), at: 15)
        #expect(p2.applyingDeclarationEdit(file: 0, range: 15..<15, replacement: [UInt8(ascii: "?")], newSource: SourceText(bytes: bytes))?.keepsAnalysis == true)
        // A declaration that does not start a line keeps its first token's layout flag.
        bytes = Array(glued.utf8)
        bytes.insert(UInt8(ascii: "d"), at: 22)
        let late = p2.applyingDeclarationEdit(file: 0, range: 22..<22, replacement: [UInt8(ascii: "d")], newSource: SourceText(bytes: bytes))
        #expect(late?.tree.tokens == SyntaxTree.parse(SourceText(bytes: bytes)).tokens)
        #expect(late?.tree.tokens[7].startsLine == false)
    }
}
