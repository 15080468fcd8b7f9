#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesAnalysis
import RoutesModel

/// What a lint reads and what it reports, from the paths named on the command line: each
/// path's workspace root (see `WorkspaceRoot`) and its config, the files found in named
/// folders (hidden folders skipped, symbolic links to folders not followed, `exclude` globs
/// applied), and every other `.routes` file of each marked workspace, so that a file is
/// checked as part of every program of its workspace that contains it, whichever path named
/// it. Files named directly are read even when a glob excludes them.
public struct LintInputs {
    /// The files named or found, first (in argument order, then path), then the other files
    /// of their workspaces.
    public private(set) var entries: [ProjectEntry] = []
    /// Canonical paths of the files named or found in named folders: with what they import,
    /// the files the lint reports.
    public private(set) var named: [String] = []
    /// Arguments that cannot be read: the path as given and why (exit status 2).
    public private(set) var failures: [(path: String, message: String)] = []
    /// Problems of the configs involved (exit status 2; their defaults apply).
    public private(set) var configProblems: [ProjectConfig.Problem] = []
    /// The rule settings of each workspace root involved.
    public private(set) var settings: [String: RuleSettings] = [:]
    /// Whether a config involved asks for warnings to fail the lint.
    public private(set) var denyWarnings = false
    /// The workspace roots whose scan for other files stopped at `scanLimit` directory
    /// entries (the lint says so: files past the limit are not part of the programs).
    public private(set) var incompleteScans: [String] = []

    /// The most directory entries looked at per workspace scan (as the language server's).
    public static let scanLimit = 200_000

    /// A text given on standard input instead of a file: its path (as named by
    /// `--stdin-filename`, or `stdin.routes` in the current directory) and its bytes.
    public struct Stdin {
        public var displayPath: String
        public var bytes: [UInt8]
        public init(displayPath: String, bytes: [UInt8]) {
            self.displayPath = displayPath
            self.bytes = bytes
        }
    }

    /// - Parameters:
    ///   - paths: as given; `-` is the standard input (`stdin`).
    ///   - fixedRoot: `--root`, canonical: the workspace root of every path.
    ///   - provider: reads files (and serves the standard input's text, see `path(ofStdin:cwd:provider:)`).
    ///   - scanWorkspaces: whether to read the other files of the workspaces (a lint does; a
    ///     preview or the code generator, which need the programs of the files named only, do not).
    public init(paths: [String], fixedRoot: String?, stdin: Stdin?, cwd: String, provider: some SourceProvider,
                scanWorkspaces: Bool = true) {
        let canonicalCwd = provider.canonicalPath(cwd) ?? cwd
        let resolved = resolve(paths, stdin: stdin, cwd: canonicalCwd, provider: provider)
        // Today's rule for paths in no marked workspace: the current directory when every path
        // lies inside it, else each path's own folder.
        let allInside = resolved.allSatisfy { PathUtil.isInside($0.canonical, root: canonicalCwd) }
        var seen = Set<String>()
        var scannedRoots = Set<String>()
        // Every root, whatever found it (a marker, `--root`, the current folder, a path's own
        // folder): its other files are read, so that a file's diagnostics do not depend on
        // which files were named.
        var roots: [String] = []
        if let fixedRoot { load(WorkspaceRoot.configIn(fixedRoot), root: fixedRoot) }
        for (group, path) in resolved.enumerated() {
            let directory = !path.isStdin && isDirectory(path.canonical)
            let workspaceRoot = root(of: path.canonical, isDirectory: directory, fixedRoot: fixedRoot,
                                     cwdWhenAllInside: allInside ? canonicalCwd : nil, roots: &roots)
            if directory {
                if path.canonical == workspaceRoot { scannedRoots.insert(workspaceRoot) }
                addFolder(path, group: group, root: workspaceRoot, provider: provider, seen: &seen)
            } else {
                addFile(path, group: group, root: workspaceRoot, provider: provider, seen: &seen)
            }
        }
        if scanWorkspaces {
            addOtherFiles(of: roots.filter { !scannedRoots.contains($0) }, group: resolved.count, cwd: canonicalCwd,
                          provider: provider, seen: &seen)
        }
    }

