import RoutesModel
import RoutesSyntax

// A brute-force reference for the analyses (docs/rules.md), written from the language's
// definition alone (docs/language.md#how-a-path-is-built). It runs the build equations
// concretely, for every environment and (through an explicit exploration of resolution states)
// every path, records what really happens, and reads the diagnostics off those observations.
// Nothing here is symbolic, and nothing is shared with `RoutesAnalysis`: the two are meant to
// catch each other's mistakes.
//
// Cycles (docs/rules.md#builder-cycle, docs/language.md#after-an-error), as this reference
// reads them:
// - A reference reached while its builder is still being expanded for the same element is a
//   cycle: that build never finishes, so the element and the rest of its path are not built.
//   `builder-cycle` runs every builder alone, for every element and environment, and reports
//   each cycle met once, at its first reference in source order.
// - Errors (`missing-dependency`) are over the ways that really occur.
// - A warning is reported only if it would hold whatever each cycle met gave instead
//   (nothing, or anything its builder can build): `PossibleEvaluator`. Shadowed branches and
//   mismatched wildcards whose own evaluation meets a cycle are not reported.
// - What a later `anyOf` branch "would build" is the value of the build equations: a
//   reference in it to a builder being expanded is a cycle only if it closes one somewhere.
//
// Only valid programs are supported (no syntax or name errors): an unresolved name is read as
// "builds nothing" / "false" without the suppressions of docs/language.md#after-an-error.

/// A builder node of some file.
struct NodeRef: Hashable, Comparable, Sendable {
    var file: FileID
    var node: NodeID

    static func < (a: NodeRef, b: NodeRef) -> Bool { (a.file, a.node) < (b.file, b.node) }
}

/// One finding of the reference.
struct ReferenceFinding: Hashable, Sendable {
    var rule: RuleID
    var file: FileID
    var range: Range<Int>
    var message: String
}

/// What the reference found, with a little about how much it explored.
struct ReferenceReport: Sendable {
    var findings: [ReferenceFinding] = []
    /// Environments explored (2^(flags + optionals)), summed over programs.
    var environments = 0
    /// The largest number of distinct resolution states one environment had.
    var maxStates = 0
    /// The longest path the exploration needed to see every state (elements).
    var maxPathLength = 0
    /// Some element of some path, under some environment, never finishes building (it
    /// reaches a builder-cycle, read as "never finishes").
    var resolutionDiverges = false
    /// Used builders the reference never enters while reporting, because every reference to
    /// them lies inside a reported place ("outermost cause once",
    /// docs/decisions.md#one-warning-per-cause): their declarations' ranges.
    var quietBuilders: [QuietBuilder] = []
}

struct QuietBuilder: Sendable, Hashable {
    var file: FileID
    var range: Range<Int>
}

enum ReferenceChecker {
    /// The rules the reference decides.
    static let rules: Set<RuleID> = [
        .unreachableScreen, .shadowedBranch, .missingDependency, .pushInSheet,
        .wildcardMismatch, .builderCycle, .unusedDeclaration,
    ]

    /// Every builder-cycle of the project, each once: builders run over the elements of
    /// their file's imports, and over those of each program that holds them (a program's
    /// paths may hold screens an imported file does not see).
    static func cycles(_ project: Project) -> [(cycle: [NodeRef], universe: Universe)] {
        var seen = Set<Set<NodeRef>>()
        var out: [(cycle: [NodeRef], universe: Universe)] = []
        var universes = project.files.indices.map { (Universe(project: project, files: project.closures[$0]), [$0]) }
        for program in project.programs {
            universes.append((Universe(project: project, files: program.files), program.files))
        }
        for (universe, files) in universes {
            for f in files {
                for c in BuilderCycles(universe: universe, file: f).cycles() where seen.insert(Set(c)).inserted {
                    out.append((c, universe))
                }
            }
        }
        return out
    }

    /// The references of every builder-cycle of the project.
    static func cycleReferences(_ project: Project) -> Set<NodeRef> {
        Set(cycles(project).flatMap(\.cycle))
    }

    /// Every finding of the reference for a project: the program analyses of each program
    /// (a file in several programs gets the union) and `builder-cycle` for every builder.
    static func check(_ project: Project) -> ReferenceReport {
        var report = ReferenceReport()
        var seen = Set<ReferenceFinding>()
        func add(_ fs: [ReferenceFinding]) {
            for f in fs where seen.insert(f).inserted { report.findings.append(f) }
        }
        var cycleReferences = Set<NodeRef>()
        for (cycle, universe) in cycles(project) {
            cycleReferences.formUnion(cycle)
            add(BuilderCycles(universe: universe, file: cycle[0].file).findings([cycle]))
        }
        // (Each program's analyses need every cycle's references: see `Evaluator`.)
        for program in project.programs {
            let universe = Universe(project: project, files: program.files)
            var analysis = ProgramAnalysis(universe: universe, program: program, cycleReferences: cycleReferences)
            add(analysis.findings())
            report.environments += analysis.environmentCount
            report.maxStates = max(report.maxStates, analysis.maxStates)
            report.maxPathLength = max(report.maxPathLength, analysis.maxPathLength)
            report.resolutionDiverges = report.resolutionDiverges || analysis.diverges
            report.quietBuilders += analysis.quietBuilders
        }
        report.findings.sort { ($0.file, $0.range.lowerBound, $0.range.upperBound, $0.rule.rawValue) < ($1.file, $1.range.lowerBound, $1.range.upperBound, $1.rule.rawValue) }
        return report
    }
}

