import RoutesModel
import RoutesSyntax

/// One analysis of a project, kept for questions editors ask: its diagnostics, which
/// dependencies are in scope at a node, an example path that builds a screen. Not
/// thread-safe; one per snapshot of the project.
public final class AnalysisSession {
    public let project: Project
    /// One per program (in `project.programs` order), then the unit of the files in no
    /// program when there are any.
    let units: [ProgramAnalysis]
    /// Every diagnostic of the project, sorted (see `Analysis.order`).
    public let diagnostics: [Diagnostic]
    /// Flow storage and a region for scope questions about one unit's program (the last one
    /// asked about), and the node whose region it holds.
    private var query: (unit: Int, storage: FlowStorage, region: Region, node: Int?)? = nil

    /// The limits each program's analysis runs within (see `AnalysisLimits`).
    public let limits: AnalysisLimits

    /// The project's links, as every program's link rules read them.
    let links: ProjectLinks

    /// What the session is for: what it keeps once its diagnostics are out.
    public enum Purpose: Sendable {
        /// An editor's (``forEditor(project:reusing:splice:limits:reported:settings:)``):
        /// questions follow (scopes, example paths, previews), and the session after an edit
        /// continues this one. Everything is kept.
        case editor
        /// A lint's (``forLint(project:limits:reported:settings:)``): the diagnostics are read
        /// once and no edit follows. What only an edit or a question reads is let go as soon
        /// as the rules have read it: the model's builder nodes once the graphs are made, the
        /// plan of `missing-dependency` before the flows, each program's analysis once its
        /// diagnostics are out (but for a single program, which the process's exit frees).
        case lint
        /// Diagnostics only (``forDiagnostics(project:limits:reported:settings:)``: a fix
        /// checked, a test): each program's analysis is dropped once its diagnostics are
        /// out; scope questions answer `unknown`, and no later session reuses this one.
        case diagnostics
    }

    /// Whether the units are kept for questions and for the next session.
    private let keepsAnalyses: Bool

    /// How many units (programs, and the files in no program) this session analysed rather
    /// than kept from the session it reused (tests and logs).
    public private(set) var analysedPrograms = 0
    /// How many of those were analysed over their previous graph patched over the edit
    /// rather than a new one (tests and logs; see ``forEditor(project:reusing:splice:limits:reported:settings:)``).
    public private(set) var patchedGraphs = 0

    /// An editor's analysis of `project` (see ``Purpose/editor``), keeping the analysis of
    /// each program of `previous` whose files are the same in both (same paths, ids, bytes
    /// and imports): an edit re-analyses only the programs that contain the edited file.
    /// `previous` shares those with the new session and must not be used afterwards.
    ///
    /// With `splice`, `project` is `previous`'s project after a declaration edit that kept
    /// every declaration's kind and name (``ProjectDeclarationEdit`` with a project, whose
    /// `nodes` this is): a program analysed again over the edited file starts from its
    /// previous graph with the edited nodes resolved again, when their shapes allow it,
    /// instead of resolving every node again.
    public static func forEditor(project: Project, reusing previous: AnalysisSession? = nil, splice: NodeSplice? = nil,
                                 limits: AnalysisLimits = .configured, reported: Set<FileID>? = nil,
                                 settings: [String: RuleSettings] = [:]) -> AnalysisSession {
        AnalysisSession(project: project, purpose: .editor, reusing: previous, splice: splice, limits: limits,
                        reported: reported, settings: settings)
    }

    /// A lint's analysis of `project` (see ``Purpose/lint``). Pass a project nothing else
    /// holds: its builder nodes are given back before any program is analysed, and the
    /// session's `project` is then the project without them, for diagnostics only.
    public static func forLint(project: consuming Project, limits: AnalysisLimits = .configured, reported: Set<FileID>? = nil,
                               settings: [String: RuleSettings] = [:]) -> AnalysisSession {
        AnalysisSession(project: project, purpose: .lint, limits: limits, reported: reported, settings: settings)
    }

    /// The diagnostics of `project`, with nothing kept for questions (see
    /// ``Purpose/diagnostics``).
    public static func forDiagnostics(project: Project, limits: AnalysisLimits = .configured, reported: Set<FileID>? = nil,
                                      settings: [String: RuleSettings] = [:]) -> AnalysisSession {
        AnalysisSession(project: project, purpose: .diagnostics, limits: limits, reported: reported, settings: settings)
    }

