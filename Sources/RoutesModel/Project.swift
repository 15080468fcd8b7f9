import Synchronization
import RoutesSyntax

/// One parsed and lowered file of a project.
public struct SourceFile: Sendable {
    public let id: FileID
    /// Canonical absolute path (symbolic links resolved): the file's identity.
    public let path: String
    /// How the file is shown to the user: as given on the command line, or the importer's
    /// display directory joined with the import string.
    public let displayPath: String
    /// Sort group for output (the command-line argument that brought the file in).
    public let group: Int
    /// The canonical workspace root its imports may not leave.
    public let workspaceRoot: String
    /// The syntax tree as the project holds it: without its tokens and nodes when the project
    /// dropped them, and with an empty text when it did not keep the text (see
    /// ``Project/keeps``);
    /// its syntax errors are there either way. Read the text as ``text``.
    public let keptSyntax: SyntaxTree
    public private(set) var model: FileModel
    /// The tree parsed again, when the project dropped it and it was asked for.
    private let reparsed: ReparsedSyntax?
    /// The text read again, when the project did not keep it and it was asked for.
    @usableFromInline let readAgain: TextReadAgain?

    public init(id: FileID, path: String, displayPath: String, group: Int, workspaceRoot: String, syntax: SyntaxTree,
                model: FileModel) {
        self.init(id: id, path: path, displayPath: displayPath, group: group, workspaceRoot: workspaceRoot,
                  syntax: syntax, model: model, readAgain: nil)
    }

    init(id: FileID, path: String, displayPath: String, group: Int, workspaceRoot: String, syntax: SyntaxTree,
         model: FileModel, readAgain: TextReadAgain?) {
        self.id = id
        self.path = path
        self.displayPath = displayPath
        self.group = group
        self.workspaceRoot = workspaceRoot
        keptSyntax = syntax
        self.model = model
        reparsed = syntax.hasTokens ? nil : ReparsedSyntax()
        self.readAgain = readAgain
    }

    /// The same file with another model.
    func replacingModel(_ model: FileModel) -> SourceFile {
        var copy = self
        copy.model = model
        return copy
    }

    /// The file's syntax tree. When the project dropped it, it is parsed again at the first
    /// question (the same tree: parsing is deterministic) and kept with the file from then on.
    public var syntax: SyntaxTree {
        guard let reparsed else { return keptSyntax }
        return reparsed.tree(of: text, file: id)
    }

    /// The file's text. When the project did not keep it, it is read again at the first
    /// question and kept with the file from then on (see `isTextChangedSinceRead`).
    /// (Inlinable, so that reading a kept text does not copy the whole file value.)
    @inlinable public var text: SourceText {
        if let readAgain { return readAgain.text }
        return keptSyntax.source
    }

    /// Whether the project kept the text (see ``Project/keeps``).
    @inlinable public var keepsText: Bool { readAgain == nil }

    /// Whether the text was read again (tests: only the files a lint reports on need it).
    public var isTextReadAgain: Bool { readAgain?.isRead ?? false }

    /// Whether the text read again was not the text first read: the file changed on disk in
    /// between, and what was found in it is not about what is there now.
    public var isTextChangedSinceRead: Bool { readAgain?.isChanged ?? false }

    /// Whether the project dropped the tree and it has been parsed again since (tests: an
    /// analysis must not need it).
    public var isSyntaxParsedAgain: Bool { reparsed?.isParsed ?? false }
}

/// The text of a file that the project did not keep, read again once through its provider
/// (for whichever thread asks first), and checked against the length and digest of the
/// bytes first read.
@usableFromInline final class TextReadAgain: Sendable {
    private let provider: any SourceProvider
    private let path: String
    private let count: Int
    private let digest: UInt64
    private let state = Mutex<(text: SourceText?, changed: Bool)>((nil, false))

    init(provider: any SourceProvider, path: String, bytes: [UInt8]) {
        self.provider = provider
        self.path = path
        count = bytes.count
        digest = Self.digest(bytes)
    }

    var isRead: Bool { state.withLock { $0.text != nil } }
    var isChanged: Bool { state.withLock { $0.changed } }

    @usableFromInline var text: SourceText {
        state.withLock { s in
            if let text = s.text { return text }
            let bytes = (try? provider.read(path).get()) ?? []
            let text = SourceText(bytes: bytes)
            s = (text, bytes.count != count || Self.digest(bytes) != digest)
            return text
        }
    }

    /// A 64-bit digest of bytes, eight at a time (to notice a change, not to resist one).
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            var i = 0
            while i + 8 <= raw.count {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
                i += 8
            }
            while i < raw.count {
                h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01B3
                i += 1
            }
            return h ^ (h >> 29)
        }
    }
}

/// A dropped syntax tree parsed again once, for whichever thread asks first.
final class ReparsedSyntax: Sendable {
    private let parsed = Mutex<SyntaxTree?>(nil)

    var isParsed: Bool { parsed.withLock { $0 != nil } }