// MARK: - The declarations a program sees

/// The declarations visible in a set of files, indexed: screens are the element types of
/// paths; flags and optionals span the environments.
struct Universe {
    let project: Project
    let files: [FileID]
    private(set) var screens: [Symbol] = []
    private(set) var screenIndex: [Symbol: Int] = [:]
    private(set) var flags: [Symbol] = []
    private(set) var flagIndex: [Symbol: Int] = [:]
    private(set) var optionals: [Symbol] = []
    private(set) var optionalIndex: [Symbol: Int] = [:]
    private(set) var builders: [Symbol] = []

    init(project: Project, files: [FileID]) {
        self.project = project
        self.files = files
        for f in files {
            for (i, d) in project.files[f].model.declarations.enumerated() {
                let s = Symbol(file: f, declaration: i)
                switch d.kind {
                case .screen:
                    screenIndex[s] = screens.count
                    screens.append(s)
                case .flag:
                    flagIndex[s] = flags.count
                    flags.append(s)
                case .optional:
                    optionalIndex[s] = optionals.count
                    optionals.append(s)
                case .builder:
                    builders.append(s)
                case .dependency, .root, .link:
                    break
                }
            }
        }
        precondition(screens.count <= 64 && flags.count + optionals.count <= 20, "too big for the reference")
    }

    func declaration(_ s: Symbol) -> Declaration { project.declaration(s) }
    func node(_ r: NodeRef) -> BuilderNode { project.files[r.file].model.nodes[r.node] }
    func ref(_ r: NodeRef, _ child: NodeID) -> NodeRef { NodeRef(file: r.file, node: child) }
    func children(_ r: NodeRef) -> [NodeRef] { node(r).children(in: project.files[r.file].model).map { ref(r, $0) } }
    /// The branches of an `anyOf` of node r's file.
    func branches(_ r: NodeRef, _ span: BuilderNode.Span) -> [NodeID] { Array(project.files[r.file].model.branches(span)) }
    /// The names of a `uses` clause of node r's file.
    func uses(_ r: NodeRef, _ span: BuilderNode.Span) -> [Name] { Array(project.files[r.file].model.uses(span)) }

    /// The declaration a name denotes, when it has the expected kind (a wrong kind is unresolved).
    func symbol(_ name: Name?, in file: FileID, _ kind: DeclarationKind) -> Symbol? {
        guard let name, let s = project.resolve(name, in: file), declaration(s).kind == kind else { return nil }
        return s
    }

    func screen(_ name: Name?, in file: FileID) -> Int? { symbol(name, in: file, .screen).flatMap { screenIndex[$0] } }
    func flag(_ name: Name?, in file: FileID) -> Int? { symbol(name, in: file, .flag).flatMap { flagIndex[$0] } }
    func optional(_ name: Name?, in file: FileID) -> Int? { symbol(name, in: file, .optional).flatMap { optionalIndex[$0] } }

    func body(_ builder: Symbol) -> NodeRef? {
        declaration(builder).body.map { NodeRef(file: builder.file, node: $0) }
    }

    /// The node and everything inside it (nestings included; references not followed).
    func subtree(_ r: NodeRef) -> [NodeRef] {
        var out: [NodeRef] = []
        var stack = [r]
        while let n = stack.popLast() {
            out.append(n)
            stack.append(contentsOf: children(n).reversed())
        }
        return out
    }

    /// The screen type of a screen node.
    func screenOfNode(_ r: NodeRef) -> Int? {
        guard case .screen(let s, _, _) = node(r).kind else { return nil }
        return screen(s, in: r.file)
    }

    func presentation(ofScreen i: Int) -> Presentation { declaration(screens[i]).presentation }
    /// The presentation in force at screen node n of screen i: the node's own (`as …`), or
    /// its screen's.
    func presentation(ofNode n: NodeRef, screen i: Int) -> Presentation { node(n).presentation ?? presentation(ofScreen: i) }

    func name(ofScreen i: Int) -> String { declaration(screens[i]).name.text }

    var environmentCount: Int { 1 << (flags.count + optionals.count) }

    func environment(_ i: Int) -> Environment {
        Environment(flags: UInt64(i) & ((1 << UInt64(flags.count)) - 1), present: UInt64(i) >> UInt64(flags.count))
    }
}

