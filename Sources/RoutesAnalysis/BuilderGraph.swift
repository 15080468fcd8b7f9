import RoutesModel
import RoutesSyntax

/// The builder nodes of a set of files of a project (a program's files, or all of them) in
/// one numbering ("global ids"), with their names resolved, so that the analyses can treat
/// references, nestings and branches uniformly. Unresolved names and names of the wrong kind are `nil`.
/// The files must be closed under imports (names resolve only to files they see), so that
/// every name a node mentions resolves inside the graph.
struct BuilderGraph {
    enum Kind: Equatable {
        /// `screen S` (element code of S) with its nesting.
        case screen(Int?, nesting: Int?)
        /// Its branches, in `branchList` (see `branch(_:_:)`), so that a node holds no array
        /// and copies of it are plain loads.
        case anyOf(Branches)
        /// `conditional f` / `if let o`: a boolean variable, then, else (nil: `empty`).
        case condition(Int, then: Int, else: Int?)
        /// `if screen S`.
        case ifScreen(Int?, then: Int, else: Int?)
        case wildcard(Int?, body: Int)
        /// A named builder (index into `builders`).
        case reference(Int?)
        /// `empty`, or a hole a syntax error left.
        case nothing
    }

    /// `count` global ids from `start` in `branchList`.
    struct Branches: Equatable {
        var start: Int32
        var count: Int32
        var isEmpty: Bool { count == 0 }
    }

    /// A node's numbers are kept in 32 bits, its kind as a tag and three numbers (28 bytes a
    /// node instead of 88): the flows read the nodes at random, and a smaller array misses
    /// the cache less. `kind` is read and written as the enum.
    struct Node: Equatable {
        /// The kind's tag (3 bits), whether it tests an optional (1 bit), whether its name
        /// did not resolve (1 bit), and the index in its parent (the rest).
        private var bits: UInt32
        /// The kind's numbers, -1 for none.
        private var a: Int32, b: Int32, c: Int32
        private var file32: Int32
        private var local32: Int32
        private var parent32: Int32 = -1

        init(kind: Kind, file: FileID, local: NodeID, testsOptional: Bool) {
            let tag: UInt8
            (tag, a, b, c) = Self.encode(kind)
            bits = UInt32(tag) | (testsOptional ? 8 : 0)
            file32 = Int32(truncatingIfNeeded: file)
            local32 = Int32(truncatingIfNeeded: local)
        }

        private var tag: UInt8 { UInt8(truncatingIfNeeded: bits & 7) }

        /// An `if let` (a `condition` that tests an optional, not a flag).
        var testsOptional: Bool {
            get { bits & 8 != 0 }
            set { bits = newValue ? bits | 8 : bits & ~8 }
        }

        /// Whether its name did not resolve to the right kind (or it is a hole a syntax
        /// error left).
        var unresolved: Bool {
            get { bits & 16 != 0 }
            set { bits = newValue ? bits | 16 : bits & ~16 }
        }

        var kind: Kind {
            @inline(__always) get {
                @inline(__always) func opt(_ x: Int32) -> Int? { x < 0 ? nil : Int(x) }
                switch tag {
                case 0: return .screen(opt(a), nesting: opt(b))
                case 1: return .anyOf(Branches(start: a, count: b))
                case 2: return .condition(Int(a), then: Int(b), else: opt(c))
                case 3: return .ifScreen(opt(a), then: Int(b), else: opt(c))
                case 4: return .wildcard(opt(a), body: Int(b))
                case 5: return .reference(opt(a))
                default: return .nothing
                }
            }
            set {
                let tag: UInt8
                (tag, a, b, c) = Self.encode(newValue)
                bits = bits & ~7 | UInt32(tag)
            }
        }

        private static func encode(_ kind: Kind) -> (UInt8, Int32, Int32, Int32) {
            func raw(_ value: Int?) -> Int32 { value.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
            switch kind {
            case .screen(let code, let nesting): return (0, raw(code), raw(nesting), -1)
            case .anyOf(let list): return (1, list.start, list.count, -1)
            case .condition(let condition, let then, let els): return (2, raw(condition), raw(then), raw(els))
            case .ifScreen(let code, let then, let els): return (3, raw(code), raw(then), raw(els))
            case .wildcard(let code, let body): return (4, raw(code), raw(body), -1)
            case .reference(let target): return (5, raw(target), -1, -1)
            case .nothing: return (6, -1, -1, -1)
            }
        }

        var file: FileID { Int(file32) }
        var local: NodeID { Int(local32) }
        /// The syntactic parent (within one body), nil at a body's top.
        var parent: Int? {
            get { parent32 < 0 ? nil : Int(parent32) }
            set { parent32 = Int32(truncatingIfNeeded: newValue ?? -1) }
        }
        /// The position among the parent's children (an `anyOf` branch's index; fewer than
        /// 2^27, as a file has fewer bytes).
        var indexInParent: Int {
            get { Int(bits >> 5) }
            set { bits = bits & 31 | UInt32(truncatingIfNeeded: newValue) << 5 }
        }
    }

