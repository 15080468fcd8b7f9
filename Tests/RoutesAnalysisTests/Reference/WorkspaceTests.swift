import TestSupport
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
    /// files are not the project's first): each program's diagnostics, scope answers
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
            let project = Project(entries: entries, provider: MemoryProvider(files: texts))
            let together = AnalysisSession.forEditor(project: project)
            #expect(together.programNodeCounts.count == groupSize)
            for (i, member) in members.enumerated() {
                let alone = AnalysisSession.forEditor(project: member.project)
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

    /// A program's graph holds its own files' nodes only, numbered from 0 in file order; a
    /// node of another file has no number there.
    @Test func aProgramsGraphHoldsItsOwnFilesOnly() {
        var texts: [String: String] = [:]
        var entries: [ProjectEntry] = []
        for i in 0..<3 {
            let path = "/ws/p\(i)/App.routes"
            texts[path] = "screen S\(i)\nscreen T\(i)\nroot { screen S\(i) { screen T\(i) } }\n"
            entries.append(ProjectEntry(canonicalPath: path, displayPath: "p\(i)/App.routes", group: i, workspaceRoot: "/ws"))
        }
        let project = Project(entries: entries, provider: MemoryProvider(files: texts))
        let middle = BuilderGraph(project: project, files: [1], hasForeignElement: false)
        #expect(middle.nodes.count == project.files[1].model.nodes.count)
        #expect(middle.firstNode(of: 1) == 0)
        #expect(middle.nodes.allSatisfy { $0.file == 1 })
        #expect(middle.screens.map(\.file) == [1, 1])
        #expect(middle.globalIfPresent(0, 0) == nil && middle.globalIfPresent(2, 0) == nil)
        for local in project.files[1].model.nodes.indices {
            #expect(middle.global(1, local) == local)
        }
        let everything = BuilderGraph(project: project, files: [2, 0, 1], hasForeignElement: false)
        #expect(everything.files.files == [0, 1, 2])
        #expect(everything.nodes.count == project.files.reduce(0) { $0 + $1.model.nodes.count })
        #expect(everything.firstNode(of: 2) == project.files[0].model.nodes.count + project.files[1].model.nodes.count)
    }

    private func describe(_ d: Diagnostic, own: FileID) -> String {
        let related = d.related.map { "\($0.file == own ? "here" : "elsewhere") \($0.range) \($0.message)" }
        return "\(d.rule.rawValue) \(d.severity) \(d.range) \(d.message) [\(related.joined(separator: "; "))]"
    }
}
