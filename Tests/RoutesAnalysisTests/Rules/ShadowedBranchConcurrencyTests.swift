import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel

/// On a large program, `shadowed-branch` asks which branches may be shadowed on every core
/// (`BDD.intersects(_:_:local:)`, no shared cache written) and checks the few suspects on
/// one: the findings must be those of the check on one core, in the same order.
@Suite struct ShadowedBranchConcurrencyTests {
    static func facts(_ text: String) -> ProgramFacts? {
        let session = AnalysisSession.forEditor(project: ReferenceSupport.project(text))
        return session.units.first { $0.program != nil }?.checker?.facts
    }

    static func described(_ findings: [ShadowedBranch.Finding]) -> [String] {
        findings.map { "\($0.branch.index) by \($0.takenBy.map(\.index))" }
    }

    @Test func generatedProgramsFindTheSameOnEveryCoreAsOnOne() throws {
        var compared = 0, found = 0
        for seed in UInt64(0)..<300 {
            guard let facts = Self.facts(ProgramGenerator.generate(seed: seed).text), !facts.semantics.bdd.exhausted else { continue }
            let one = ShadowedBranch.check(facts, concurrentFrom: .max)
            let every = ShadowedBranch.check(facts, concurrentFrom: 1)
            #expect(Self.described(every) == Self.described(one), "seed \(seed)")
            compared += 1
            found += one.count
        }
        #expect(compared > 250)
        #expect(found > 0, "some generated programs shadow a branch")
    }

    /// 700 builders, each an `anyOf` whose second branch repeats its first (a third of them
    /// under a flag): past the threshold, so the plain check is the concurrent one.
    @Test func aLargeProgramIsCheckedOnEveryCoreAlike() throws {
        var text = "flag f\n"
        var uses: [String] = []
        for i in 0..<700 {
            text += "screen S\(i)\nscreen T\(i)\n"
            let second = i % 3 == 0 ? "conditional f { screen S\(i) } else { screen T\(i) }" : "screen S\(i)"
            text += "builder b\(i) {\n  anyOf {\n    screen S\(i)\n    \(second)\n    screen T\(i)\n  }\n}\n"
            uses.append("b\(i)")
        }
        text += "root {\n  anyOf {\n" + uses.map { "    \($0)\n" }.joined() + "  }\n}\n"
        let facts = try #require(Self.facts(text))
        #expect(!facts.semantics.bdd.exhausted)
        let one = ShadowedBranch.check(facts, concurrentFrom: .max)
        let every = ShadowedBranch.check(facts)
        #expect(Self.described(every) == Self.described(one))
        // The repeated `screen S` of each builder without the flag (466 of 700); where the
        // second branch tests the flag, it builds T when the flag is off: nothing is shadowed.
        #expect(one.count == 466)
    }
}