    /// A name a `screen` node `uses`: the declaration it resolves to (of any kind: a wrong
    /// kind still names it), else the one its `UndefinedName` error suggests (`guessed`), by
    /// number (see `declarationNumber(_:)`); -1 for neither.
    struct UseTarget: Equatable {
        var number: Int32
        var guessed: Bool
    }

    /// A named builder: 12 bytes (its name is its declaration's, see `builderName(_:)`).
    struct Builder: Equatable {
        var symbol: Symbol
        private var body32: Int32
        /// Global id of the body (nil when a syntax error left none).
        var body: Int? {
            get { body32 < 0 ? nil : Int(body32) }
            set { body32 = Int32(truncatingIfNeeded: newValue ?? -1) }
        }

        init(symbol: Symbol, body: Int?) {
            self.symbol = symbol
            body32 = Int32(truncatingIfNeeded: body ?? -1)
        }
    }

    /// The name of builder b.
    func builderName(_ b: Int) -> String { project.declaration(builders[b].symbol).name.text }

    var project: Project
    /// The graph's files, increasing.
    let files: FileIndex
    /// Whether the project declares screens outside the graph's files: then one more element
    /// code (`screens.count`) stands for all of them, which no node of the graph can tell
    /// apart (see `Semantics`).
    let hasForeignElement: Bool
    private(set) var nodes = PagedArray<Node>()
    /// The branches of every `anyOf`, each one's in a run (see `Branches`).
    private(set) var branchList = PagedArray<Int32>()
    /// Global id of a file's node 0, by the file's position in `files`.
    private var base: [Int] = []
    /// A number per declaration of the graph's files: a file's declaration i is
    /// `declarationBase[position of the file] + i`.
    private var declarationBase: [Int] = []
    private(set) var declarationCount = 0
    private(set) var builders = PagedArray<Builder>()
    /// Each declaration's number by its kind, in one table: a builder's index in
    /// `builders`, a screen's element code, a flag's or optional's variable (read through
    /// `builderIndex(_:)`, `screenCode(_:)` and `conditionIndex(_:)`).
    private var numbers = DeclarationSlots()
    /// The index in `builders` of builder s, nil for a declaration of another kind.
    func builderIndex(_ s: Symbol) -> Int? { numbers[s, kind: .builder] }
    /// Screen symbols, by element code.
    private(set) var screens: [Symbol] = []
    /// How each screen is presented, by element code: read for every screen a flow builds,
    /// which would otherwise copy the screen's whole declaration.
    private(set) var presentations: [Presentation] = []
    /// The presentations screen nodes give themselves (`screen Detail as sheet`), by global
    /// id: few, so a dictionary.
    private(set) var placementPresentations: [Int32: Presentation] = [:]

    /// The presentation in force at screen node g of screen `code`: its own, or its
    /// screen's.
    @inline(__always) func presentation(node g: Int, code: Int) -> Presentation {
        if placementPresentations.isEmpty { return presentations[code] }
        return placementPresentations[Int32(truncatingIfNeeded: g)] ?? presentations[code]
    }

    /// The presentation in force at node g: nil unless it is a screen node that resolves.
    func presentation(node g: Int) -> Presentation? {
        guard case .screen(let code?, _) = nodes[g].kind else { return nil }
        return presentation(node: g, code: code)
    }

    /// Whether some screen or placement allows no pushes: only then do the flows track
    /// whether a push is possible.
    var hasNoPushPresentation: Bool {
        presentations.contains { !$0.allowsPush } || placementPresentations.values.contains { !$0.allowsPush }
    }

    /// Whether every screen and placement is presented as in `other`.
    func samePresentations(as other: BuilderGraph) -> Bool {
        presentations == other.presentations && placementPresentations == other.placementPresentations
    }
    /// The element code of screen s, nil for a declaration of another kind.
    func screenCode(_ s: Symbol) -> Int? { numbers[s, kind: .screen] }
    /// Flag and optional symbols, and one entry per test of an unresolved condition name, by
    /// variable (see `Semantics`).
    private(set) var conditions: [ConditionKey] = []
    /// The variable of each flag and optional.
    /// The variable of flag or optional s, nil for a declaration of another kind.
    func conditionIndex(_ s: Symbol) -> Int? { numbers[s, kind: .condition] }
    /// The `uses` names of node g are `useTargets[useStart[g]..<useStart[g + 1]]`, in order:
    /// resolved once here for every analysis that reads them.
    private(set) var useStart: [Int32] = []
    private(set) var useTargets = PagedArray<UseTarget>()
    /// What `ResolutionTable.touchEveryCacheLine()` read, kept so that the reads are made.
    private var cacheWarmth = 0
    /// Each node's head (see `head(_:)`), once the graph has left the model
    /// (`leaveModel(for:)`); empty while the model's nodes are read instead.
    private var heads: [Head] = []
    /// The heads read while the graph was made for a lint (`readingHeads`), for
    /// `leaveModel(for:)`: read with the rest of each node, they cost little (read later,
    /// every node is a miss of the cache).
    private var headsRead: [Head] = []
    /// Once the graph has left the model, `unresolvedMention(_:)` of every node it answers for.
    private var unresolvedMentions: [Int32: UseTarget] = [:]

