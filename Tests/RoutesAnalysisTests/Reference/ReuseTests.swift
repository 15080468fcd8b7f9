import Testing
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import TestSupport

/// A session made `reusing:` an earlier one keeps the analysis of every program whose files
/// did not change, and answers exactly as a session made from scratch: the language server
/// re-analyses only the programs an edit touches.
@Suite struct ProgramReuseTests {
    static let library = """
        screen Detail
        screen Settings
        flag beta
        dependency store: Store from Detail
        builder details {
          anyOf {
            screen Detail {
              screen Settings uses store
            }
            conditional beta { screen Settings uses store } else { empty }
          }
        }

        """
    static let appA = """
        import "../lib/Lib.routes"
        screen Home
        root {
          screen Home { details }
        }

        """
    static let appB = """
        import "../lib/Lib.routes"
        screen Start
        root {
          anyOf {
            screen Start { details }
            screen Detail
          }
        }

        """
    static let appC = """
        screen Alone
        screen Other
        root { screen Alone }

        """
    /// In no program: checked for builder cycles only, with every element of the workspace.
    static let loose = """
        import "../lib/Lib.routes"
        builder loop {
          anyOf {
            screen Detail
            loop
          }
        }

        """

    static func project(_ texts: [String: String]) -> Project {
        let paths = texts.keys.sorted()
        let entries = paths.enumerated().map { i, p in
            ProjectEntry(canonicalPath: p, displayPath: String(p.dropFirst(4)), group: i, workspaceRoot: "/ws")
        }
        return Project(entries: entries, provider: MemoryProvider(files: texts))
    }

    static let start: [String: String] = [
        "/ws/lib/Lib.routes": library, "/ws/a/App.routes": appA, "/ws/b/App.routes": appB,
        "/ws/c/App.routes": appC, "/ws/loose/Loose.routes": loose,
    ]

    /// Diagnostics, and at every screen and `if let` node of every file the scope answers and
    /// the screen example, as text.
    static func answers(_ s: AnalysisSession) -> [String] {
        var out = s.diagnostics.map { "\(s.project.files[$0.file].path) \($0.rule.rawValue) \($0.range) \($0.message) \($0.related.map { "\(s.project.files[$0.file].path) \($0.range) \($0.message)" })" }
        for file in s.project.files {
            for (id, node) in file.model.nodes.enumerated() {
                switch node.kind {
                case .screen:
                    out.append("\(file.path)#\(id) example \(s.example(screenNode: id, file: file.id))")
                    fallthrough
                case .ifLet:
                    out.append("\(file.path)#\(id) scope \(s.scope(atNode: id, file: file.id).map { "\($0.symbol) \($0.status)" })")
                default:
                    break
                }
            }
            for (i, d) in file.model.declarations.enumerated() where d.kind == .screen {
                out.append("\(file.path) \(d.name.text) example \(s.example(screen: Symbol(file: file.id, declaration: i)))")
            }
        }
        return out
    }

    @Test func anEditReanalysesOnlyTheProgramsThatContainTheEditedFile() {
        var texts = Self.start
        var session = AnalysisSession.forEditor(project: Self.project(texts))
        // Three programs and the unit of the file in no program.
        #expect(session.analysedPrograms == 4)
        #expect(session.diagnostics.contains { $0.rule == .builderCycle })
        #expect(session.diagnostics.contains { $0.rule == .missingDependency })
        // (file edited, new text, programs analysed again)
        let edits: [(String, String, Int)] = [
            ("/ws/c/App.routes", Self.appC.replacing("screen Alone }", with: "anyOf { screen Alone screen Other } }"), 1),
            ("/ws/lib/Lib.routes", Self.library.replacing("screen Settings uses store", with: "screen Settings"), 3),
            ("/ws/loose/Loose.routes", Self.loose.replacing("loop\n  }", with: "screen Settings\n  }"), 1),
            ("/ws/a/App.routes", Self.appA.replacing("{ details }", with: "{ screen Detail }"), 1),
            // A program that no longer imports the library: only it changes.
            ("/ws/b/App.routes", "screen Start\nroot { screen Start }\n", 1),
            // A program that starts importing the library: only it (the unit of the file in
            // no program keeps its files, the library and itself).
            ("/ws/c/App.routes", "import \"../lib/Lib.routes\"\nscreen Alone\nroot { screen Alone { details } }\n", 1),
            // The library again: the three units that hold it (programs a and c, the loose file).
            ("/ws/lib/Lib.routes", Self.library, 3),
        ]
        for (path, text, expected) in edits {
            texts[path] = text
            let project = Self.project(texts)
            let reused = AnalysisSession.forEditor(project: project, reusing: session)
            let fresh = AnalysisSession.forEditor(project: project)
            #expect(reused.analysedPrograms == expected, "editing \(path)")
            #expect(Self.answers(reused) == Self.answers(fresh), "editing \(path)")
            session = reused
        }
    }

    /// A file that moves out of every program joins the unit of files in no program, and a
    /// builder there is checked for cycles with every element: the reused session must see it.
    @Test func aFileLeavingEveryProgramIsCheckedForCycles() {
        var texts = Self.start
        let first = AnalysisSession.forEditor(project: Self.project(texts))
        texts["/ws/a/App.routes"] = "screen Home\nroot { screen Home }\n"
        texts["/ws/b/App.routes"] = "screen Start\nroot { screen Start }\n"
        texts["/ws/lib/Lib.routes"] = Self.library + "builder spin { anyOf { screen Detail spin } }\n"
        let project = Self.project(texts)
        let reused = AnalysisSession.forEditor(project: project, reusing: first)
        let fresh = AnalysisSession.forEditor(project: project)
        #expect(Self.answers(reused) == Self.answers(fresh))
        // `spin` and `loop` both cycle (for the element Settings, and for the others).
        #expect(reused.diagnostics.filter { $0.rule == .builderCycle }.count == 2)
    }