/// One environment (docs/language.md#how-a-path-is-built): a bit per flag (true) and per
/// optional (present).
struct Environment: Hashable {
    var flags: UInt64
    var present: UInt64
    func flag(_ i: Int) -> Bool { flags & (1 << UInt64(i)) != 0 }
    func isPresent(_ i: Int) -> Bool { present & (1 << UInt64(i)) != 0 }
}

// MARK: - The concrete evaluator of the build semantics

/// What `build(B, e, E)` gives: the screen node that built the element (with the optionals
/// whose `if let` then-blocks the way entered), nothing, or no answer at all because the build
/// reached a reference to a builder it is still expanding (docs/rules.md#builder-cycle: it
/// never finishes building that element); `cycle` lists the references of that cycle.
enum Outcome: Equatable {
    case built(NodeRef, scope: UInt64)
    case nothing
    case diverged(cycle: [NodeRef])

    var code: UInt8 {
        switch self {
        case .nothing: return 0
        case .built: return 1
        case .diverged: return 2
        }
    }
}

/// A builder being expanded for the current element, and the reference that entered it.
struct Frame {
    var builder: Symbol
    var via: NodeRef?
    /// Pushed by an evaluation that really happens (not by a hypothetical one).
    var actual: Bool
}

/// An (element, environment) pair.
struct Pair: Hashable {
    var element: Int
    var environment: Environment
}

/// How an element was built: what the way had in scope and what came before it.
struct Occurrence: Hashable {
    /// Optionals whose `if let` then-block the way passed into (this and earlier elements).
    var scope: UInt64
    /// Screens whose nodes built earlier elements.
    var providers: UInt64
    /// The presentation of the last non-push element before this one (nil: none).
    var lastNonPush: Presentation?
}

/// Everything observed while resolving paths under some environments.
struct Observations: Equatable {
    /// For each `anyOf` actually evaluated, for each (element, environment) it was evaluated
    /// with: what each branch gives (0 nothing, 1 builds, 2 never finishes; +4 when it met a
    /// cycle on the way). Branches before the
    /// first that does not give nothing were really evaluated; those after it are what they
    /// *would* give.
    var anyOf: [NodeRef: Set<[UInt8]>] = [:]
    /// For each `if let` actually evaluated: the providers (screens of earlier elements) then.
    var ifLet: [NodeRef: Set<UInt64>] = [:]
    /// For each screen node that built an element: how.
    var built: [NodeRef: Set<Occurrence>] = [:]
    /// Some build never finished.
    var diverged = false
    /// For each `anyOf` actually evaluated: the (element, environment) pairs.
    var anyOfPairs: [NodeRef: Set<Pair>] = [:]
}

final class Recorder {
    var observations = Observations()
    /// The providers of the element being built.
    var providers: UInt64 = 0
}

struct Evaluator {
    let universe: Universe
    let environment: Environment
    /// The references of every builder-cycle (nil while the cycles are being found: then
    /// every reference to a builder being expanded closes a cycle).
    var cycleReferences: Set<NodeRef>? = nil

    /// `build(n, e, E)` (docs/language.md#how-a-path-is-built).
    func build(_ n: NodeRef, _ e: Int, _ stack: inout [Frame]) -> Outcome {
        var touched = false
        return build(n, e, &stack, nil, &touched)
    }