    /// The analysis of `project` for `purpose` (see the named constructors above).
    ///
    /// With `reported`, only the programs that contain one of those files are analysed (and
    /// the files in no program among them): a lint of one file of a large workspace pays for
    /// the programs that file is part of. `settings` are the rule settings of each workspace
    /// root (see `Suppressions`).
    ///
    /// A lint checks `missing-dependency` before the flows grow (see
    /// `ProgramChecker.Order`), and makes every program's graph first: the
    /// session's `project` is then `project` without the model's builder nodes
    /// (``Project/leavingOutBuilderNodes()``), for diagnostics only (a question about a node
    /// answers that nothing is known).
    init(project given: consuming Project, purpose: Purpose, reusing previous: AnalysisSession? = nil, splice: NodeSplice? = nil,
         limits: AnalysisLimits = .configured, reported: Set<FileID>? = nil, settings: [String: RuleSettings] = [:]) {
        var project = consume given
        // A lint of one program keeps it: the process's exit frees it, which spares a little
        // of a large lint. A lint of many drops each program's analysis once its diagnostics
        // are out, so that its memory is that of its largest program.
        let keepsAnalyses = purpose == .editor || (purpose == .lint && project.programs.count <= 1)
        let continuedByEdits = purpose != .lint
        self.keepsAnalyses = keepsAnalyses
        self.limits = limits
        self.settings = settings
        let specs = Self.units(of: project, reported: reported)
        let reused = previous.flatMap { $0.limits == limits ? Self.reusable(from: $0, for: specs, in: project, splice: splice) : nil }
            ?? Reused(units: Array(repeating: nil, count: specs.count))
        let missing = reused.units.indices.filter { reused.units[$0] == nil }
        analysedPrograms = missing.count
        let work = missing.map { i in
            (spec: specs[i], handoff: Self.handoff(for: specs[i], from: reused, previous: previous, in: project, splice: splice))
        }
        // A lint of one program has its manager made on another core while it makes the
        // graph (see `PreparedManager`); of several, the graphs and analyses take every core.
        let prepared = !continuedByEdits && previous == nil && work.count == 1
            ? PreparedManager(graphNodes: work[0].spec.files.reduce(0) { $0 + project.files[$1].model.nodes.count }) : nil
        // A lint makes every graph, then lets go of the nodes they were made from.
        var graphsMade: [GraphHandoff]? = nil
        // (Not when the project declares links: the link rules resolve paths over the
        // model's nodes, to say why one is not built.)
        if !continuedByEdits && previous == nil && !project.hasLinks {
            graphsMade = Self.graphsLeavingTheModel(work.map(\.spec), of: &project)
        }
        self.project = project
        let shared = Self.filesOfSeveralPrograms(specs, in: project)
        // Read on another core while the semantics are computed.
        Profile.mark("analysis: graphs made")
        let links = PendingLinks(project: project)
        let made = Self.analyse(work, project: project, graphs: graphsMade, splice: splice, limits: limits,
                                keepsAnalyses: keepsAnalyses, order: keepsAnalyses && continuedByEdits ? .keepingPlan : .freeingEarly,
                                shared: shared, links: links, prepared: prepared)
        patchedGraphs = made.filter(\.patched).count
        var outcomes = reused.units.map { $0.map { UnitOutcome($0, keeping: true, wholeCache: false, shared: shared) } }
        for (position, i) in missing.enumerated() { outcomes[i] = made[position] }
        let all = outcomes.map { $0! }
        self.units = all.compactMap(\.unit)
        var comments: [FileID: [Suppressions.Comment]] = [:]
        self.links = links.links
        diagnostics = Self.assemble(project, all.map(\.findings), links: self.links.diagnostics, settings: settings,
                                    knownComments: previous.map { Self.unchangedComments(of: $0, in: project) } ?? [:],
                                    comments: &comments)
        suppressionComments = comments
    }

    /// The units of a session: each program (of those holding a reported file) with its
    /// files, then the files in no program (reported) with their imports.
    private static func units(of project: Project, reported: Set<FileID>?) -> [Spec] {
        let programs = reported.map { only in project.programs.filter { $0.files.contains(where: only.contains) } } ?? project.programs
        var specs: [Spec] = programs.map { ($0, Set($0.files).sorted(), nil, false) }
        var inProgram = [Bool](repeating: false, count: project.files.count)
        for program in project.programs { for f in program.files { inProgram[f] = true } }
        let orphans = project.files.indices.filter { !inProgram[$0] && (reported?.contains($0) ?? true) }
        if !orphans.isEmpty {
            var files = Set<FileID>()
            for f in orphans { files.formUnion(project.closures[f]) }
            let foreign = project.files.indices.contains { f in
                !files.contains(f) && project.files[f].model.declarations.contains { $0.kind == .screen }
            }
            specs.append((nil, files.sorted(), FileIndex(orphans), foreign))
        }
        return specs
    }

    /// What a session takes from the one before it: the analysis of each unit whose files
    /// are the same in both; for the units analysed again, the decision-diagram manager of
    /// the previous analysis, by the path of its root file ("" for the files in no program),
    /// where most of its operations are cached (see `BDD.beginAnalysis(nodes:steps:variables:)`),
    /// and the previous analysis itself when an edit inside one declaration may patch its graph.
    private struct Reused {
        var units: [ProgramAnalysis?]
        var managers: [String: ManagerCarryover] = [:]
        var patchable: [String: ProgramAnalysis] = [:]
    }

    private static func reusable(from previous: AnalysisSession, for specs: [Spec], in project: Project,
                                 splice: NodeSplice?) -> Reused {
        var reused = Reused(units: Array(repeating: nil, count: specs.count))
        var byKey: [UnitKey: ProgramAnalysis] = [:]
        for unit in previous.units { byKey[UnitKey(unit.program?.root, unit.graph.files.files, unit.graph.hasForeignElement)] = unit }
        for (i, spec) in specs.enumerated() {
            guard let old = byKey[UnitKey(spec.program?.root, spec.files, spec.foreign)],
                  old.orphans?.files == spec.orphans?.files,
                  spec.files.allSatisfy({ Self.sameFile($0, previous.project, project) })
            else { continue }
            old.rebase(onto: project)
            reused.units[i] = old
        }
        var kept = Set<ObjectIdentifier>()
        for unit in reused.units { if let unit { kept.insert(ObjectIdentifier(unit)) } }
        for unit in previous.units where !kept.contains(ObjectIdentifier(unit)) {
            let key = Self.managerKey(unit.program, previous.project)
            reused.managers[key] = ManagerCarryover(bdd: unit.semantics.bdd, layout: unit.semantics.layout, ordering: unit.semantics.ordering)
            if let splice, unit.stoppedAt == nil, unit.graph.files.contains(splice.file) { reused.patchable[key] = unit }
        }
        return reused
    }