    /// Random edits to workspaces of generated programs (five folders, one program each): one
    /// folder's text replaced by another program or changed by a character each round; the
    /// reused session equals a fresh one, and analyses only the edited program (or, when the
    /// edit removed its `root`, the unit of files in no program).
    @Test func randomEditsAgreeWithAFreshSession() {
        var random = SplitMix64(seed: 0x5EED_0F_2026)
        var compared = 0
        for round in 0..<12 {
            var texts: [String: String] = [:]
            for i in 0..<5 { texts["/ws/p\(i)/App.routes"] = Corpus.entries[(round * 5 + i) % Corpus.entries.count].program.text }
            var session = AnalysisSession.forEditor(project: Self.project(texts))
            for step in 0..<8 {
                let path = "/ws/p\(random.next() % 5)/App.routes"
                var text = Array(texts[path]!.utf8)
                if random.next() % 3 == 0 {
                    text = Array(Corpus.entries[Int(random.next() % UInt64(Corpus.entries.count))].program.text.utf8)
                } else {
                    let at = Int(random.next() % UInt64(text.count))
                    let alphabet = Array("abAB{} \n".utf8)
                    text[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                }
                texts[path] = String(decoding: text, as: UTF8.self)
                let project = Self.project(texts)
                let reused = AnalysisSession.forEditor(project: project, reusing: session)
                let fresh = AnalysisSession.forEditor(project: project)
                #expect(reused.analysedPrograms <= 2, "round \(round) step \(step)")
                #expect(Self.answers(reused) == Self.answers(fresh), "round \(round) step \(step): \(path)")
                compared += 1
                session = reused
            }
        }
        #expect(compared == 96)
    }

    /// Text edited at `range`: the new project, made the way the language server makes it
    /// (a trivia edit, else a declaration edit, else nil).
    static func edit(_ project: Project, _ path: String, _ range: Range<Int>, _ replacement: String)
        -> (project: Project, file: FileID, shift: TriviaEdit, keepsAnalysis: Bool)? {
        guard let file = project.file(atPath: path) else { return nil }
        var bytes = project.files[file].text.bytes
        bytes.replaceSubrange(range, with: Array(replacement.utf8))
        let text = SourceText(bytes: bytes)
        if let (moved, shift) = project.applyingTriviaEdit(file: file, range: range, replacement: Array(replacement.utf8), newSource: text) {
            return (moved, file, shift, true)
        }
        guard let e = project.applyingDeclarationEdit(file: file, range: range, replacement: Array(replacement.utf8), newSource: text),
              let p = e.project else { return nil }
        return (p, file, e.shift, e.keepsAnalysis)
    }

    static func offset(of needle: String, in text: String) -> Int {
        let b = Array(text.utf8), n = Array(needle.utf8)
        return (0...(b.count - n.count)).first { Array(b[$0..<($0 + n.count)]) == n }!
    }

    /// A session moved over an edit in a comment keeps each program's own diagnostics moved
    /// too: a later session that reuses the program (after an edit elsewhere) shows them in
    /// the right place. (They stayed where they were, five bytes early, found by a client
    /// driving the language server.)
    @Test func aMovedSessionsProgramsKeepTheirDiagnosticsInPlace() {
        var texts = Self.start
        texts["/ws/c/App.routes"] = "// c\nflag isOn\nscreen Alone\nroot { screen Alone }\n"
        let first = AnalysisSession.forEditor(project: Self.project(texts))
        #expect(first.diagnostics.contains { $0.rule == .unusedDeclaration && first.project.files[$0.file].path == "/ws/c/App.routes" })
        let at = Self.offset(of: "// c", in: texts["/ws/c/App.routes"]!) + 4
        guard let (moved, file, shift, keeps) = Self.edit(first.project, "/ws/c/App.routes", at..<at, " more") else {
            Issue.record("not a trivia edit")
            return
        }
        #expect(keeps)
        let second = first.rebased(onto: moved, file: file, edit: shift)
        texts["/ws/c/App.routes"] = "// c more\nflag isOn\nscreen Alone\nroot { screen Alone }\n"
        #expect(Self.answers(second) == Self.answers(AnalysisSession.forEditor(project: Self.project(texts))))
        // An edit in another program: c's analysis is reused.
        texts["/ws/a/App.routes"] = Self.appA + "// later\n"
        let project = Self.project(texts)
        let third = AnalysisSession.forEditor(project: project, reusing: second)
        #expect(third.analysedPrograms == 1)
        #expect(Self.answers(third) == Self.answers(AnalysisSession.forEditor(project: project)))
    }

    /// An edit that keeps the analysis may still change the project's own diagnostics (a
    /// parameter label written twice, then once): the moved session has the new project's.
    @Test func aMovedSessionHasTheEditedProjectsOwnDiagnostics() {
        for (before, after) in [("screen A(id: Int, id: Int)", "screen A(id: Int)"), ("screen A(id: Int)", "screen A(id: Int, id: Int)")] {
            let text = before + "\nroot { screen A }\n"
            let project = Self.project(["/ws/App.routes": text])
            let session = AnalysisSession.forEditor(project: project)
            let start = Self.offset(of: "(", in: text) + 1
            let end = Self.offset(of: ")", in: text)
            let replacement = String(after.dropFirst("screen A(".count).dropLast())
            guard let (edited, file, shift, keeps) = Self.edit(project, "/ws/App.routes", start..<end, replacement) else {
                Issue.record("not a declaration edit: \(before) -> \(after)")
                continue
            }
            #expect(keeps, "\(before) -> \(after)")
            let moved = session.rebased(onto: edited, file: file, edit: shift)
            let fresh = AnalysisSession.forEditor(project: Self.project(["/ws/App.routes": after + "\nroot { screen A }\n"]))
            #expect(Self.answers(moved) == Self.answers(fresh), "\(before) -> \(after)")
            #expect(moved.diagnostics.count == (after.contains("id: Int, id") ? 1 : 0), "\(before) -> \(after)")
        }
    }

    /// A lint keeps only diagnostics: the same ones.
    @Test func aSessionThatKeepsNoAnalysesHasTheSameDiagnostics() {
        let project = Self.project(Self.start)
        let lean = AnalysisSession.forDiagnostics(project: project)
        let full = AnalysisSession.forEditor(project: project)
        #expect(lean.diagnostics == full.diagnostics)
        #expect(lean.programNodeCounts.isEmpty)
        #expect(full.programNodeCounts.count == 3)
    }
}

/// A program analysed again after an edit inside one declaration starts from its previous
/// graph with the edited nodes resolved again (`BuilderGraph.patched(onto:splice:)`): the
/// patched graph equals the one built from scratch, and the session answers as a fresh one.
@Suite struct GraphPatchTests {
    static func layout(_ g: BuilderGraph) -> String {
        "\(g.nodes)|\(g.branchList)|\(g.useStart)|\(g.useTargets)|\(g.builders)|\(g.conditions)|\(g.screens)|"
            + "\(g.placementPresentations.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" })"
    }

    /// A placement's presentation edited, added and taken away, as the language server applies
    /// each edit: the program is analysed again over its patched graph (the presentation is
    /// the node's), and answers as a fresh session, flows included (`push-in-sheet` comes and
    /// goes with each edit).
    @Test func editedPlacementPresentationsAgreeWithAFreshSession() throws {
        let text = """
            screen Home
            screen Picker sheet(allowsPush: false)
            screen Detail
            root {
              screen Home {
                anyOf {
                  screen Picker as sheet(allowsPush: false) { screen Detail }
                  screen Detail as push { screen Picker }
                }
              }
            }

            """
        let path = "/ws/App.routes"
        var project = ProgramReuseTests.project([path: text])
        var session = AnalysisSession.forEditor(project: project)
        var warnings: [Int] = []
        // Each edit: the text replaced (its first occurrence), and what replaces it.
        let edits = [("sheet(allowsPush: false) {", "cover {"), ("cover {", "popover(allowsPush: false) {"),
                     ("as popover(allowsPush: false) ", ""), ("screen Picker {", "screen Picker as push {"),
                     ("as push {", "as cover(allowsPush: false) {")]
        for (old, new) in edits {
            let file = try #require(project.file(atPath: path))
            let current = project.files[file].text.string
            let range = try #require(current.utf8.ranges(of: Array(old.utf8)).first)
            let lower = current.utf8.distance(from: current.utf8.startIndex, to: range.lowerBound)
            let upper = current.utf8.distance(from: current.utf8.startIndex, to: range.upperBound)
            let (next, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: lower..<upper, with: Array(new.utf8)))
            #expect(reused.patchedGraphs == 1, "after replacing \(old) by \(new)")
            warnings.append(reused.diagnostics.filter { $0.rule == .pushInSheet }.count)
            project = next
            session = reused
        }
        // `as cover`: none; `as popover(allowsPush: false)`: one; the declared
        // `sheet(allowsPush: false)` again: one; `as push`: none; `as cover(allowsPush: false)`: one.
        #expect(warnings == [0, 1, 1, 0, 1])
    }

    /// Characters typed into, or replacing one in, a declaration of generated programs (names
    /// above all, so that they stop or start resolving), each applied as the language server
    /// does: the patched graph, when the edit allows one, equals a new graph, and the session
    /// made over it answers as a fresh session.
    @Test func patchedGraphsEqualNewOnes() {
        var random = SplitMix64(seed: 0x9A7C_4ED)
        var patched = 0, refused = 0
        for entry in Corpus.entries.prefix(250) {
            let path = "/ws/App.routes"
            var project = ProgramReuseTests.project([path: entry.program.text])
            var session = AnalysisSession.forEditor(project: project)
            for _ in 0..<4 {
                let file = project.file(atPath: path)!
                let bytes = project.files[file].text.bytes
                guard bytes.count > 2 else { break }
                let at = Int(random.next() % UInt64(bytes.count - 1))
                let replaced = random.next() % 2 == 0 ? at..<at : at..<(at + 1)
                let alphabet = Array("aAbBXy".utf8)
                let replacement = [alphabet[Int(random.next() % UInt64(alphabet.count))]]
                guard Array(bytes[replaced]) != replacement,
                      let (next, e, reused) = Self.reanalysed(project, session, file: file, replacing: replaced, with: replacement)
                else { continue }
                let before = session.units.first { $0.program != nil }?.graph
                let graph = before?.patched(onto: next, splice: e.nodes)
                if let graph {
                    let files = before!.files.files
                    #expect(Self.layout(graph) == Self.layout(BuilderGraph(project: next, files: files, hasForeignElement: false)))
                    patched += 1
                } else {
                    refused += 1
                }
                #expect(reused.patchedGraphs == (graph == nil ? 0 : 1))
                project = next
                session = reused
            }
        }
        // Most such edits keep their nodes' shapes; some (a new node, an unresolved flag
        // appearing) do not.
        #expect(patched > 100, "\(patched) patched, \(refused) refused")
        #expect(refused > 20, "\(patched) patched, \(refused) refused")
    }

    /// An edit that changes nothing the semantics reads (a name in a `uses` list) keeps the
    /// earlier semantics as it is, and the findings of the rules over the flows (here a
    /// shadowed branch after the edit, which the edit moves); one that changes what a node
    /// builds (the screen of a screen node) makes both again. Each answers as a fresh session
    /// (`reanalysed`).
    @Test func anEditOfAUsesListKeepsTheSemanticsAndTheFlowFindings() throws {
        let text = "screen Home\nscreen Detail\ndependency a: A\ndependency ab: B\nroot {\n  anyOf {\n    screen Home uses a {\n      screen Detail\n    }\n    screen Home\n  }\n}\n"
        let path = "/ws/App.routes"
        let project = ProgramReuseTests.project([path: text])
        let session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: path))
        func offset(of needle: String, after from: Int = 0) -> Int {
            let bytes = Array(text.utf8), n = Array(needle.utf8)
            return (from...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }!
        }
        func unit(_ s: AnalysisSession) -> RoutesAnalysis.ProgramAnalysis? { s.units.first { $0.program != nil } }
        func shadowed(_ s: AnalysisSession) -> [Range<Int>] { s.diagnostics.filter { $0.rule == .shadowedBranch }.map(\.range) }
        let second = offset(of: "screen Home\n  }")
        #expect(shadowed(session) == [second..<(second + 11)])
        let a = offset(of: "uses a") + 6
        let (next, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: a..<a, with: Array("b".utf8)))
        #expect(reused.patchedGraphs == 1)
        #expect(unit(reused)?.semantics === unit(session)?.semantics)
        #expect(unit(reused)?.checker?.facts.flowsAsBefore == true)
        #expect(shadowed(reused) == [(second + 1)..<(second + 12)])
        let detail = offset(of: "screen Detail", after: offset(of: "root")) + 7
        // `Detai`: the node's screen no longer resolves.
        let (_, _, again) = try #require(Self.reanalysed(next, reused, file: file, replacing: (detail + 6)..<(detail + 7), with: []))
        #expect(again.patchedGraphs == 1)
        #expect(unit(again)?.semantics !== unit(reused)?.semantics)
        #expect(unit(again)?.checker?.facts.flowsAsBefore == false)
    }

    /// An edit in `root` changes which earlier branches of an `anyOf` in a builder take a
    /// screen first, but not the states of the unreachable screen node below them (the
    /// condition above it rules the change out): its warning is found again, with the new
    /// branches.
    @Test func anUnreachableScreensReasonFollowsAnEditThatLeavesItsStates() throws {
        let text = """
            screen A
            screen B
            flag f
            flag g
            builder inner {
              anyOf {
                conditional f { conditional g { empty } else { screen A } } else { empty }
                screen A
                conditional g { anyOf { screen A
                  screen B } } else { empty }
              }
            }
            root {
              anyOf {
                conditional f { conditional g { empty } else { screen A } } else { empty }
                inner
              }
            }

            """
        let path = "/ws/App.routes"
        let project = ProgramReuseTests.project([path: text])
        let session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: path))
        let bytes = Array(text.utf8)
        func offsets(of needle: String) -> [Int] {
            let n = Array(needle.utf8)
            return (0...(bytes.count - n.count)).filter { Array(bytes[$0..<($0 + n.count)]) == n }
        }
        func unreachable(_ s: AnalysisSession) -> [(Int, [Int])] {
            s.diagnostics.filter { $0.rule == .unreachableScreen }.map { ($0.range.lowerBound, $0.related.map(\.range.lowerBound)) }
        }
        let screensA = offsets(of: "screen A")
        let (inner, second, deep, first) = (offsets(of: "conditional f")[0], screensA[2], screensA[3], screensA[4])
        // Before: the inner `anyOf` never sees A when f and not g (the outer first branch took
        // it), so only `screen A` (its second branch) builds A first, and the inner first
        // branch's screen is never built.
        #expect(unreachable(session).map(\.0) == [screensA[1], deep])
        #expect(unreachable(session).last?.1 == [second])
        // The outer branch builds B instead: the inner first branch now builds A first too.
        let (_, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: (first + 7)..<(first + 8),
                                                          with: Array("B".utf8)))
        #expect(reused.patchedGraphs == 1)
        let unit = try #require(reused.units.first { $0.program != nil }?.checker)
        #expect(unit.nodeFindingsRefound)
        #expect(unit.facts.recomputed?[unit.facts.graph.global(file, try #require(Self.node(at: deep, in: reused, file: file)))] == false)
        #expect(unreachable(reused).map(\.0) == [deep])
        #expect(unreachable(reused).first?.1 == [inner, second])
    }

    /// A screen node's name, then a wildcard's, made undeclared and declared again: what the
    /// node holds is never reached while the name means nothing (no error or warning there),
    /// and each edit's session, over its patched graph, answers as a fresh one does.
    @Test func anEditThatUndeclaresAScreenWithANestingAgreesWithAFreshSession() throws {
        let text = """
            screen Home
            screen Detail
            screen Provider
            dependency store: Store from Provider
            root {
              screen Home {
                anyOf {
                  screen Detail {
                    anyOf {
                      screen Provider
                      screen Detail uses store
                      screen Provider
                    }
                  }
                  wildcard Detail { screen Detail uses store }
                  screen Provider
                }
              }
            }

            """
        let path = "/ws/App.routes"
        var project = ProgramReuseTests.project([path: text])
        var session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: path))
        func rules(_ s: AnalysisSession) -> [String] { s.diagnostics.map(\.rule.rawValue) }
        // (The wildcard takes every element: the last branch is shadowed.)
        #expect(rules(session) == ["missing-dependency", "shadowed-branch", "missing-dependency", "shadowed-branch"])
        let node = ProgramReuseTests.offset(of: "screen Detail {", in: text) + "screen ".utf8.count
        let wildcard = ProgramReuseTests.offset(of: "wildcard Detail", in: text) + "wildcard ".utf8.count
        // (A name of the same length keeps every later offset.)
        for (at, name, expected) in [(node, "Detial", ["undefined-name", "missing-dependency", "shadowed-branch"]),
                                     (wildcard, "Detai1", ["undefined-name", "undefined-name"]),
                                     (node, "Detail", ["missing-dependency", "shadowed-branch", "undefined-name"]),
                                     (wildcard, "Detail", ["missing-dependency", "shadowed-branch", "missing-dependency", "shadowed-branch"])] {
            let (next, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: at..<(at + 6),
                                                                 with: Array(name.utf8)))
            #expect(rules(reused) == expected, "\(name) at \(at)")
            (project, session) = (next, reused)
        }
    }

    /// An edit above an undeclared screen (or wildcard) that holds a builder, which changes
    /// what reaches that node without changing the node: what the alternative reading passes
    /// below it differs too, and the builder's warning, hidden by that reading before, is found
    /// again as a fresh session finds it.
    @Test(arguments: ["screen Detial {", "wildcard Detai {"])
    func anEditAboveAnUndeclaredScreenReachesWhatItHolds(_ holder: String) throws {
        let shared = holder.hasPrefix("screen")
            ? "builder shared {\n  conditional f { screen C } else { screen Detail }\n}\n"
            : "builder shared {\n  screen Detail {\n    conditional f { screen C } else { empty }\n  }\n}\n"
        let text = "flag f\nscreen Home\nscreen C\nscreen B\nscreen Detail\n" + shared + """
            root {
              anyOf {
                conditional f {
                  screen B
                } else {
                  empty
                }
                if screen Home {
                  \(holder)
                    shared
                  }
                }
                screen B {
                  conditional f { empty } else { shared }
                }
              }
            }

            """
        let path = "/ws/App.routes"
        let project = ProgramReuseTests.project([path: text])
        let session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: path))
        let at = ProgramReuseTests.offset(of: "screen B\n    } else", in: text) + "screen ".utf8.count
        let (_, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: at..<(at + 1), with: Array("Home".utf8)))
        #expect(reused.diagnostics.map(\.rule.rawValue) == ["unreachable-screen", "undefined-name"])
    }

    /// A name typed above the builder `root`'s block holds skips that builder (a syntax
    /// error): a builder named in the skipped text was meant to be used, so its screen is not
    /// "never placed", nor its dependency unused. Edits of that builder, analysed again over
    /// the patched graph, agree with a fresh session (what the skipped name's builder mentions
    /// is found again whole, not patched).
    @Test func editsBesideASkippedBuilderNameAgreeWithAFreshSession() throws {
        let lib = "screen Detail\ndependency store: Store\nbuilder detail {\n  screen Detail uses store\n}\n"
        let app = "import \"Lib.routes\"\nscreen Home\nroot {\n  s\n  anyOf {\n    screen Home\n    detail\n  }\n}\n"
        var project = ProgramReuseTests.project(["/ws/Lib.routes": lib, "/ws/App.routes": app])
        var session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: "/ws/Lib.routes"))
        #expect(session.diagnostics.map(\.rule.rawValue) == ["undefined-name", "syntax-error"])
        let at = ProgramReuseTests.offset(of: "screen Detail uses", in: lib) + "screen ".utf8.count
        // (A name of the same length keeps every later offset.)
        for (name, expected) in [("Detai1", ["undefined-name", "syntax-error", "undefined-name"]),
                                 ("Detail", ["undefined-name", "syntax-error"])] {
            let (next, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: at..<(at + 6), with: Array(name.utf8)))
            #expect(reused.diagnostics.map(\.rule.rawValue) == expected, "\(name)")
            (project, session) = (next, reused)
        }
    }

    /// A library uses `cart`, which it does not see and each app importing it declares: the
    /// undefined name stands for an app's `cart` (neither is "never used", and the error names
    /// the file). Renaming the apps' declarations one after the other, analysed again as the
    /// editor does, agrees with a fresh session each time: the library's undefined name is
    /// looked up again though the library does not see the renamed declaration.
    @Test func renamingWhatALibraryCannotSeeAgreesWithAFreshSession() throws {
        let lib = "screen Settings\nbuilder settings { screen Settings uses cart }\n"
        func app(_ name: String) -> String {
            "import \"Lib.routes\"\nscreen \(name)\ndependency cart: Cart\nroot {\n  screen \(name) { settings }\n}\n"
        }
        var project = ProgramReuseTests.project(["/ws/Lib.routes": lib, "/ws/Pad.routes": app("Pad"), "/ws/Phone.routes": app("Phone")])
        var session = AnalysisSession.forEditor(project: project)
        #expect(session.diagnostics.map(\.rule.rawValue) == ["undefined-name"])
        func libError(_ session: AnalysisSession) -> String? {
            session.diagnostics.first { $0.rule == .undefinedName }?.message
        }
        #expect(libError(session)?.contains("declared in Pad.routes") == true)
        for (path, expected, named) in [("/ws/Pad.routes", ["undefined-name", "unused-declaration"], "Phone.routes"),
                                        ("/ws/Phone.routes", ["undefined-name", "unused-declaration", "unused-declaration"], nil)] {
            let file = try #require(project.file(atPath: path))
            let at = ProgramReuseTests.offset(of: "cart: Cart", in: String(decoding: project.files[file].text.bytes, as: UTF8.self))
            let (next, _, reused) = try #require(Self.reanalysed(project, session, file: file, replacing: at..<(at + 4), with: Array("carx".utf8)))
            #expect(reused.diagnostics.map(\.rule.rawValue).sorted() == expected, "\(path)")
            if let named {
                #expect(libError(reused)?.contains("declared in \(named)") == true, "\(path)")
            } else {
                #expect(libError(reused)?.contains("declared in") == false, "\(path)")
            }
            (project, session) = (next, reused)
        }
    }

    /// A comment lengthened in a library moves its declarations (the analysis is kept and
    /// moved); an edit in `root` then analyses the program again over its patched graph: the
    /// library's unused flag, which the second edit does not touch, is reported where it is
    /// now, not where it was before the first.
    @Test func aKeptUnusedWarningIsReportedWhereItsDeclarationIsNow() throws {
        let texts = ["/ws/lib.routes": "// c\nflag unusedFlag\n",
                     "/ws/App.routes": "import \"lib.routes\"\nscreen A\nscreen B\nroot { screen A }\n"]
        var project = ProgramReuseTests.project(texts)
        var session = AnalysisSession.forEditor(project: project)
        let lib = try #require(project.file(atPath: "/ws/lib.routes"))
        let app = try #require(project.file(atPath: "/ws/App.routes"))
        var bytes = project.files[lib].text.bytes
        bytes.insert(contentsOf: Array("ccc".utf8), at: 4)
        let (moved, shift) = try #require(project.applyingTriviaEdit(file: lib, range: 4..<4, replacement: Array("ccc".utf8),
                                                                     newSource: SourceText(bytes: bytes)))
        (project, session) = (moved, session.rebased(onto: moved, file: lib, edit: shift))
        let a = try #require(Array(project.files[app].text.bytes).indices.last { i in
            Array(project.files[app].text.bytes[i...]).starts(with: Array("screen A }".utf8))
        })
        let (_, _, reused) = try #require(Self.reanalysed(project, session, file: app, replacing: (a + 7)..<(a + 8),
                                                          with: Array("B".utf8)))
        #expect(reused.units.first { $0.program != nil }?.checker?.declarationFindingsKept == true)
        let unused = reused.diagnostics.filter { $0.rule == .unusedDeclaration }
        #expect(unused.map { reused.project.files[$0.file].text.text($0.range) } == ["unusedFlag"])
    }

    /// The id of the node whose head starts at `offset` in `file`.
    static func node(at offset: Int, in session: AnalysisSession, file: FileID) -> Int? {
        session.project.files[file].model.nodes.firstIndex { $0.range.lowerBound == offset }
    }

    /// A declaration edit of `file` applied as the language server applies it, when it has
    /// the program analysed again: the edited project, the edit, and the session made reusing
    /// `session`, which answers as a fresh session does.
    static func reanalysed(_ project: Project, _ session: AnalysisSession, file: FileID, replacing range: Range<Int>,
                           with replacement: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
        -> (next: Project, edit: ProjectDeclarationEdit, reused: AnalysisSession)? {
        var edited = project.files[file].text.bytes
        edited.replaceSubrange(range, with: replacement)
        guard let e = project.applyingDeclarationEdit(file: file, range: range, replacement: replacement,
                                                      newSource: SourceText(bytes: edited)),
              let next = e.project, !e.keepsAnalysis else { return nil }
        let reused = AnalysisSession.forEditor(project: next, reusing: session, splice: e.nodes)
        let fresh = AnalysisSession.forEditor(project: next)
        #expect(ProgramReuseTests.answers(reused) == ProgramReuseTests.answers(fresh), sourceLocation: sourceLocation)
        // The flows themselves, state by state (a flow continued over the edit must reach the
        // fresh flow's fixpoint, including where no answer above happens to look).
        #expect(reused.units.map { $0.checker?.facts.flowFingerprint() } == fresh.units.map { $0.checker?.facts.flowFingerprint() },
                sourceLocation: sourceLocation)
        return (next, e, reused)
    }
}