    func tree(of source: SourceText, file: FileID) -> SyntaxTree {
        parsed.withLock { kept in
            if let kept { return kept }
            let tree = SyntaxTree.parse(source, file: file)
            kept = tree
            return tree
        }
    }
}

/// A declaration, by file and index into that file's `declarations`.
public struct Symbol: Sendable, Hashable, Comparable {
    // 32 bits each (8 bytes a symbol, not 16): tables of symbols run to a million entries
    // in a program of a million lines, and neither files nor declarations come near 2^31.
    private var file32: Int32
    private var declaration32: Int32
    public var file: FileID {
        get { Int(file32) }
        set { file32 = Int32(newValue) }
    }
    public var declaration: Int {
        get { Int(declaration32) }
        set { declaration32 = Int32(newValue) }
    }
    public init(file: FileID, declaration: Int) {
        file32 = Int32(file)
        declaration32 = Int32(declaration)
    }
    public static func < (a: Symbol, b: Symbol) -> Bool {
        (a.file, a.declaration) < (b.file, b.declaration)
    }
}

/// A file that declares `root`, with its transitive imports.
public struct Program: Sendable {
    /// The `root` declaration.
    public var root: Symbol
    /// The files of the program, imports first (inclusion order), the root's file last.
    public var files: [FileID]
}

/// A file to start loading from.
public struct ProjectEntry: Sendable {
    public var canonicalPath: String
    public var displayPath: String
    public var group: Int
    /// Canonical; imports of this file and of everything it imports may not leave it.
    public var workspaceRoot: String
    public init(canonicalPath: String, displayPath: String, group: Int, workspaceRoot: String) {
        self.canonicalPath = canonicalPath
        self.displayPath = displayPath
        self.group = group
        self.workspaceRoot = workspaceRoot
    }
}

/// A set of files closed under imports, parsed, lowered and name-resolved, with the
/// diagnostics that need no `root`: syntax, imports, names, kinds, duplicates, wildcards.
public struct Project: Sendable {
    public internal(set) var files: [SourceFile] = []
    /// For each file, for each of its imports, the imported file (nil: not loaded).
    public private(set) var importTargets: [[FileID?]] = []
    /// For each file, the files whose names it sees: imports first (in inclusion order,
    /// each once), itself last.
    public private(set) var closures: [[FileID]] = []
    /// For each file, the declarations visible in it by name (the first declaration wins).
    public internal(set) var scopes: [Scope] = []
    /// For each file, what each mentioned name resolved to, keyed by the name's start offset.
    /// Present also when the kind is wrong (so that editors can still jump to it).
    public internal(set) var resolutions: [ResolutionTable] = []
    /// For each file, what each undefined name most likely meant (the suggestion of its
    /// `UndefinedName`), keyed by the name's start offset: few, so a dictionary.
    public internal(set) var guesses: [[Int: Symbol]] = []
    public private(set) var programs: [Program] = []
    /// Diagnostics of every file, in no particular order.
    public internal(set) var diagnostics: [Diagnostic] = []
    /// Entries that could not be read (display path, why): left out of the project. (A file
    /// can vanish or grow past the limit between the caller's look at it and the read.)
    public private(set) var unreadableEntries: [(path: String, error: SourceReadError)] = []

    private var byPath: [String: FileID] = [:]
    private var cache: ParseCache? = nil
    /// What the project keeps of each file (see ``Keeps``).
    public let keeps: Keeps
    /// Without `keeps.scopes`, for each program's root file, the declarations of its
    /// closure that an earlier one of the same name hides (see ``isRedeclaration(_:in:)``).
    private var redeclarations: [FileID: Set<Symbol>]? = nil
    /// Whether every file's scope was kept (`keeps.scopes`): a declaration edit resolves
    /// names again in the scopes, so a project without them is built again instead.
    var keptEveryScope: Bool { redeclarations == nil }

    /// An import whose file could not be loaded (a cycle loads it: not one of these).
    public struct FailedImport: Sendable {
        public var file: FileID
        public var range: Range<Int>
        public var problem: ImportError.Problem
    }
    /// The imports that failed, in load order. The names the files that see one would have
    /// found in it are not reported one by one: the import error counts them.
    public private(set) var failedImports: [FailedImport] = []

    /// - Parameter cache: parsed files kept from an earlier project (the language server's):
    ///   a file whose bytes are unchanged is not parsed or lowered again. Updated to this
    ///   project's files. Only with a preset that keeps every file's text, docs and
    ///   signatures (the cache's models are kept for readers that want them).
    /// - Parameter keeps: what the project keeps of each file once it is lowered: all of it
    ///   (the default), what a lint reads (``Keeps/lint``), what an editor reads
    ///   (``Keeps/editor(openDocuments:)``).
    public init(entries: [ProjectEntry], provider: SourceProvider, cache: ParseCache? = nil, keeps: Keeps = .everything) {
        precondition(cache == nil || (keeps.docComments && keeps.signatures && keeps.texts),
                     "a parse cache holds files with their texts, and models with their doc comments, parameters and types")
        self.cache = cache
        self.keeps = keeps
        load(entries, provider)
        cache?.replace(with: files)
        self.cache = nil
        detectImportCycles()
        computeClosures()
        let redeclared = resolveNames()
        findPrograms()
        if !keeps.scopes { emptyScopesNoAnalysisReads(redeclared: redeclared) }
    }

