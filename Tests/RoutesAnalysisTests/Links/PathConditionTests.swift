import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel

/// `PathCondition` skips the branches of a wide `anyOf` that cannot build an element
/// (`BranchIndex`): on generated programs (wildcards, references, builder cycles and
/// unresolved names included), with every `anyOf` indexed, each prefix of random paths is
/// built in exactly the environments of the walk that asks every branch.
@Suite struct PathConditionTests {
    @Test func indexedBranchesGiveTheConditionsOfAWalkOverEveryBranch() throws {
        var compared = 0, built = 0, uncertain = 0
        for seed in UInt64(0)..<300 {
            let generated = ProgramGenerator.generate(seed: seed)
            let project = ReferenceSupport.project(generated.text)
            guard let program = project.programs.first else { continue }
            let graph = BuilderGraph(project: project, files: program.files, hasForeignElement: false)
            let semantics = Semantics(graph: graph)
            guard let rootBody = ProgramFacts.rootBody(of: program, in: graph), !graph.screens.isEmpty else { continue }
            if semantics.hasUncertainty { uncertain += 1 }
            let everyBranch = PathCondition(semantics: semantics, indexingAbove: .max)
            let indexed = PathCondition(semantics: semantics, indexingAbove: 0)
            var rng = SplitMix64(seed: seed &* 13 &+ 5)
            for _ in 0..<20 {
                let path = (0..<(Int(rng.next() % 4) + 1)).map { _ in Int(rng.next() % UInt64(graph.screens.count)) }
                let expected = everyBranch.prefixes(of: path, rootBody: rootBody)
                #expect(indexed.prefixes(of: path, rootBody: rootBody) == expected, "seed \(seed), path \(path)\n\(generated.text)")
                compared += 1
                if expected.last != BDD.zero { built += 1 }
            }
        }
        // Paths built somewhere, and programs read with uncertainty, are among them.
        #expect(compared >= 4000 && built >= 500 && uncertain >= 10, "compared \(compared), built \(built), uncertain \(uncertain)")
    }
}