    /// A path as given and as found: canonical, or the standard input's path.
    private struct ResolvedPath {
        var given: String
        var canonical: String
        var isStdin: Bool
    }

    /// The paths that exist, canonical; the others are failures.
    private mutating func resolve(_ paths: [String], stdin: Stdin?, cwd canonicalCwd: String,
                                  provider: some SourceProvider) -> [ResolvedPath] {
        var resolved: [ResolvedPath] = []
        for path in paths {
            if path == "-", let stdin {
                resolved.append(ResolvedPath(given: stdin.displayPath, canonical: Self.path(ofStdin: stdin, cwd: canonicalCwd, provider: provider),
                                             isStdin: true))
                continue
            }
            guard let canonical = provider.canonicalPath(path) else {
                failures.append((path, provider.whyNoCanonicalPath(path) ?? "no such file or directory"))
                continue
            }
            resolved.append(ResolvedPath(given: path, canonical: canonical, isStdin: false))
        }
        return resolved
    }

    /// The workspace root of a path: `--root`, else the folder of its nearest marker (whose
    /// config is read), else the current folder when every path lies inside it, else the
    /// path's own folder. Added to `roots` when it is new.
    private mutating func root(of canonical: String, isDirectory: Bool, fixedRoot: String?, cwdWhenAllInside: String?,
                               roots: inout [String]) -> String {
        let root: String
        if let fixedRoot {
            root = fixedRoot
        } else if let found = WorkspaceRoot.find(for: canonical) {
            load(found.configPath, root: found.path)
            root = found.path
        } else if let cwdWhenAllInside {
            root = cwdWhenAllInside
        } else {
            root = isDirectory ? canonical : PathUtil.directory(of: canonical)
        }
        if !roots.contains(root) { roots.append(root) }
        return root
    }

    /// The `.routes` files of a folder named on the command line, which is linted even when a
    /// glob excludes it: the globs that match it (or a folder above it) do not apply below it
    /// either.
    private mutating func addFolder(_ folderPath: ResolvedPath, group: Int, root: String, provider: some SourceProvider,
                                    seen: inout Set<String>) {
        let display = folderPath.given
        var config = configs[root] ?? ProjectConfig()
        let folder = Self.relative(folderPath.canonical, to: root)
        config.exclude = config.exclude.filter { !$0.matches(folder) }
        let scan = SourceFiles.scan(under: folderPath.canonical, maxEntries: .max) { rel in
            config.excludes(Self.relative(folderPath.canonical + "/" + rel, to: root))
        }
        for (rel, reason) in scan.unreadable {
            failures.append((rel == "." ? folderPath.given : PathUtil.joinAsGiven(display, rel), reason))
        }
        for rel in scan.files {
            let canonical = Self.canonical(rel, in: scan, under: folderPath.canonical, provider)
            if config.excludes(Self.relative(canonical, to: root)) { continue }
            guard seen.insert(canonical).inserted else { continue }
            if let why = Self.problem(canonical, provider) {
                failures.append((PathUtil.joinAsGiven(display, rel), why))
                continue
            }
            entries.append(ProjectEntry(canonicalPath: canonical, displayPath: PathUtil.joinAsGiven(display, rel), group: group, workspaceRoot: root))
            named.append(canonical)
        }
    }

    /// A file named on the command line (or the standard input's text), read even when a glob
    /// excludes it.
    private mutating func addFile(_ filePath: ResolvedPath, group: Int, root: String, provider: some SourceProvider,
                                  seen: inout Set<String>) {
        if !filePath.isStdin, let why = Self.problem(filePath.canonical, provider) {
            failures.append((filePath.given, why))
            return
        }
        guard seen.insert(filePath.canonical).inserted else { return }
        entries.append(ProjectEntry(canonicalPath: filePath.canonical, displayPath: PathUtil.asGiven(filePath.given), group: group,
                                    workspaceRoot: root))
        named.append(filePath.canonical)
    }

