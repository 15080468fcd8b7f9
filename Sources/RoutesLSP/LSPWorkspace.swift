import CMalloc
import Dispatch
import Synchronization
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import RoutesWorkspace

/// The server's view of the workspace: the `.routes` files under the workspace folders,
/// the open documents over them, and the analysis of the current snapshot.
final class LSPWorkspace {
    /// The workspace folders as the client gave them (canonical).
    private(set) var folders: [String] = []
    /// The folders scanned for `.routes` files: each folder's workspace root (the nearest
    /// folder upward holding routes.json, else .git; else the folder itself), as `routes lint`
    /// finds it, so that the editor and the command line check a file alike.
    private(set) var roots: [String] = []
    /// The config of each workspace root that has a routes.json, as last read.
    private(set) var configs: [String: (path: String, loaded: ProjectConfig.Loaded)] = [:]
    /// The workspace root of each folder asked about (a file's folder), found once per snapshot
    /// of the configs.
    private var rootOfFolder: [String: String?] = [:]
    /// Canonical paths of the `.routes` files found under the roots.
    private(set) var files: [String] = []
    let provider = OverlayProvider()
    var store = DocumentStore()
    /// At most this many directory entries are looked at per scan of the workspace folders
    /// (a folder such as `/` or a home directory must not stall the server).
    var scanLimit = LintInputs.scanLimit
    private var cached: AnalysisSession?
    /// The last analysis after a change made it stale: the next one keeps its programs whose
    /// files did not change.
    private var stale: AnalysisSession?
    /// Files parsed for the last snapshot: an edit to one file parses only that file again.
    let parseCache = ParseCache()
    /// The workspace's files as found on disk at the last scan, read, parsed and lowered on
    /// other threads from then on (see `startReadingAhead()`), for the next snapshot.
    private var readAhead: SharedWorkList<ReadAhead?>?
    /// The most files a scan finds for them to be read ahead (see `startReadingAhead()`).
    static let filesReadAhead = 32
    private var cachedByPath: [String: FileID] = [:]
    /// Analyses replaced since the last publication: `releaseRetired()` frees them on another
    /// thread once the diagnostics are out (freeing an analysis of a 10k-line program, its
    /// trees, models, flows and decision diagrams, is thousands of deallocations).
    private var retired: [AnalysisSession] = []

    private func retire(_ session: AnalysisSession?) {
        if let session { retired.append(session) }
    }