    /// What a unit analysed again takes from its previous analysis: its manager, and the
    /// analysis itself when its graph can be patched over the edit.
    private static func handoff(for spec: Spec, from reused: Reused, previous: AnalysisSession?, in project: Project,
                                splice: NodeSplice?) -> Handoff {
        let key = Self.managerKey(spec.program, project)
        var patchable: ProgramAnalysis? = nil
        if let splice, let previous, let old = reused.patchable[key], old.graph.files.files == spec.files,
           old.graph.hasForeignElement == spec.foreign,
           spec.files.allSatisfy({ $0 == splice.file || Self.sameFile($0, previous.project, project) }) {
            patchable = old
        }
        return Handoff(reused.managers[key], patchable: patchable)
    }

    /// For a lint: every unit's graph, made before any is analysed; then `project` lets go of
    /// its builder nodes (``Project/leavingOutBuilderNodes()``) and the graphs keep what they
    /// read of them.
    private static func graphsLeavingTheModel(_ specs: [Spec], of project: inout Project) -> [GraphHandoff] {
        var graphs = parallelMap(specs.count) { [project] index in
            BuilderGraph(project: project, files: specs[index].files, hasForeignElement: specs[index].foreign, readingHeads: true)
        }
        project = project.leavingOutBuilderNodes()
        for i in graphs.indices { graphs[i].leaveModel(for: project) }
        // Freed in the middle of the heap, where the analyses' large arrays would not reuse
        // them: given back, on a large project (see `HeapTrim`).
        HeapTrim.afterFreeing(graphNodes: graphs.reduce(0) { $0 + $1.nodes.count })
        return graphs.map(GraphHandoff.init)
    }

    /// The analysis of each unit of `work`, in parallel.
    private static func analyse(_ work: [(spec: Spec, handoff: Handoff)], project: Project, graphs: [GraphHandoff]?,
                                splice: NodeSplice?, limits: AnalysisLimits, keepsAnalyses: Bool, order: ProgramChecker.Order,
                                shared: [Bool], links: PendingLinks, prepared: PreparedManager?) -> [UnitOutcome] {
        // An edit analyses one program or two again: those keep their whole operation cache
        // for the next edit. A first analysis of many programs keeps a small one per program.
        let keepsCaches = work.count <= 2
        return parallelMap(work.count) { index -> UnitOutcome in
            let (spec, handoff) = work[index]
            var patched: BuilderGraph? = nil
            var carryover: AnalysisCarryover? = nil
            if let splice, let old = handoff.patchable, let graph = old.graph.patched(onto: project, splice: splice) {
                patched = graph
                carryover = AnalysisCarryover(semantics: old.semantics, checker: old.checker,
                                              edited: EditedNodes(runs: graph.resolvedAgain(splice),
                                                                  namesKept: splice.resolvedAgain.isEmpty,
                                                                  files: [splice.file] + splice.resolvedAgain))
            }
            let unit = ProgramAnalysis(project: project, program: spec.program, files: spec.files, orphans: spec.orphans,
                                       hasForeignElement: spec.foreign, manager: handoff.manager,
                                       graph: patched ?? graphs?[index].take(), carryover: carryover, limits: limits, order: order,
                                       links: links, prepared: prepared)
            // Without queries to answer, a unit's decision diagrams and flows are dropped as
            // soon as it is done: the memory of a lint is that of the largest program, not
            // of all of them.
            var outcome = UnitOutcome(unit, keeping: keepsAnalyses, wholeCache: keepsCaches, shared: shared)
            outcome.patched = patched != nil
            return outcome
        }
    }

    /// The files of several programs: each program keeps which of their nodes it uses.
    private static func filesOfSeveralPrograms(_ specs: [Spec], in project: Project) -> [Bool] {
        var programCount = [Int](repeating: 0, count: project.files.count)
        for spec in specs where spec.program != nil { for f in spec.files { programCount[f] += 1 } }
        return programCount.map { $0 > 1 }
    }

    /// The suppression comments of the files the same in both sessions: the earlier ones.
    private static func unchangedComments(of previous: AnalysisSession, in project: Project) -> [FileID: [Suppressions.Comment]] {
        var known: [FileID: [Suppressions.Comment]] = [:]
        for f in project.files.indices where Self.sameFile(f, previous.project, project) {
            known[f] = previous.suppressionComments[f] ?? []
        }
        return known
    }

    /// The suppression comments of each file that has some (see `Suppressions`), as read.
    let suppressionComments: [FileID: [Suppressions.Comment]]

    /// The rule settings of each workspace root (see `Suppressions`).
    public let settings: [String: RuleSettings]

    /// What a unit found, for `assemble`.
    struct UnitFindings {
        var program: Program?
        var diagnostics: [Diagnostic]
        /// Per diagnostic, the node a warning is about (see `ProgramChecker.places`).
        var places: [NodeRef?]
        var cycles: [(builders: [Symbol], references: [BuilderCycle.Reference])]
        /// Per file, the nodes the program uses: kept for the files of several programs only.
        var usedNodes: [FileID: BitSet]
        /// Per file of several programs, what the program says where it reports nothing.
        var shared: [FileID: ProgramAnalysis.SharedNodeFacts] = [:]
    }