    /// The other files of each workspace, for the programs that contain the files named (not
    /// reported unless they are imported by one). A scan looks at no more than `scanLimit`
    /// directory entries, skipping hidden folders and not following symbolic links to folders,
    /// so that a root such as a home folder cannot stall the lint.
    private mutating func addOtherFiles(of roots: [String], group: Int, cwd canonicalCwd: String, provider: some SourceProvider,
                                        seen: inout Set<String>) {
        for root in roots {
            let config = configs[root] ?? ProjectConfig()
            let scan = SourceFiles.scan(under: root, maxEntries: Self.scanLimit, skip: config.excludes)
            if !scan.complete { incompleteScans.append(root) }
            for rel in scan.files {
                let canonical = Self.canonical(rel, in: scan, under: root, provider)
                if config.excludes(rel) || Self.problem(canonical, provider) != nil { continue }
                guard seen.insert(canonical).inserted else { continue }
                let display = PathUtil.isInside(canonical, root: canonicalCwd) && canonicalCwd != "/"
                    ? String(canonical.dropFirst(canonicalCwd.count + 1)) : canonical
                entries.append(ProjectEntry(canonicalPath: canonical, displayPath: display, group: group, workspaceRoot: root))
            }
        }
    }

    /// The canonical path of a file a scan of the canonical folder `folder` found: its path
    /// as found, unless the file is a symbolic link (the scan follows none to a folder), which
    /// spares a `realpath` (a system call per folder of the path) per file.
    private static func canonical(_ rel: String, in scan: SourceFiles.Scan, under folder: String, _ provider: some SourceProvider) -> String {
        // (Joined as they are: both are already normal, which `PathUtil.join` would check
        // again at a cost per file.)
        let found = folder == "/" ? "/" + rel : folder + "/" + rel
        guard scan.links.contains(rel) else { return found }
        return provider.canonicalPath(found) ?? found
    }

    private var configs: [String: ProjectConfig] = [:]

    /// Reads the config of a workspace root once.
    private mutating func load(_ configPath: String?, root: String) {
        guard configs[root] == nil else { return }
        guard let configPath else {
            configs[root] = ProjectConfig()
            return
        }
        let loaded = ProjectConfig.load(configPath)
        configProblems += loaded.problems
        let config = loaded.config
        configs[root] = config
        settings[root] = config.rules
        denyWarnings = denyWarnings || config.denyWarnings
    }

    /// Where the standard input's text lives: the canonical folder of `--stdin-filename`
    /// joined with its name (the file need not exist).
    public static func path(ofStdin stdin: Stdin, cwd: String, provider: some SourceProvider) -> String {
        let full = stdin.displayPath.hasPrefix("/") ? PathUtil.normalize(stdin.displayPath) : PathUtil.join(cwd, stdin.displayPath)
        let dir = PathUtil.directory(of: full)
        let name = String(full.dropFirst(dir == "/" ? 1 : dir.count + 1))
        let canonicalDir = provider.canonicalPath(dir) ?? dir
        return canonicalDir == "/" ? "/" + name : canonicalDir + "/" + name
    }

    /// `path` relative to `root` (both canonical).
    static func relative(_ path: String, to root: String) -> String {
        if root == "/" { return String(path.dropFirst()) }
        return PathUtil.isInside(path, root: root) ? String(path.dropFirst(root.count + 1)) : path
    }

    /// Why a file cannot be read, found without reading it (the file system's reasons), or nil.
    static func problem(_ canonical: String, _ provider: some SourceProvider) -> String? {
        if let fs = provider as? FileSystemProvider { return fs.problem(canonical).map { "\($0)" } }
        if let overlay = provider as? OverlayFileSystem { return overlay.problem(canonical).map { "\($0)" } }
        return nil
    }
}

func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}