    /// A project that holds what `routes lint` reads (see ``Keeps/lint``).
    public static func forLint(entries: [ProjectEntry], provider: SourceProvider) -> Project {
        Project(entries: entries, provider: provider, keeps: .lint)
    }

    /// The project without its files' builder nodes, nor what the names they mention
    /// resolve to (only a declaration's `from` still resolves): what a lint holds once its
    /// analyses have made their graphs, which keep what they read of the nodes (about a
    /// quarter of a million-line project's memory). A file's nodes are lowered again from its
    /// syntax when they are asked for (``builderNodes(of:)``). The files' boxes (texts read
    /// again, trees parsed again) are shared with this project.
    public func leavingOutBuilderNodes() -> Project {
        var slim = self
        for f in files.indices {
            var model = files[f].model
            model.nodes = []
            model.nodesLeftOut = true
            slim.files[f] = files[f].replacingModel(model)
            let declarations = model.declarations
            var fromCount = 0
            for d in declarations.indices where declarations[d].from != nil { fromCount += 1 }
            var kept = ResolutionTable(capacity: fromCount)
            for d in declarations.indices {
                if let from = declarations[d].from, let s = resolutions[f][from.range.lowerBound] { kept[from.range.lowerBound] = s }
            }
            slim.resolutions[f] = kept
        }
        return slim
    }

    /// The builder nodes of file f: its model's, or lowered again from its syntax when the
    /// model left them out (the same nodes: lowering is deterministic).
    public func builderNodes(of f: FileID) -> [BuilderNode] {
        guard files[f].model.nodesLeftOut else { return files[f].model.nodes }
        return Lowering.lower(files[f].syntax, file: f, keeps: .lint).nodes
    }

    /// Empties every scope but those of the files with names skipped by syntax errors (see
    /// ``Keeps/scopes``), keeping for each program the declarations its root file's scope
    /// found declared again: those a scope's own names lost to, along the scopes it is laid
    /// over (`redeclared`, by file). A scope laid over another holds that one.
    private mutating func emptyScopesNoAnalysisReads(redeclared: [[Symbol]]) {
        var byRoot: [FileID: Set<Symbol>] = [:]
        for p in programs where byRoot[p.root.file] == nil {
            var hidden = Set<Symbol>()
            var f: FileID? = p.root.file
            while let g = f {
                hidden.formUnion(redeclared[g])
                f = scopeBase(of: g)
            }
            byRoot[p.root.file] = hidden
        }
        redeclarations = byRoot
        let empty = Scope()
        for f in scopes.indices where files[f].model.skippedNames.isEmpty { scopes[f] = empty }
    }

    /// Whether declaration s is a later declaration of a name that an earlier declaration
    /// of the program declares (then the earlier one is what the name means in the program,
    /// and s is a `DuplicateDeclaration`).
    public func isRedeclaration(_ s: Symbol, in program: Program) -> Bool {
        if let redeclarations { return redeclarations[program.root.file]?.contains(s) ?? false }
        return scopes[program.root.file][files[s.file].model.declarations[s.declaration].name.text] != s
    }

    public func file(atPath canonicalPath: String) -> FileID? { byPath[canonicalPath] }

    /// (Inlinable, so that `declaration(s).kind` reads one field instead of copying the
    /// whole declaration across the module boundary.)
    @inlinable public func declaration(_ s: Symbol) -> Declaration {
        files[s.file].model.declarations[s.declaration]
    }

    /// The kind of a declaration (without copying the declaration).
    @inlinable public func kind(of s: Symbol) -> DeclarationKind {
        files[s.file].model.declarations[s.declaration].kind
    }

    /// The `from` of a dependency or optional (without copying the declaration).
    @inlinable public func fromName(of s: Symbol) -> Name? {
        files[s.file].model.declarations[s.declaration].from
    }

    /// The symbol a name resolves to in a file, if any.
    @inlinable public func resolve(_ name: Name, in file: FileID) -> Symbol? {
        resolutions[file][name.range.lowerBound]
    }

    /// Diagnostics of one file, sorted by position.
    public func diagnostics(in file: FileID) -> [Diagnostic] {
        diagnostics.filter { $0.file == file }.sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
    }

    // MARK: Loading

    private struct Pending: Sendable {
        var path: String
        var display: String
        var group: Int
        var root: String
        var bytes: [UInt8]
        /// Which import of which file asked for it (set on the importer once loaded).
        var importer: (file: FileID, index: Int)?
    }