    /// Every diagnostic of a session: the project's own (syntax, names, duplicates: always
    /// those of the project as it is now), the builder cycles, and each program's, each once,
    /// then the settings and suppressions (see `Suppressions`).
    ///
    /// A file in several programs: an error is reported when some program has it (a
    /// `MissingDependency` error then names the `root` of a program whose way fails); a warning only
    /// when it holds in every program that has a say on its place: every program containing
    /// the file for a declaration (unused only when no program uses it, never placed only when
    /// no program places it), every program that uses the node for a node (unreachable only
    /// when no program reaches it, whether or not a program reported something around it; a
    /// branch shadowed over the union of the evaluations, where a program in which it builds
    /// nothing has no objection; a push after a sheet that allows none where a program that
    /// never builds it has none either). Then no warning of a shared file is kept inside a shadowed
    /// branch, a wildcard that builds nothing or the nesting of a screen never built that is
    /// kept (`ProgramAnalysis.SharedNodeFacts`).
    private static func assemble(_ project: Project, _ units: [UnitFindings], links: [Diagnostic], settings: [String: RuleSettings],
                                 knownComments: [FileID: [Suppressions.Comment]] = [:],
                                 comments: inout [FileID: [Suppressions.Comment]]) -> [Diagnostic] {
        var programsOf = [[Int]](repeating: [], count: project.files.count)
        for (unitIndex, unit) in units.enumerated() where unit.program != nil {
            for f in Set(unit.program!.files) { programsOf[f].append(unitIndex) }
        }
        struct Key: Hashable {
            var rule: RuleID
            var file: FileID
            var range: Range<Int>
        }
        var reporters: [Key: Set<Int>] = [:]
        for (unitIndex, unit) in units.enumerated() {
            for diagnostic in unit.diagnostics where diagnostic.severity == .warning && programsOf[diagnostic.file].count > 1 {
                reporters[Key(rule: diagnostic.rule, file: diagnostic.file, range: diagnostic.range), default: []].insert(unitIndex)
            }
        }
        var found = Set(project.diagnostics)
        found.formUnion(links)
        found.formUnion(BuilderCycle.merge(units.flatMap(\.cycles)).map { BuilderCycle.diagnostic($0) })
        var seen = Set<Key>()
        // A diagnostic of a shared file that programs word differently (a reason that quotes a
        // use of the file's builder in each) is taken from the program whose `root` file's
        // path sorts first, whatever order the programs were found in.
        let rootPaths = units.map { unit in unit.program.map { project.files[$0.root.file].path } }
        let inOrder = units.indices.sorted { a, b in
            switch (rootPaths[a], rootPaths[b]) {
            case let (x?, y?): return x != y ? x < y : a < b
            case (nil, nil): return a < b
            case (nil, _): return false
            case (_, nil): return true
            }
        }
        // The warnings of shared files kept, with their places and a program whose facts of
        // the file tell what encloses the place (for the filter below).
        var sharedWarnings: [(diagnostic: Diagnostic, place: NodeRef, teller: Int)] = []
        for unitIndex in inOrder {
            let unit = units[unitIndex]
            for (diagnostic, place) in zip(unit.diagnostics, unit.places) {
                let key = Key(rule: diagnostic.rule, file: diagnostic.file, range: diagnostic.range)
                let programs = programsOf[diagnostic.file]
                if programs.count > 1 {
                    // Each once, whatever the programs that found it.
                    guard seen.insert(key).inserted else { continue }
                    if diagnostic.severity == .warning {
                        let said = reporters[key] ?? []
                        let concerned = programs.filter { unitIndex in
                            place.map { units[unitIndex].usedNodes[$0.file]?.contains($0.node) ?? false } ?? true
                        }
                        // A program that did not report it agrees where the rule holds there
                        // all the same (the place was inside something it reported, or a
                        // branch builds nothing there): the rule is judged over the union of
                        // the programs' evaluations.
                        func agrees(_ unitIndex: Int) -> Bool {
                            if said.contains(unitIndex) { return true }
                            guard let place, let facts = units[unitIndex].shared[place.file] else { return false }
                            switch diagnostic.rule {
                            // (A push that a program never builds follows no sheet there.)
                            case UnreachableScreen.id, PushInSheet.id: return facts.unbuilt.contains(place.node)
                            case ShadowedBranch.id: return facts.buildingNothing.contains(place.node)
                            default: return false
                            }
                        }
                        guard concerned.allSatisfy(agrees) else { continue }
                        if let place, let teller = ([unitIndex] + concerned).first(where: { units[$0].shared[place.file] != nil }) {
                            sharedWarnings.append((diagnostic, place, teller))
                            continue
                        }
                    } else if diagnostic.rule == MissingDependency.id, let program = unit.program {
                        var named = diagnostic
                        named.related.append(RelatedLocation(
                            file: program.root.file, range: project.declaration(program.root).name.range,
                            message: "on a way of the program whose `root` is here"))
                        found.insert(named)
                        continue
                    }
                }
                found.insert(diagnostic)
            }
        }
        // One warning per cause over the union too: none inside a shadowed branch, a wildcard
        // that builds nothing or the nesting of a screen never built that the union reports
        // (one program may have reported what another's outer warning covered there).
        var covering: [FileID: Set<Int>] = [:]
        for w in sharedWarnings where [ShadowedBranch.id, UnreachableScreen.id, WildcardMismatch.id].contains(w.diagnostic.rule) {
            covering[w.place.file, default: []].insert(w.place.node)
        }
        for w in sharedWarnings {
            let enclosing = units[w.teller].shared[w.place.file]!.enclosing
            let covers = covering[w.place.file] ?? []
            var node = w.place.node
            var covered = false
            // A shadowed branch covers the node itself too (it is not reported again as unreachable).
            if w.diagnostic.rule != ShadowedBranch.id, covers.contains(node),
               sharedWarnings.contains(where: { $0.place == w.place && $0.diagnostic.rule == ShadowedBranch.id }) { covered = true }
            var steps = 0
            while !covered, node >= 0, node < enclosing.count, enclosing[node] >= 0, steps < enclosing.count {
                node = Int(enclosing[node])
                covered = covers.contains(node)
                steps += 1
            }
            if !covered { found.insert(w.diagnostic) }
        }
        return Analysis.sortedInOrder(Suppressions.apply(Analysis.sortedInOrder(Array(found)), project: project, settings: settings,
                                                          known: knownComments, found: &comments))
    }