    private struct Head {
        var start: Int32
        var end: Int32

        init(_ range: Range<Int>) {
            start = Int32(truncatingIfNeeded: range.lowerBound)
            end = Int32(truncatingIfNeeded: range.upperBound)
        }
    }

    enum ConditionKey: Hashable {
        case symbol(Symbol)
        /// An unresolved flag or optional: an unknown condition
        /// (docs/language.md#after-an-error), one per place it is tested.
        case unknown(String)
    }

    /// The graph of every file of the project.
    init(project: Project) {
        self.init(project: project, files: Array(project.files.indices), hasForeignElement: false)
    }

    /// The graph of `files` (closed under imports). `hasForeignElement`: whether elements
    /// declared elsewhere can reach it (see the property). `readingHeads`: whether the graph
    /// will leave the model (see `leaveModel(for:)`).
    /// `twoThreadsFrom` (tests) is the node count from which the nodes are resolved on two
    /// threads.
    init(project: Project, files: [FileID], hasForeignElement: Bool, readingHeads: Bool = false,
         twoThreadsFrom: Int = Flow.nodesForTwoThreads) {
        self.project = project
        let index = FileIndex(files)
        self.files = index
        self.hasForeignElement = hasForeignElement
        numbers = DeclarationSlots(project, files: index)
        for f in index.files {
            for i in project.files[f].model.declarations.indices {
                let s = Symbol(file: f, declaration: i)
                switch project.kind(of: s) {
                case .screen:
                    numbers[s, kind: .screen] = screens.count
                    screens.append(s)
                    presentations.append(project.files[f].model.declarations[i].presentation)
                case .flag, .optional:
                    numbers[s, kind: .condition] = conditions.count
                    conditions.append(.symbol(s))
                default:
                    break
                }
            }
        }
        var total = 0
        for f in index.files {
            base.append(total)
            total += project.files[f].model.nodes.count
            declarationBase.append(declarationCount)
            declarationCount += project.files[f].model.declarations.count
        }
        useStart.reserveCapacity(total + 1)
        for (position, f) in index.files.enumerated() {
            for i in project.files[f].model.declarations.indices {
                let s = Symbol(file: f, declaration: i)
                guard project.kind(of: s) == .builder else { continue }
                let declaration = project.declaration(s)
                numbers[s, kind: .builder] = builders.count
                builders.append(Builder(symbol: s, body: declaration.body.map { base[position] + $0 }))
            }
        }
        // The nodes, resolved file by file: on a large graph, the files of the second half
        // on a helper thread meanwhile (when one is free: else on this one), then appended.
        let positions = index.files.indices
        var cut = positions.upperBound
        if total >= twoThreadsFrom && Helpers.processors > 1 && positions.count >= 2 {
            cut = positions.first { base[$0] * 2 >= total } ?? positions.upperBound
            cut = min(max(cut, 1), positions.upperBound - 1)
        }
        let parts = cut == positions.upperBound ? [positions] : [positions.lowerBound..<cut, cut..<positions.upperBound]
        let graph = UncheckedSendable(self)
        let resolved = parallelMap(parts.count) { i in
            UncheckedSendable(graph.value.resolveNodes(of: parts[i], readingHeads: readingHeads))
        }
        for part in resolved { append(part.value) }
        useStart.append(Int32(truncatingIfNeeded: useTargets.count))
    }

    /// The graph nodes of some of the graph's files, resolved (see `resolveNodes(of:readingHeads:)`),
    /// numbered as if they were all there is: the branches' starts in `branchList` and the
    /// `uses` in `useStart` from 0, the conditions the part adds (unresolved names) from the
    /// graph's declared ones (`conditionBase`); the node ids are the graph's.
    private struct ResolvedNodes {
        let firstNode: Int
        let conditionBase: Int
        var nodes = PagedArray<Node>()
        var branchList = PagedArray<Int32>()
        var useStart: [Int32] = []
        var useTargets = PagedArray<UseTarget>()
        var headsRead: [Head] = []
        var placementPresentations: [Int32: Presentation] = [:]
        var conditions: [ConditionKey] = []
        /// The nodes (by id) that test one of `conditions`.
        var testingNew: [Int] = []
        var cacheWarmth = 0
    }