    /// `build(n, e, E)` (docs/language.md#how-a-path-is-built), recording into `recorder` when
    /// this evaluation really happens while resolving a path (nil: a hypothetical evaluation,
    /// recorded nowhere). `touched` is set when the evaluation meets a cycle.
    func build(_ n: NodeRef, _ e: Int, _ stack: inout [Frame], _ recorder: Recorder?, _ touched: inout Bool) -> Outcome {
        let u = universe
        switch u.node(n).kind {
        case .screen(let s, _, _):
            return u.screen(s, in: n.file) == e ? .built(n, scope: 0) : .nothing

        case .anyOf(let span):
            let branches = u.branches(n, span)
            // One code per branch: 0 nothing, 1 builds, 2 never finishes; +4 when it met a cycle.
            var codes: [UInt8] = []
            var result = Outcome.nothing
            var decided = false
            for b in branches {
                var met = false
                if decided {
                    // Not evaluated for real; what it would give, for shadowing.
                    let r = build(u.ref(n, b), e, &stack, nil, &met)
                    codes.append(r.code + (met ? 4 : 0))
                    continue
                }
                let r = build(u.ref(n, b), e, &stack, recorder, &met)
                codes.append(r.code + (met ? 4 : 0))
                touched = touched || met
                if r != .nothing {
                    result = r
                    decided = true
                    if recorder == nil { break }
                }
            }
            recorder?.observations.anyOf[n, default: []].insert(codes)
            recorder?.observations.anyOfPairs[n, default: []].insert(Pair(element: e, environment: environment))
            return result

        case .conditional(let f, let a, let b):
            let value = u.flag(f, in: n.file).map { environment.flag($0) } ?? false
            return build(u.ref(n, value ? a : b), e, &stack, recorder, &touched)

        case .ifLet(let o, let a, let b):
            if let recorder { recorder.observations.ifLet[n, default: []].insert(recorder.providers) }
            guard let i = u.optional(o, in: n.file) else { return .nothing }
            if environment.isPresent(i) {
                let r = build(u.ref(n, a), e, &stack, recorder, &touched)
                if case .built(let m, let scope) = r { return .built(m, scope: scope | (1 << UInt64(i))) }
                return r
            }
            return b.map { build(u.ref(n, $0), e, &stack, recorder, &touched) } ?? .nothing

        case .ifScreen(let s, let a, let b):
            if let i = u.screen(s, in: n.file), i == e { return build(u.ref(n, a), e, &stack, recorder, &touched) }
            return b.map { build(u.ref(n, $0), e, &stack, recorder, &touched) } ?? .nothing

        case .wildcard(let w, let body):
            guard let i = u.screen(w, in: n.file) else { return .nothing }
            return build(u.ref(n, body), i, &stack, recorder, &touched)

        case .empty, .missing:
            return .nothing

        case .reference(let name):
            guard let b = u.symbol(name, in: n.file, .builder), let body = u.body(b) else { return .nothing }
            if let k = stack.firstIndex(where: { $0.builder == b }) {
                if recorder == nil, stack[k].actual, let refs = cycleReferences, !refs.contains(n) {
                    // A hypothetical evaluation (what a later `anyOf` branch, or a wildcard's
                    // builder, would build) meets a builder being expanded, through a
                    // reference that closes no cycle for any element and environment (it is
                    // never really reached while that builder is expanded): its value is
                    // what the builder builds, `build(name, e) = build(body(name), e)`.
                    var fresh = [Frame(builder: b, via: n, actual: false)]
                    return build(body, e, &fresh, nil, &touched)
                }
                touched = true
                return .diverged(cycle: stack[(k + 1)...].compactMap(\.via) + [n])
            }
            stack.append(Frame(builder: b, via: n, actual: recorder != nil))
            defer { stack.removeLast() }
            return build(body, e, &stack, recorder, &touched)
        }
    }
}

// MARK: - Resolving every path

/// Where a path's resolution stands after some elements: everything the rest of the path
/// depends on. The next element is built by the nesting of `node` (by `root` when nil).
struct ResolutionState: Hashable {
    var node: NodeRef?
    var scope: UInt64
    var providers: UInt64
    var lastNonPush: Presentation?
}

struct PathExplorer {
    let universe: Universe
    let rootBody: NodeRef
    var cycleReferences: Set<NodeRef> = []

    private func evaluator(_ environment: Environment) -> Evaluator {
        Evaluator(universe: universe, environment: environment, cycleReferences: cycleReferences)
    }

    private func start(_ s: ResolutionState) -> NodeRef? {
        guard let n = s.node else { return rootBody }
        guard case .screen(_, _, let nesting) = universe.node(n).kind, let nesting else { return nil }
        return universe.ref(n, nesting)
    }

    /// Builds element `e` from state `s`, records it, and returns the next state if built.
    private func step(_ s: ResolutionState, _ e: Int, _ evaluator: Evaluator, _ recorder: Recorder) -> ResolutionState? {
        guard let start = start(s) else { return nil }
        recorder.providers = s.providers
        var stack: [Frame] = []
        var touched = false
        switch evaluator.build(start, e, &stack, recorder, &touched) {
        case .built(let n, let added):
            let scope = s.scope | added
            recorder.observations.built[n, default: []].insert(Occurrence(scope: scope, providers: s.providers, lastNonPush: s.lastNonPush))
            guard let t = universe.screenOfNode(n) else { return nil }
            let p = universe.presentation(ofNode: n, screen: t)
            return ResolutionState(node: n, scope: scope, providers: s.providers | (1 << UInt64(t)),
                                   lastNonPush: p == .push ? s.lastNonPush : p)
        case .nothing:
            return nil
        case .diverged:
            recorder.observations.diverged = true
            return nil
        }
    }

    static let initial = ResolutionState(node: nil, scope: 0, providers: 0, lastNonPush: nil)

    /// Every path under one environment, as a breadth-first search over resolution states:
    /// what building element i+1 does depends only on the state after element i, so the
    /// paths that reach new states are all the paths there are to look at. Returns the
    /// number of states and the longest shortest path to one of them.
    func exploreStates(_ environment: Environment, _ recorder: Recorder) -> (states: Int, depth: Int) {
        let evaluator = evaluator(environment)
        var seen: Set<ResolutionState> = [Self.initial]
        var frontier = [Self.initial]
        var depth = 0
        while !frontier.isEmpty {
            var next: [ResolutionState] = []
            for s in frontier {
                for e in universe.screens.indices {
                    if let t = step(s, e, evaluator, recorder), seen.insert(t).inserted { next.append(t) }
                }
            }
            if !next.isEmpty { depth += 1 }
            frontier = next
        }
        return (seen.count, depth)
    }