    /// What the session keeps of a unit: its results, and the unit itself when it answers
    /// queries.
    private struct UnitOutcome: @unchecked Sendable {
        // Handed from the worker that made it to the session's thread, then read there only.
        var unit: ProgramAnalysis?
        var findings: UnitFindings
        /// Whether the unit's graph was its previous one patched.
        var patched = false

        init(_ unit: ProgramAnalysis, keeping: Bool, wholeCache: Bool, shared: [Bool]) {
            let bdd = unit.semantics.bdd
            findings = UnitFindings(program: unit.program, diagnostics: unit.diagnostics, places: unit.places,
                                    cycles: unit.cycles(), usedNodes: unit.usedNodes(inFiles: shared),
                                    shared: unit.sharedNodeFacts(inFiles: shared))
            // Kept for editors' questions: a small operation cache is enough for those (a
            // workspace of programs sharing a large library keeps one manager per program),
            // except for the programs being edited (their next analysis reuses it).
            if keeping && !wholeCache { bdd.shrinkCache(bits: 10) }
            self.unit = keeping ? unit : nil
        }
    }

    private typealias Spec = (program: Program?, files: [FileID], orphans: FileIndex?, foreign: Bool)

    private init(project: Project, units: [ProgramAnalysis], links: ProjectLinks, diagnostics: [Diagnostic], limits: AnalysisLimits,
                 settings: [String: RuleSettings], suppressionComments: [FileID: [Suppressions.Comment]]) {
        self.links = links
        self.suppressionComments = suppressionComments
        keepsAnalyses = true
        self.project = project
        self.units = units
        self.diagnostics = diagnostics
        self.limits = limits
        self.settings = settings
    }

    /// What identifies a program across sessions for reusing its manager: its root file's
    /// path (a file declares one program at most), "" for the files in no program.
    private static func managerKey(_ program: Program?, _ project: Project) -> String {
        guard let root = program?.root, root.file < project.files.count else { return "" }
        return "/" + project.files[root.file].path
    }

    /// Each unit's decision-diagram manager (tests).
    var managerIdentities: [ObjectIdentifier] { units.map { ObjectIdentifier($0.semantics.bdd) } }

    /// A manager handed to the one worker that analyses its program again (each manager goes
    /// to one worker at most, and the previous session, which held it, is not used again).
    private struct Handoff: @unchecked Sendable {
        let manager: ManagerCarryover?
        /// The program's previous analysis, whose graph is patched over the edit and whose
        /// semantics lends the builds the edit cannot change.
        let patchable: ProgramAnalysis?
        init(_ manager: ManagerCarryover?, patchable: ProgramAnalysis? = nil) {
            self.manager = manager
            self.patchable = patchable
        }
    }

    /// A graph made for one unit, taken by the worker that analyses it (so that it is freed
    /// with the unit's analysis).
    private final class GraphHandoff: @unchecked Sendable {
        private var graph: BuilderGraph?
        init(_ graph: BuilderGraph) { self.graph = graph }
        func take() -> BuilderGraph? {
            defer { graph = nil }
            return graph
        }
    }

    private struct UnitKey: Hashable {
        var root: Symbol?
        var files: [FileID]
        var foreign: Bool
        init(_ root: Symbol?, _ files: [FileID], _ foreign: Bool) {
            self.root = root
            self.files = files
            self.foreign = foreign
        }
    }

    /// Whether file f is the same in both projects for an analysis: same path, bytes,
    /// imported files and visible files (then its names resolve alike).
    /// (A file whose text the project did not keep is never the same: its bytes are not
    /// at hand. Each field is read on its own, which copies no file.)
    private static func sameFile(_ f: FileID, _ earlier: Project, _ later: Project) -> Bool {
        guard f < earlier.files.count, f < later.files.count, earlier.files[f].keepsText, later.files[f].keepsText else { return false }
        return earlier.files[f].path == later.files[f].path
            && earlier.files[f].keptSyntax.source.bytes == later.files[f].keptSyntax.source.bytes
            && earlier.importTargets[f] == later.importTargets[f]
            && earlier.closures[f] == later.closures[f]
    }