    /// The nodes of the files at `positions` (in `files`) resolved, their children adopted.
    /// (It reads the declarations' numbers, made before, and writes nothing of the graph's:
    /// two threads may resolve two parts at once.)
    private func resolveNodes(of positions: Range<Int>, readingHeads: Bool) -> ResolvedNodes {
        let firstNode = base[positions.lowerBound]
        var part = ResolvedNodes(firstNode: firstNode, conditionBase: conditions.count)
        for position in positions {
            let f = files.files[position]
            let fileBase = base[position]
            // The file's resolutions were written by another thread (name resolution runs
            // on every core): read in order first, they are found in the cache below instead
            // of missed at random, name after name.
            part.cacheWarmth &+= project.resolutions[f].touchEveryCacheLine()
            // The file's nodes read in place (a copy of a node retains and releases the names
            // it holds).
            let model = project.files[f].model
            model.nodes.withUnsafeBufferPointer { fileNodes in
              model.useNames.withUnsafeBufferPointer { uses in
                model.branchIDs.withUnsafeBufferPointer { branches in
                for i in fileNodes.indices {
                    let modelNode = fileNodes.baseAddress! + i
                    let g = fileBase + i
                    part.useStart.append(Int32(truncatingIfNeeded: part.useTargets.count))
                    let (kind, bad, testsOptional) = resolveKind(modelNode, uses: uses, branches: branches, file: f, base: fileBase, into: &part)
                    var node = Node(kind: kind, file: f, local: i, testsOptional: testsOptional)
                    node.unresolved = bad
                    if case .condition(let condition, _, _) = kind, condition >= part.conditionBase { part.testingNew.append(g) }
                    if let presentation = modelNode.pointee.presentation {
                        part.placementPresentations[Int32(truncatingIfNeeded: g)] = presentation
                    }
                    if readingHeads { part.headsRead.append(Head(modelNode.pointee.head)) }
                    part.nodes.append(node)
                }
                }
              }
            }
        }
        // Children are in their parent's body, so in its file, so in this part.
        for local in part.nodes.indices {
            Self.forEachChild(of: part.nodes[local].kind, branchList: part.branchList) { child, index in
                part.nodes[child - firstNode].parent = firstNode + local
                part.nodes[child - firstNode].indexInParent = index
            }
        }
        return part
    }

    /// Appends a part `resolveNodes(of:readingHeads:)` made, the parts in order: its
    /// branches' starts, `uses` and added conditions numbered after those before it.
    private mutating func append(_ part: ResolvedNodes) {
        precondition(part.firstNode == nodes.count, "parts are appended in order")
        let branchShift = Int32(truncatingIfNeeded: branchList.count)
        let useShift = Int32(truncatingIfNeeded: useTargets.count)
        let conditionShift = conditions.count - part.conditionBase
        if nodes.isEmpty && branchShift == 0 && useShift == 0 {
            nodes = part.nodes
            branchList = part.branchList
            useTargets = part.useTargets
            useStart += part.useStart
        } else {
            for var node in part.nodes {
                if case .anyOf(let list) = node.kind { node.kind = .anyOf(Branches(start: list.start + branchShift, count: list.count)) }
                nodes.append(node)
            }
            branchList.append(contentsOf: part.branchList)
            useTargets.append(contentsOf: part.useTargets)
            for start in part.useStart { useStart.append(start + useShift) }
        }
        if conditionShift != 0 {
            for g in part.testingNew {
                if case .condition(let condition, let then, let otherwise) = nodes[g].kind {
                    nodes[g].kind = .condition(condition + conditionShift, then: then, else: otherwise)
                }
            }
        }
        conditions += part.conditions
        headsRead += part.headsRead
        placementPresentations.merge(part.placementPresentations) { a, _ in a }
        cacheWarmth &+= part.cacheWarmth
    }

    /// The element code of the screen a name stands for, if it names one of the graph's
    /// screens. (Only screens have codes: the kind need not be read, which missed the cache
    /// at nearly every name.)
    private func screenCode(of name: Name?, in file: FileID) -> Int? {
        guard let name, let s = project.resolve(name, in: file) else { return nil }
        return screenCode(s)
    }

    /// The element code of a wildcard's screen, if the name stands for a screen a wildcard can
    /// make: one without parameters (another is an `invalid-wildcard` error, and the wildcard,
    /// as an unresolved one, builds nothing, so that no warning follows from the error).
    private func wildcardCode(of name: Name?, in file: FileID) -> Int? {
        guard let name, let s = project.resolve(name, in: file), let code = screenCode(s),
              !project.declaration(s).hasParameters else { return nil }
        return code
    }

    /// The index of the builder a name stands for, if it names one (see `screenCode(of:in:)`).
    private func builderIndex(of name: Name?, in file: FileID) -> Int? {
        guard let name, let s = project.resolve(name, in: file) else { return nil }
        return builderIndex(s)
    }

    private func symbol(_ name: Name?, in file: FileID, _ kind: DeclarationKind) -> Symbol? {
        guard let name, let s = project.resolve(name, in: file), project.kind(of: s) == kind else { return nil }
        return s
    }