    /// Every path of at most `maxLength` elements under one environment, one by one (no
    /// sharing between paths, pruned only where an element is not built). A cross-check of
    /// `exploreStates`. Returns false when more than `budget` elements would be built.
    func explorePaths(_ environment: Environment, maxLength: Int, budget: inout Int, _ recorder: Recorder) -> Bool {
        let evaluator = evaluator(environment)
        func extend(_ s: ResolutionState, _ length: Int) -> Bool {
            guard length < maxLength else { return true }
            for e in universe.screens.indices {
                budget -= 1
                if budget < 0 { return false }
                if let t = step(s, e, evaluator, recorder), !extend(t, length + 1) { return false }
            }
            return true
        }
        return extend(Self.initial, 0)
    }
}

// MARK: - What could happen, whatever a cycle gave

/// An outcome a build could have.
enum PossibleOutcome: Hashable {
    case nothing
    case built(NodeRef)
    case diverged
}

/// What resolving paths could do if each reference that closes a cycle, instead of never
/// finishing, gave nothing or anything its builder can build. A warning that does not hold in
/// all of these is one "whose cause involves a cycle" (docs/language.md#after-an-error).
struct PossibleObservations {
    /// Screen nodes that could build an element, with the presentation of the last non-push
    /// element before it.
    var built: [NodeRef: Set<Presentation?>] = [:]
    /// The (element, environment) pairs each `anyOf` could be evaluated with.
    var anyOfPairs: [NodeRef: Set<Pair>] = [:]
}

struct PossibleEvaluator {
    let universe: Universe
    let environment: Environment

    struct Key: Hashable {
        var builder: Symbol
        var element: Int
    }

    func build(_ n: NodeRef, _ e: Int, _ stack: inout [Symbol], _ expanding: inout Set<Key>,
               _ obs: inout PossibleObservations) -> Set<PossibleOutcome> {
        let u = universe
        switch u.node(n).kind {
        case .screen(let s, _, _):
            return u.screen(s, in: n.file) == e ? [.built(n)] : [.nothing]
        case .anyOf(let span):
            let branches = u.branches(n, span)
            obs.anyOfPairs[n, default: []].insert(Pair(element: e, environment: environment))
            var out = Set<PossibleOutcome>()
            for b in branches {
                let r = build(u.ref(n, b), e, &stack, &expanding, &obs)
                out.formUnion(r.subtracting([.nothing]))
                if !r.contains(.nothing) { return out }
            }
            out.insert(.nothing)
            return out
        case .conditional(let f, let a, let b):
            let value = u.flag(f, in: n.file).map { environment.flag($0) } ?? false
            return build(u.ref(n, value ? a : b), e, &stack, &expanding, &obs)
        case .ifLet(let o, let a, let b):
            guard let i = u.optional(o, in: n.file) else { return [.nothing] }
            if environment.isPresent(i) { return build(u.ref(n, a), e, &stack, &expanding, &obs) }
            return b.map { build(u.ref(n, $0), e, &stack, &expanding, &obs) } ?? [.nothing]
        case .ifScreen(let s, let a, let b):
            if let i = u.screen(s, in: n.file), i == e { return build(u.ref(n, a), e, &stack, &expanding, &obs) }
            return b.map { build(u.ref(n, $0), e, &stack, &expanding, &obs) } ?? [.nothing]
        case .wildcard(let w, let body):
            guard let i = u.screen(w, in: n.file) else { return [.nothing] }
            return build(u.ref(n, body), i, &stack, &expanding, &obs)
        case .empty, .missing:
            return [.nothing]
        case .reference(let name):
            guard let b = u.symbol(name, in: n.file, .builder), let body = u.body(b) else { return [.nothing] }
            if stack.contains(b) {
                // A cycle: never finishes; or, had it given something, nothing or anything
                // the builder can build (computed once per builder and element).
                var out: Set<PossibleOutcome> = [.diverged, .nothing]
                let key = Key(builder: b, element: e)
                if expanding.insert(key).inserted {
                    out.formUnion(build(body, e, &stack, &expanding, &obs))
                    expanding.remove(key)
                }
                return out
            }
            stack.append(b)
            defer { stack.removeLast() }
            return build(body, e, &stack, &expanding, &obs)
        }
    }

    /// Every path under this environment, with every outcome of every cycle.
    func explore(rootBody: NodeRef, _ obs: inout PossibleObservations) {
        struct State: Hashable {
            var node: NodeRef?
            var lastNonPush: Presentation?
        }
        let u = universe
        var seen: Set<State> = [State(node: nil, lastNonPush: nil)]
        var work = Array(seen)
        while let s = work.popLast() {
            let start: NodeRef
            if let n = s.node {
                guard case .screen(_, _, let nesting?) = u.node(n).kind else { continue }
                start = u.ref(n, nesting)
            } else {
                start = rootBody
            }
            for e in u.screens.indices {
                var stack: [Symbol] = []
                var expanding = Set<Key>()
                for case .built(let m) in build(start, e, &stack, &expanding, &obs) {
                    obs.built[m, default: []].insert(s.lastNonPush)
                    guard let t = u.screenOfNode(m) else { continue }
                    let p = u.presentation(ofNode: m, screen: t)
                    let next = State(node: m, lastNonPush: p == .push ? s.lastNonPush : p)
                    if seen.insert(next).inserted { work.append(next) }
                }
            }
        }
    }
}