/// Names in builders swapped for other declared names of a kind they may refer to (a `uses`
/// entry for another dependency or optional, an `if let` for another optional, a reference
/// for another builder, a screen node for another screen, which then provides other things):
/// each edit keeps the graph's shape, so the program is analysed again over its patched
/// graph, with what the analysis before it
/// found for everything the edit cannot change (builds, `anyOf` contexts, the regions of
/// `missing-dependency`). The session answers as a fresh one after every edit, and the edits
/// make and mend missing dependencies.
@Suite struct NameSwapEditTests {
    @Test func swappedNamesAgreeWithAFreshSession() {
        var random = SplitMix64(seed: 0x5_A4_ED17)
        var patched = 0, changedMissing = 0, carriedPlans = 0, patchedMentions = 0, keptShadowed = 0, keptUsed = 0, keptStructure = 0
        func missing(_ s: AnalysisSession) -> [String] {
            s.diagnostics.filter { $0.rule == .missingDependency }.map { "\($0.range) \($0.message)" }
        }
        for entry in Corpus.entries.prefix(300) {
            let path = "/ws/App.routes"
            var project = ProgramReuseTests.project([path: entry.program.text])
            var session = AnalysisSession.forEditor(project: project)
            for _ in 0..<6 {
                let file = project.file(atPath: path)!
                let model = project.files[file].model
                let uses = model.nameUses
                guard !uses.isEmpty else { break }
                let (name, kinds) = uses[Int(random.next() % UInt64(uses.count))]
                let others = model.declarations.filter { kinds.contains($0.kind) && $0.name.text != name.text }
                guard !others.isEmpty else { continue }
                let replacement = Array(others[Int(random.next() % UInt64(others.count))].name.text.utf8)
                guard let (next, _, reused) = GraphPatchTests.reanalysed(project, session, file: file, replacing: name.range,
                                                                        with: replacement) else { continue }
                patched += reused.patchedGraphs
                if missing(reused) != missing(session) { changedMissing += 1 }
                let checker = reused.units.first { $0.program != nil }?.checker
                if checker?.scope.planCarried == true { carriedPlans += 1 }
                if checker?.facts.mentionsPatched == true { patchedMentions += 1 }
                if checker?.nodeFindingsRefound == true { keptShadowed += 1 }
                if checker?.facts.usedKeptOverChangedNodes == true { keptUsed += 1 }
                if checker?.facts.semantics.structureCarried == true { keptStructure += 1 }
                project = next
                session = reused
            }
        }
        #expect(patched > 1000, "\(patched) patched")
        #expect(changedMissing > 50, "\(changedMissing) edits changed the missing dependencies")
        // Most edits keep every name and the way graph: their plans and mentions are the
        // earlier ones, patched (`ScopeItems.carriedPlan`, `ProgramFacts.findMentions`).
        #expect(carriedPlans > 500, "\(carriedPlans) plans carried")
        #expect(patchedMentions > 200, "\(patchedMentions) mentions patched")
        // The shadowed branches of the `anyOf`s nothing changed for are the earlier ones.
        #expect(keptShadowed > 200, "\(keptShadowed) sessions kept shadowed branches")
        // A screen node swapped for another screen leads where it did: the used region is kept.
        #expect(keptUsed > 100, "\(keptUsed) sessions kept the used region over changed nodes")
        #expect(keptStructure > 100, "\(keptStructure) semantics took the earlier structural tables")
    }
}