    /// Parses and lowers a wave of files in parallel (each file is independent), then adds
    /// them in order, so file ids are the same as a sequential breadth-first load.
    private mutating func addFiles(_ wave: [Pending], _ provider: SourceProvider) {
        let first = files.count
        // A file whose bytes the cache holds is not parsed again; the others in parallel
        // (one file, an edit in the language server most often, wakes no threads).
        let kept = wave.indices.map { cache?.lookup(wave[$0].path, bytes: wave[$0].bytes, id: first + $0) }
        let toParse = wave.indices.filter { kept[$0] == nil }
        let keeps = self.keeps
        let keepsTree = wave.map { keeps.keepsSyntaxTree(of: $0.path) }
        let parsed = parallelMap(toParse.count) { k -> (SyntaxTree, FileModel, TextReadAgain?) in
            let i = toParse[k]
            let tree = SyntaxTree.parse(SourceText(bytes: wave[i].bytes), file: first + i)
            let model = Lowering.lower(tree, file: first + i, keeps: keeps)
            if !keeps.texts && !keepsTree[i] && !SuppressionMarker.isMentioned(in: tree.source.bytes) {
                return (tree.droppingText(), model, TextReadAgain(provider: provider, path: wave[i].path, bytes: wave[i].bytes))
            }
            return (keepsTree[i] ? tree : tree.droppingTokens(), model, nil)
        }
        var results = kept.map { $0.map { ($0.0, $0.1, TextReadAgain?.none) } }
        for (k, i) in toParse.enumerated() { results[i] = parsed[k] }
        for (i, p) in wave.enumerated() {
            let (parsedTree, model, readAgain) = results[i]!
            let tree = keepsTree[i] || !parsedTree.hasTokens ? parsedTree : parsedTree.droppingTokens()
            let id = first + i
            files.append(SourceFile(id: id, path: p.path, displayPath: p.display, group: p.group,
                                    workspaceRoot: p.root, syntax: tree, model: model, readAgain: readAgain))
            importTargets.append(Array(repeating: nil, count: model.imports.count))
            byPath[p.path] = id
            diagnostics.append(contentsOf: tree.diagnostics)
            diagnostics.append(contentsOf: model.diagnostics)
            if let importer = p.importer { importTargets[importer.file][importer.index] = id }
        }
    }

    private mutating func load(_ entries: [ProjectEntry], _ provider: SourceProvider) {
        var wave: [Pending] = []
        var queued = Set<String>()
        for e in entries where queued.insert(e.canonicalPath).inserted {
            switch provider.read(e.canonicalPath) {
            case .success(let bytes):
                wave.append(Pending(path: e.canonicalPath, display: e.displayPath, group: e.group,
                                    root: e.workspaceRoot, bytes: bytes, importer: nil))
            case .failure(let why):
                unreadableEntries.append((e.displayPath, why))
            }
        }
        // Breadth-first over imports, one wave at a time.
        var next = 0
        while !wave.isEmpty {
            addFiles(wave, provider)
            wave = []
            var waiting: [String: Int] = [:]  // path → index in the next wave
            while next < files.count {
                let f = files[next]
                next += 1
                let dir = PathUtil.directory(of: f.path)
                let displayDir = PathUtil.directory(of: f.displayPath)
                for (i, imp) in f.model.imports.enumerated() {
                    func fail(_ problem: ImportError.Problem) {
                        failedImports.append(FailedImport(file: f.id, range: imp.range, problem: problem))
                    }
                    if imp.path.isEmpty {
                        fail(.emptyPath)
                        continue
                    }
                    let lexical = PathUtil.join(dir, imp.path)
                    guard let canonical = provider.canonicalPath(lexical) else {
                        let shown = imp.path.hasPrefix("/") ? imp.path : PathUtil.join(displayDir, imp.path)
                        fail(.notFound(path: imp.path, shown: shown, suggestion: Self.similarFile(to: imp.path, from: dir, importer: f.path, provider)))
                        continue
                    }
                    guard PathUtil.isInside(canonical, root: f.workspaceRoot) else {
                        fail(.outsideWorkspace(path: imp.path))
                        continue
                    }
                    if let existing = byPath[canonical] {
                        importTargets[f.id][i] = existing
                        continue
                    }
                    if let w = waiting[canonical] {
                        // Another file of this wave imports it too: point there once loaded.
                        lateImports.append((f.id, i, w + files.count))
                        continue
                    }
                    switch provider.read(canonical) {
                    case .success(let bytes):
                        let display = imp.path.hasPrefix("/") ? canonical : PathUtil.join(displayDir, imp.path)
                        waiting[canonical] = wave.count
                        wave.append(Pending(path: canonical, display: display, group: f.group, root: f.workspaceRoot,
                                            bytes: bytes, importer: (f.id, i)))
                    case .failure(let why):
                        fail(.unreadable(path: imp.path, why: "\(why)"))
                    }
                }
            }
        }
        for (file, index, target) in lateImports { importTargets[file][index] = target }
        lateImports.removeAll()
    }
    private var lateImports: [(FileID, Int, FileID)] = []