// MARK: - builder-cycle

/// docs/rules.md#builder-cycle: builder B has a cycle when, for some element and environment,
/// `build(B, …)` reaches a reference to B again before it returns. Every builder, used or not,
/// is run for every element and environment (as the equations say: the first such reference
/// ends the run, since the build never finishes); each cycle met (the references from the
/// repeated builder round to the reference that re-enters it) is reported once, at its first
/// reference in source order.
struct BuilderCycles {
    let universe: Universe
    let file: FileID

    /// The cycles, each as its references in the order they are met.
    func cycles() -> [[NodeRef]] {
        let u = universe
        var seen = Set<Set<NodeRef>>()
        var out: [[NodeRef]] = []
        for b in u.builders where b.file == file {
            guard let body = u.body(b) else { continue }
            for env in 0..<u.environmentCount {
                let evaluator = Evaluator(universe: u, environment: u.environment(env))
                for e in u.screens.indices {
                    var stack = [Frame(builder: b, via: nil, actual: true)]
                    if case .diverged(let cycle) = evaluator.build(body, e, &stack), seen.insert(Set(cycle)).inserted {
                        out.append(cycle)
                    }
                }
            }
        }
        return out
    }

    func findings(_ cycles: [[NodeRef]]) -> [ReferenceFinding] {
        let u = universe
        return cycles.map { cycle in
            let first = cycle.min { ($0.file, u.node($0).range.lowerBound) < ($1.file, u.node($1).range.lowerBound) }!
            let chain = cycle.map { u.node($0).name?.text ?? "?" }
            return ReferenceFinding(
                rule: .builderCycle, file: first.file, range: u.node(first).name?.range ?? u.node(first).head,
                message: "builder cycle: \(chain.joined(separator: " → ")) is reached again before an element is built")
        }
    }
}

// MARK: - The program analyses

/// The warnings' facts, before "outermost cause once".
struct WarningFacts {
    var unreachable = Set<NodeRef>()
    var shadowed = Set<NodeRef>()
    var pushInSheet = Set<NodeRef>()
    var mismatched = Set<NodeRef>()
}

struct ProgramAnalysis {
    let universe: Universe
    let program: Program
    let cycleReferences: Set<NodeRef>

    private(set) var environmentCount = 0
    private(set) var maxStates = 0
    private(set) var maxPathLength = 0
    private(set) var diverges = false
    private(set) var quietBuilders: [QuietBuilder] = []

    init(universe: Universe, program: Program, cycleReferences: Set<NodeRef>) {
        self.universe = universe
        self.program = program
        self.cycleReferences = cycleReferences
    }

    /// Builders reachable from `root` through references and nestings, ignoring conditions
    /// (docs/rules.md#unused-declaration), in discovery order.
    func usedBuilders(from rootBody: NodeRef) -> [Symbol] {
        var used: [Symbol] = []
        var seen = Set<Symbol>()
        var queue = [rootBody]
        while let body = queue.popLast() {
            for n in universe.subtree(body) {
                guard case .reference(let name) = universe.node(n).kind,
                      let b = universe.symbol(name, in: n.file, .builder),
                      seen.insert(b).inserted, let bb = universe.body(b) else { continue }
                used.append(b)
                queue.append(bb)
            }
        }
        return used
    }

    /// Every path under every environment, observed.
    func observe(_ rootBody: NodeRef) -> (Observations, states: Int, depth: Int) {
        let explorer = PathExplorer(universe: universe, rootBody: rootBody, cycleReferences: cycleReferences)
        let recorder = Recorder()
        var states = 0
        var depth = 0
        for env in 0..<universe.environmentCount {
            let r = explorer.exploreStates(universe.environment(env), recorder)
            states = max(states, r.states)
            depth = max(depth, r.depth)
        }
        return (recorder.observations, states, depth)
    }