    /// Frees the analyses replaced since the last call, on another thread (the last reference
    /// to each is dropped there; what the current analysis shares with them stays).
    func releaseRetired() {
        guard !retired.isEmpty else { return }
        let box = Retired(retired)
        retired = []
        let releases = self.releases
        releases.enter()
        DispatchQueue.global(qos: .utility).async {
            box.release()
            releases.leave()
        }
        // Once no edit has come for a second, what the freed analyses held goes back to the
        // system when it is a fair part of what malloc holds: else the resident size stays at
        // the most the server ever held at once (two snapshots during an edit). Not sooner:
        // a trim holds malloc's locks while it walks the free memory, which would slow the
        // next edit of someone typing.
        let generation = trimClock.generation.add(1, ordering: .relaxed).newValue
        let clock = trimClock
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(1)) {
            guard clock.generation.load(ordering: .relaxed) == generation else { return }
            let free = routes_malloc_free_bytes(), arena = routes_malloc_arena_bytes()
            if free >= 4 << 20 && free * 8 >= arena { _ = routes_malloc_trim() }
        }
    }

    /// Counts the releases of analyses, so that a trim planned after one is dropped when
    /// another came since (see `releaseRetired()`).
    private let trimClock = TrimClock()

    /// The releases of retired analyses under way (see `releaseRetired()`).
    private let releases = DispatchGroup()

    /// Waits until the analyses handed off for release are freed. Called before an analysis
    /// is made: when edits come faster than a release ends (the one before the last edit's,
    /// still freeing while the next edit arrives), the server would otherwise hold three
    /// snapshots at once instead of two, a third at the peak. A release
    /// of an edited snapshot frees a few large arrays and ends long before the next edit.
    private func awaitReleases() {
        releases.wait()
    }

    func setRoots(_ paths: [String]) {
        folders = paths.compactMap { provider.canonicalPath($0) ?? PathUtil.normalize($0) }
        reloadConfigs()
    }

    /// Finds the workspace roots and reads their configs again (at start, when folders change,
    /// and when a routes.json changes on disk), then scans.
    func reloadConfigs() {
        configs = [:]
        rootOfFolder = [:]
        var found: [String] = []
        for folder in folders {
            let root = discoveredRoot(ofFolder: folder) ?? folder
            if !found.contains(root) { found.append(root) }
        }
        // A root inside another is scanned with it.
        roots = found.filter { r in !found.contains { $0 != r && PathUtil.isInside(r, root: $0) } }
        rescan()
    }

    /// The marked workspace root of a folder (see `WorkspaceRoot`), reading its config once.
    private func discoveredRoot(ofFolder folder: String) -> String? {
        if let known = rootOfFolder[folder] { return known }
        let found = WorkspaceRoot.find(for: folder)
        if let found, let config = found.configPath, configs[found.path] == nil {
            configs[found.path] = (config, ProjectConfig.load(config))
        }
        rootOfFolder[folder] = found?.path
        return found?.path
    }

    /// The rule settings of each root that has a config without problems.
    var settings: [String: RuleSettings] {
        configs.mapValues { $0.loaded.config.rules }
    }

    /// Finds the `.routes` files under the roots again (at start, and when files are
    /// created or deleted).
    func rescan() {
        var found: [String] = []
        var seen = Set<String>()
        var budget = scanLimit
        for root in roots {
            let config = configs[root]?.loaded.config ?? ProjectConfig()
            let scan = SourceFiles.scan(under: root, maxEntries: budget, skip: config.excludes)
            if !scan.complete {
                Log.warning("stopped looking for .routes files under \(root) after \(scanLimit) directory entries; open files are still analysed")
            }
            budget -= scan.entries
            for (rel, reason) in scan.unreadable {
                Log.warning("cannot list \(rel == "." ? root : root + "/" + rel): \(reason)")
            }
            for rel in scan.files where !config.excludes(rel) {
                let full = root == "/" ? "/" + rel : root + "/" + rel
                let canonical = FileSystemProvider().canonicalPath(full) ?? full
                if seen.insert(canonical).inserted { found.append(canonical) }
            }
        }
        files = found
        startReadingAhead()
        invalidate()
    }

    /// One file of the workspace as it was on disk, parsed and lowered.
    struct ReadAhead: Sendable {
        var path: String
        var tree: SyntaxTree
        var model: FileModel
    }

    /// Starts reading, parsing and lowering the workspace's files on other threads: an editor
    /// sends `didOpen` right after `initialize`, and opens a file as saved, so the snapshot it
    /// asks for finds its files parsed (the parse cache takes a tree only when the bytes it
    /// reads then are the tree's, so a file changed since, on disk or in the editor, is parsed
    /// again). The first snapshot takes the results, parsing itself what no thread has begun.
    /// Only for a workspace of a few files: what it saves is bounded by the time between
    /// `initialize` and `didOpen` (a few milliseconds), which is most of parsing one large
    /// document but nothing next to a workspace of hundreds of files, where the extra threads'
    /// heaps cost memory and save no time (Benchmarks/HISTORY.md).
    private func startReadingAhead() {
        readAhead = nil
        guard files.count <= Self.filesReadAhead else { return }
        let paths = files
        let work = SharedWorkList(count: paths.count) { i -> ReadAhead? in
            guard case .success(let bytes) = FileSystemProvider().read(paths[i]) else { return nil }
            let tree = SyntaxTree.parse(SourceText(bytes: bytes))
            return ReadAhead(path: paths[i], tree: tree, model: Lowering.lower(tree))
        }
        work.start()
        readAhead = work
    }

    func invalidate() {
        if let cached {
            retire(stale)
            stale = cached
        }
        cached = nil
    }

    /// Whether the current snapshot already read `bytes` for `path` (a document opened as
    /// it is on disk): then the document changes nothing the analysis read, and the snapshot
    /// is kept, with the document as the text it reads from now on.
    func snapshotHolds(path: String, bytes: [UInt8]) -> Bool {
        guard let current = cached, let file = cachedByPath[path], bytes.count <= SourceLimits.maxFileBytes,
              current.project.files[file].text.bytes == bytes
        else { return false }
        provider.open[path] = bytes
        return true
    }

    /// Moves the current analysis over an edit inside one comment or whitespace run of the
    /// open document at `path` (see `Project.applyingTriviaEdit`). False when there is no
    /// current analysis or the edit is not such an edit: then call ``invalidate()``.
    func applyTriviaEdit(path: String, range: Range<Int>, replacement: [UInt8], newText: SourceText) -> Bool {
        awaitReleases()
        guard newText.count <= SourceLimits.maxFileBytes, let current = cached, let file = cachedByPath[path],
              let (project, edit) = current.project.applyingTriviaEdit(file: file, range: range, replacement: replacement, newSource: newText),
              current.canRebase(over: edit)
        else { return false }
        cached = current.rebased(onto: project, file: file, edit: edit)
        retire(current)
        provider.open[path] = newText.bytes
        return true
    }

    /// Moves the current analysis over an edit inside one declaration of the open document at
    /// `path` (see `Project.applyingDeclarationEdit`): only that declaration is parsed and
    /// resolved again; the analysis is kept when the declaration's analysed parts are
    /// unchanged (a type, a doc comment), else run again on the edited project. When the edit
    /// changed the declaration's name or kind, the new tree is handed to the parse cache and
    /// false returned: the caller invalidates, and the next snapshot resolves every file again
    /// without parsing this one. False also when there is no current analysis or the edit is
    /// not such an edit.
    func applyDeclarationEdit(path: String, range: Range<Int>, replacement: [UInt8], newText: SourceText) -> Bool {
        awaitReleases()
        guard newText.count <= SourceLimits.maxFileBytes, let current = cached, let file = cachedByPath[path],
              let edit = current.project.applyingDeclarationEdit(file: file, range: range, replacement: replacement, newSource: newText)
        else { return false }
        guard let project = edit.project else {
            Log.debug("declaration edit in \(path): a name or kind changed, every file is resolved again")
            parseCache.remember(path, tree: edit.tree, model: edit.model)
            return false
        }
        if edit.keepsAnalysis && current.canRebase(over: edit.shift) {
            Log.debug("declaration edit in \(path): the analysis is kept\(edit.changesLinks ? ", the links judged again" : "")")
            cached = current.rebased(onto: project, file: file, edit: edit.shift, relinking: edit.changesLinks)
        } else {
            cached = AnalysisSession.forEditor(project: project, reusing: current, splice: edit.nodes)
            Log.debug("declaration edit in \(path): analysed again (\(cached?.analysedPrograms ?? 0) programs, \(cached?.patchedGraphs ?? 0) over a patched graph)")
        }
        retire(current)
        provider.open[path] = newText.bytes
        return true
    }

    /// The workspace root an import of `path` may not leave: its marked root (see
    /// `WorkspaceRoot`), else the innermost workspace folder containing it, else its own
    /// directory.
    func workspaceRoot(for path: String) -> String {
        if let root = discoveredRoot(ofFolder: PathUtil.directory(of: path)) { return root }
        return folders.filter { PathUtil.isInside(path, root: $0) }.max { $0.count < $1.count } ?? PathUtil.directory(of: path)
    }

    /// How messages, hovers and titles name the file at `path`: relative to its workspace root,
    /// as `routes lint` run there prints it (an absolute path only outside the root).
    static func shownPath(_ path: String, root: String) -> String {
        guard PathUtil.isInside(path, root: root), path != root else { return path }
        return String(path.dropFirst(root == "/" ? 1 : root.count + 1))
    }

    /// The analysis of the current snapshot (computed on demand, kept until a change).
    var session: AnalysisSession {
        if let cached { return cached }
        awaitReleases()
        provider.open = [:]
        for doc in store.documents.values { provider.open[doc.path] = doc.text.bytes }
        var paths = files
        var seen = Set(files)
        for doc in store.documents.values.sorted(by: { $0.path < $1.path }) where seen.insert(doc.path).inserted {
            paths.append(doc.path)
        }
        let entries = paths.enumerated().map { i, p in
            let root = workspaceRoot(for: p)
            return ProjectEntry(canonicalPath: p, displayPath: Self.shownPath(p, root: root), group: i, workspaceRoot: root)
        }
        if let task = readAhead {
            readAhead = nil
            for case let file? in task.results() { parseCache.remember(file.path, tree: file.tree, model: file.model) }
        }
        let hitsBefore = parseCache.hits
        // The files no editor has open keep no syntax tree (a sixth of what a project holds):
        // a request that needs one parses it again (see `SourceFile.syntax`).
        let project = Project(entries: entries, provider: provider, cache: parseCache,
                              keeps: .editor(openDocuments: Set(store.documents.values.map(\.path))))
        let fresh = AnalysisSession.forEditor(project: project, reusing: stale, settings: settings)
        Log.debug("snapshot: \(fresh.project.files.count) files, \(parseCache.hits - hitsBefore) of them parsed before")
        retire(stale)
        stale = nil
        cached = fresh
        cachedByPath = [:]
        for file in fresh.project.files { cachedByPath[file.path] = file.id }
        return fresh
    }

    /// The file id of a path in the current snapshot.
    func fileID(_ path: String) -> FileID? {
        _ = session
        return cachedByPath[path]
    }

    /// The canonical path for a document URI (the path itself when the file does not exist).
    /// A buffer not yet saved (`untitled:Untitled-1`) gets a path of its own that no file on
    /// disk has, in the first workspace folder, where its imports are looked for (see
    /// `untitledPath(_:)`); any other scheme, none.
    func path(forURI uri: String) -> String? {
        guard let raw = FileURI.path(uri) else {
            // An open one keeps the path it was opened with, whatever the folders are now.
            return store.document(uri)?.path ?? untitledPath(uri)
        }
        let fs = FileSystemProvider()
        if let canonical = fs.canonicalPath(raw) { return canonical }
        // A file not on disk (unsaved): resolve its directory, so that imports, which resolve
        // from canonical directories, find it even through symbolic links.
        let normalized = PathUtil.normalize(raw)
        let dir = PathUtil.directory(of: normalized)
        guard let canonicalDir = fs.canonicalPath(dir) else { return normalized }
        let name = String(normalized.dropFirst(dir == "/" ? 1 : dir.count + 1))
        return canonicalDir == "/" ? "/" + name : canonicalDir + "/" + name
    }

    /// The path of an `untitled:` document: `<folder>/<name>.untitled.routes`, the name the
    /// URI's ASCII letters, digits and `-`, every other byte written `_XX` (its hexadecimal
    /// value), so that two URIs never share a path; in the first workspace folder, or without
    /// one in `/untitled`, a folder that is not there, so that its imports find nothing rather
    /// than files of wherever the server runs. Diagnostics and answers name the document by
    /// its own URI (`uri(for:)`).
    func untitledPath(_ uri: String) -> String? {
        guard uri.hasPrefix("untitled:") else { return nil }
        var name = ""
        for byte in uri.utf8.dropFirst("untitled:".count) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += "_" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        if name.isEmpty { name = "_" }  // (no other URI gives it: `_` alone is no escape)
        let folder = folders.first ?? "/untitled"
        return (folder == "/" ? "" : folder) + "/" + name + ".untitled.routes"
    }

    /// The URI to report for a file: the open document's own URI when there is one.
    func uri(for file: FileID) -> String {
        let path = session.project.files[file].path
        return store.uriByPath[path] ?? FileURI.uri(path)
    }
}

/// Analyses handed to another thread to be freed there. Only their last references are
/// dropped: by then nothing on the server's thread reaches what they alone hold (a previous
/// session is never used again), and what they share with the current analysis is only
/// released (reference counts are atomic).
private final class TrimClock: Sendable {
    let generation = Atomic<Int>(0)
}

private final class Retired: @unchecked Sendable {
    private var sessions: [AnalysisSession]
    init(_ sessions: [AnalysisSession]) { self.sessions = sessions }
    func release() { sessions.removeAll() }
}
