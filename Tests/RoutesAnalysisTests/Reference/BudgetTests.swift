import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Exact analysis is exponential in the worst case. A short file can make the boolean
/// functions blow up (`x1 ∧ y1 ∨ … ∨ xn ∧ yn` with every x above every y has 2^n nodes in that
/// order); the analysis then stops at a budget instead of taking minutes and gigabytes, says
/// so with an `analysis-limit` error at the program's `root`, and keeps what needs no analysis.
@Suite struct AnalysisBudgetTests {
    /// n pairs of flags, each pair tested together in one `anyOf` branch; the branches before
    /// `screen A` mask it with the entangled function.
    static func entangled(_ n: Int) -> String {
        entangledRoutes(pairs: n, last: ["screen A", "screen B", "screen Nope"])
    }

    @Test func theManagerStopsAtItsNodeBudgetAndAnswersAtOnceAfterwards() {
        let bdd = BDD(cacheBits: 10)
        let n = 14
        let xs = (0..<n).map { _ in bdd.variable(bdd.newVariable()) }
        let ys = (0..<n).map { _ in bdd.variable(bdd.newVariable()) }
        var f = BDD.zero
        for i in 0..<n { f = bdd.or(f, bdd.and(xs[i], ys[i])) }
        #expect(!bdd.exhausted)
        #expect(bdd.nodeCount > 1 << n, "the order x…, y… makes it exponential")

        let limited = BDD(cacheBits: 10)
        limited.nodeLimit = 1000
        let lx = (0..<n).map { _ in limited.variable(limited.newVariable()) }
        let ly = (0..<n).map { _ in limited.variable(limited.newVariable()) }
        var g = BDD.zero
        for i in 0..<n { g = limited.or(g, limited.and(lx[i], ly[i])) }
        #expect(limited.exhausted)
        #expect(limited.nodeCount <= 1000)
        let steps = limited.steps
        _ = limited.and(g, limited.not(g))
        #expect(limited.steps == steps, "an exhausted manager does no more work")
    }

    @Test func theStepBudgetStopsWorkThatCreatesNoNodes() {
        let bdd = BDD(cacheBits: 10)
        bdd.stepLimit = 50
        let xs = (0..<8).map { _ in bdd.variable(bdd.newVariable()) }
        let ys = (0..<8).map { _ in bdd.variable(bdd.newVariable()) }
        var f = BDD.zero
        for i in 0..<8 { f = bdd.or(f, bdd.and(xs[i], ys[i])) }
        #expect(bdd.exhausted)
        #expect(bdd.steps == 51, "the step that went over the budget is the last")
    }

    @Test func anEntangledProgramStopsTheAnalysisAndKeepsWhatNeedsNoAnalysis() {
        let project = ReferenceSupport.project("flag unusedFlag\n" + Self.entangled(24))
        let session = AnalysisSession.forEditor(project: project)
        // The undefined `Nope`, the unused flag (read from the used region, no decision
        // diagram), and the limit at `root`; nothing computed with the exhausted manager.
        #expect(session.diagnostics.map(\.rule) == [.unusedDeclaration, .analysisLimit, .undefinedName])
        let limit = session.diagnostics.first { $0.rule == .analysisLimit }
        #expect(limit?.range == project.declaration(project.programs[0].root).name.range)
        #expect(limit?.message.contains("limit of \(1 << 21) decision-diagram nodes (or \((1 << 21) * 32) steps)") == true)
        // Questions get "not known", never a made-up answer.
        let file = project.files[0]
        let screenNode = file.model.nodes.indices.first { if case .screen = file.model.nodes[$0].kind { return true } else { return false } }!
        if case .notAnalysed = session.example(screenNode: screenNode, file: 0) {} else {
            Issue.record("an example after the analysis stopped: \(session.example(screenNode: screenNode, file: 0))")
        }
    }