    /// Unreachable nodes, shadowed branches, pushes in sheets and mismatched wildcards among
    /// `analysed`, read off the observations. A cycle makes the build of an element never
    /// finish; a warning whose cause involves that is not reported
    /// (docs/language.md#after-an-error): every warning must also hold whatever each cycle gave
    /// instead (`possible`), and no shadowed branch or mismatched wildcard may meet a cycle on
    /// its own evaluation.
    func facts(_ obs: Observations, _ possible: PossibleObservations, analysed: [NodeRef], owner: [NodeRef: Symbol?]) -> WarningFacts {
        let u = universe
        var f = WarningFacts()
        for n in analysed {
            switch u.node(n).kind {
            case .screen:
                guard let occurrences = obs.built[n] else {
                    if possible.built[n] == nil { f.unreachable.insert(n) }
                    continue
                }
                // A cover or a popover counts as the sheet with the same `allowsPush`.
                if let t = u.screenOfNode(n), u.presentation(ofNode: n, screen: t) == .push,
                   occurrences.allSatisfy({ $0.lastNonPush.map { !$0.allowsPush } ?? false }),
                   possible.built[n, default: []].allSatisfy({ $0.map { !$0.allowsPush } ?? false }) {
                    f.pushInSheet.insert(n)
                }
            case .anyOf(let span):
                let branches = u.branches(n, span)
                // Over the (element, environment) pairs the anyOf is really evaluated with:
                // the branch would build for one, and wherever it would, the first branch
                // that does not give nothing is an earlier one, and it builds. That must hold
                // whatever each cycle met gave instead: a branch that meets a cycle could give
                // anything, and pairs the anyOf could get only if a cycle gave something count.
                var vectors = obs.anyOf[n] ?? []
                let actualPairs = obs.anyOfPairs[n] ?? []
                for p in possible.anyOfPairs[n] ?? [] where !actualPairs.contains(p) {
                    var stack: [Frame] = []
                    if let b = owner[n] ?? nil { stack.append(Frame(builder: b, via: nil, actual: true)) }
                    let evaluator = Evaluator(universe: u, environment: p.environment, cycleReferences: cycleReferences)
                    vectors.insert(branches.map { b in
                        var met = false
                        let r = evaluator.build(u.ref(n, b), p.element, &stack, nil, &met)
                        return r.code + (met ? 4 : 0)
                    })
                }
                func builds(_ c: UInt8) -> Bool { c == 1 }
                func mayBuild(_ c: UInt8) -> Bool { c & 3 == 1 || c & 4 != 0 }
                func earlierBuildsFirst(_ v: [UInt8], _ j: Int) -> Bool {
                    guard let i = v.firstIndex(where: { $0 != 0 }) else { return false }
                    return i < j && builds(v[i])
                }
                for (j, b) in branches.enumerated() {
                    guard obs.anyOf[n, default: []].contains(where: { builds($0[j]) }) else { continue }
                    if vectors.allSatisfy({ !mayBuild($0[j]) || earlierBuildsFirst($0, j) }) {
                        f.shadowed.insert(u.ref(n, b))
                    }
                }
            case .wildcard(let w, let body):
                // A property of the wildcard itself, over all environments, run inside the
                // builder that holds it.
                guard let wi = u.screen(w, in: n.file) else { continue }
                // A builder that meets a cycle in some environment: the cause involves it.
                var builds = false
                var touched = false
                for env in 0..<u.environmentCount {
                    var stack: [Frame] = []
                    if let b = owner[n] ?? nil { stack.append(Frame(builder: b, via: nil, actual: true)) }
                    let evaluator = Evaluator(universe: u, environment: u.environment(env), cycleReferences: cycleReferences)
                    if case .built = evaluator.build(u.ref(n, body), wi, &stack, nil, &touched) { builds = true }
                }
                if !builds && !touched { f.mismatched.insert(n) }
            default:
                break
            }
        }
        return f
    }

