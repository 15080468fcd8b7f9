import Synchronization
import RoutesSyntax

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
    /// The files that declare links (few): what the link rules read, without a pass over
    /// every declaration of a large project at each edit.
    public internal(set) var filesWithLinks: Set<FileID> = []
    /// Diagnostics of every file, in no particular order.
    public internal(set) var diagnostics: [Diagnostic] = []
    /// Entries that could not be read (display path, why): left out of the project. (A file
    /// can vanish or grow past the limit between the caller's look at it and the read.)
    public private(set) var unreadableEntries: [(path: String, error: SourceReadError)] = []

    private var byPath: [String: FileID] = [:]
    private var cache: ParseCache? = nil
    /// Whether the files lowered from now on keep their screens' parameters where `keeps`
    /// leaves signatures out: once a file loaded may declare a link (see `addFiles`).
    private var keepsParameters = false
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
        Profile.mark("project: files read, parsed and lowered")
        cache?.replace(with: files)
        self.cache = nil
        detectImportCycles()
        computeClosures()
        let redeclared = resolveNames()
        Profile.mark("project: names resolved")
        findPrograms()
        for file in files.indices { noteLinks(of: file) }
        if !keeps.scopes { emptyScopesNoAnalysisReads(redeclared: redeclared) }
        Profile.mark("project: programs found")
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
    /// Whether a file declares a link.
    public var hasLinks: Bool { !filesWithLinks.isEmpty }

    /// Each declaration of another kind than a screen that a name in the path of one of file
    /// f's links resolves to (`link l "/l" -> Home/beta`, `beta` a flag: a `wrong-kind`
    /// error), in order.
    public func forEachLinkNameOfAnotherKind(in f: FileID, _ body: (Symbol) -> Void) {
        guard filesWithLinks.contains(f), resolutions.indices.contains(f) else { return }
        let declarations = files[f].model.declarations
        for i in declarations.indices where declarations[i].hasLink {
            declarations[i].link?.forEachScreenRange { range in
                if let s = resolutions[f][range.lowerBound], kind(of: s) != .screen { body(s) }
            }
        }
    }

    /// Whether file f declares links, read again from its model (after an edit of it).
    mutating func noteLinks(of f: FileID) {
        if files[f].model.declarations.contains(where: { $0.kind == .link }) {
            filesWithLinks.insert(f)
        } else {
            filesWithLinks.remove(f)
        }
    }

    public func leavingOutBuilderNodes() -> Project {
        var slim = self
        for f in files.indices {
            var model = files[f].model
            model.nodes = []
            model.useNames = []
            model.branchIDs = []
            model.nodesLeftOut = true
            slim.files[f] = files[f].replacingModel(model)
            let declarations = model.declarations
            var names = 0
            for i in declarations.indices {
                if declarations[i].from != nil { names += 1 }
                if declarations[i].hasLink { names += declarations[i].link?.pathCount ?? 0 }
            }
            var kept = ResolutionTable(capacity: names)
            for i in declarations.indices {
                if let from = declarations[i].from, let s = resolutions[f][from.range.lowerBound] { kept[from.range.lowerBound] = s }
                // The screens of a link's path (the link rules read them).
                declarations[i].link?.forEachScreenRange { screen in
                    if let s = resolutions[f][screen.lowerBound] { kept[screen.lowerBound] = s }
                }
            }
            slim.resolutions[f] = kept
        }
        return slim
    }

    /// The model of file f with its builder nodes: its model, or that lowered again from its
    /// syntax when the model left them out (the same nodes and lists: lowering is deterministic).
    public func builderNodes(of f: FileID) -> FileModel {
        guard files[f].model.nodesLeftOut else { return files[f].model }
        return Lowering.lower(files[f].syntax, file: f, keeps: .lint)
    }

    /// Empties every scope but those of the files with names skipped by syntax errors (see
    /// ``Keeps/scopes``), keeping for each program the declarations its root file's scope
    /// found declared again: those a scope's own names lost to, along the scopes it is laid
    /// over (`redeclared`, by file). A scope laid over another holds that one.
    private mutating func emptyScopesNoAnalysisReads(redeclared: [[Symbol]]) {
        var byRoot: [FileID: Set<Symbol>] = [:]
        for program in programs where byRoot[program.root.file] == nil {
            var hidden = Set<Symbol>()
            var next: FileID? = program.root.file
            while let file = next {
                hidden.formUnion(redeclared[file])
                next = scopeBase(of: file)
            }
            byRoot[program.root.file] = hidden
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

    /// The names a program's root file sees, each with the declaration it means: its scope
    /// when the project kept the scopes, else the program's declarations less those an
    /// earlier one of the same name hides (``isRedeclaration(_:in:)``), which are the same.
    public func names(in program: Program) -> [String: Symbol] {
        var names: [String: Symbol] = [:]
        if keptEveryScope {
            let scope = scopes[program.root.file]
            for (name, _) in scope where names[name] == nil { names[name] = scope[name] }
            return names
        }
        for file in program.files {
            let declarations = files[file].model.declarations
            for index in declarations.indices {
                let s = Symbol(file: file, declaration: index)
                let name = declarations[index].name.text
                guard !name.isEmpty, names[name] == nil, !isRedeclaration(s, in: program) else { continue }
                names[name] = s
            }
        }
        return names
    }

    public func file(atPath canonicalPath: String) -> FileID? { byPath[canonicalPath] }

    /// (Inlinable, so that `declaration(s).kind` reads one field instead of copying the
    /// whole declaration across the module boundary.)
    /// The presentation in force at screen node `node` of `file`, which builds screen `s`:
    /// the node's own (`as …`), else the screen's declaration's.
    public func presentation(ofScreenNode node: NodeID, in file: FileID, screen s: Symbol) -> Presentation {
        files[file].model.nodes[node].presentation ?? declaration(s).presentation
    }

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
        // Once a file may declare a link, the screens' parameters are kept even where `keeps`
        // leaves signatures out: the link rules read those of every screen a link names, and
        // reading them again from the files' texts cost more than keeping them.
        if !keeps.signatures && !keepsParameters {
            keepsParameters = toParse.contains { LinkKeyword.mayDeclareLink(in: wave[$0].bytes) }
        }
        let keepingParameters = keepsParameters
        let parsed = parallelMap(toParse.count) { parseIndex -> (SyntaxTree, FileModel, TextReadAgain?) in
            let index = toParse[parseIndex]
            // (A tree let go once lowered may read each plain `link` line as one token.)
            let tree = SyntaxTree.parse(SourceText(bytes: wave[index].bytes), file: first + index, readingLinkLines: !keepsTree[index])
            let model = Lowering.lower(tree, file: first + index, keeps: keeps, keepingParameters: keepingParameters)
            if !keeps.texts && !keepsTree[index] && !SuppressionMarker.isMentioned(in: tree.source.bytes) {
                return (tree.droppingText(), model, TextReadAgain(provider: provider, path: wave[index].path, bytes: wave[index].bytes))
            }
            return (keepsTree[index] ? tree : tree.droppingTokens(), model, nil)
        }
        var results = kept.map { $0.map { ($0.0, $0.1, TextReadAgain?.none) } }
        for (parseIndex, index) in toParse.enumerated() { results[index] = parsed[parseIndex] }
        for (index, pending) in wave.enumerated() {
            let (parsedTree, model, readAgain) = results[index]!
            let tree = keepsTree[index] || !parsedTree.hasTokens ? parsedTree : parsedTree.droppingTokens()
            let id = first + index
            files.append(SourceFile(id: id, path: pending.path, displayPath: pending.display, group: pending.group,
                                    workspaceRoot: pending.root, syntax: tree, model: model, readAgain: readAgain))
            importTargets.append(Array(repeating: nil, count: model.imports.count))
            byPath[pending.path] = id
            diagnostics.append(contentsOf: tree.diagnostics)
            diagnostics.append(contentsOf: model.diagnostics)
            if let importer = pending.importer { importTargets[importer.file][importer.index] = id }
        }
    }

    private mutating func load(_ entries: [ProjectEntry], _ provider: SourceProvider) {
        var unique: [ProjectEntry] = []
        var queued = Set<String>()
        for entry in entries where queued.insert(entry.canonicalPath).inserted { unique.append(entry) }
        // Read together (on every core when the provider allows it), then parsed together.
        var wave: [Pending] = []
        for (entry, read) in zip(unique, Self.read(unique.map(\.canonicalPath), provider)) {
            switch read {
            case .success(let bytes):
                wave.append(Pending(path: entry.canonicalPath, display: entry.displayPath, group: entry.group,
                                    root: entry.workspaceRoot, bytes: bytes, importer: nil))
            case .failure(let why):
                unreadableEntries.append((entry.displayPath, why))
            }
        }
        // Breadth-first over imports, one wave at a time.
        var next = 0
        while !wave.isEmpty {
            addFiles(wave, provider)
            wave = []
            // The imports of the wave, in order: each one a failure found without reading, or
            // a file to read (read together, then taken in this order).
            var steps: [ImportStep] = []
            var toRead: [String] = []
            var positionToRead: [String: Int] = [:]  // path → index in `toRead`
            while next < files.count {
                let importer = files[next]
                next += 1
                let dir = PathUtil.directory(of: importer.path)
                let displayDir = PathUtil.directory(of: importer.displayPath)
                for (index, imp) in importer.model.imports.enumerated() {
                    func fail(_ problem: ImportError.Problem) {
                        steps.append(.failed(FailedImport(file: importer.id, range: imp.range, problem: problem)))
                    }
                    if imp.path.isEmpty {
                        fail(.emptyPath)
                        continue
                    }
                    // The file system reads a path up to a NUL: no file has such a path.
                    if imp.path.unicodeScalars.contains("\u{0}") {
                        let shown = imp.path.unicodeScalars.map { $0 == "\u{0}" ? "\\u{0}" : String($0) }.joined()
                        fail(.unreadable(path: shown, why: "a path cannot hold a NUL character"))
                        continue
                    }
                    let lexical = PathUtil.join(dir, imp.path)
                    // A path spelt as a loaded file's canonical path is that file: a canonical
                    // path has no symbolic link in it (this spares a `realpath`, a system call
                    // per folder of the path, per import).
                    if let known = byPath[lexical], PathUtil.isInside(lexical, root: importer.workspaceRoot) {
                        importTargets[importer.id][index] = known
                        continue
                    }
                    guard let canonical = provider.canonicalPath(lexical) else {
                        // Outside the root, whether a file is there or not: the error does not
                        // tell what lies outside.
                        if !PathUtil.isInside(lexical, root: importer.workspaceRoot) {
                            fail(.outsideWorkspace(path: imp.path))
                            continue
                        }
                        if let why = provider.whyNoCanonicalPath(lexical) {
                            fail(.unreadable(path: imp.path, why: why))
                            continue
                        }
                        let shown = imp.path.hasPrefix("/") ? imp.path : PathUtil.join(displayDir, imp.path)
                        fail(.notFound(path: imp.path, shown: shown, suggestion: Self.similarFile(to: imp.path, from: dir, importer: importer.path, provider)))
                        continue
                    }
                    guard PathUtil.isInside(canonical, root: importer.workspaceRoot) else {
                        fail(.outsideWorkspace(path: imp.path))
                        continue
                    }
                    if let existing = byPath[canonical] {
                        importTargets[importer.id][index] = existing
                        continue
                    }
                    let position = positionToRead[canonical] ?? toRead.count
                    if position == toRead.count {
                        positionToRead[canonical] = position
                        toRead.append(canonical)
                    }
                    let display = imp.path.hasPrefix("/") ? canonical : PathUtil.join(displayDir, imp.path)
                    steps.append(.read(importer: importer.id, index: index, position: position, display: display))
                }
            }
            let reads = Self.read(toRead, provider)
            var waiting = [Int?](repeating: nil, count: toRead.count)  // index in the next wave
            for step in steps {
                switch step {
                case .failed(let failure):
                    failedImports.append(failure)
                case .read(let id, let index, let position, let display):
                    if let waveIndex = waiting[position] {
                        // Another file of this wave imports it too: point there once loaded.
                        lateImports.append((id, index, waveIndex + files.count))
                        continue
                    }
                    let importer = files[id]
                    switch reads[position] {
                    case .success(let bytes):
                        waiting[position] = wave.count
                        wave.append(Pending(path: toRead[position], display: display, group: importer.group, root: importer.workspaceRoot,
                                            bytes: bytes, importer: (id, index)))
                    case .failure(let why):
                        let imp = importer.model.imports[index]
                        failedImports.append(FailedImport(file: id, range: imp.range, problem: .unreadable(path: imp.path, why: "\(why)")))
                    }
                }
            }
        }
        for (file, index, target) in lateImports { importTargets[file][index] = target }
        lateImports.removeAll()
    }

    /// An import of a wave, in the order the imports are written (see `load(_:_:)`).
    private enum ImportStep {
        case failed(FailedImport)
        /// Import `index` of file `importer`, of the file at `position` in the paths to read.
        case read(importer: FileID, index: Int, position: Int, display: String)
    }

    /// The bytes of each path, read on every core when there are several and the provider
    /// allows it.
    private static func read(_ paths: [String], _ provider: SourceProvider) -> [Result<[UInt8], SourceReadError>] {
        guard provider.readsConcurrently else { return paths.map { provider.read($0) } }
        return parallelMap(paths.count) { provider.read(paths[$0]) }
    }
    private var lateImports: [(FileID, Int, FileID)] = []

    /// One depth-first search over all files in load order: an import that reaches a file
    /// still on the search stack closes a cycle and is reported there.
    private mutating func detectImportCycles() {
        var state = Array(repeating: 0, count: files.count)  // 0 new, 1 on stack, 2 done
        // From the files that declare `root` first, then the others, each in path order (not
        // load order: which import of a cycle is reported does not depend on the order of the
        // command line or of a workspace scan, and the CLI and the language server agree).
        // Imports lead away from an app's `root`: the import that closes a cycle is the one
        // that leads back (a library importing the app), reported once, in that file.
        let declaresRoot = files.map { file in file.model.declarations.contains { $0.kind == .root } }
        let order = files.indices.sorted { (declaresRoot[$0] ? 0 : 1, files[$0].path) < (declaresRoot[$1] ? 0 : 1, files[$1].path) }
        for start in order where state[start] == 0 {
            var stack: [(file: FileID, next: Int)] = [(start, 0)]
            state[start] = 1
            while !stack.isEmpty {
                let (f, importIndex) = stack[stack.count - 1]
                if importIndex >= importTargets[f].count {
                    state[f] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                guard let target = importTargets[f][importIndex] else { continue }
                if state[target] == 1 {
                    let chainStart = stack.firstIndex { $0.file == target } ?? 0
                    let chain = stack[chainStart...].map { files[$0.file].displayPath } + [files[target].displayPath]
                    diagnostics.append(ImportError.diagnostic(.cycle(chain: chain), file: f, range: files[f].model.imports[importIndex].range))
                } else if state[target] == 0 {
                    state[target] = 1
                    stack.append((target, 0))
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
                let (f, importIndex) = stack[stack.count - 1]
                if importIndex >= importTargets[f].count {
                    order.append(f)
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                if let target = importTargets[f][importIndex], !seen.contains(target) {
                    seen.insert(target)
                    stack.append((target, 0))
                }
            }
            return order
        }
    }

    // MARK: Names

    /// Builds each file's scope, then resolves each file's names: both per file, so the
    /// files are done in parallel (the files of the earlier waves resolve theirs while the
    /// last wave's scopes are made).
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
        var resolvedEarly = [FileResolution?](repeating: nil, count: files.count)
        let lengths = byLength.keys.sorted()
        for length in lengths {
            let wave = byLength[length]!
            let scoping = self
            // The last wave is often one file (a program's root file, which imports every
            // other): its scopes are made while the files of the earlier waves, whose scopes
            // are all made, resolve their names.
            let early = length == lengths.last! && lengths.count > 1 ? files.indices.filter { closures[$0].count != length } : []
            let done = parallelMap(wave.count + early.count) { item -> ScopedOrResolved in
                item < wave.count ? .scoped(scoping.scope(of: wave[item]))
                    : .resolved(scoping.resolveNames(in: early[item - wave.count], importersSeen: false))
            }
            for (item, outcome) in done.enumerated() {
                switch outcome {
                case .scoped(let scoped):
                    let f = wave[item]
                    scopes[f] = scoped.scope
                    duplicates.formUnion(scoped.duplicates)
                    redeclared[f] = scoped.redeclared
                case .resolved(let resolution):
                    resolvedEarly[early[item - wave.count]] = resolution
                }
            }
        }
        diagnostics.append(contentsOf: duplicates)
        let resolving = self
        let rest = files.indices.filter { resolvedEarly[$0] == nil }
        for (index, resolution) in parallelMap(rest.count, { resolving.resolveNames(in: rest[$0], importersSeen: false) }).enumerated() {
            resolvedEarly[rest[index]] = resolution
        }
        // An undefined name that nothing in scope is close to may be declared where a file
        // importing its file sees it: looked up once every scope is made (few files have one).
        let needing = files.indices.filter { f in resolvedEarly[f]!.diagnostics.contains { $0.rule == UndefinedName.id } }
        if !needing.isEmpty {
            var declared = Set<String>()
            for file in files { for declaration in file.model.declarations { declared.insert(declaration.name.text) } }
            let importedBy = self.importedBy()
            for f in needing {
                resolvedEarly[f] = guessingFromImporters(resolvedEarly[f]!, of: f, declared: declared, importedBy: importedBy)
            }
        }
        let resolved = resolvedEarly.map { $0! }
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
        // An import without a usable path is its syntax error alone: the names left undefined
        // in the files that see it are not reported (nor counted: no file was meant by name).
        let broken = Set(files.indices.filter { files[$0].model.hasBrokenImport })
        var unresolved = [Int](repeating: 0, count: failedImports.count)
        for (f, resolution) in resolved.enumerated() {
            guard let by = failedBy[f] else {
                if !broken.isEmpty && closures[f].contains(where: broken.contains) {
                    diagnostics.append(contentsOf: resolution.diagnostics.lazy.filter { $0.rule != UndefinedName.id })
                } else {
                    diagnostics.append(contentsOf: resolution.diagnostics)
                }
                continue
            }
            for diagnostic in resolution.diagnostics {
                if diagnostic.rule == UndefinedName.id { unresolved[by] += 1 } else { diagnostics.append(diagnostic) }
            }
        }
        for (i, failure) in failedImports.enumerated() {
            diagnostics.append(ImportError.diagnostic(failure.problem, file: failure.file, range: failure.range, unresolved: unresolved[i]))
        }
        return redeclared
    }

    /// What name resolution found in one file (see `resolveNames(in:importersSeen:)`).
    typealias FileResolution = (resolutions: ResolutionTable, guesses: [Int: Symbol], diagnostics: [Diagnostic])

    /// A file's scope made, or its names resolved: the work of one item of the last wave.
    private enum ScopedOrResolved {
        case scoped((scope: Scope, duplicates: [Diagnostic], redeclared: [Symbol]))
        case resolved(FileResolution)
    }

    /// The file whose scope file f's scope is laid over, if any: the one before f in f's
    /// closure, when that file's closure is all of f's but f (as when f imports one file, or
    /// imports files that one of them imports too), so that its scope holds exactly the names
    /// f sees before its own, found in the same order; and when that scope is not already
    /// laid over more than ``maxScopeDepth`` others (each costs a lookup a probe).
    func scopeBase(of f: FileID) -> FileID? {
        let closure = closures[f]
        guard closure.count >= 2, closure.last == f else { return nil }
        let base = closure[closure.count - 2]
        guard scopes.indices.contains(base), scopes[base].depth < Self.maxScopeDepth,
              closures[base].count == closure.count - 1, closures[base].elementsEqual(closure.dropLast()) else { return nil }
        return base
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
        for file in own {
            // Only the name is read per declaration: copying each `Declaration` out of the
            // array (its strings and arrays retained and released) cost more than the table.
            let declarations = files[file].model.declarations
            for index in declarations.indices {
                let s = Symbol(file: file, declaration: index)
                let name = declarations[index].name.text
                if let first = scope.insertIfAbsent(name, s, kind: declarations[index].kind) {
                    redeclared.append(s)
                    let duplicate = declarations[index]
                    let firstDeclaration = declaration(first)
                    let finding: DuplicateDeclaration.Finding = duplicate.kind == .root && firstDeclaration.kind == .root
                        ? .root : .name(duplicate.name.text, firstKind: firstDeclaration.kind)
                    duplicates.append(DuplicateDeclaration.diagnostic(finding, file: file, range: duplicate.name.range,
                                                                       firstFile: first.file, firstRange: firstDeclaration.name.range))
                }
            }
        }
        return (scope, duplicates, redeclared)
    }

    /// What each name mentioned in file f resolves to, with the file's name diagnostics
    /// (undefined names, wrong kinds, wildcards of screens with parameters).
    /// - Parameter importersSeen: whether the scopes of the files that import f are made (see
    ///   `undefinedName`); when not, `guessingFromImporters(_:of:declared:importedBy:)`
    ///   completes the result.
    func resolveNames(in f: FileID, importersSeen: Bool = true) -> FileResolution {
        let model = files[f].model
        // A name per node and declaration, and one per element of a link's path.
        // (Read in place: a copy of a declaration retains each of its fields.)
        var linkElements = 0
        for i in model.declarations.indices where model.declarations[i].hasLink {
            linkElements += model.declarations[i].link?.pathCount ?? 0
        }
        var resolved = ResolutionTable(capacity: model.nodes.count + model.declarations.count + linkElements)
        var guessed: [Int: Symbol] = [:]
        var diagnostics: [Diagnostic] = []
        resolveNames(in: f, declarations: model.declarations.indices, nodes: model.nodes.indices,
                     into: &resolved, guesses: &guessed, &diagnostics, importersSeen: importersSeen)
        return (resolved, guessed, diagnostics)
    }

    /// Resolves the names that declarations `ds` and nodes `ns` of file f mention (see
    /// ``FileModel/forEachNameUse(declarations:nodes:_:)``) into `resolved`, and reports those
    /// diagnostics of theirs, with the suggestion for each undefined name in `guesses`. What a
    /// declaration's names resolve to depends only on the file's scope, so one declaration
    /// can be resolved again on its own.
    func resolveNames(in f: FileID, declarations ds: Range<Int>, nodes ns: Range<Int>,
                      into resolved: inout ResolutionTable, guesses: inout [Int: Symbol], _ diagnostics: inout [Diagnostic],
                      importersSeen: Bool = true) {
        let scope = scopes[f]
        let model = files[f].model
        var importers: [FileID]? = importersSeen ? nil : []
        let firstDiagnostic = diagnostics.count
        defer {
            joinMisspeltScreenKeywords(in: f, &diagnostics, from: firstDiagnostic)
            joinMisspeltUses(in: f, &diagnostics, from: firstDiagnostic)
            notePresentationsReadAsBuilders(in: f, &diagnostics, from: firstDiagnostic)
        }
        func resolve(_ name: Name, _ expected: [DeclarationKind], repeated: Bool = false) {
            if repeated {
                // A name a `uses` list repeats: what its first place resolves to, reported there
                // only (the fix of an undefined one renames every place: `UndefinedNameFixes`).
                if let (s, _) = scope.entry(name.text) { resolved[name.range.lowerBound] = s }
                return
            }
            guard let (s, kind) = scope.entry(name.text) else {
                let (diagnostic, guess) = undefinedName(name, expected: expected, file: f, importers: &importers)
                diagnostics.append(diagnostic)
                if let guess { guesses[name.range.lowerBound] = guess }
                return
            }
            resolved[name.range.lowerBound] = s
            // (The name after an `if` without `let` or `screen` may be of any kind: the syntax
            // error there says what each kind is tested with, and its fix reads the kind.)
            if !expected.contains(kind) && expected != Kinds.condition {
                let declaration = declaration(s)
                // A value declared without its keyword may be the other kind of value.
                if declaration.kindGuessed && (expected.contains(.optional) || expected.contains(.dependency)) { return }
                var finding = WrongKind.Finding(name: name.text, kind: declaration.kind, expected: expected)
                // `Detail` where the builder `detail` is declared: the builder may be meant,
                // and what it builds is not reported as unused (`guesses`).
                if expected == Kinds.builder && declaration.kind == .screen, let first = name.text.first, first.isUppercase {
                    let lowered = first.lowercased() + name.text.dropFirst()
                    if let (builder, kind) = scope.entry(lowered), kind == .builder {
                        finding.builder = lowered
                        guesses[name.range.lowerBound] = builder
                    }
                }
                diagnostics.append(WrongKind.diagnostic(finding,
                                                        file: f, range: name.range, declaredIn: s.file, at: declaration.name.range))
            }
        }
        // The uses of `FileModel.forEachNameUse`, in its order; the screens of a link read
        // from its line (a lint's thousands) are looked up by their bytes, and made names only
        // when they are no screen's.
        for i in ds {
            if let from = model.declarations[i].from { resolve(from, Kinds.screen) }
            guard model.declarations[i].hasLink, let link = model.declarations[i].link else { continue }
            let read = link.forEachScreenBytes { range, bytes in
                if case let (s, kind)?? = scope.entry(utf8: bytes), kind == .screen {
                    resolved[range.lowerBound] = s
                } else {
                    resolve(Name(text: String(decoding: bytes, as: UTF8.self), range: range), Kinds.screen)
                }
            }
            if !read { link.forEachScreen { resolve($0, Kinds.screen) } }
        }
        model.forEachNameUse(declarations: 0..<0, nodes: ns) { resolve($0, $1, repeated: $2) }
        // A screen's labels once per file, however many wildcards name it (a model without
        // them lowers its file again).
        var labels: [Symbol: [String]] = [:]
        // (The nodes read in place, and the wildcards' screens taken in the same pass.)
        var wildcards: [Name] = []
        model.nodes.withUnsafeBufferPointer { buffer in
            guard let nodes = buffer.baseAddress else { return }
            for node in ns {
                if case .wildcard(let screen?, _) = nodes[node].kind, !nodes[node].argumentsSkipped { wildcards.append(screen) }
            }
        }
        for screen in wildcards {
            guard let s = resolved[screen.range.lowerBound] else { continue }
            let declaration = declaration(s)
            if declaration.hasParameters && labels[s] == nil { labels[s] = parameterLabels(of: s) }
            if let finding = InvalidWildcard.check(screen, kind: declaration.kind, labels: labels[s] ?? []) {
                diagnostics.append(InvalidWildcard.diagnostic(finding, file: f, range: screen.range, declaredIn: s.file, at: declaration.name.range))
            }
        }
    }

    /// `Scren Detail` in an `anyOf`: a misspelt `screen` right before a screen's name (only
    /// whitespace between), which the parser reads as two references (`a b` there are two
    /// branches). One error, the undefined name's with `screen` suggested (its fix writes
    /// `screen Detail`), and not also a wrong kind for the screen written as a builder.
    /// Diagnostics from index `start` on.
    func joinMisspeltScreenKeywords(in f: FileID, _ diagnostics: inout [Diagnostic], from start: Int) {
        joinMisspeltKeyword("screen", in: f, &diagnostics, from: start) { word, wrong, _ in
            word.suggestion == nil && wrong.kind == .screen && Parser.misspells(Array(word.name.utf8), "screen")
        }
    }

    /// `screen Detail sues store` in an `anyOf`: a misspelt `uses` between a placement and a
    /// dependency or optional on its line, which the parser reads as three branches (it
    /// cannot tell `sues` from a builder's name, nor `store` from a builder). One error, the
    /// undefined name's with `uses` suggested (its fix writes `uses`), and not also a wrong
    /// kind for the dependency written as a builder. Diagnostics from index `start` on.
    func joinMisspeltUses(in f: FileID, _ diagnostics: inout [Diagnostic], from start: Int) {
        joinMisspeltKeyword("uses", in: f, &diagnostics, from: start) { word, wrong, range in
            guard wrong.kind == .dependency || wrong.kind == .optional,
                  word.name == "use" || Parser.misspells(Array(word.name.utf8), "uses") else { return false }
            // Right after a placement without a `uses` list or block.
            let bytes = files[f].text.bytes
            var before = range.lowerBound
            while before > 0 && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[before - 1]) { before -= 1 }
            let model = files[f].model
            guard before < range.lowerBound,
                  let node = model.nodes.firstIndex(where: { $0.range.upperBound == before }),
                  case .screen(_?, let uses, nil) = model.nodes[node].kind else { return false }
            return uses.isEmpty
        }
    }

    /// A misspelt keyword the parser read as a builder's name, then the name that followed it
    /// read as a builder too (of the wrong kind): an undefined name, whitespace (line breaks
    /// too: the formatter puts each branch of an `anyOf` on a line of its own, and what it
    /// reports must not change), then a wrong kind where a builder goes. When `meant` takes
    /// the pair (the undefined name's finding, the wrong kind's, the undefined name's range),
    /// one error stays: the undefined name's, with `keyword` suggested.
    private func joinMisspeltKeyword(
        _ keyword: String, in f: FileID, _ diagnostics: inout [Diagnostic], from start: Int,
        meant: (UndefinedName.Finding, WrongKind.Finding, Range<Int>) -> Bool
    ) {
        var i = start
        while i + 1 < diagnostics.count {
            defer { i += 1 }
            let word = diagnostics[i], next = diagnostics[i + 1]
            guard word.rule == UndefinedName.id, next.rule == WrongKind.id, word.file == f, next.file == f,
                  next.range.lowerBound > word.range.upperBound,
                  var finding = word.detail?.value(as: UndefinedName.Finding.self),
                  finding.declaredIn == nil, !finding.placeholder, finding.expected.contains(.builder),
                  let wrong = next.detail?.value(as: WrongKind.Finding.self), wrong.expected.contains(.builder)
            else { continue }
            // (The text is read only here: a lint may have let it go. A file changed on disk
            // since it was read is reported so; its new text may be shorter.)
            let bytes = files[f].text.bytes
            guard next.range.lowerBound <= bytes.count,
                  bytes[word.range.upperBound..<next.range.lowerBound].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }),
                  meant(finding, wrong, word.range) else { continue }
            finding.suggestion = keyword
            diagnostics[i] = UndefinedName.diagnostic(finding, file: f, range: word.range)
            diagnostics.remove(at: i + 1)
        }
    }

    /// `screen Pay cover` in an `anyOf`: the parser reads a placement and a builder named
    /// `cover` (a builder may have that name), and the presentation was meant. An undefined
    /// `cover` or `popover` right after a placement with no presentation, `uses` or block
    /// (only whitespace between, line breaks too: the formatter puts each branch on a line of
    /// its own, and what it reports must not change) says how a presentation is written.
    /// Diagnostics from index `start` on.
    func notePresentationsReadAsBuilders(in f: FileID, _ diagnostics: inout [Diagnostic], from start: Int) {
        for i in diagnostics.indices.dropFirst(start) where diagnostics[i].rule == UndefinedName.id && diagnostics[i].file == f {
            guard var finding = diagnostics[i].detail?.value(as: UndefinedName.Finding.self),
                  finding.name == "cover" || finding.name == "popover", finding.suggestion == nil, !finding.placeholder,
                  finding.expected.contains(.builder) else { continue }
            // (The text is read only here: a lint may have let it go.)
            let bytes = files[f].text.bytes
            let word = diagnostics[i].range
            // (A file changed on disk since it was read is reported so; its new text may be
            // shorter.)
            guard word.upperBound <= bytes.count else { continue }
            var before = word.lowerBound
            while before > 0 && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[before - 1]) { before -= 1 }
            guard before < word.lowerBound else { continue }
            let model = files[f].model
            guard let node = model.nodes.firstIndex(where: { $0.range.upperBound == before }),
                  case .screen(_?, let uses, nil) = model.nodes[node].kind, uses.isEmpty,
                  model.nodes[node].presentation == nil, model.nodes[node].range.upperBound <= bytes.count else { continue }
            finding.presentationOf = String(decoding: bytes[model.nodes[node].range], as: UTF8.self)
                .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
            diagnostics[i] = UndefinedName.diagnostic(finding, file: f, range: word)
        }
    }

    /// The labels of screen s's parameters, lowered again from its file's syntax when the
    /// model left them out (see ``Keeps/signatures``).
    func parameterLabels(of s: Symbol) -> [String] {
        parameters(of: s).map(\.label.text)
    }

    /// The parameters of each of `screens`, each left-out declaration lowered again alone (see
    /// ``parameters(of:)``).
    public func parameters(of screens: [Symbol]) -> [Symbol: [Parameter]] {
        var table: [Symbol: [Parameter]] = [:]
        table.reserveCapacity(screens.count)
        var leftOut: [FileID: [Symbol]] = [:]
        for s in screens where table[s] == nil {
            // (Read in place: a copy of the declaration retains each of its strings and arrays.)
            guard files[s.file].model.declarations[s.declaration].parametersLeftOut else {
                table[s] = files[s.file].model.declarations[s.declaration].parameters
                continue
            }
            table[s] = []
            leftOut[s.file, default: []].append(s)
        }
        // Only the screens' declarations are lowered again: from the file's tree when the
        // project kept it, else each parsed alone from its text.
        for (file, symbols) in leftOut {
            if files[file].keptSyntax.hasTokens {
                let found = Lowering.screenParameters(files[file].keptSyntax, file: file, at: Set(symbols.map { declaration($0).range.lowerBound }))
                for s in symbols { table[s] = found[declaration(s).range.lowerBound] ?? [] }
                continue
            }
            let text = files[file].text
            if let joined = Self.parametersParsedTogether(symbols.map { declaration($0).range.clamped(to: 0..<text.count) },
                                                          of: text, file: file) {
                for (s, parameters) in zip(symbols, joined) { table[s] = parameters }
                continue
            }
            for s in symbols {
                let range = declaration(s).range.clamped(to: 0..<text.count)
                let alone = SyntaxTree.parse(SourceText(part: range, of: text), file: file)
                table[s] = (Lowering.screenParameters(alone, file: file, at: [0])[0] ?? []).map { parameter in
                    Parameter(label: Name(text: parameter.label.text, range: parameter.label.range.lowerBound + range.lowerBound
                                            ..< parameter.label.range.upperBound + range.lowerBound), type: parameter.type)
                }
            }
        }
        return table
    }

    /// The parameters of the screen declarations at `ranges` of `text`, read from one tree of
    /// their texts put one after another (a parse per declaration costs more than the
    /// declaration), their labels' ranges in `text`; nil when that tree has an error or does
    /// not hold each declaration where it was put (then each is parsed alone).
    private static func parametersParsedTogether(_ ranges: [Range<Int>], of text: SourceText, file: FileID) -> [[Parameter]]? {
        guard ranges.count > 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ranges.reduce(0) { $0 + $1.count + 1 })
        var starts: [Int] = []
        for range in ranges {
            starts.append(bytes.count)
            bytes += text.bytes[range]
            bytes.append(0x0A)
        }
        let tree = SyntaxTree.parse(SourceText(bytes: bytes), file: file)
        guard tree.diagnostics.isEmpty else { return nil }
        let found = Lowering.screenParameters(tree, file: file, at: Set(starts))
        var out: [[Parameter]] = []
        for (start, range) in zip(starts, ranges) {
            guard let parameters = found[start] else { return nil }
            let shift = range.lowerBound - start
            out.append(parameters.map { parameter in
                Parameter(label: Name(text: parameter.label.text, range: parameter.label.range.lowerBound + shift
                                        ..< parameter.label.range.upperBound + shift), type: parameter.type)
            })
        }
        return out
    }

    /// The parameters of screen s, labels and types, lowered again from its file's syntax
    /// when the model left them out (see ``Keeps/signatures``): what a link's path is
    /// checked against.
    public func parameters(of s: Symbol) -> [Parameter] {
        let declaration = declaration(s)
        guard declaration.parametersLeftOut else { return declaration.parameters }
        return parameters(of: [s])[s] ?? []
    }

    /// The `UndefinedName` diagnostic of a name, and the declaration it was most likely meant
    /// to be: a declaration of that very name that a file importing this one sees
    /// (`dependency cart` in the app, `uses cart` in the library it imports: names are seen
    /// down the imports only), which the message names, else the suggestion among the names
    /// in scope. (The other way round, a close name of the library's, `cartStore`, would be
    /// suggested, and the app's `cart` reported unused: its safe fix would delete it.)
    private func undefinedName(_ name: Name, expected: [DeclarationKind], file f: FileID,
                               importers: inout [FileID]?) -> (Diagnostic, Symbol?) {
        var candidates = scopes[f].compactMap { (text, s) -> String? in
            expected.contains(kind(of: s)) ? text : nil
        }
        // Where a builder goes, `empty` is one too (`emtpy`).
        if expected == Kinds.builder { candidates.append("empty") }
        var finding = UndefinedName.check(name.text, expected: expected, candidates: candidates)
        let guess = guessFromImporters(&finding, of: f, importers: &importers) ?? finding.suggestion.flatMap { scopes[f][$0] }
        return (UndefinedName.diagnostic(finding, file: f, range: name.range), guess)
    }

    /// For an undefined name: the declaration of that very name (of a kind the place takes)
    /// that a file importing f sees, the first by path, which `finding` then names in place of
    /// its suggestion. `importers`:
    /// those files, found on the first question; `declared`, when given, every name the
    /// project declares (a name declared nowhere is looked up no further).
    private func guessFromImporters(_ finding: inout UndefinedName.Finding, of f: FileID, importers: inout [FileID]?,
                                    declared: Set<String>? = nil, importedBy: [[FileID]]? = nil) -> Symbol? {
        guard !finding.placeholder else { return nil }
        if let declared, !declared.contains(finding.name) { return nil }
        if importers == nil { importers = self.importers(of: f, importedBy: importedBy ?? self.importedBy()) }
        for g in importers! {
            if let s = scopes[g][finding.name], finding.expected.contains(kind(of: s)) {
                finding.suggestion = nil
                finding.declaredIn = files[s.file].displayPath
                return s
            }
        }
        return nil
    }

    /// `resolution` of file f, resolved before the scopes of the files that import it were
    /// made (`resolveNames(in:importersSeen:)`), with the guesses they give.
    private func guessingFromImporters(_ resolution: FileResolution, of f: FileID, declared: Set<String>,
                                       importedBy: [[FileID]]) -> FileResolution {
        var resolution = resolution
        var importers: [FileID]? = nil
        for i in resolution.diagnostics.indices where resolution.diagnostics[i].rule == UndefinedName.id {
            let diagnostic = resolution.diagnostics[i]
            guard var finding = diagnostic.detail?.value(as: UndefinedName.Finding.self),
                  let guess = guessFromImporters(&finding, of: f, importers: &importers, declared: declared, importedBy: importedBy)
            else { continue }
            resolution.diagnostics[i] = UndefinedName.diagnostic(finding, file: f, range: diagnostic.range)
            resolution.guesses[diagnostic.range.lowerBound] = guess
        }
        return resolution
    }

    /// Per file, the files that import it directly.
    public func importedBy() -> [[FileID]] {
        var importedBy = [[FileID]](repeating: [], count: files.count)
        for g in files.indices {
            for case let target? in importTargets[g] where target != g { importedBy[target].append(g) }
        }
        return importedBy
    }

    /// The files that import file f, directly or not (f itself left out), by path.
    public func importers(of f: FileID) -> [FileID] {
        importers(of: f, importedBy: importedBy())
    }

    /// The same, with the table of `importedBy()`.
    public func importers(of f: FileID, importedBy: [[FileID]]) -> [FileID] {
        var seen = [Bool](repeating: false, count: files.count)
        seen[f] = true
        var stack = [f], found: [FileID] = []
        while let g = stack.popLast() {
            for importer in importedBy[g] where !seen[importer] {
                seen[importer] = true
                found.append(importer)
                stack.append(importer)
            }
        }
        return found.sorted { files[$0].path < files[$1].path }
    }

    /// The declarations named `name` that the scopes of `files` see, each once, in the order
    /// of those files.
    public func declarations(named name: String, seenBy files: [FileID]) -> [Symbol] {
        var found: [Symbol] = []
        var seen = Set<Symbol>()
        for g in files {
            if let s = scopes[g][name], seen.insert(s).inserted { found.append(s) }
        }
        return found
    }

    /// For an import `path` (relative to folder `dir`) that finds no file: the same path to a
    /// `.routes` file of its folder whose name is close to the name written
    /// (`Payment.routes` for `Payments.routes`), if the folder has one.
    static func similarFile(to path: String, from dir: String, importer: String, _ provider: some SourceProvider) -> String? {
        let lexical = PathUtil.join(dir, path)
        let name = String(lexical.dropFirst(PathUtil.directory(of: lexical).count).drop { $0 == "/" })
        // (An extension that misspells `routes` is left out too: `Catalog.route`.)
        func stem(_ n: String) -> String {
            if n.hasSuffix(".routes") { return String(n.dropLast(7)) }
            if let dot = n.lastIndex(of: "."), dot > n.startIndex, Parser.misspells(Array(n[n.index(after: dot)...].utf8), "routes") {
                return String(n[..<dot])
            }
            return n
        }
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
            if let root = declarations.indices.first(where: { declarations[$0].kind == .root }) {
                programs.append(Program(root: Symbol(file: f, declaration: root), files: closures[f]))
            }
        }
    }
}