    /// Whether a `conditional` (`written`: `.flag`) or an `if let` (`.optional`) of `name`
    /// tests an optional: as written, but for a name of the other kind, read as the test
    /// meant (`conditional draft` of an optional as its `if let`, whose uses of `draft` are
    /// then in scope; `if let beta` of a flag as its `conditional`): its `wrong-kind` error
    /// is the one reported.
    private func testsOptional(_ name: Name?, in file: FileID, written: DeclarationKind) -> Bool {
        let other: DeclarationKind = written == .flag ? .optional : .flag
        let kind = symbol(name, in: file, written) == nil && symbol(name, in: file, other) != nil ? other : written
        return kind == .optional
    }

    /// The condition of a `conditional` or `if let`. An unresolved name is a condition of its
    /// own at each place it is tested (docs/language.md#after-an-error: "both of its blocks are
    /// analysed"): a name that means nothing yet cannot make two tests agree, so `conditional
    /// nope { conditional nope { … } else { screen B } }` does not make `screen B` unreachable.
    private func condition(_ name: Name?, in file: FileID, _ kind: DeclarationKind, into part: inout ResolvedNodes) -> Int {
        guard let s = symbol(name, in: file, kind) else {
            part.conditions.append(.unknown("\(kind.rawValue) \(name?.text ?? "?")"))
            return part.conditionBase + part.conditions.count - 1
        }
        // Every flag and optional of the graph's files has its variable (see `init`); the
        // graph's files are closed under imports, so a name resolves to one of them.
        if let i = conditionIndex(s) { return i }
        part.conditions.append(.symbol(s))
        return part.conditionBase + part.conditions.count - 1
    }

    /// A node's kind with its names resolved, whether a name did not resolve to the right
    /// kind, and whether it is an `if let`. Its `uses` go to `useTargets`. The model node is
    /// read where it lies: a copy of it retained and released every name and list it holds.
    private func resolveKind(_ node: UnsafePointer<BuilderNode>, uses useNames: UnsafeBufferPointer<Name>,
                             branches branchIDs: UnsafeBufferPointer<NodeID>, file f: FileID, base fileBase: Int,
                             into part: inout ResolvedNodes) -> (Kind, Bool, Bool) {
        switch node.pointee.kind {
        case .screen(let name, let uses, let nesting):
            let code = screenCode(of: name, in: f)
            for i in uses.range { part.useTargets.append(useTarget(useNames[i], in: f)) }
            return (.screen(code, nesting: nesting.map { fileBase + $0 }), code == nil, false)
        case .anyOf(let branches):
            let start = Int32(part.branchList.count)
            for i in branches.range { part.branchList.append(Int32(truncatingIfNeeded: fileBase + branchIDs[i])) }
            return (.anyOf(Branches(start: start, count: branches.count)), false, false)
        case .conditional(let name, let then, let els):
            let optional = testsOptional(name, in: f, written: .flag)
            return (.condition(condition(name, in: f, optional ? .optional : .flag, into: &part), then: fileBase + then, else: fileBase + els), false, optional)
        case .ifLet(let name, let then, let els):
            let optional = testsOptional(name, in: f, written: .optional)
            return (.condition(condition(name, in: f, optional ? .optional : .flag, into: &part), then: fileBase + then, else: els.map { fileBase + $0 }), false, optional)
        case .ifScreen(let name, let then, let els):
            let code = screenCode(of: name, in: f)
            return (.ifScreen(code, then: fileBase + then, else: els.map { fileBase + $0 }), code == nil, false)
        case .wildcard(let name, let body):
            let code = wildcardCode(of: name, in: f)
            return (.wildcard(code, body: fileBase + body), code == nil, false)
        case .reference(let name):
            let index = builderIndex(of: name, in: f)
            return (.reference(index), index == nil, false)
        case .empty:
            return (.nothing, false, false)
        case .missing:
            return (.nothing, true, false)
        }
    }

    private func useTarget(_ use: Name, in f: FileID) -> UseTarget {
        if let s = project.resolve(use, in: f) {
            // A name of the wrong kind that stands for a declaration of the kind the place
            // takes (`Detail` where a builder `detail` is declared): that one, by guess.
            if let meant = project.guesses[f][use.range.lowerBound], meant != s, files.position(meant.file) != nil {
                return UseTarget(number: Int32(truncatingIfNeeded: declarationNumber(meant)), guessed: true)
            }
            return UseTarget(number: Int32(truncatingIfNeeded: declarationNumber(s)), guessed: false)
        } else if let s = project.guesses[f][use.range.lowerBound] {
            if files.position(s.file) != nil {
                return UseTarget(number: Int32(truncatingIfNeeded: declarationNumber(s)), guessed: true)
            }
            // Declared where a file importing this one sees it, in another program: what the
            // files of this program that import this one see of the name, if anything (read
            // from the declarations: a lint's project no longer holds the scopes).
            // (Of the kinds the place takes: a `uses` takes a dependency or an optional. The
            // files by path, as the project's guess takes them.)
            let kinds: [DeclarationKind] = [.dependency, .optional].contains(project.kind(of: s)) ? [.dependency, .optional] : [project.kind(of: s)]
            let seers = files.files.filter { $0 != f && project.closures[$0].contains(f) }.sorted { project.files[$0].path < project.files[$1].path }
            for seer in seers {
                for h in project.closures[seer] where h != f {
                    let declarations = project.files[h].model.declarations
                    if let i = declarations.indices.first(where: { kinds.contains(declarations[$0].kind) && declarations[$0].name.text == use.text }) {
                        return UseTarget(number: Int32(truncatingIfNeeded: declarationNumber(Symbol(file: h, declaration: i))), guessed: true)
                    }
                }
            }
        }
        return UseTarget(number: -1, guessed: false)
    }