    mutating func findings() -> [ReferenceFinding] {
        let u = universe
        let rootDecl = u.declaration(program.root)
        guard let rootBodyID = rootDecl.body else { return [] }
        let rootBody = NodeRef(file: program.root.file, node: rootBodyID)
        var out: [ReferenceFinding] = []

        let used = usedBuilders(from: rootBody)
        // Each analysed node, with the builder whose body holds it (nil: root).
        var owner: [NodeRef: Symbol?] = [:]
        for n in u.subtree(rootBody) { owner[n] = .some(nil) }
        for b in used { for n in u.subtree(u.body(b)!) { owner[n] = .some(b) } }
        let analysed = owner.keys.sorted()

        let (obs, states, depth) = observe(rootBody)
        environmentCount = u.environmentCount
        maxStates = states
        maxPathLength = depth
        diverges = obs.diverged

        // unused-declaration: dependencies, optionals, flags and builders that root and the
        // used builders never mention.
        var mentioned = Set<Symbol>(used)
        for n in analysed {
            switch u.node(n).kind {
            case .screen(_, let span, _):
                let uses = u.uses(n, span)
                for d in uses {
                    if let s = u.project.resolve(d, in: n.file) { mentioned.insert(s) }
                }
            case .conditional(let f?, _, _): if let s = u.project.resolve(f, in: n.file) { mentioned.insert(s) }
            case .ifLet(let o?, _, _): if let s = u.project.resolve(o, in: n.file) { mentioned.insert(s) }
            default: break
            }
        }
        for f in program.files {
            for (i, d) in u.project.files[f].model.declarations.enumerated()
            where [.dependency, .optional, .flag, .builder].contains(d.kind) && !mentioned.contains(Symbol(file: f, declaration: i)) {
                out.append(ReferenceFinding(rule: .unusedDeclaration, file: f, range: d.name.range,
                                            message: "\(d.kind.rawValue) `\(d.name.text)` is never used"))
            }
        }

        // unreachable-screen, declaration level: no `screen S` node in root or a used builder.
        var placed = Set<Int>()
        for n in analysed { if let t = u.screenOfNode(n) { placed.insert(t) } }
        for (i, s) in u.screens.enumerated() where !placed.contains(i) {
            let d = u.declaration(s)
            out.append(ReferenceFinding(rule: .unreachableScreen, file: s.file, range: d.name.range,
                                        message: "screen `\(d.name.text)` is never placed in the routing tree"))
        }

        // missing-dependency (errors: never suppressed), over every way that really occurs.
        func inScope(_ d: Symbol, _ o: Occurrence) -> Bool {
            let decl = u.declaration(d)
            if let from = decl.from {
                guard let p = u.screen(from, in: d.file), o.providers & (1 << UInt64(p)) != 0 else { return false }
            }
            if decl.kind == .optional {
                guard let i = u.optionalIndex[d], o.scope & (1 << UInt64(i)) != 0 else { return false }
            }
            return true
        }
        for n in analysed {
            switch u.node(n).kind {
            case .screen(let s, let span, _):
                let uses = u.uses(n, span)
                guard let occurrences = obs.built[n] else { continue }
                var seenNames = Set<String>()
                for name in uses where seenNames.insert(name.text).inserted {
                    guard let d = u.project.resolve(name, in: n.file),
                          [.dependency, .optional].contains(u.declaration(d).kind) else { continue }
                    if occurrences.contains(where: { !inScope(d, $0) }) {
                        out.append(ReferenceFinding(
                            rule: .missingDependency, file: n.file, range: name.range,
                            message: "`\(name.text)` is not in scope on every way `screen \(s?.text ?? "?")` is built"))
                    }
                }
            case .ifLet(let o?, _, _):
                guard let d = u.symbol(o, in: n.file, .optional), let from = u.declaration(d).from,
                      let p = u.screen(from, in: d.file), let evaluations = obs.ifLet[n] else { continue }
                if evaluations.contains(where: { $0 & (1 << UInt64(p)) == 0 }) {
                    out.append(ReferenceFinding(
                        rule: .missingDependency, file: n.file, range: o.range,
                        message: "`if let \(o.text)` needs `\(o.text)`, provided by `\(from.text)`, which does not come before it on every way"))
                }
            default:
                break
            }
        }

        var possible = PossibleObservations()
        if obs.diverged {
            for env in 0..<u.environmentCount {
                PossibleEvaluator(universe: u, environment: u.environment(env)).explore(rootBody: rootBody, &possible)
            }
        } else {
            // No build meets a cycle: nothing else could happen.
            for (n, occurrences) in obs.built { possible.built[n] = Set(occurrences.map(\.lastNonPush)) }
            possible.anyOfPairs = obs.anyOfPairs
        }
        let facts = facts(obs, possible, analysed: analysed, owner: owner)

        // Outermost cause once: walk from root; nothing inside a shadowed branch, a
        // mismatched wildcard or an unreachable node's nesting is reported, and a builder is
        // entered only through a reference outside such places.
        var entered = Set<Symbol>()
        func walk(_ n: NodeRef) {
            let node = u.node(n)
            switch node.kind {
            case .screen(let s, _, let nesting):
                if facts.unreachable.contains(n) {
                    out.append(ReferenceFinding(rule: .unreachableScreen, file: n.file, range: node.head,
                                                message: "`screen \(s?.text ?? "?")` is never built: no path under any environment resolves through it"))
                    return
                }
                if facts.pushInSheet.contains(n) {
                    out.append(ReferenceFinding(rule: .pushInSheet, file: n.file, range: node.head,
                                                message: "`screen \(s?.text ?? "?")` is pushed, but on every path that builds it the last non-push screen before it is a `sheet(allowsPush: false)`"))
                }
                if let nesting { walk(u.ref(n, nesting)) }
            case .anyOf(let span):
                let branches = u.branches(n, span)
                for b in branches.map({ u.ref(n, $0) }) {
                    if facts.shadowed.contains(b) {
                        out.append(ReferenceFinding(rule: .shadowedBranch, file: b.file, range: u.node(b).head,
                                                    message: "this branch is shadowed: an earlier branch of the `anyOf` builds every element it would build"))
                    } else {
                        walk(b)
                    }
                }
            case .wildcard(let w, let body):
                if facts.mismatched.contains(n) {
                    out.append(ReferenceFinding(rule: .wildcardMismatch, file: n.file, range: node.head,
                                                message: "`wildcard \(w?.text ?? "?")` builds nothing: its builder cannot build `\(w?.text ?? "?")` in any environment"))
                    return
                }
                walk(u.ref(n, body))
            case .reference(let name):
                if let b = u.symbol(name, in: n.file, .builder), entered.insert(b).inserted, let body = u.body(b) {
                    walk(body)
                }
            default:
                for c in u.children(n) { walk(c) }
            }
        }
        walk(rootBody)
        quietBuilders = used.filter { !entered.contains($0) }.map { QuietBuilder(file: $0.file, range: u.declaration($0).range) }
        return out
    }
}
