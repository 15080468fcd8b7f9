#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesModel

/// Where a project starts. The root of a file is the nearest folder upward (from the file's
/// folder, or from a folder itself) that holds `routes.json`; else the nearest that holds
/// `.git`; else none, and the caller's own rule applies. The command line and the language
/// server find the same root for the same file, whatever the current directory.
public struct WorkspaceRoot: Sendable, Hashable {
    /// Canonical path of the folder.
    public var path: String
    /// Why it is the root.
    public var marker: Marker

    public enum Marker: Sendable, Hashable {
        /// It holds `routes.json` (at `config`, canonical).
        case config(String)
        /// It holds `.git`.
        case git
    }

    /// The config file's path, when the root has one.
    public var configPath: String? {
        if case .config(let path) = marker { return path }
        return nil
    }

    public static let configName = "routes.json"

    /// The root of a canonical path (a file or a folder), if one is marked.
    public static func find(for canonicalPath: String) -> WorkspaceRoot? {
        var st = stat()
        let isDirectory = stat(canonicalPath, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
        let start = isDirectory ? canonicalPath : PathUtil.directory(of: canonicalPath)
        var gitRoot: String? = nil
        var dir = start
        while true {
            let config = join(dir, configName)
            if exists(config) { return WorkspaceRoot(path: dir, marker: .config(config)) }
            if gitRoot == nil && exists(join(dir, ".git")) { gitRoot = dir }
            if dir == "/" || dir.isEmpty { break }
            dir = PathUtil.directory(of: dir)
        }
        return gitRoot.map { WorkspaceRoot(path: $0, marker: .git) }
    }

    private static func join(_ dir: String, _ name: String) -> String { dir == "/" ? "/" + name : dir + "/" + name }

    /// Whether something is at `path` (a `routes.json` that is a folder or a broken link is
    /// still a marker: reading it reports the problem).
    private static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }
}

extension WorkspaceRoot {
    /// The config file in a folder, if there is one.
    static func configIn(_ folder: String) -> String? {
        let path = folder == "/" ? "/routes.json" : folder + "/routes.json"
        var st = stat()
        return lstat(path, &st) == 0 ? path : nil
    }
}