    /// One depth-first search over all files in load order: an import that reaches a file
    /// still on the search stack closes a cycle and is reported there.
    private mutating func detectImportCycles() {
        var state = Array(repeating: 0, count: files.count)  // 0 new, 1 on stack, 2 done
        // From the files in path order, not load order: which import of a cycle is reported
        // does not depend on the order of the command line or of a workspace scan (the CLI
        // and the language server agree).
        for start in files.indices.sorted(by: { files[$0].path < files[$1].path }) where state[start] == 0 {
            var stack: [(file: FileID, next: Int)] = [(start, 0)]
            state[start] = 1
            while !stack.isEmpty {
                let (f, i) = stack[stack.count - 1]
                if i >= importTargets[f].count {
                    state[f] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                guard let t = importTargets[f][i] else { continue }
                if state[t] == 1 {
                    let chainStart = stack.firstIndex { $0.file == t } ?? 0
                    let chain = stack[chainStart...].map { files[$0.file].displayPath } + [files[t].displayPath]
                    diagnostics.append(ImportError.diagnostic(.cycle(chain: chain), file: f, range: files[f].model.imports[i].range))
                } else if state[t] == 0 {
                    state[t] = 1
                    stack.append((t, 0))
                }
            }
        }
    }

    private mutating func computeClosures() {
        closures = files.indices.map { start in
            var order: [FileID] = []
            var seen = Set<FileID>([start])
            var stack: [(file: FileID, next: Int)] = [(start, 0)]
            while !stack.isEmpty {
                let (f, i) = stack[stack.count - 1]
                if i >= importTargets[f].count {
                    order.append(f)
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                if let t = importTargets[f][i], !seen.contains(t) {
                    seen.insert(t)
                    stack.append((t, 0))
                }
            }
            return order
        }
    }

    // MARK: Names

    /// Builds each file's scope, then resolves each file's names: both per file, so the
    /// files are done in parallel.
    /// Returns, by file, the declarations that its scope's own names found declared before
    /// (those reported as duplicates).
    private mutating func resolveNames() -> [[Symbol]] {
        // A scope may be laid over the scope of a file whose closure is one shorter: by
        // closure length, each length's files in parallel.
        scopes = Array(repeating: Scope(), count: files.count)
        var byLength: [Int: [FileID]] = [:]
        for f in files.indices { byLength[closures[f].count, default: []].append(f) }
        // A duplicate in a file many files import is found by each of them: once is enough.
        var duplicates = Set<Diagnostic>()
        var redeclared = [[Symbol]](repeating: [], count: files.count)
        for length in byLength.keys.sorted() {
            let wave = byLength[length]!
            let scoping = self
            let scoped = parallelMap(wave.count) { scoping.scope(of: wave[$0]) }
            for (k, f) in wave.enumerated() {
                scopes[f] = scoped[k].scope
                duplicates.formUnion(scoped[k].duplicates)
                redeclared[f] = scoped[k].redeclared
            }
        }
        diagnostics.append(contentsOf: duplicates)
        let resolving = self
        let resolved = parallelMap(files.count) { resolving.resolveNames(in: $0) }
        resolutions = resolved.map(\.resolutions)
        guesses = resolved.map(\.guesses)
        // A failed import is one error: the undefined names of the files that see it (it, or a
        // file they import, imports what failed) are counted by the first such import on
        // their closure, not reported one by one.
        var failedBy: [Int?] = Array(repeating: nil, count: files.count)
        if !failedImports.isEmpty {
            var firstFailure: [FileID: Int] = [:]
            for (i, failure) in failedImports.enumerated() where firstFailure[failure.file] == nil { firstFailure[failure.file] = i }
            for f in files.indices {
                failedBy[f] = closures[f].lazy.compactMap { firstFailure[$0] }.first
            }
        }
        var unresolved = [Int](repeating: 0, count: failedImports.count)
        for (f, r) in resolved.enumerated() {
            guard let by = failedBy[f] else {
                diagnostics.append(contentsOf: r.diagnostics)
                continue
            }
            for d in r.diagnostics {
                if d.rule == UndefinedName.id { unresolved[by] += 1 } else { diagnostics.append(d) }
            }
        }
        for (i, failure) in failedImports.enumerated() {
            diagnostics.append(ImportError.diagnostic(failure.problem, file: failure.file, range: failure.range, unresolved: unresolved[i]))
        }
        return redeclared
    }

    /// The file whose scope file f's scope is laid over, if any: the one before f in f's
    /// closure, when that file's closure is all of f's but f (as when f imports one file, or
    /// imports files that one of them imports too), so that its scope holds exactly the names
    /// f sees before its own, found in the same order; and when that scope is not already
    /// laid over more than ``maxScopeDepth`` others (each costs a lookup a probe).
    func scopeBase(of f: FileID) -> FileID? {
        let closure = closures[f]
        guard closure.count >= 2, closure.last == f else { return nil }
        let b = closure[closure.count - 2]
        guard scopes.indices.contains(b), scopes[b].depth < Self.maxScopeDepth,
              closures[b].count == closure.count - 1, closures[b].elementsEqual(closure.dropLast()) else { return nil }
        return b
    }

    static let maxScopeDepth = 8

    /// The declarations visible by name in file f (the first declaration wins), and the
    /// later declarations of a name, reported as duplicates (those the scope it is laid over
    /// found were reported with that one), as diagnostics and as symbols.
    func scope(of f: FileID) -> (scope: Scope, duplicates: [Diagnostic], redeclared: [Symbol]) {
        let base = scopeBase(of: f)
        let own = base == nil ? closures[f][...] : closures[f].suffix(1)
        let capacity = own.reduce(0) { $0 + files[$1].model.declarations.count }
        var scope = base.map { Scope(over: scopes[$0], capacity: capacity) } ?? Scope(capacity: capacity)
        var duplicates: [Diagnostic] = []
        var redeclared: [Symbol] = []
        for g in own {
            // Only the name is read per declaration: copying each `Declaration` out of the
            // array (its strings and arrays retained and released) cost more than the table.
            let declarations = files[g].model.declarations
            for i in declarations.indices {
                let s = Symbol(file: g, declaration: i)
                let name = declarations[i].name.text
                if let first = scope.insertIfAbsent(name, s, kind: declarations[i].kind) {
                    redeclared.append(s)
                    let d = declarations[i]
                    let fd = declaration(first)
                    let finding: DuplicateDeclaration.Finding = d.kind == .root && fd.kind == .root
                        ? .root : .name(d.name.text, firstKind: fd.kind)
                    duplicates.append(DuplicateDeclaration.diagnostic(finding, file: g, range: d.name.range,
                                                                       firstFile: first.file, firstRange: fd.name.range))
                }
            }
        }
        return (scope, duplicates, redeclared)
    }

    /// What each name mentioned in file f resolves to, with the file's name diagnostics
    /// (undefined names, wrong kinds, wildcards of screens with parameters).
    func resolveNames(in f: FileID) -> (resolutions: ResolutionTable, guesses: [Int: Symbol], diagnostics: [Diagnostic]) {
        let model = files[f].model
        var resolved = ResolutionTable(capacity: model.nodes.count + model.declarations.count)
        var guessed: [Int: Symbol] = [:]
        var diagnostics: [Diagnostic] = []
        resolveNames(in: f, declarations: model.declarations.indices, nodes: model.nodes.indices,
                     into: &resolved, guesses: &guessed, &diagnostics)
        return (resolved, guessed, diagnostics)
    }

    /// Resolves the names that declarations `ds` and nodes `ns` of file f mention (see
    /// ``FileModel/forEachNameUse(declarations:nodes:_:)``) into `resolved`, and reports those
    /// diagnostics of theirs, with the suggestion for each undefined name in `guesses`. What a
    /// declaration's names resolve to depends only on the file's scope, so one declaration
    /// can be resolved again on its own.
    func resolveNames(in f: FileID, declarations ds: Range<Int>, nodes ns: Range<Int>,
                      into resolved: inout ResolutionTable, guesses: inout [Int: Symbol], _ diagnostics: inout [Diagnostic]) {
        let scope = scopes[f]
        let model = files[f].model
        model.forEachNameUse(declarations: ds, nodes: ns) { name, expected in
            guard let (s, kind) = scope.entry(name.text) else {
                let (diagnostic, guess) = undefinedName(name, expected: expected, file: f)
                diagnostics.append(diagnostic)
                if let guess { guesses[name.range.lowerBound] = guess }
                return
            }
            resolved[name.range.lowerBound] = s
            if !expected.contains(kind) {
                let d = declaration(s)
                diagnostics.append(WrongKind.diagnostic(WrongKind.Finding(name: name.text, kind: d.kind, expected: expected),
                                                        file: f, range: name.range, declaredIn: s.file, at: d.name.range))
            }
        }
        // A screen's labels once per file, however many wildcards name it (a model without
        // them lowers its file again).
        var labels: [Symbol: [String]] = [:]
        for i in ns {
            guard case .wildcard(let w?, _) = model.nodes[i].kind, !model.nodes[i].argumentsSkipped,
                  let s = resolved[w.range.lowerBound] else { continue }
            let d = declaration(s)
            if d.hasParameters && labels[s] == nil { labels[s] = parameterLabels(of: s) }
            if let finding = InvalidWildcard.check(w, kind: d.kind, labels: labels[s] ?? []) {
                diagnostics.append(InvalidWildcard.diagnostic(finding, file: f, range: w.range, declaredIn: s.file, at: d.name.range))
            }
        }
    }

    /// The labels of screen s's parameters, lowered again from its file's syntax when the
    /// model left them out (see ``Keeps/signatures``).
    func parameterLabels(of s: Symbol) -> [String] {
        let d = declaration(s)
        guard d.parametersLeftOut else { return d.parameters.map(\.label.text) }
        return Lowering.lower(files[s.file].syntax, file: s.file).declarations[s.declaration].parameters.map(\.label.text)
    }

    /// The `UndefinedName` diagnostic of a name, and the declaration it suggests.
    private func undefinedName(_ name: Name, expected: [DeclarationKind], file f: FileID) -> (Diagnostic, Symbol?) {
        let candidates = scopes[f].compactMap { (text, s) -> String? in
            expected.contains(kind(of: s)) ? text : nil
        }
        let finding = UndefinedName.check(name.text, expected: expected, candidates: candidates)
        return (UndefinedName.diagnostic(finding, file: f, range: name.range), finding.suggestion.flatMap { scopes[f][$0] })
    }

    /// For an import `path` (relative to folder `dir`) that finds no file: the same path to a
    /// `.routes` file of its folder whose name is close to the name written
    /// (`Payment.routes` for `Payments.routes`), if the folder has one.
    static func similarFile(to path: String, from dir: String, importer: String, _ provider: some SourceProvider) -> String? {
        let lexical = PathUtil.join(dir, path)
        let name = String(lexical.dropFirst(PathUtil.directory(of: lexical).count).drop { $0 == "/" })
        func stem(_ n: String) -> String { n.hasSuffix(".routes") ? String(n.dropLast(7)) : n }
        guard !stem(name).isEmpty, let folder = provider.canonicalPath(PathUtil.directory(of: lexical)),
              let names = provider.routesFileNames(inFolder: folder) else { return nil }
        // Names are compared without `.routes`, which every candidate shares; the importing
        // file itself is no candidate.
        let candidates = names.filter { $0 != name && PathUtil.join(folder, $0) != importer }.map(stem)
        guard let closest = Suggestion.closest(to: stem(name), among: candidates) else { return nil }
        let written = path.split(separator: "/", omittingEmptySubsequences: false)
        return (written.dropLast().map(String.init) + [closest + ".routes"]).joined(separator: "/")
    }

    private mutating func findPrograms() {
        // One program per file that declares `root`; a second `root` in the same file is a
        // duplicate, not another program.
        for f in files.indices {
            // By index: a closure over the declarations would copy each one out (its strings
            // and arrays retained and released), forty thousand of them in a large project.
            let declarations = files[f].model.declarations
            if let i = declarations.indices.first(where: { declarations[$0].kind == .root }) {
                programs.append(Program(root: Symbol(file: f, declaration: i), files: closures[f]))
            }
        }
    }
}

/// "Did you mean" suggestions.
public enum Suggestion {
    /// The candidate closest to `name` by edit distance (case differences cost little), if
    /// it is close enough to be a plausible typo.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        let target = Array(lowered.unicodeScalars)
        // An ASCII name is compared with ASCII candidates byte by byte, lowercasing on the
        // fly: a scope has thousands of names, and lowercasing each into a new string and
        // measuring it in full was most of an edit's time when a name became undefined.
        let asciiTarget: [UInt8]? = lowered.utf8.count == target.count ? Array(lowered.utf8) : nil
        // The smallest distance wins, then the first name in sorted order. Candidates are
        // not sorted or lowercased up front: many are ruled out by length alone (an edit
        // distance is at least the difference in length).
        var best: (distance: Int, text: String)? = nil
        func offer(_ d: Int, _ c: String) {
            if best == nil || d < best!.distance || (d == best!.distance && c < best!.text) { best = (d, c) }
        }
        // ASCII candidates within their limit by length, measured below: (index, limit).
        var pending: [(index: Int, limit: Int)] = []
        var largestLimit = 0
        for (index, c) in candidates.enumerated() {
            if let t = asciiTarget {
                var bytes = c
                let done = bytes.withUTF8 { b -> Bool in
                    guard Self.isASCII(b) else { return false }
                    // A name that starts with the target is that far from it: the rest's length.
                    if t.count >= 3 && b.count >= t.count && Self.asciiHasPrefix(b, t) {
                        offer(b.count - t.count, c)
                        return true
                    }
                    // An ASCII candidate keeps its length when lowercased, so the gap to the
                    // (lowercased) target bounds the distance.
                    let limit = max(1, max(t.count, b.count) / 3)
                    if abs(b.count - t.count) <= limit {
                        pending.append((index, limit))
                        largestLimit = max(largestLimit, limit)
                    }
                    return true
                }
                if done { continue }
            }
            let count = c.unicodeScalars.count
            let limit = max(1, max(target.count, count) / 3)
            // A non-ASCII name is never a prefix of an ASCII candidate, and the gap in length
            // bounds the distance of an ASCII candidate (its length is kept when lowercased).
            if c.utf8.count == count && abs(count - target.count) > limit { continue }
            let lower = c.lowercased()
            let isPrefix = lower.hasPrefix(lowered) && target.count >= 3
            let d = distance(target, Array(lower.unicodeScalars))
            if d <= limit || isPrefix { offer(d, c) }
        }
        guard let t = asciiTarget else { return best?.text }
        // The ASCII candidates, for a growing cutoff k: a typo is usually one edit away, a
        // distance bounded by k costs a band of 2k + 1 cells per row, and most candidates
        // leave the band within a few rows. Pass k finds every distance up to k of the
        // candidates whose limit allows it; none is below k (pass k - 1 found none), so once
        // the best is within k no later pass can beat it.
        var k = 1
        while k <= largestLimit && (best == nil || best!.distance >= k) {
            for (index, limit) in pending where limit >= k {
                var bytes = candidates[index]
                if let d = bytes.withUTF8({ Self.asciiDistance(t, $0, cutoff: k) }) { offer(d, candidates[index]) }
            }
            k += 1
        }
        return best?.text
    }

    @inline(__always) private static func lowerASCII(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }

    private static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var all: UInt8 = 0
        for x in b { all |= x }
        return all < 0x80
    }