    // MARK: Edits

    /// The graph of `project`, which differs from this graph's project by an edit inside one
    /// declaration of one of the graph's files that kept every declaration's kind and name
    /// (``ProjectDeclarationEdit`` with a project) and replaced the declaration's nodes by as
    /// many: those nodes are resolved again in place and everything else is kept, as
    /// `init(project:files:hasForeignElement:)` would make it. Nil when an edited node's new
    /// shape needs other room in the graph's arrays (another kind, number of branches or of
    /// `uses`, or a test of an unresolved condition that appears, disappears or changes its
    /// name, which numbers its own variable): then build the graph again.
    func patched(onto project: Project, splice: NodeSplice) -> BuilderGraph? {
        guard splice.count == splice.old.count, let position = files.position(splice.file),
              splice.old.upperBound <= fileNodeCount(splice.file),
              project.files.indices.contains(splice.file),
              project.files[splice.file].model.nodes.count == fileNodeCount(splice.file)
        else { return nil }
        var graph = self
        graph.project = project
        let f = splice.file, fileBase = base[position]
        let model = project.files[f].model
        for local in splice.old {
            guard graph.resolveAgain(fileBase + local, of: model, file: f, base: fileBase) else { return nil }
        }
        for g in (fileBase + splice.old.lowerBound)..<(fileBase + splice.old.upperBound) {
            graph.nodes[g].parent = nil
            graph.nodes[g].indexInParent = 0
        }
        for g in (fileBase + splice.old.lowerBound)..<(fileBase + splice.old.upperBound) { graph.adoptChildren(g) }
        for builder in graph.builders.indices where graph.builders[builder].symbol.file == f {
            // Written only when changed: an unchanged page stays shared with this graph.
            let declaration = project.declaration(graph.builders[builder].symbol)
            let body = declaration.body.map { fileBase + $0 }
            if graph.builders[builder].body != body { graph.builders[builder].body = body }
        }
        // After a rename, the nodes whose names the project resolved again are resolved again
        // in place (their shapes are as they were; what a name stands for may not be).
        guard splice.resolvedNodes.count == splice.resolvedAgain.count else { return nil }
        for (index, file) in splice.resolvedAgain.enumerated() {
            guard let position = files.position(file) else { continue }
            let otherBase = base[position]
            let model = project.files[file].model
            guard model.nodes.count == fileNodeCount(file) else { return nil }
            for local in splice.resolvedNodes[index] where file != f || !splice.old.contains(local) {
                guard model.nodes.indices.contains(local),
                      graph.resolveAgain(otherBase + local, of: model, file: file, base: otherBase) else { return nil }
            }
        }
        return graph
    }

    /// Whether node g has the same edges (children, nesting, referenced builder and its body)
    /// here as in `other` (a graph this one was patched from, or patched into): what the used
    /// region and the ways follow.
    func sameEdges(_ g: Int, as other: BuilderGraph) -> Bool {
        func successors(_ graph: BuilderGraph) -> (children: [Int], target: Int, body: Int) {
            var children: [Int] = []
            graph.forEachChild(g) { children.append($0) }
            switch graph.nodes[g].kind {
            case .screen(_, let nesting): return (children, -1, nesting ?? -1)
            case .reference(let target?): return (children, target, graph.builders[target].body ?? -1)
            default: return (children, -1, -1)
            }
        }
        let here = successors(self), there = successors(other)
        return here.children == there.children && here.target == there.target && here.body == there.body
    }

    /// The global ids of the nodes `patched(onto:splice:)` resolved again for `splice`, as
    /// runs of consecutive ids.
    func resolvedAgain(_ splice: NodeSplice) -> [Range<Int>] {
        guard let position = files.position(splice.file) else { return [] }
        var out = [(base[position] + splice.old.lowerBound)..<(base[position] + splice.old.upperBound)]
        for (index, file) in splice.resolvedAgain.enumerated() where index < splice.resolvedNodes.count {
            guard let filePosition = files.position(file) else { continue }
            for local in splice.resolvedNodes[index] {
                let g = base[filePosition] + local
                if let last = out.last, last.upperBound == g, out.count > 1 {
                    out[out.count - 1] = last.lowerBound..<(g + 1)
                } else {
                    out.append(g..<(g + 1))
                }
            }
        }
        return out
    }

