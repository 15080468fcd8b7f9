import Testing
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// A workspace often holds many programs (an app per folder, a directory of fixtures). Each is
/// analysed as if it were alone, and what its analysis keeps per node is sized by the
/// program: before, every program kept flow storage as large as the whole workspace, and a
/// language server opened on a folder of a few thousand files ran out of memory.
@Suite struct WorkspaceOfProgramsTests {
    /// Generated programs in folders of one project (five per project, so that each program's
    /// nodes are numbered apart from the project's): each program's diagnostics, scope answers
    /// and screen examples equal those of the program analysed alone.
    @Test func programsAnalysedTogetherAgreeWithEachAnalysedAlone() {
        let groupSize = 5
        var diagnostics = 0, scopes = 0, examples = 0
        for group in 0..<60 {
            let members = (0..<groupSize).map { Corpus.entries[group * groupSize + $0] }
            var texts: [String: String] = [:]
            var entries: [ProjectEntry] = []
            for (i, member) in members.enumerated() {
                let path = "/ws/p\(i)/App.routes"
                texts[path] = member.program.text
                entries.append(ProjectEntry(canonicalPath: path, displayPath: "p\(i)/App.routes", group: i, workspaceRoot: "/ws"))
            }
            let project = Project(entries: entries, provider: ReferenceMemoryProvider(files: texts))
            let together = AnalysisSession(project: project)
            #expect(together.programNodeCounts.count == groupSize)
            for (i, member) in members.enumerated() {
                let alone = AnalysisSession(project: member.project)
                guard let file = project.files.first(where: { $0.path == "/ws/p\(i)/App.routes" })?.id else {
                    Issue.record("p\(i) was not loaded")
                    continue
                }
                let context = "seed \(member.program.seed) as p\(i) of group \(group)"
                // Sized by the program: its own file's nodes, not the project's.
                #expect(together.programNodeCounts.contains(project.files[file].model.nodes.count), "\(context)")
                let mine = together.diagnostics.filter { $0.file == file }.map { describe($0, own: file) }
                let theirs = alone.diagnostics.map { describe($0, own: 0) }
                #expect(mine == theirs, "\(context)\n\(ReferenceSupport.numbered(member.program.text))")
                diagnostics += theirs.count
                for (id, node) in project.files[file].model.nodes.enumerated() {
                    guard case .screen = node.kind else { continue }
                    let a = together.scope(atNode: id, file: file).map { "\($0.symbol.declaration) \($0.status)" }
                    let b = alone.scope(atNode: id, file: 0).map { "\($0.symbol.declaration) \($0.status)" }
                    #expect(a == b, "\(context): scope at node \(id)")
                    scopes += b.count
                    #expect(together.example(screenNode: id, file: file) == alone.example(screenNode: id, file: 0), "\(context): example of node \(id)")
                    examples += 1
                }
            }
        }
        print("programs together vs alone: \(diagnostics) diagnostics, \(scopes) scope answers, \(examples) screen examples compared")
        // Not vacuous.
        #expect(diagnostics > 300)
        #expect(scopes > 300)
        #expect(examples > 500)
    }

    /// Slots of a program's nodes: consecutive per file, in file order; a node of another file
    /// has none.
    @Test func programNodesNumberTheProgramsFilesApart() {
        var texts: [String: String] = [:]
        var entries: [ProjectEntry] = []
        for i in 0..<3 {
            let path = "/ws/p\(i)/App.routes"
            texts[path] = "screen S\(i)\nscreen T\(i)\nroot { screen S\(i) { screen T\(i) } }\n"
            entries.append(ProjectEntry(canonicalPath: path, displayPath: "p\(i)/App.routes", group: i, workspaceRoot: "/ws"))
        }
        let project = Project(entries: entries, provider: ReferenceMemoryProvider(files: texts))
        let graph = BuilderGraph(project: project)
        let middle = ProgramNodes(files: [1], graph: graph)
        #expect(!middle.isIdentity)
        #expect(middle.count == graph.fileNodeCount(1))
        #expect(Array(middle.all) == Array(graph.firstNode(of: 1)..<(graph.firstNode(of: 1) + graph.fileNodeCount(1))))
        for g in graph.nodes.indices {
            let slot = middle.slot(g, file: graph.nodes[g].file)
            if graph.nodes[g].file == 1 {
                #expect(slot == g - graph.firstNode(of: 1))
            } else {
                #expect(slot == nil)
            }
        }
        let everything = ProgramNodes(files: [2, 0, 1], graph: graph)
        #expect(everything.isIdentity)
        #expect(Array(everything.all) == Array(graph.nodes.indices))
    }

    private func describe(_ d: Diagnostic, own: FileID) -> String {
        let related = d.related.map { "\($0.file == own ? "here" : "elsewhere") \($0.range) \($0.message)" }
        return "\(d.rule.rawValue) \(d.severity) \(d.range) \(d.message) [\(related.joined(separator: "; "))]"
    }
}
