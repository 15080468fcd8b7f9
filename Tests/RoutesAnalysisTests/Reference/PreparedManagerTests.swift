import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel

/// A lint of one program has its decision-diagram manager made on a helper thread while the
/// graph is built (`PreparedManager`): it must serve exactly once, only for a graph of the
/// size it was made for, and leave the analysis what a manager made on the spot gives.
@Suite struct PreparedManagerTests {
    static func graph(_ source: String) -> BuilderGraph {
        BuilderGraph(project: ReferenceSupport.project(source), files: [0], hasForeignElement: false)
    }

    @Test func aPreparedManagerServesOnceAndOnlyForItsSize() {
        let prepared = PreparedManager(graphNodes: 40)
        #expect(prepared.take(graphNodes: 41) == nil)
        let bdd = prepared.take(graphNodes: 40)
        #expect(bdd != nil)
        #expect(bdd?.nodeCount == 2, "a fresh manager: the two constants only")
        #expect(prepared.take(graphNodes: 40) == nil, "taken once")
    }

    @Test func theSemanticsTakesAPreparedManagerOfItsGraphsSize() {
        let graph = Self.graph("screen A\nscreen B\nflag f\nroot { anyOf { screen A\nconditional f { screen B } } }\n")
        let matching = PreparedManager(graphNodes: graph.nodes.count)
        let semantics = Semantics(graph: graph, prepared: matching)
        #expect(matching.take(graphNodes: graph.nodes.count) == nil, "the semantics took it")
        #expect(semantics.bdd.nodeCount > 2)
        let other = PreparedManager(graphNodes: graph.nodes.count + 1)
        _ = Semantics(graph: graph, prepared: other)
        #expect(other.take(graphNodes: graph.nodes.count + 1) != nil, "a manager made for another size is left")
    }

    /// 200 generated programs linted (one program each: the lint prepares its manager) report
    /// what the editor's analysis, on a manager made on the spot, reports.
    @Test func aLintOnAPreparedManagerReportsWhatAFreshAnalysisReports() {
        for seed in UInt64(0)..<200 {
            let text = ProgramGenerator.generate(seed: seed).text
            let lint = AnalysisSession.forLint(project: ReferenceSupport.project(text))
            let fresh = AnalysisSession.forEditor(project: ReferenceSupport.project(text))
            #expect(KeptManagerTests.diagnostics(lint) == KeptManagerTests.diagnostics(fresh), "seed \(seed)")
        }
    }
}