    /// The units whose program uses node `local` of `file`, with its global id in each.
    private func programs(using local: NodeID, file: FileID) -> [(unit: Int, g: Int)] {
        units.indices.compactMap { unitIndex in
            guard let checker = units[unitIndex].checker, let g = units[unitIndex].graph.globalIfPresent(file, local), checker.used[g]
            else { return nil }
            return (unitIndex, g)
        }
    }

    /// Per program, the nodes its analysis keeps state for (its own files' nodes).
    public var programNodeCounts: [Int] { units.compactMap { $0.checker == nil ? nil : $0.graph.nodes.count } }

    /// The decision-diagram nodes of each unit's manager (tests, and the pipeline benchmark).
    public var decisionNodeCounts: [Int] { units.map { $0.semantics.bdd.nodeCount } }

    /// The links of the program whose `root` is `root`, with the conditions of their paths;
    /// nil when the program was not analysed (a limit, or a lint that let its analysis go).
    public func links(ofProgramRootedAt root: Symbol) -> ProgramLinks? {
        units.first { $0.program?.root == root }?.checker?.links
    }

    /// Whether the session can be ``rebased(onto:file:edit:relinking:)`` over an edit: always
    /// for an edit in a comment; for one in whitespace only when no message quotes a line and
    /// column (whitespace may move what it quotes).
    public func canRebase(over edit: TriviaEdit) -> Bool {
        !edit.isWhitespace || !diagnostics.contains(where: \.quotesPosition)
    }

    /// The session of `newProject`, the project after an edit inside one comment or whitespace
    /// run of `file` (``Project/applyingTriviaEdit(file:range:replacement:newSource:)``), or
    /// inside one declaration that changed nothing the analyses read
    /// (``ProjectDeclarationEdit/keepsAnalysis``): every result is kept and only positions
    /// move. With `relinking` (an edit of a link, or of a screen's parameters, see
    /// ``ProjectDeclarationEdit/changesLinks``), the link rules are judged again over the
    /// kept analyses. This session shares its analyses with the new one and must not be used
    /// afterwards.
    public func rebased(onto newProject: Project, file: FileID, edit: TriviaEdit, relinking: Bool = false) -> AnalysisSession {
        precondition(canRebase(over: edit), "a session whose messages quote positions cannot move over whitespace edits")
        precondition(keepsAnalyses, "a session that kept only its diagnostics cannot be moved")
        // Each program's own diagnostics move with the edit (a later session that reuses the
        // program reads them); the project's are the new project's (an edit that keeps the
        // analysis may still change them: a parameter label written twice, say).
        for unit in units { unit.rebase(onto: newProject, moving: (edit, file)) }
        let links = relinking ? ProjectLinks(project: newProject) : self.links.rebased(onto: newProject, moving: edit, in: file)
        if relinking { for unit in units { unit.relink(links) } }
        var programCount = [Int](repeating: 0, count: newProject.files.count)
        for unit in units { for f in Set(unit.program?.files ?? []) { programCount[f] += 1 } }
        let shared = programCount.map { $0 > 1 }
        let findings = units.map {
            UnitFindings(program: $0.program, diagnostics: $0.diagnostics, places: $0.places, cycles: $0.cycles(),
                         usedNodes: $0.usedNodes(inFiles: shared))
        }
        // The comments of every file but the edited one are where they were.
        var known = suppressionComments
        known[file] = nil
        for f in newProject.files.indices where f != file && known[f] == nil { known[f] = [] }
        var comments: [FileID: [Suppressions.Comment]] = [:]
        let diagnostics = Self.assemble(newProject, findings, links: links.diagnostics, settings: settings, knownComments: known,
                                        comments: &comments)
        return AnalysisSession(project: newProject, units: units, links: links, diagnostics: diagnostics, limits: limits,
                               settings: settings, suppressionComments: comments)
    }

    /// Whether a dependency or optional is in scope at a node
    /// (docs/language.md#scopes-dependencies-and-optionals).
    public enum ScopeStatus: Sendable, Hashable {
        /// In scope on every way the node is built (or it needs no scope).
        case inScope
        /// Some way builds the node without it; the text says why.
        case notInScope(String)
        /// The node is in no program's used builders: no way is known.
        case unknown
    }

    /// For a `screen` node (or an `if let`) of a file: each dependency and optional visible in
    /// the file, and whether it is in scope there on every way, over the programs that use it.
    public func scope(atNode node: NodeID, file: FileID) -> [(symbol: Symbol, status: ScopeStatus)] {
        // The session is one snapshot: a node's answer never changes (a completion list asked
        // for again, or hover after completion, costs nothing the second time).
        let key = NodeRef(file: file, node: node)
        if let known = scopeCache[key] { return known }
        let answer = computeScope(node, file: file)
        scopeCache[key] = answer
        return answer
    }

    private var scopeCache: [NodeRef: [(symbol: Symbol, status: ScopeStatus)]] = [:]

