import Dispatch
import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel

/// The main flows on two threads (`Flow.runOnTwoThreads`) against the flows on one: the same
/// fixpoint, state by state, whatever nodes each thread holds; and the manager they share
/// (`BDD.beginSharing`) canonical under races, growing its table while both make nodes.
@Suite struct TwoThreadFlowTests {
    /// Every state's context and built environments, as refs of the one manager.
    static func states(_ flow: Flow, _ graph: BuilderGraph) -> [BDD.Ref] {
        var out: [BDD.Ref] = []
        for g in graph.nodes.indices {
            for sigma in 0..<flow.sigmaCount {
                out.append(flow.context(g, sigma: sigma))
                out.append(flow.builtEnvironments(g, sigma: sigma))
            }
        }
        return out
    }

    /// A flow from `root` as a lint's (both σ states when the program has a presentation
    /// that allows no push), on one thread or, with `sides`, on two.
    static func flow(_ semantics: Semantics, root: Int, reading: Semantics.Reading, sides: BitSet?) -> Flow {
        let graph = semantics.graph
        let sigmaCount = graph.hasNoPushPresentation ? 2 : 1
        var flow = Flow(semantics: semantics, crossNestings: true, sigmaCount: sigmaCount,
                        storage: FlowStorage(size: graph.nodes.count * sigmaCount, tracksPredecessors: false, forOneFlow: true))
        flow.reading = reading
        flow.onBuilt = ProgramFacts.onBuilt(graph, sigmaCount: sigmaCount)
        flow.add(root, semantics.allElements, from: nil)
        if let sides { flow.runOnTwoThreads(from: 0, sides: sides) } else { flow.run() }
        return flow
    }

    /// The split by files gives whole files, in order, to the thread that holds fewer nodes:
    /// a root file with most of a program's `anyOf` branches leaves its thread fewer of the
    /// other files, and each thread ends within one file's nodes of half the graph.
    @Test func theSplitByFilesBalancesNodesNotFiles() {
        var files: [String: String] = [:]
        let parts = 12
        for i in 0..<parts {
            files["Part\(i).routes"] = "screen A\(i)\nscreen B\(i)\n"
                + (0..<6).map { "builder b\(i)_\($0) { anyOf { screen A\(i)\n screen B\(i) } }\n" }.joined()
        }
        let builders = (0..<parts).flatMap { i in (0..<6).map { "b\(i)_\($0)" } }
        // The root file (first in the program's order) holds about a quarter of the nodes.
        files["App.routes"] = (0..<parts).map { "import \"Part\($0).routes\"\n" }.joined()
            + "root {\n  anyOf {\n" + builders.map { "    \($0)\n" }.joined() + "  }\n}\n"
        let graph = TwoThreadBuildsTests.graph(files)
        let second = try! #require(FlowSide.byFiles(graph))
        let count = graph.nodes.count
        var held = [0, 0], fileCounts = [0, 0], largest = 0
        for file in graph.files.files {
            let start = graph.firstNode(of: file), nodes = graph.fileNodeCount(file)
            largest = max(largest, nodes)
            let side = second.contains(start) ? 1 : 0
            // Whole files.
            #expect((start..<(start + nodes)).allSatisfy { second.contains($0) == (side == 1) })
            held[side] += nodes
            fileCounts[side] += 1
        }
        let rootSide = second.contains(graph.firstNode(of: graph.files.files[0])) ? 1 : 0
        #expect(rootSide == 0)
        #expect(abs(held[0] - held[1]) <= largest, "\(held) of \(count) nodes")
        #expect(fileCounts[0] < fileCounts[1], "the root file's thread holds fewer files: \(fileCounts)")
    }