    /// Whether ASCII `c`, lowercased, starts with the lowercased ASCII `prefix`.
    private static func asciiHasPrefix(_ c: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard c.count >= prefix.count else { return false }
        for i in prefix.indices where lowerASCII(c[i]) != prefix[i] { return false }
        return true
    }

    /// The edit distance between lowercased ASCII `t` and ASCII `c` lowercased, or nil when
    /// it exceeds `cutoff`. Only the band of cells within `cutoff` of the diagonal is
    /// computed (a path through any other cell costs more than `cutoff`), and the search
    /// stops once a whole row of the band is above it.
    private static func asciiDistance(_ t: [UInt8], _ c: UnsafeBufferPointer<UInt8>, cutoff: Int) -> Int? {
        let n = t.count, m = c.count
        let k = min(cutoff, max(n, m))
        if abs(n - m) > k { return nil }
        if n == 0 { return m }
        if m == 0 { return n }
        let big = k + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (m + 1)) { rows -> Int? in
            var prev = rows.baseAddress!
            var cur = prev + (m + 1)
            for j in 0...m { prev[j] = min(j, big) }
            for i in 1...n {
                let lo = max(1, i - k), hi = min(m, i + k)
                cur[lo - 1] = lo == 1 ? min(i, big) : big
                var rowMin = cur[lo - 1]
                let a = t[i - 1]
                for j in lo...hi {
                    let cost = a == lowerASCII(c[j - 1]) ? 0 : 1
                    let v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost, big)
                    cur[j] = v
                    if v < rowMin { rowMin = v }
                }
                if hi < m { cur[hi + 1] = big }
                if rowMin > k { return nil }
                swap(&prev, &cur)
            }
            let d = prev[m]
            return d <= k ? d : nil
        }
    }

    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}