/// A program past `MissingDependencyPlan.nodesForConcurrentPlan` nodes has its missing-dependency
/// plan made on another core while paths are resolved: it finds exactly the missing
/// dependencies it should, every time.
@Suite struct ConcurrentPlanTests {
    @Test func aLargeProgramFindsEachMissingDependency() {
        let features = 3000
        var text = """
            dependency store: Store from Home
            optional draft: Draft
            screen Home

            """
        for k in 0..<features {
            text += "screen A\(k)\nscreen B\(k)\nscreen C\(k)\n"
            // `B` uses `draft` outside `if let draft`: missing on every way.
            text += "builder f\(k) { anyOf { screen A\(k) uses store { screen B\(k) uses draft } if let draft { screen C\(k) uses draft } } }\n"
        }
        // f0 is also reached without a Home before it: its `A0 uses store` misses `store`.
        text += "root { anyOf { screen Home { anyOf { " + (0..<features).map { "f\($0)" }.joined(separator: " ") + " } } f0 } }\n"
        let project = ReferenceSupport.project(text)
        for _ in 0..<3 {
            let session = AnalysisSession.forEditor(project: project)
            #expect(session.programNodeCounts.allSatisfy { $0 >= MissingDependencyPlan.nodesForConcurrentPlan })
            let missing = session.diagnostics.filter { $0.rule == .missingDependency }
            let names = missing.map { project.files[$0.file].text.text($0.range) }
            #expect(missing.count == features + 1)
            #expect(names.filter { $0 == "draft" }.count == features)
            #expect(names.filter { $0 == "store" }.count == 1)
            #expect(session.diagnostics.count == missing.count, "\(session.diagnostics.filter { $0.rule != .missingDependency }.prefix(3))")
        }
    }
}