    private func computeScope(_ node: NodeID, file: FileID) -> [(symbol: Symbol, status: ScopeStatus)] {
        let programs = programs(using: node, file: file)
        var out: [(Symbol, ScopeStatus)] = []
        for (_, s) in project.scopes[file].sorted(by: { $0.key < $1.key }) {
            let declaration = project.declaration(s)
            guard declaration.kind == .dependency || declaration.kind == .optional else { continue }
            if programs.isEmpty {
                out.append((s, .unknown))
                continue
            }
            var status = ScopeStatus.inScope
            for (unitIndex, g) in programs {
                let unit = units[unitIndex]
                if unit.stoppedAt != nil {
                    status = .unknown
                    break
                }
                if query?.unit != unitIndex {
                    query = (unitIndex, FlowStorage(size: unit.graph.nodes.count), Region(count: unit.graph.nodes.count), nil)
                }
                guard let (_, storage, region, at) = query, let items = unit.checker?.scopeItems(s) else { continue }
                if at != g {
                    unit.fillRegion(region, leadingTo: g)
                    query?.node = g
                }
                for item in items where unit.checker?.wayWithout(item, at: g, storage: storage, region: region) != nil {
                    switch item {
                    case .provider(let providerCode):
                        let name = unit.graph.screenDeclaration(providerCode).name.text
                        status = .notInScope("provided by `\(name)`, and some way reaches this node before any \(name)")
                    case .optional:
                        status = .notInScope("optional: in scope only inside `if let \(declaration.name.text)`")
                    }
                    break
                }
                if case .notInScope = status { break }
            }
            out.append((s, status))
        }
        return out
    }

    /// An example of how a screen can be shown.
    public enum ScreenExample: Sendable, Hashable {
        /// A path literal and the environment values that matter (flags: true/false;
        /// optionals: true = present).
        case reached(path: [String], flags: [(String, Bool)], optionals: [(String, Bool)])
        /// Why no path builds it.
        case unreachable(String)
        /// Not known: the program's analysis stopped at its limit (see `AnalysisLimits`).
        case notAnalysed(String)

        public static func == (a: ScreenExample, b: ScreenExample) -> Bool {
            switch (a, b) {
            case let (.reached(p1, f1, o1), .reached(p2, f2, o2)):
                return p1 == p2 && f1.map(\.0) == f2.map(\.0) && f1.map(\.1) == f2.map(\.1)
                    && o1.map(\.0) == o2.map(\.0) && o1.map(\.1) == o2.map(\.1)
            case let (.unreachable(first), .unreachable(second)), let (.notAnalysed(first), .notAnalysed(second)):
                return first == second
            default:
                return false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .reached(let path, _, _): hasher.combine(path)
            case .unreachable(let reason): hasher.combine(reason)
            case .notAnalysed(let reason): hasher.combine(1); hasher.combine(reason)
            }
        }
    }

    /// Why an example or a scope is not known in a program whose analysis stopped.
    static let stopReason = "the analysis of this program stopped at its limit (see the error at its `root`)"

    /// Why an example is not known in a session made for its diagnostics alone.
    static let diagnosticsOnly = "this analysis was made for its diagnostics only"

    /// An example path and environment that build a `screen` node, or why none does.
    public func example(screenNode node: NodeID, file: FileID) -> ScreenExample {
        locatedExample(screenNode: node, file: file).example
    }

    /// An example for a screen node, with the `root` of the program whose path it is.
    private func locatedExample(screenNode node: NodeID, file: FileID) -> (example: ScreenExample, root: Symbol?) {
        if project.files[file].model.nodesLeftOut { return (.notAnalysed(Self.diagnosticsOnly), nil) }
        let model = project.files[file].model.nodes[node]
        guard case .screen(let name?, _, _) = model.kind, let s = project.resolve(name, in: file), project.kind(of: s) == .screen else {
            return (.unreachable("the screen name does not resolve"), nil)
        }
        let programs = programs(using: node, file: file)
        for (unitIndex, _) in programs where units[unitIndex].stoppedAt != nil { return (.notAnalysed(Self.stopReason), nil) }
        for (unitIndex, g) in programs {
            guard let checker = units[unitIndex].checker, case .screen(let code?, _) = units[unitIndex].graph.nodes[g].kind else { continue }
            let envs = checker.flow.builtEnvironments(g)
            if envs == BDD.zero { continue }
            if let example = concreteExample(unit: units[unitIndex], target: g, code: code, environments: envs) {
                return (example, checker.program.root)
            }
        }
        if programs.isEmpty {
            return (.unreachable("it is in no program's routing tree (no `root` uses this builder)"), nil)
        }
        // Why a node is never built: `unreachable-screen`, or `shadowed-branch` for a branch an
        // earlier one shadows, at its head.
        func cause(at head: Range<Int>) -> Diagnostic? {
            diagnostics.first { ($0.rule == .unreachableScreen || $0.rule == .shadowedBranch) && $0.file == file && $0.range == head }
        }
        if let cause = cause(at: model.head) { return (.unreachable(cause.message), nil) }
        // A node inside one of those (a branch, or the nesting of a screen node, which stay in
        // its file) is reported there only (the outermost cause).
        for (unitIndex, g) in programs {
            let graph = units[unitIndex].graph, semantics = units[unitIndex].semantics
            func container(_ x: Int) -> Int? { graph.nodes[x].parent ?? semantics.nestingOwner(x) }
            var above = container(g)
            while let p = above {
                let head = project.files[file].model.nodes[graph.nodes[p].local].head
                if let cause = cause(at: head) {
                    let at = project.files[file].text.position(of: head.lowerBound, encoding: .scalars)
                    return (.unreachable("it is inside `\(project.quoted(file: file, head))` at \(at.line + 1):\(at.column + 1): \(cause.message)"), nil)
                }
                above = container(p)
            }
        }
        return (.unreachable("no path under any environment builds it"), nil)
    }

    /// An example for a screen declaration: through any of its nodes (in source order).
    public func example(screen: Symbol) -> ScreenExample {
        placedExample(screen: screen).example
    }

