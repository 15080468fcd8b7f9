import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// A program analysed again after an edit runs on the decision-diagram manager of its previous
/// analysis (its nodes and cached operations stay; they are functions of numbered variables,
/// whatever the variables stand for now). The results must be those of a fresh manager.
@Suite struct KeptManagerTests {
    static func diagnostics(_ s: AnalysisSession) -> [String] {
        s.diagnostics.map { "\($0.rule) \($0.file) \($0.range) \($0.message) \($0.related.map(\.message))" }
    }

    /// 600 generated programs, each analysed on the manager of the one before (the same file
    /// path, so the same program for the session): every one reports what a fresh analysis
    /// reports, and answers the same examples.
    @Test func aChainOfUnrelatedProgramsOnOneManagerEqualsFreshAnalyses() {
        var previous: AnalysisSession? = nil
        var kept = 0
        for seed in UInt64(0)..<600 {
            let project = ReferenceSupport.project(ProgramGenerator.generate(seed: seed).text)
            let oldManagers = previous?.managerIdentities ?? []
            let session = AnalysisSession.forEditor(project: project, reusing: previous)
            if oldManagers.contains(where: { session.managerIdentities.contains($0) }) { kept += 1 }
            let fresh = AnalysisSession.forEditor(project: project)
            #expect(Self.diagnostics(session) == Self.diagnostics(fresh), "seed \(seed)")
            let model = project.files[0].model
            for n in model.nodes.indices {
                guard case .screen = model.nodes[n].kind else { continue }
                #expect("\(session.example(screenNode: n, file: 0))" == "\(fresh.example(screenNode: n, file: 0))", "seed \(seed), node \(n)")
            }
            previous = session
        }
        #expect(kept > 500, "the managers were kept from one program to the next (\(kept) times)")
    }

    /// An edit that makes a name undefined and then defines it again: the second analysis
    /// makes few nodes of its own, and both equal fresh analyses.
    @Test func anEditedProgramMakesOnlyTheNodesItLacks() {
        let text = ProgramGenerator.generate(seed: 7).text
        let first = AnalysisSession.forEditor(project: ReferenceSupport.project(text))
        let nodes = first.decisionNodeCounts[0]
        // The last screen node's name gets an X in front (it becomes undefined).
        let bytes = Array(text.utf8), needle = Array("screen ".utf8)
        guard let at = (0...(bytes.count - needle.count)).last(where: { Array(bytes[$0..<($0 + needle.count)]) == needle }) else {
            Issue.record("no screen node")
            return
        }
        let edited = String(decoding: bytes[..<(at + needle.count)] + Array("X".utf8) + bytes[(at + needle.count)...], as: UTF8.self)
        let second = AnalysisSession.forEditor(project: ReferenceSupport.project(edited), reusing: first)
        #expect(second.managerIdentities == first.managerIdentities, "the edited program runs on its previous manager")
        #expect(Self.diagnostics(second) == Self.diagnostics(AnalysisSession.forEditor(project: ReferenceSupport.project(edited))))
        let third = AnalysisSession.forEditor(project: ReferenceSupport.project(text), reusing: second)
        #expect(third.managerIdentities == first.managerIdentities)
        #expect(Self.diagnostics(third) == Self.diagnostics(AnalysisSession.forEditor(project: ReferenceSupport.project(text))))
        #expect(third.decisionNodeCounts[0] < nodes * 3, "going back adds no copy of the program's functions")
    }

    /// A program that outgrows the budget on a kept manager is stopped with the message of a
    /// fresh analysis (the budget counts the nodes and steps of one analysis), and the one
    /// after it starts on a fresh manager.
    @Test func aProgramOverTheBudgetOnAKeptManagerStopsAsAFreshAnalysisDoes() {
        let small = AnalysisSession.forEditor(project: ReferenceSupport.project(AnalysisBudgetTests.entangled(10)))
        #expect(!small.diagnostics.contains { $0.rule == .analysisLimit })
        let bigProject = ReferenceSupport.project(AnalysisBudgetTests.entangled(22))
        let big = AnalysisSession.forEditor(project: bigProject, reusing: small)
        // The budget of one fresh analysis of this program (no fresh session here: each
        // analysis that runs out takes seconds in a debug build).
        let limit = big.diagnostics.first { $0.rule == .analysisLimit }
        #expect(limit?.message.contains("limit of \(1 << 21) decision-diagram nodes (or \((1 << 21) * 32) steps)") == true, "\(limit?.message ?? "")")
        #expect(big.diagnostics.filter { $0.rule != .analysisLimit } == bigProject.diagnostics.sorted(by: Analysis.order))
        let again = AnalysisSession.forEditor(project: ReferenceSupport.project(AnalysisBudgetTests.entangled(10)), reusing: big)
        #expect(!again.diagnostics.contains { $0.rule == .analysisLimit })
        #expect(Self.diagnostics(again) == Self.diagnostics(small))
    }

    /// Nodes are never freed: a manager that has piled up many times what a fresh analysis of
    /// the program makes is not kept.
    @Test func aManagerThatHasGrownTooLargeIsReplaced() {
        let bdd = BDD(cacheBits: 10)
        #expect(Semantics.canReuse(bdd, nodes: 100))
        let n = 20
        let xs = (0..<n).map { _ in bdd.variable(bdd.newVariable()) }
        let ys = (0..<n).map { _ in bdd.variable(bdd.newVariable()) }
        var f = BDD.zero
        for i in 0..<15 { f = bdd.or(f, bdd.and(xs[i], ys[i])) }
        #expect(bdd.nodeCount > 1 << 16)
        #expect(!Semantics.canReuse(bdd, nodes: 100))
        #expect(Semantics.canReuse(bdd, nodes: bdd.nodeCount))
        let semantics = Semantics(graph: BuilderGraph(project: ReferenceSupport.project("screen A\nroot { screen A }\n"), files: [0], hasForeignElement: false), reusing: bdd)
        #expect(semantics.bdd !== bdd)
    }
}