    @Test func twoThreadsReachTheStatesOfOneWhateverTheirSplit() {
        var compared = 0, twoStates = 0, alternative = 0, handedOver = 0
        for seed in UInt64(0)..<400 {
            let generated = ProgramGenerator.generate(seed: seed)
            let project = ReferenceSupport.project(generated.text)
            guard let program = project.programs.first else { continue }
            let graph = BuilderGraph(project: project, files: program.files, hasForeignElement: false)
            guard let root = ProgramFacts.rootBody(of: program, in: graph), graph.nodes.count >= 2 else { continue }
            let semantics = Semantics(graph: graph)
            var rng = SplitMix64(seed: seed &* 31 &+ 7)
            // A random split: any split must give the one fixpoint.
            var sides = BitSet(count: graph.nodes.count)
            for g in graph.nodes.indices where rng.next() % 2 == 1 { _ = sides.insert(g) }
            if graph.nodes.indices.contains(where: { sides.contains($0) != sides.contains(root) }) { handedOver += 1 }
            for reading in semantics.hasUncertainty ? [Semantics.Reading.primary, .alternative] : [.primary] {
                // Either first: the flow that runs first makes the nodes, the other finds them.
                let twoFirst = seed % 2 == 0
                let first = Self.flow(semantics, root: root, reading: reading, sides: twoFirst ? sides : nil)
                let second = Self.flow(semantics, root: root, reading: reading, sides: twoFirst ? nil : sides)
                let (one, two) = twoFirst ? (second, first) : (first, second)
                #expect(!semantics.bdd.exhausted)
                #expect(Self.states(two, graph) == Self.states(one, graph), "seed \(seed), \(reading)\n\(generated.text)")
                compared += 1
                if one.sigmaCount == 2 { twoStates += 1 }
                if reading == .alternative { alternative += 1 }
            }
        }
        #expect(compared >= 400 && twoStates >= 150 && alternative >= 40 && handedOver >= 300,
                "compared \(compared), two states \(twoStates), alternative \(alternative), handed over \(handedOver)")
    }

    /// A program analysed on a helper thread while every other helper thread is busy: its
    /// flow's second part is never begun, and the thread that runs out of work takes it back
    /// (without that, the flow would wait for itself), or, out of budget, stops without
    /// waiting for it. The flow runs in a manager of its own, which grows while the second
    /// part has not begun (a growth that waited for it would never end).
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aFlowWhoseHelperNeverComesIsFinishedByItsOwnThread(outOfBudget: Bool) {
        // (Flags tested all xs first: a few thousand nodes.)
        let project = ReferenceSupport.project(AppScaleTests.pairs(10, interleaved: false))
        let program = project.programs[0]
        let graph = BuilderGraph(project: project, files: program.files, hasForeignElement: false)
        let root = ProgramFacts.rootBody(of: program, in: graph)!
        var sides = BitSet(count: graph.nodes.count)
        for g in graph.nodes.indices where g % 2 == 1 { _ = sides.insert(g) }
        let reference = Semantics(graph: graph)
        let expected = Self.states(Self.flow(reference, root: root, reading: .primary, sides: nil), graph)
        // A manager of 16 slots: it grows during the flow.
        let semantics = Semantics(graph: graph, reusing: BDD(cacheBits: 4, capacityBits: 4))
        let slotsBefore = semantics.bdd.nodeCount
        if outOfBudget { semantics.bdd.stepLimit = semantics.bdd.steps + 50 }
        let input = UncheckedSendable((semantics, sides))
        let result = Self.onTheOnlyFreeHelper {
            Self.states(Self.flow(input.value.0, root: root, reading: .primary, sides: input.value.1), input.value.0.graph)
        }
        if outOfBudget {
            #expect(semantics.bdd.exhausted)
        } else {
            #expect(!semantics.bdd.exhausted)
            // The same functions, each in its own manager.
            var memoOne: [BDD.Ref: UInt64] = [:], memoTwo: [BDD.Ref: UInt64] = [:]
            #expect(result.map { semantics.bdd.structuralHash($0, memo: &memoTwo) }
                    == expected.map { reference.bdd.structuralHash($0, memo: &memoOne) })
            #expect(expected.contains { $0 != BDD.zero })
            #expect(semantics.bdd.nodeCount > max(slotsBefore, 1 << 10), "grew from \(slotsBefore) to \(semantics.bdd.nodeCount)")
        }
    }

    /// Runs `job` on a helper thread while every other helper thread is busy (so that
    /// whatever it hands to a helper thread waits behind it), and returns its result.
    static func onTheOnlyFreeHelper<T>(_ job: @escaping @Sendable () -> T) -> T {
        let blockers = Helpers.shared.count - 1
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        for _ in 0..<blockers {
            Helpers.shared.async {
                started.signal()
                release.wait()
            }
        }
        for _ in 0..<blockers { started.wait() }
        let result = ResultBox<T>()
        Helpers.shared.async {
            result.value = job()
            done.signal()
        }
        done.wait()
        for _ in 0..<blockers { release.signal() }
        return result.value!
    }

    /// A result handed back from another thread (read once that thread has signalled).
    final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }

    @Test func aFlowOutOfBudgetOnTwoThreadsStopsBoth() {
        let project = ReferenceSupport.project(AppScaleTests.pairs(24, interleaved: false))
        let program = project.programs[0]
        let graph = BuilderGraph(project: project, files: program.files, hasForeignElement: false)
        let semantics = Semantics(graph: graph)
        let root = ProgramFacts.rootBody(of: program, in: graph)!
        // A budget the flows spend at once.
        semantics.bdd.stepLimit = semantics.bdd.steps + 50
        var sides = BitSet(count: graph.nodes.count)
        for g in graph.nodes.indices where g % 2 == 1 { _ = sides.insert(g) }
        _ = Self.flow(semantics, root: root, reading: .primary, sides: sides)
        #expect(semantics.bdd.exhausted)
    }

    /// Program `k` of `largePrograms`: a root file whose `anyOf` places `features` builders
    /// from two part files (six graph nodes each), and in the second part one screen under a
    /// condition its flag contradicts: one `unreachable-screen`, found by the main flows.
    static func largeProgram(_ k: Int, features: Int) -> [String: String] {
        var parts = ["", ""]
        for i in 0..<features {
            var text = "flag f\(k)_\(i)\nscreen S\(k)_\(i)\nscreen T\(k)_\(i)\nbuilder b\(k)_\(i) {\n  screen S\(k)_\(i) {\n    anyOf {\n"
            text += "      conditional f\(k)_\(i) { screen T\(k)_\(i) } else { empty }\n"
            if i == features - 1 {
                text += "      conditional f\(k)_\(i) { empty } else { conditional f\(k)_\(i) { screen Dead\(k) } else { empty } }\n"
            }
            text += "    }\n  }\n}\n"
            parts[i * 2 / features] += text
        }
        parts[1] += "screen Dead\(k)\n"
        let root = "import \"Part\(k)a.routes\"\nimport \"Part\(k)b.routes\"\nroot {\n  anyOf {\n"
            + (0..<features).map { "    b\(k)_\($0)\n" }.joined() + "  }\n}\n"
        return ["App\(k).routes": root, "Part\(k)a.routes": parts[0], "Part\(k)b.routes": parts[1]]
    }

    /// The diagnostics of a workspace of the given files (by name), as "rule «text» file".
    static func lint(_ files: [String: String]) -> [String] {
        let paths = files.keys.sorted()
        let provider = MemoryProvider(files: Dictionary(uniqueKeysWithValues: files.map { ("/ws/" + $0.key, $0.value) }))
        let project = Project(entries: paths.map {
            ProjectEntry(canonicalPath: "/ws/" + $0, displayPath: $0, group: 0, workspaceRoot: "/ws")
        }, provider: provider)
        #expect(project.programs.count == files.keys.filter { $0.hasPrefix("App") }.count)
        return Analysis.check(project).map {
            "\($0.rule.rawValue) «\(project.files[$0.file].text.text($0.range))» \(project.files[$0.file].displayPath)"
        }
    }

    /// Programs large enough for their flows to run on two threads, analysed at once on every
    /// helper thread (so that some run on a helper thread with no other free, the case in which
    /// a flow once waited for itself): each gets its one finding, as when it is linted alone.
    @Test(.timeLimit(.minutes(2))) func largeProgramsAnalysedAtOnceEachGetTheirFinding() {
        let features = Flow.nodesForTwoThreads / 6 + 50
        let programs = (0..<3).map { Self.largeProgram($0, features: features) }
        let together = Self.lint(programs.reduce(into: [:]) { $0.merge($1) { a, _ in a } })
        let alone = programs.flatMap { Self.lint($0) }
        #expect(together.sorted() == alone.sorted())
        #expect(together.sorted() == (0..<3).map { "unreachable-screen «screen Dead\($0)» Part\($0)b.routes" })
    }

    /// A lint of a program large enough that its decision diagrams are collected on a helper
    /// thread while the declaration rules run (`ProgramChecker.run(.freeingEarly)`) reports
    /// what the editor's analysis, which collects nothing, reports: the declaration rules'
    /// findings and the flows' alike.
    @Test(.timeLimit(.minutes(1))) func aLintThatCollectsWhileItCountsMentionsReportsWhatTheEditorDoes() {
        var files = Self.largeProgram(0, features: Flow.nodesForTwoThreads / 6 + 50)
        files["Part0a.routes"]! += "flag neverTested\nscreen NeverPlaced\n"
        let paths = files.keys.sorted()
        func project() -> Project {
            let provider = MemoryProvider(files: Dictionary(uniqueKeysWithValues: files.map { ("/ws/" + $0.key, $0.value) }))
            return Project(entries: paths.map {
                ProjectEntry(canonicalPath: "/ws/" + $0, displayPath: $0, group: 0, workspaceRoot: "/ws")
            }, provider: provider)
        }
        let lint = AnalysisSession.forLint(project: project())
        let editor = AnalysisSession.forEditor(project: project())
        #expect(lint.diagnostics.count == 3, "\(lint.diagnostics.map(\.message))")
        #expect(Set(lint.diagnostics.map(\.rule.rawValue)) == ["unused-declaration", "unreachable-screen"])
        #expect(KeptManagerTests.diagnostics(lint) == KeptManagerTests.diagnostics(editor))
    }

    /// `count` random functions over `variables` variables, made from the seed's literals.
    static func functions(_ bdd: BDD, seed: UInt64, count: Int, variables: Int) -> [BDD.Ref] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var f = BDD.zero
            for _ in 0..<(2 + Int(rng.next() % 5)) {
                var cube = BDD.one
                for _ in 0..<(2 + Int(rng.next() % 6)) {
                    let v = bdd.variable(Int(rng.next() % UInt64(variables)))
                    cube = rng.next() % 2 == 0 ? bdd.and(cube, v) : bdd.andNot(cube, v)
                }
                f = rng.next() % 3 == 0 ? bdd.andNot(bdd.or(f, cube), bdd.variable(Int(rng.next() % UInt64(variables)))) : bdd.or(f, cube)
            }
            return f
        }
    }

    /// Runs `second` on another thread in the manager `shared.beginSharing()` gives (once
    /// `go` is signalled, when given) and `first` on this one, then ends the sharing.
    static func sharing(_ shared: BDD, go: DispatchSemaphore? = nil, second: @escaping @Sendable (BDD) -> [BDD.Ref],
                        first: () -> [BDD.Ref]) -> (mine: [BDD.Ref], theirs: [BDD.Ref]) {
        let worker = shared.beginSharing()
        let box = UncheckedSendable(worker)
        let results = UnsafeMutablePointer<[BDD.Ref]>.allocate(capacity: 1)
        results.initialize(to: [])
        defer {
            results.deinitialize(count: 1)
            results.deallocate()
        }
        let out = UncheckedSendable(results)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            go?.wait()
            box.value.joinsSharing()
            out.value.pointee = second(box.value)
            box.value.stopsSharing()
            done.signal()
        }
        let mine = first()
        shared.stopsSharing()
        done.wait()
        shared.endSharing(worker)
        return (mine, results.pointee)
    }

    /// A thread that never joins does not hold a growth up: the first thread makes its
    /// functions (growing a table of 16 slots) before the second joins, which then finds them.
    @Test(.timeLimit(.minutes(1))) func aSharedManagerGrowsBeforeTheSecondThreadJoins() {
        let variables = 24
        let shared = BDD(cacheBits: 4, capacityBits: 4)
        for _ in 0..<variables { _ = shared.newVariable() }
        let go = DispatchSemaphore(value: 0)
        var more: [BDD.Ref] = []
        let (mine, theirs) = Self.sharing(shared, go: go, second: { Self.functions($0, seed: 1, count: 200, variables: variables) }) {
            let mine = Self.functions(shared, seed: 1, count: 200, variables: variables)
            go.signal()
            more = Self.functions(shared, seed: 2, count: 100, variables: variables)
            return mine
        }
        #expect(!shared.exhausted)
        #expect(shared.uniqueTableIsExact)
        #expect(theirs == mine)
        #expect(Self.functions(shared, seed: 2, count: 100, variables: variables) == more)
        #expect(shared.nodeCount > 1 << 10, "the table grew from 16 slots while shared (\(shared.nodeCount) slots)")
    }

    @Test func aSharedManagerStaysCanonicalAndGrowsWhileBothThreadsMakeNodes() {
        let variables = 24
        let shared = BDD(cacheBits: 4, capacityBits: 4)  // a tiny table: it grows while shared
        for _ in 0..<variables { _ = shared.newVariable() }
        // Both threads make the same functions, and some of their own.
        let (mine, theirs) = Self.sharing(shared, second: {
            Self.functions($0, seed: 1, count: 400, variables: variables) + Self.functions($0, seed: 3, count: 200, variables: variables)
        }) {
            Self.functions(shared, seed: 1, count: 400, variables: variables) + Self.functions(shared, seed: 2, count: 200, variables: variables)
        }
        #expect(!shared.exhausted)
        #expect(shared.uniqueTableIsExact)
        // One function, one ref: whichever thread made its nodes first.
        #expect(Array(theirs[..<400]) == Array(mine[..<400]))
        // Each function is the one a manager of its own makes.
        let alone = BDD(cacheBits: 10, capacityBits: 10)
        for _ in 0..<variables { _ = alone.newVariable() }
        let expected = Self.functions(alone, seed: 1, count: 400, variables: variables)
            + Self.functions(alone, seed: 2, count: 200, variables: variables)
            + Self.functions(alone, seed: 3, count: 200, variables: variables)
        var memoShared: [BDD.Ref: UInt64] = [:], memoAlone: [BDD.Ref: UInt64] = [:]
        let made = mine + Array(theirs[400...])
        #expect(made.map { shared.structuralHash($0, memo: &memoShared) } == expected.map { alone.structuralHash($0, memo: &memoAlone) })
        // The manager goes on alone: its table holds every node (a node made again is found).
        let again = Self.functions(shared, seed: 3, count: 200, variables: variables)
        #expect(again == Array(theirs[400...]))
        #expect(shared.nodeCount > 1 << 12, "the table grew from 16 slots while shared (\(shared.nodeCount) slots)")
    }
}