/// A session made over an edit takes the suppression comments of the files the edit did not
/// change from the session before it: they must still suppress (and be reported unused) as in
/// a fresh session, in the unchanged file and in the edited one, over declaration edits and
/// over trivia edits that move the comments.
@Suite struct SuppressionReuseTests {
    static let library = """
        screen Shared
        flag leftover // routes:ignore unused-declaration
        // routes:ignore unused-declaration
        flag another
        flag stale // routes:ignore shadowed-branch
        builder shared { screen Shared }

        """
    static let app = """
        import "Lib.routes"
        screen Home
        root {
          anyOf {
            screen Home
            screen Home // routes:ignore shadowed-branch
            shared
          }
        }

        """

    static func lines(_ s: AnalysisSession) -> [String] {
        s.diagnostics.map { "\(s.project.files[$0.file].path) \($0.rule.rawValue) \($0.range) \($0.message)" }
    }

    @Test func editedSessionsSuppressAsFreshOnes() throws {
        let texts = ["/ws/Lib.routes": Self.library, "/ws/App.routes": Self.app]
        var project = ProgramReuseTests.project(texts)
        var session = AnalysisSession.forEditor(project: project)
        let rules = session.diagnostics.map(\.rule)
        #expect(rules == [.unusedDeclaration, .unusedSuppression], "\(Self.lines(session))")
        // A declaration edit in App (the library's comments are taken over), then trivia edits
        // that move the library's comments down a line and the app's suppression off its line.
        let app = project.file(atPath: "/ws/App.routes")!
        let lib = project.file(atPath: "/ws/Lib.routes")!
        var bytes = project.files[app].text.bytes
        let at = bytes.firstIndex(of: UInt8(ascii: "}"))!
        let edit = Array(" screen Home".utf8)
        bytes.insert(contentsOf: edit, at: at - 1)
        let e = try #require(project.applyingDeclarationEdit(file: app, range: (at - 1)..<(at - 1), replacement: edit,
                                                             newSource: SourceText(bytes: bytes)))
        let next = try #require(e.project)
        session = AnalysisSession.forEditor(project: next, reusing: session, splice: e.nodes)
        project = next
        #expect(Self.lines(session) == Self.lines(AnalysisSession.forEditor(project: project)))
        let firstLineEnd = Self.library.utf8.firstIndex(of: 0x0A)!
        for (file, offset) in [(lib, Self.library.utf8.distance(from: Self.library.utf8.startIndex, to: firstLineEnd)),
                               (app, project.files[app].text.bytes.count - 1)] {
            var text = project.files[file].text.bytes
            text.insert(0x0A, at: offset)
            guard let (moved, shift) = project.applyingTriviaEdit(file: file, range: offset..<offset, replacement: [0x0A],
                                                                  newSource: SourceText(bytes: text)) else {
                Issue.record("not a trivia edit at \(offset)")
                return
            }
            session = session.rebased(onto: moved, file: file, edit: shift)
            project = moved
            #expect(Self.lines(session) == Self.lines(AnalysisSession.forEditor(project: project)))
        }
    }
}