    /// A limit forced low stops a small program the same way: the limit is named, the rules
    /// that need no analysis run, the ones that need it (a real missing dependency) do not,
    /// and scope questions answer "unknown".
    @Test func aLimitForcedLowStopsASmallProgram() {
        let text = "screen P\nscreen X\ndependency d: D from P\nflag unusedFlag\nroot {\n  anyOf {\n    screen X uses d\n    screen P\n  }\n}\n"
        let project = ReferenceSupport.project(text)
        #expect(AnalysisSession.forEditor(project: project, limits: .standard).diagnostics.map(\.rule) == [.unusedDeclaration, .missingDependency])
        let session = AnalysisSession.forEditor(project: project, limits: AnalysisLimits(nodes: 3))
        #expect(session.diagnostics.map(\.rule) == [.unusedDeclaration, .analysisLimit])
        #expect(session.diagnostics[1].message.hasPrefix("the analysis of this program stopped at its limit of 3 decision-diagram nodes (or 96 steps)"))
        let model = project.files[0].model
        let x = model.nodes.indices.first { if case .screen(let s?, _, _) = model.nodes[$0].kind { return s.text == "X" } else { return false } }!
        #expect(session.scope(atNode: x, file: 0).map(\.status) == [.unknown])
    }

    /// An `anyOf` of 1,000 branches, each testing the next flag in declaration order (feature
    /// flags): each branch is masked with "none of the earlier flags". With the conditions in
    /// declaration order that cost a copy of the whole chain per branch (3 million nodes,
    /// over the budget); with the last declared on top it grows by a node per branch.
    @Test func flagBranchesInDeclarationOrderStayFarInsideTheBudget() {
        let n = 1000
        var lines = ["screen A", "screen B"] + (0..<n).map { "flag f\($0)" }
        let branches = (0..<n).map { "    conditional f\($0) { screen A } else { empty }" }
        lines.append("root {\n  anyOf {\n" + branches.joined(separator: "\n") + "\n    screen B\n  }\n}")
        let project = ReferenceSupport.project(lines.joined(separator: "\n") + "\n")
        let session = AnalysisSession.forEditor(project: project)
        #expect(!session.diagnostics.contains { $0.rule == .analysisLimit })
        #expect(session.decisionNodeCounts == [session.decisionNodeCounts[0]])
        #expect(session.decisionNodeCounts[0] < 100_000, "\(session.decisionNodeCounts) nodes")
        #expect(session.diagnostics.isEmpty, "every branch can build: \(session.diagnostics.map(\.message))")
        // The last branch's `screen A` builds only when every earlier flag is false and the last
        // true: the example says so, flags in declaration order.
        let model = project.files[0].model
        let last = model.nodes.indices.last { if case .screen = model.nodes[$0].kind { return true } else { return false } }!
        guard case .reached(let path, let flags, _) = session.example(screenNode: last, file: 0),
              case .screen(let name?, _, _) = model.nodes[last].kind, name.text == "B" else {
            Issue.record("the last screen node is not B")
            return
        }
        #expect(path == ["B"])
        #expect(flags.isEmpty, "B is reached in any environment: the conditionals only build A")
        let lastA = model.nodes.indices.last { if case .screen(let s?, _, _) = model.nodes[$0].kind { return s.text == "A" } else { return false } }!
        guard case .reached(let pathA, let flagsA, _) = session.example(screenNode: lastA, file: 0) else {
            Issue.record("no example for the last branch: \(session.example(screenNode: lastA, file: 0))")
            return
        }
        #expect(pathA == ["A"])
        #expect(flagsA.map(\.0) == (0..<n).map { "f\($0)" })
        #expect(flagsA.map(\.1) == Array(repeating: false, count: n - 1) + [true])
    }

    @Test func aSmallEntangledProgramIsStillAnalysedExactly() {
        // 2^10 is well inside the budget: the analysis finishes and reports as usual.
        let session = AnalysisSession.forEditor(project: ReferenceSupport.project(Self.entangled(10)))
        #expect(!session.diagnostics.contains { $0.rule == .analysisLimit })
        #expect(session.diagnostics.map(\.rule).contains(.undefinedName))
        #expect(!session.diagnostics.contains { $0.rule == .unusedDeclaration }, "every flag is tested")
    }
}
