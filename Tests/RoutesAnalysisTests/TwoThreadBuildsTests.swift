import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel

/// A graph's nodes resolved on two threads (`BuilderGraph.init`), and the builds of the nodes
/// outside the builders' bodies evaluated on two threads
/// (`Semantics.evaluateOutsideBodiesOnTwoThreads`), against one thread: the same graph, and
/// the same function at every node, in every reading, whichever thread evaluated it; and no
/// wait for a helper thread that never comes.
@Suite struct TwoThreadBuildsTests {
    /// A program of several files, each importing the ones before it: screens, a flag and an
    /// optional per file, builders whose bodies nest screens (whose nestings the two threads
    /// share out) and call builders of their own file or earlier ones, now and then
    /// themselves outside a nesting (a builder cycle: both readings); `root` in `App.routes`
    /// places every builder.
    static func program(seed: UInt64) -> [String: String] {
        var rng = SplitMix64(seed: seed)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let files = 2 + pick(5)
        var texts: [String: String] = [:]
        var builders: [String] = []
        for i in 0..<files {
            var text = (0..<i).map { "import \"Part\($0).routes\"\n" }.joined()
            let screens = 3 + pick(4)
            for j in 0..<screens { text += "screen P\(i)_\(j)\n" }
            text += "flag f\(i)\noptional o\(i): O\(i)\n"
            let count = 2 + pick(4)
            let names = (0..<count).map { "b\(i)_\($0)" }
            let callable = builders + names
            func screen() -> String { "P\(i)_\(pick(screens))" }
            func block(_ depth: Int) -> String {
                let choice = depth >= 3 ? pick(3) : pick(12)
                switch choice {
                case 0: return "screen \(screen())"
                case 10: return "screen \(screen()) as sheet"
                case 11: return "conditional unknown\(pick(3)) { \(block(depth + 1)) } else { \(block(depth + 1)) }"
                case 1: return callable[pick(callable.count)]
                case 2: return "empty"
                case 3, 4: return "screen \(screen()) { \(block(depth + 1)) }"
                case 5: return "anyOf { \(block(depth + 1))\n \(block(depth + 1))\n \(block(depth + 1)) }"
                case 6: return "conditional f\(pick(i + 1)) { \(block(depth + 1)) } else { \(block(depth + 1)) }"
                case 7: return "if let o\(pick(i + 1)) { \(block(depth + 1)) }"
                case 8: return "if screen \(screen()) { \(block(depth + 1)) } else { \(block(depth + 1)) }"
                default: return "wildcard \(screen()) { \(block(depth + 1)) }"
                }
            }
            for name in names { text += "builder \(name) {\n  \(block(0))\n}\n" }
            builders += names
            texts["Part\(i).routes"] = text
        }
        texts["App.routes"] = (0..<files).map { "import \"Part\($0).routes\"\n" }.joined()
            + "root {\n  anyOf {\n" + builders.map { "    screen P0_0 { \($0) }\n    \($0)\n" }.joined() + "  }\n}\n"
        return texts
    }

    /// The program's project (with `TwoThreadFlowTests.lint`'s layout of files).
    static func project(_ files: [String: String]) -> Project {
        let paths = files.keys.sorted()
        let provider = MemoryProvider(files: Dictionary(uniqueKeysWithValues: files.map { ("/ws/" + $0.key, $0.value) }))
        return Project(entries: paths.map {
            ProjectEntry(canonicalPath: "/ws/" + $0, displayPath: $0, group: 0, workspaceRoot: "/ws")
        }, provider: provider)
    }

    /// The program's graph, its nodes resolved on one thread or (`twoThreadsFrom` 0) on two.
    static func graph(_ files: [String: String], twoThreadsFrom: Int = .max, readingHeads: Bool = false) -> BuilderGraph {
        let project = Self.project(files)
        return BuilderGraph(project: project, files: project.programs[0].files, hasForeignElement: false,
                            readingHeads: readingHeads, twoThreadsFrom: twoThreadsFrom)
    }

    /// What a graph holds, node by node: kinds, parents, heads, names that did not resolve,
    /// `uses`, branches, presentations and conditions.
    static func contents(_ graph: BuilderGraph) -> [String] {
        graph.nodes.indices.map { g in
            let node = graph.nodes[g]
            var line = "\(g) \(node.kind) file \(node.file) local \(node.local) parent \(node.parent ?? -1)/\(node.indexInParent)"
            line += " optional \(node.testsOptional) unresolved \(node.unresolved) head \(graph.head(g))"
            line += " uses \(graph.useRange(g).map { graph.useTargets[$0] })"
            // (What a name the graph resolved stands for is the model's to say: a graph that
            // left the model keeps it for the others only.)
            var unknownCondition = false
            if case .condition(let condition, _, _) = node.kind, case .unknown = graph.conditions[condition] { unknownCondition = true }
            if node.unresolved || unknownCondition { line += " mention \(String(describing: graph.unresolvedMention(g)))" }
            line += " presented \(String(describing: graph.presentation(node: g)))"
            if case .anyOf(let list) = node.kind { line += " branches \(graph.branches(list))" }
            if case .condition(let condition, _, _) = node.kind { line += " condition \(graph.conditions[condition])" }
            return line
        } + ["conditions \(graph.conditions)", "builders \(graph.builders.map(\.body))", "screens \(graph.screens)"]
    }