    /// An example for a screen declaration, as ``example(screen:)`` finds it, with the `root`
    /// of the program whose path it is (nil unless reached), and the places the screen is
    /// placed at: the screen nodes that build it in some program's routing tree, by file and
    /// position (empty when a program holding it was not analysed).
    public func placedExample(screen: Symbol) -> (example: ScreenExample, root: Symbol?, places: [NodeRef]) {
        guard project.kind(of: screen) == .screen else { return (.unreachable("not a screen"), nil, []) }
        var placedNodes = Set<NodeRef>()
        for unit in units {
            guard let checker = unit.checker, let code = unit.graph.screenCode(screen) else { continue }
            if unit.stoppedAt != nil { return (.notAnalysed(Self.stopReason), nil, []) }
            for (g, node) in unit.graph.nodes.enumerated() {
                if case .screen(code?, _) = node.kind, checker.used[g] { placedNodes.insert(NodeRef(file: node.file, node: node.local)) }
            }
        }
        let places = placedNodes.sorted(by: { ($0.file, $0.node) < ($1.file, $1.node) })
        var firstReason: ScreenExample? = nil
        for place in places {
            let (example, root) = locatedExample(screenNode: place.node, file: place.file)
            if case .reached = example { return (example, root, places) }
            if firstReason == nil { firstReason = example }
        }
        if places.isEmpty { return (.unreachable("it is never placed in the routing tree of any program"), nil, []) }
        return (firstReason ?? .unreachable("no path under any environment builds it"), nil, places)
    }

    /// A concrete path under one environment of `environments`, found breadth-first with the
    /// build-semantics interpreter (`Resolution`; bounded effort).
    private func concreteExample(unit: ProgramAnalysis, target g: Int, code: Int, environments: BDD.Ref) -> ScreenExample? {
        let graph = unit.graph
        let semantics = unit.semantics
        guard let checker = unit.checker else { return nil }
        let program = checker.program
        guard let assignment = semantics.bdd.anySatisfying(environments) else { return nil }
        var flags: [(String, Bool)] = []
        var optionals: [(String, Bool)] = []
        var environment = Environment()
        // List the conditions in declaration order.
        let chosen = assignment.compactMap { variable, value in semantics.condition(ofVariable: variable).map { ($0, value) } }
        for (index, value) in chosen.sorted(by: { $0.0 < $1.0 }) {
            guard index >= 0, index < graph.conditions.count, case .symbol(let s) = graph.conditions[index] else { continue }
            let declaration = project.declaration(s)
            if declaration.kind == .flag {
                flags.append((declaration.name.text, value))
                environment.flags[declaration.name.text] = value
            } else {
                optionals.append((declaration.name.text, value))
                environment.optionals[declaration.name.text] = value
            }
        }
        guard let rootBody = checker.rootBody else { return nil }
        let target = NodeRef(file: graph.nodes[g].file, node: graph.nodes[g].local)
        // First the way the analysis found (its screen nodes are the elements), checked with
        // the interpreter under the chosen environment.
        var wayPath: [Symbol] = []
        for node in checker.facts.way(to: g) {
            if case .screen(let screenCode?, _) = graph.nodes[node].kind { wayPath.append(graph.screens[screenCode]) }
        }
        if wayPath.last != graph.screens[code] { wayPath.append(graph.screens[code]) }
        if let programEnvironment = try? ProgramEnvironment(environment, program: program, project: project),
           case let resolution = Resolution.resolve(screens: wayPath, texts: wayPath.map { project.declaration($0).name.text },
                                                    program: program, project: project, environment: programEnvironment),
           resolution.elements.last?.node == target, resolution.elements.allSatisfy(\.built) {
            return .reached(path: wayPath.map { project.declaration($0).name.text }, flags: flags, optionals: optionals)
        }
        let programFiles = Set(program.files)
        let screens = graph.screens.filter { programFiles.contains($0.file) }
        struct Step { var body: Int; var path: [String] }
        var queue = [Step(body: rootBody, path: [])]
        var seen = Set([rootBody])
        var budget = 2_000
        var head = 0
        while head < queue.count && budget > 0 {
            let step = queue[head]
            head += 1
            if step.path.count > 50 { continue }
            let ref = NodeRef(file: graph.nodes[step.body].file, node: graph.nodes[step.body].local)
            for s in screens {
                budget -= 1
                guard case .built(let node, _, _) = Resolution.build(ref, element: s, project: project, environment: environment) else { continue }
                // The element as written in the path: a `wildcard` may have built another screen.
                let path = step.path + [project.declaration(s).name.text]
                if node == target { return .reached(path: path, flags: flags, optionals: optionals) }
                let builtGlobal = graph.global(node.file, node.node)
                if case .screen(_, let nesting?) = graph.nodes[builtGlobal].kind, seen.insert(nesting).inserted {
                    queue.append(Step(body: nesting, path: path))
                }
            }
        }
        // Over the budget: the way the analysis found (its screen nodes are the elements).
        var path: [String] = []
        for node in checker.facts.way(to: g) {
            if case .screen(let screenCode?, _) = graph.nodes[node].kind { path.append(graph.screenDeclaration(screenCode).name.text) }
        }
        if path.last != graph.screenDeclaration(code).name.text { path.append(graph.screenDeclaration(code).name.text) }
        return .reached(path: path, flags: flags, optionals: optionals)
    }
}