/// A declaration renamed in a library that several programs import, then named back: only
/// the files that see it are resolved again (`Project.applyingDeclarationEdit`), each program
/// that contains it is analysed again over its graph patched when the renamed nodes keep their
/// shapes, and every session answers as a fresh one (diagnostics, examples, scopes, every flow
/// state).
@Suite struct RenameEditTests {
    /// Declaration `i` of `file` renamed by a `Z` after its name (`back`: the `Z` taken away
    /// again), as the language server applies it: the session made reusing `session`, which
    /// answers as a fresh one does (see `GraphPatchTests.reanalysed`).
    static func renamed(_ project: Project, _ session: AnalysisSession, file: FileID, declaration i: Int, back: Bool,
                        sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (next: Project, edit: ProjectDeclarationEdit, reused: AnalysisSession) {
        let name = project.files[file].model.declarations[i].name.range
        let (range, replacement) = back ? ((name.upperBound - 1)..<name.upperBound, [UInt8]())
                                        : (name.upperBound..<name.upperBound, Array("Z".utf8))
        return try #require(GraphPatchTests.reanalysed(project, session, file: file, replacing: range, with: replacement,
                                                       sourceLocation: sourceLocation), sourceLocation: sourceLocation)
    }

    @Test func renamesInASharedLibraryAgreeWithAFreshSession() throws {
        var project = ProgramReuseTests.project(ProgramReuseTests.start)
        var session = AnalysisSession.forEditor(project: project)
        var renamed = 0, patched = 0, carriedPlans = 0
        let path = "/ws/lib/Lib.routes"
        for round in 0..<2 {
            let file = try #require(project.file(atPath: path))
            for (i, d) in project.files[file].model.declarations.enumerated() where d.kind != .root {
                for step in 0..<2 {
                    let current = project.files[file].model.declarations[i].name.range
                    let (range, replacement): (Range<Int>, [UInt8]) = step == 0
                        ? (current.upperBound..<current.upperBound, Array((round == 0 ? "Z" : "Renamed").utf8))
                        : ((current.upperBound - (round == 0 ? 1 : 7))..<current.upperBound, [])
                    let e = try #require(GraphPatchTests.reanalysed(project, session, file: file, replacing: range, with: replacement),
                                         "renaming \(d.name.text)")
                    #expect(e.edit.nodes.resolvedAgain.count == 4, "the library and the three apps that import it")
                    renamed += 1
                    patched += e.reused.patchedGraphs
                    carriedPlans += e.reused.units.filter { $0.checker?.scope.planCarried == true }.count
                    project = e.next
                    session = e.reused
                }
            }
        }
        #expect(renamed == 20)
        // Screens, dependencies and builders renamed keep their nodes' shapes; a flag's tests
        // of an unknown name do not.
        #expect(patched >= 30, "\(patched) programs analysed over a patched graph")
        // Their missing-dependency plans are the earlier ones with the nodes resolved again
        // made again (not when `Detail` is renamed: what `store from Detail` needs changes).
        #expect(carriedPlans >= 12, "\(carriedPlans) plans carried")
    }

    /// Renaming a dependency and its provider in a library, then naming them back, makes and
    /// mends the missing dependencies of the apps that import it (and use the dependency where
    /// no provider came first): each program's missing-dependency plan is the earlier one with
    /// every file the rename resolved again made again, and agrees with a fresh session.
    @Test func renamesMakeAndMendMissingDependenciesInImportingApps() throws {
        // The apps' files also import one that does not see the library, so that the files
        // resolved again are not one stretch of the program's nodes.
        let app = "import \"../lib/Lib.routes\"\nimport \"../c/Mid.routes\"\nscreen Home\nroot {\n  anyOf {\n    screen Home uses store\n    screen Detail { screen Home uses store }\n    shop\n    elsewhere\n  }\n}\n"
        let texts = [
            "/ws/c/Mid.routes": "screen Far\nbuilder elsewhere { anyOf { screen Far screen Far } }\n",
            "/ws/lib/Lib.routes": "screen Detail\ndependency store: Store from Detail\nscreen Cart\nbuilder shop { anyOf { screen Cart uses store\n screen Detail { screen Cart uses store } } }\n",
            "/ws/a/App.routes": app,
            "/ws/b/App.routes": app,
        ]
        var project = ProgramReuseTests.project(texts)
        var session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: "/ws/lib/Lib.routes"))
        func missing(_ s: AnalysisSession) -> Int { s.diagnostics.filter { $0.rule == .missingDependency }.count }
        #expect(missing(session) == 3, "one in each app, one in the library they share")
        var carried = 0
        for declaration in [1, 0] {
            for (step, expected) in [0, 3].enumerated() {
                let e = try Self.renamed(project, session, file: file, declaration: declaration, back: step == 1)
                #expect(missing(e.reused) == expected)
                carried += e.reused.units.filter { $0.checker?.scope.planCarried == true }.count
                (project, session) = (e.next, e.reused)
            }
        }
        #expect(carried >= 4, "\(carried) plans carried")
    }

    /// After a rename, an importing file resolves again only the names that may now stand for
    /// something else: its uses of the new name (undefined before, now the renamed
    /// declaration), of the old one, and its undefined names, whose suggestions may change
    /// (`Detial` meant `Detail`; once that is `DetailZ`, it may mean `DetailZ`). Everything
    /// agrees with a fresh session, and the other nodes are not resolved again.
    @Test func aRenameResolvesAgainOnlyTheNamesItMayChange() throws {
        let texts = [
            "/ws/lib/Lib.routes": "screen Detail\nscreen Other\nbuilder more { screen Other }\n",
            "/ws/a/App.routes": "import \"../lib/Lib.routes\"\nscreen Home\nroot {\n  anyOf {\n    screen Home { screen Detial }\n    screen DetailZ\n    screen Detail\n    more\n    screen Home\n  }\n}\n",
        ]
        var project = ProgramReuseTests.project(texts)
        var session = AnalysisSession.forEditor(project: project)
        let lib = try #require(project.file(atPath: "/ws/lib/Lib.routes"))
        let app = try #require(project.file(atPath: "/ws/a/App.routes"))
        func undefined(_ s: AnalysisSession) -> [String] {
            s.diagnostics.filter { $0.rule == .undefinedName }.map { $0.message }.sorted()
        }
        let before = undefined(session)
        #expect(before.count == 2)
        for step in 0..<2 {
            let e = try Self.renamed(project, session, file: lib, declaration: 0, back: step == 1)
            let k = try #require(e.edit.nodes.resolvedAgain.firstIndex(of: app))
            // `screen Detial`, `screen DetailZ` and `screen Detail`: not `Home`, `more` or the `anyOf`.
            #expect(e.edit.nodes.resolvedNodes[k].count == 3, "\(e.edit.nodes.resolvedNodes[k])")
            #expect(undefined(e.reused).count == 2)
            #expect(step == 1 ? undefined(e.reused) == before : undefined(e.reused) != before)
            (project, session) = (e.next, e.reused)
        }
    }

    /// A name that only a syntax error's skipped text mentions is not unused; renamed in the
    /// library that declares it, it is (the skipped name no longer stands for it), and named
    /// back, it is not again. The mentions are patched over the files the rename resolved
    /// again, skipped text included, and agree with a fresh session each time.
    @Test func aRenameChangesWhatSkippedTextMentions() throws {
        let texts = [
            "/ws/lib/Lib.routes": "screen Detail\ndependency spare: Spare\ndependency store: Store\nbuilder details { screen Detail uses store }\n",
            // (`details` is used outside the skipped text: what it mentions counts as before, and
            // an edit patches the mentions.)
            "/ws/a/App.routes": "import \"../lib/Lib.routes\"\nscreen Home\nroot {\n  anyOf {\n    screen Home uses store spare { details }\n    details\n  }\n}\n",
        ]
        var project = ProgramReuseTests.project(texts)
        var session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: "/ws/lib/Lib.routes"))
        func unused(_ s: AnalysisSession) -> [String] {
            s.diagnostics.filter { $0.rule == .unusedDeclaration }.map { s.project.files[$0.file].text.text($0.range) }
        }
        #expect(unused(session) == [])
        for (step, expected) in [["spareZ"], []].enumerated() {
            let e = try Self.renamed(project, session, file: file, declaration: 1, back: step == 1)
            #expect(e.edit.nodes.resolvedAgain.count == 2)
            #expect(e.reused.units.first { $0.program != nil }?.checker?.facts.mentionsPatched == true)
            #expect(e.reused.units.first { $0.program != nil }?.checker?.declarationFindingsKept == true)
            #expect(unused(e.reused) == expected)
            (project, session) = (e.next, e.reused)
        }
    }
}