    /// Resolves node g (its node of `model`) again into the room its old shape has: false when the
    /// new shape does not fit it (see `patched(onto:splice:)`).
    private mutating func resolveAgain(_ g: Int, of model: FileModel, file f: FileID, base fileBase: Int) -> Bool {
        let node = model.nodes[g - fileBase]
        let old = nodes[g].kind
        // A test of an unresolved name owns its variable: it must stay such a test of the same
        // name (checked below), or the variable would be left over.
        var ownVariable: Int? = nil
        if case .condition(let condition, _, _) = old, case .unknown = conditions[condition] { ownVariable = condition }
        /// The variable of a `conditional` or `if let` in place of the old one, nil when it
        /// does not fit.
        func variable(_ name: Name?, _ kind: DeclarationKind) -> Int? {
            if let s = symbol(name, in: f, kind) {
                guard ownVariable == nil, let i = conditionIndex(s) else { return nil }
                return i
            }
            guard let own = ownVariable, conditions[own] == .unknown("\(kind.rawValue) \(name?.text ?? "?")") else { return nil }
            return own
        }
        let kind: Kind
        var bad = false, testsOptional = false
        switch (node.kind, old) {
        case (.screen(let name, let uses, let nesting), .screen):
            let range = useRange(g)
            guard range.count == uses.count else { return false }
            for (offset, use) in model.uses(uses).enumerated() { useTargets[range.lowerBound + offset] = useTarget(use, in: f) }
            let code = screenCode(of: name, in: f)
            kind = .screen(code, nesting: nesting.map { fileBase + $0 })
            bad = code == nil
            let key = Int32(truncatingIfNeeded: g)
            if placementPresentations[key] != node.presentation { placementPresentations[key] = node.presentation }
        case (.anyOf(let branches), .anyOf(let room)):
            guard room.count == branches.count else { return false }
            for (offset, branch) in model.branches(branches).enumerated() { branchList[Int(room.start) + offset] = Int32(truncatingIfNeeded: fileBase + branch) }
            kind = .anyOf(room)
        case (.conditional(let name, let then, let els), .condition):
            testsOptional = self.testsOptional(name, in: f, written: .flag)
            guard nodes[g].testsOptional == testsOptional, let tested = variable(name, testsOptional ? .optional : .flag) else { return false }
            kind = .condition(tested, then: fileBase + then, else: fileBase + els)
        case (.ifLet(let name, let then, let els), .condition):
            testsOptional = self.testsOptional(name, in: f, written: .optional)
            guard nodes[g].testsOptional == testsOptional, let tested = variable(name, testsOptional ? .optional : .flag) else { return false }
            kind = .condition(tested, then: fileBase + then, else: els.map { fileBase + $0 })
        case (.ifScreen(let name, let then, let els), .ifScreen):
            let code = screenCode(of: name, in: f)
            kind = .ifScreen(code, then: fileBase + then, else: els.map { fileBase + $0 })
            bad = code == nil
        case (.wildcard(let name, let body), .wildcard):
            let code = wildcardCode(of: name, in: f)
            kind = .wildcard(code, body: fileBase + body)
            bad = code == nil
        case (.reference(let name), .reference):
            let index = builderIndex(of: name, in: f)
            kind = .reference(index)
            bad = index == nil
        case (.empty, .nothing):
            kind = .nothing
        case (.missing, .nothing):
            kind = .nothing
            bad = true
        default:
            return false
        }
        if case .condition = kind {} else if ownVariable != nil { return false }
        if case .screen = kind {} else if placementPresentations[Int32(truncatingIfNeeded: g)] != nil {
            placementPresentations[Int32(truncatingIfNeeded: g)] = nil
        }
        nodes[g].kind = kind
        nodes[g].testsOptional = testsOptional
        nodes[g].unresolved = bad
        return true
    }

    /// Makes g the parent of its children.
    private mutating func adoptChildren(_ g: Int) {
        Self.forEachChild(of: nodes[g].kind, branchList: branchList) { child, index in
            nodes[child].parent = g
            nodes[child].indexInParent = index
        }
    }

    /// Calls `body` with each child of a node of `kind` (its branches read from
    /// `branchList`) and its index among the node's children.
    @inline(__always)
    private static func forEachChild(of kind: Kind, branchList: PagedArray<Int32>, _ body: (Int, Int) -> Void) {
        switch kind {
        case .anyOf(let list): for i in 0..<Int(list.count) { body(Int(branchList[Int(list.start) + i]), i) }
        case .condition(_, let then, let otherwise), .ifScreen(_, let then, let otherwise):
            body(then, 0)
            if let otherwise { body(otherwise, 1) }
        case .wildcard(_, let wildcardBody): body(wildcardBody, 0)
        case .screen, .reference, .nothing: break
        }
    }