    @Test func twoThreadsResolveTheGraphOfOne() {
        var unknownConditions = 0, placements = 0
        for seed in UInt64(0)..<120 {
            let files = Self.program(seed: seed)
            let one = Self.graph(files)
            var two = Self.graph(files, twoThreadsFrom: 0, readingHeads: true)
            #expect(two.files.files.count >= 3)
            let (a, b) = (Self.contents(two), Self.contents(one))
            let same = a == b
            #expect(same, "seed \(seed): first difference at \(a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? -1)")
            // The heads read while resolving, once the graph leaves the model, are the model's.
            two.leaveModel(for: two.project.leavingOutBuilderNodes())
            let left = Self.contents(two)
            let kept = left == b
            #expect(kept, "seed \(seed): after leaving the model, first difference at \(left.indices.first { $0 >= b.count || left[$0] != b[$0] } ?? -1)")
            if one.conditions.contains(where: { if case .unknown = $0 { true } else { false } }) { unknownConditions += 1 }
            if !one.placementPresentations.isEmpty { placements += 1 }
        }
        #expect(unknownConditions >= 20 && placements >= 20, "unknown conditions \(unknownConditions), placements \(placements)")
    }

    /// Every reading's builds, node by node, and the builders' builds, as structural hashes
    /// (comparable across managers).
    static func fingerprint(_ semantics: Semantics) -> [UInt64] {
        var memo: [BDD.Ref: UInt64] = [:]
        let lists = [semantics.builds, semantics.alternativeBuilds, semantics.realBuilds, semantics.builderBuilds]
        return lists.flatMap { $0.map { semantics.bdd.structuralHash($0, memo: &memo) } }
    }

    @Test func twoThreadsBuildWhatOneBuilds() {
        var compared = 0, helped = 0, uncertain = 0, grown = 0
        for seed in UInt64(0)..<120 {
            let graph = Self.graph(Self.program(seed: seed))
            let one = Semantics(graph: graph, twoThreadBuildsFrom: .max)
            // Every third in a manager of 16 slots, which grows while both threads make nodes.
            let tiny = seed % 3 == 0
            // Every other with both threads surely taking part; the rest as the scheduler has it.
            let surely = seed % 2 == 0
            let two = Semantics(graph: graph, reusing: tiny ? BDD(cacheBits: 4, capacityBits: 4) : nil, twoThreadBuildsFrom: 0,
                                awaitingTheHelper: surely)
            #expect(!one.bdd.exhausted && !two.bdd.exhausted)
            #expect(one.outsideBodiesOnTwoThreads.evaluations == 0)
            #expect(two.outsideBodiesOnTwoThreads.evaluations >= 1, "seed \(seed)")
            let (twoPrints, onePrints) = (Self.fingerprint(two), Self.fingerprint(one))
            let same = twoPrints == onePrints
            #expect(same, "seed \(seed): first difference at \(twoPrints.indices.first { $0 >= onePrints.count || twoPrints[$0] != onePrints[$0] } ?? -1)")
            #expect(two.hasUncertainty == one.hasUncertainty)
            #expect(two.bdd.uniqueTableIsExact, "seed \(seed)")
            if surely { #expect(two.outsideBodiesOnTwoThreads.helped == two.outsideBodiesOnTwoThreads.evaluations) }
            compared += 1
            helped += two.outsideBodiesOnTwoThreads.helped
            if one.hasUncertainty { uncertain += 1 }
            if tiny && two.bdd.nodeCount > 1 << 10 { grown += 1 }
        }
        #expect(compared == 120 && uncertain >= 10 && grown >= 20 && helped >= 60,
                "compared \(compared), uncertain \(uncertain), grown \(grown), helped \(helped)")
    }

    /// Evaluated on a helper thread while every other helper thread is busy (so its own
    /// helper job waits behind it, or behind the busy ones): the thread takes every run itself
    /// and does not wait for a helper that never comes; the builds are those of one thread.
    @Test(.timeLimit(.minutes(1))) func aHelperThatNeverComesIsNotWaitedFor() {
        let graph = Self.graph(Self.program(seed: 7))
        let expected = Self.fingerprint(Semantics(graph: graph, twoThreadBuildsFrom: .max))
        let input = UncheckedSendable(graph)
        let (prints, runs) = TwoThreadFlowTests.onTheOnlyFreeHelper {
            let semantics = Semantics(graph: input.value, reusing: BDD(cacheBits: 4, capacityBits: 4), twoThreadBuildsFrom: 0)
            return UncheckedSendable(((prints: Self.fingerprint(semantics), exact: semantics.bdd.uniqueTableIsExact), semantics.outsideBodiesOnTwoThreads))
        }.value
        let same = prints.prints == expected
        #expect(same)
        #expect(prints.exact)
        #expect(runs.evaluations >= 1 && runs.helped == 0)
    }
}