/// An `anyOf` of many branches unites its branches' builds in a tree of pairs
/// (`Semantics.unionTrees`), which an edit of one branch makes again only above it.
@Suite struct UnionTreeTests {
    static let path = "/ws/App.routes"

    /// An `anyOf` of `n` branches, each a builder that shows a screen of its own (every
    /// third under a flag, with the next one's screen otherwise), tried first in `root`: the
    /// branches after it build what it does not (so its builds show in their contexts, and
    /// in whether they are shadowed).
    static func program(branches n: Int) -> String {
        var lines = (0..<n).map { "screen S\($0)" } + ["screen Spare"]
        lines.append("flag beta")
        for i in 0..<n {
            if i % 3 == 0 {
                lines.append("builder b\(i) { conditional beta { screen S\(i) } else { screen S\((i + 1) % n) } }")
            } else {
                lines.append("builder b\(i) { screen S\(i) }")
            }
        }
        lines.append("builder all {\n  anyOf {\n" + (0..<n).map { "    b\($0)" }.joined(separator: "\n") + "\n  }\n}")
        lines.append("root {\n  anyOf {\n    all\n    screen S5\n    screen S6\n    screen S50\n    screen Spare\n  }\n}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func unit(_ s: AnalysisSession) -> RoutesAnalysis.ProgramAnalysis? { s.units.first { $0.program != nil } }

    /// The builds of the large `anyOf` are the union of its branches' builds, as a chain of
    /// unions makes it.
    @Test func aLargeAnyOfBuildsTheUnionOfItsBranches() throws {
        let session = AnalysisSession.forEditor(project: ProgramReuseTests.project([Self.path: Self.program(branches: 100)]))
        let semantics = try #require(Self.unit(session)).semantics
        let graph = semantics.graph
        var checked = 0
        for g in graph.nodes.indices {
            guard case .anyOf(let bs) = graph.nodes[g].kind, bs.count > 5 else { continue }
            #expect(Int(bs.count) >= Semantics.unionTreeBranches)
            var union = BDD.zero
            for i in 0..<Int(bs.count) { union = semantics.bdd.or(union, semantics.builds[graph.branch(bs, i)]) }
            #expect(semantics.builds[g] == union)
            checked += 1
        }
        #expect(checked == 1)
        // A tree over 128 leaves, 100 of them branches: 50 + 25 + 13 + 7 + 4 + 2 + 1 unions.
        #expect(semantics.unionsMade == 102)
    }

    /// Screen names in the branches swapped for others (each changes what one branch builds,
    /// and with it the contexts of every later branch): the session answers as a fresh one
    /// after every edit, and makes again only the unions above the changed branch.
    @Test func editedBranchesAgreeWithAFreshSession() throws {
        var random = SplitMix64(seed: 0x0_A11_0F)
        var project = ProgramReuseTests.project([Self.path: Self.program(branches: 100)])
        var session = AnalysisSession.forEditor(project: project)
        var edits = 0, fewUnions = 0, changedShadowed = 0
        func shadowed(_ s: AnalysisSession) -> [String] { s.diagnostics.filter { $0.rule == .shadowedBranch }.map(\.message) }
        for _ in 0..<40 {
            let file = try #require(project.file(atPath: Self.path))
            let model = project.files[file].model
            let screens = model.nameUses.filter { $0.expected == [.screen] }.map(\.name)
            let name = screens[Int(random.next() % UInt64(screens.count))]
            let replacement = Array("S\(random.next() % 100)".utf8)
            guard let (next, _, reused) = GraphPatchTests.reanalysed(project, session, file: file, replacing: name.range,
                                                                    with: replacement) else { continue }
            edits += 1
            let semantics = try #require(Self.unit(reused)).semantics
            // A fresh tree makes 102 unions; a branch changed, 7 (one per level above it).
            if semantics !== Self.unit(session)?.semantics && semantics.unionsMade <= 7 { fewUnions += 1 }
            if shadowed(reused) != shadowed(session) { changedShadowed += 1 }
            project = next
            session = reused
        }
        #expect(edits >= 30, "\(edits) edits analysed again")
        #expect(fewUnions >= 20, "\(fewUnions) edits made the unions above one branch only")
        #expect(changedShadowed >= 3, "\(changedShadowed) edits changed which branches of root are shadowed")
    }
}

/// An edit changes the contexts of the nodes its changes reach, and of no others: a change
/// that the next screen node does not build stops there (`ProgramFacts.affectedNodes`).
@Suite struct AffectedNodesTests {
    /// Features in one `anyOf`, as an app lists them: each shows its screen, with a help
    /// screen when the path asks for it and its detail otherwise, and every detail offers
    /// the shared `web`.
    static let program: String = {
        let n = 40
        var lines = ["screen Home", "screen Web"]
        for i in 0..<n { lines += ["screen S\(i)", "screen D\(i)", "screen H\(i)"] }
        lines.append("builder web { screen Web }")
        for i in 0..<n {
            lines.append("builder d\(i) { screen D\(i) { web } }")
            lines.append("builder f\(i) { screen S\(i) { anyOf { screen D\(i)\n if screen H\(i) { screen H\(i) } else { d\(i) } } } }")
        }
        lines.append("root { screen Home { anyOf {\n" + (0..<n).map { "  f\($0)" }.joined(separator: "\n") + "\n} } }")
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func aRenamedScreenChangesOnlyWhatItsTestsPassOn() throws {
        let project = ProgramReuseTests.project(["/ws/App.routes": Self.program])
        let session = AnalysisSession.forEditor(project: project)
        let file = try #require(project.file(atPath: "/ws/App.routes"))
        let help = try #require(project.files[file].model.declarations.firstIndex { $0.name.text == "H7" })
        // `H7Z`: `if screen H7` and `screen H7` name nothing now (the test passes both ways,
        // its then-branch builds nothing); then back again.
        var (current, sessionNow) = (project, session)
        for back in [false, true] {
            let (next, _, reused) = try RenameEditTests.renamed(current, sessionNow, file: file, declaration: help, back: back)
            let facts = try #require(reused.units.first { $0.program != nil }?.checker?.facts)
            let recomputed = try #require(facts.recomputed)
            let graph = facts.graph
            let webBody = try #require(graph.builders.indices.first { graph.builderName($0) == "web" }.flatMap { graph.builders[$0].body })
            // The test, its branches, and the screen `d7` shows first: its nesting, where
            // `web` is, gets what it got (the help screen's pairs are not D7's).
            #expect(recomputed.count <= 6, "\(recomputed.count) nodes computed again")
            #expect(!recomputed[webBody])
            (current, sessionNow) = (next, reused)
        }
    }
}

/// The predecessors a continued flow feeds its affected nodes from are exactly the nodes that
/// list them as successors (`Flow.forEachPredecessor`, `Flow.forEachSuccessor`).
@Suite struct FlowPredecessorTests {
    @Test func predecessorsInvertSuccessors() throws {
        var edges = 0
        for entry in Corpus.entries {
            let session = AnalysisSession.forEditor(project: entry.project)
            for unit in session.units {
                let semantics = unit.semantics
                let graph = semantics.graph
                for crossNestings in [true, false] {
                    var successors = Set<[Int]>(), predecessors = Set<[Int]>()
                    for g in graph.nodes.indices {
                        Flow.forEachSuccessor(g, in: graph, crossNestings: crossNestings) { successors.insert([g, $0]) }
                        Flow.forEachPredecessor(g, in: semantics, crossNestings: crossNestings) { predecessors.insert([$0, g]) }
                    }
                    #expect(successors == predecessors)
                    edges += successors.count
                }
            }
        }
        #expect(edges > 20_000, "\(edges) edges")
    }
}