    /// The `uses` targets of node g (empty for nodes other than `screen`).
    @inline(__always)
    func useRange(_ g: Int) -> Range<Int> { Int(useStart[g])..<Int(useStart[g + 1]) }

    /// Children within one evaluation (not the nesting, not the referenced body).
    func children(_ g: Int) -> [Int] {
        switch nodes[g].kind {
        case .screen: return []
        case .anyOf(let list): return branches(list)
        case .condition(_, let then, let otherwise), .ifScreen(_, let then, let otherwise): return otherwise.map { [then, $0] } ?? [then]
        case .wildcard(_, let body): return [body]
        case .reference, .nothing: return []
        }
    }

    /// Calls `body` with each child of g, in order, without building a list.
    @inline(__always)
    func forEachChild(_ g: Int, _ body: (Int) -> Void) {
        Self.forEachChild(of: nodes[g].kind, branchList: branchList) { child, _ in body(child) }
    }

    /// Branch i of an `anyOf`.
    @inline(__always)
    func branch(_ b: Branches, _ i: Int) -> Int { Int(branchList[Int(b.start) + i]) }

    /// The branches of an `anyOf`, as a list.
    func branches(_ b: Branches) -> [Int] { (0..<Int(b.count)).map { branch(b, $0) } }

    /// Node g as the model holds it (not in a graph that left the model).
    func model(_ g: Int) -> BuilderNode {
        project.files[nodes[g].file].model.nodes[nodes[g].local]
    }

    /// Node g's head: its first token through its name. (References, whose ranges never
    /// overlap, are in source order by their heads' starts.)
    func head(_ g: Int) -> Range<Int> {
        if heads.isEmpty { return model(g).head }
        return Int(heads[g].start)..<Int(heads[g].end)
    }

    /// What the name of node g stands for when the graph did not resolve it (it names
    /// nothing, or a declaration of another kind, or an unresolved condition is tested): the
    /// declaration it resolves to, else the one its `UndefinedName` error suggests
    /// (`guessed`); nil for neither, or for a node without a name.
    func unresolvedMention(_ g: Int) -> UseTarget? {
        if !heads.isEmpty { return unresolvedMentions[Int32(truncatingIfNeeded: g)] }
        guard let name = model(g).name else { return nil }
        let target = useTarget(name, in: nodes[g].file)
        return target.number >= 0 ? target : nil
    }

    /// Keeps what the analyses read of the model's nodes (each node's head, what an
    /// unresolved name stands for) and takes `project`, the graph's project without them
    /// (``Project/leavingOutBuilderNodes()``), in its place: a lint, once every graph is
    /// built, gives the nodes and the name resolutions back. The graph must have been made
    /// `readingHeads`.
    mutating func leaveModel(for project: Project) {
        precondition(headsRead.count == nodes.count, "a graph that leaves the model is made reading its heads")
        var heads: [Head] = []
        swap(&heads, &headsRead)
        for g in nodes.indices {
            let unknownCondition: Bool
            if case .condition(let condition, _, _) = nodes[g].kind, case .unknown = conditions[condition] { unknownCondition = true } else { unknownCondition = false }
            if nodes[g].unresolved || unknownCondition, let mention = unresolvedMention(g) { unresolvedMentions[Int32(truncatingIfNeeded: g)] = mention }
        }
        self.heads = heads
        self.project = project
    }

    /// The global id of node `local` of `file` (a file of the graph).
    func global(_ file: FileID, _ local: NodeID) -> Int { base[files.position(file)!] + local }

    /// The global id of node `local` of `file`, or nil when the file is not the graph's.
    func globalIfPresent(_ file: FileID, _ local: NodeID) -> Int? {
        files.position(file).map { base[$0] + local }
    }

    /// The global id of a file's node 0.
    func firstNode(of file: FileID) -> Int { base[files.position(file)!] }

    /// The number of a declaration of the graph's files (see `declarationBase`).
    func declarationNumber(_ s: Symbol) -> Int { declarationBase[files.position(s.file)!] + s.declaration }

    /// The symbol of a declaration number (found among the files' first numbers, rather
    /// than kept in a table of a symbol per declaration).
    func declarationSymbol(_ number: Int) -> Symbol {
        var lo = 0, hi = declarationBase.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if declarationBase[mid] <= number { lo = mid } else { hi = mid }
        }
        return Symbol(file: files.files[lo], declaration: number - declarationBase[lo])
    }

    /// The number of nodes of a file of the graph.
    func fileNodeCount(_ file: FileID) -> Int {
        let position = files.position(file)!
        return (position + 1 < base.count ? base[position + 1] : nodes.count) - base[position]
    }

    /// The screen declaration of an element code.
    func screenDeclaration(_ code: Int) -> Declaration { project.declaration(screens[code]) }

    /// The top of the body that contains g.
    func bodyTop(_ g: Int) -> Int {
        var top = g
        while let parent = nodes[top].parent { top = parent }
        return top
    }
}