/// Parsed and lowered files kept from one project to the next (the language server keeps
/// one): when a file's bytes have not changed, its tree and model are reused instead of
/// parsing and lowering it again, so an edit to one file of a large workspace parses one file.
public final class ParseCache: @unchecked Sendable {
    // Used by one project construction at a time (the server's loop); lookups happen before
    // the parallel parse starts.
    private var entries: [String: (tree: SyntaxTree, model: FileModel)] = [:]
    /// Files reused so far (for tests and logs).
    public private(set) var hits = 0

    public init() {}

    func lookup(_ path: String, bytes: [UInt8], id: FileID) -> (SyntaxTree, FileModel)? {
        guard let e = entries[path], e.tree.source.bytes == bytes else { return nil }
        hits += 1
        return (e.tree.withFileID(id), e.model.withFileID(id))
    }

    /// Keeps a file's tree and model, made by an edit (see
    /// ``Project/applyingDeclarationEdit(file:range:replacement:newSource:)``) or read ahead
    /// from disk, for the next project: it finds them when the file's bytes are the tree's.
    public func remember(_ path: String, tree: SyntaxTree, model: FileModel) {
        entries[path] = (tree, model)
    }

    func replace(with files: [SourceFile]) {
        var next: [String: (tree: SyntaxTree, model: FileModel)] = [:]
        for f in files { next[f.path] = (f.keptSyntax, f.model) }
        entries = next
    }
}

extension Project {
    /// The code in a range of a file as messages quote it: its tokens without comments, one
    /// space between them (`screen  Home` and `screen // why\n Home` read `screen Home`). So a
    /// message never depends on layout, and an edit in a comment or in whitespace leaves every
    /// message as it was.
    public func quoted(file: FileID, _ range: Range<Int>) -> String {
        let tree = files[file].keptSyntax, text = files[file].text
        var parts: [String] = []
        let tokens = tree.hasTokens ? tree.tokens(coveringLinesOf: range) : SyntaxTree.tokens(of: text, coveringLinesOf: range)
        for t in tokens where t.start < range.upperBound {
            if !t.kind.isSkipped && t.kind != .eof && t.end > range.lowerBound {
                parts.append(text.text(max(t.start, range.lowerBound)..<min(t.end, range.upperBound)))
            }
        }
        return parts.joined(separator: " ")
    }
}

extension FileModel {
    /// The same model for a file with another id (its diagnostics name the file).
    func withFileID(_ id: FileID) -> FileModel {
        guard diagnostics.contains(where: { $0.file != id || $0.related.contains { $0.file != id } }) else { return self }
        var m = self
        m.diagnostics = m.diagnostics.map { $0.inFile(id) }
        return m
    }
}
