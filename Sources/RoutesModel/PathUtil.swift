#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lexical path helpers (no file-system access).
public enum PathUtil {
    /// Joins and normalizes `a/./b/../c` lexically. Keeps a leading `/`, drops `./` prefixes.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                    continue
                }
                if absolute { continue }
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// A path named on the command line as it is printed: as given, without a leading `./`
    /// (or a trailing `/` of a folder), so that `t/../t/App.routes` is not shown as another
    /// spelling; "." for the current folder.
    public static func asGiven(_ path: String) -> String {
        var rest = Substring(path)
        while rest.hasPrefix("./") {
            rest = rest.dropFirst(2)
            while rest.hasPrefix("/") { rest = rest.dropFirst() }
        }
        while rest.count > 1 && rest.hasSuffix("/") { rest = rest.dropLast() }
        return rest.isEmpty ? "." : String(rest)
    }

    /// `rel`, a path a scan found under a folder named on the command line, as printed: after
    /// the folder as given (see `asGiven(_:)`).
    public static func joinAsGiven(_ folder: String, _ rel: String) -> String {
        let base = asGiven(folder)
        if base == "." { return rel }
        return base.hasSuffix("/") ? base + rel : base + "/" + rel
    }

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    public static func join(_ base: String, _ rel: String) -> String {
        if rel.hasPrefix("/") { return normalize(rel) }
        if base == "." { return normalize(rel) }
        return normalize(base + "/" + rel)
    }

    /// The path of `target` relative to the folder of `from` (both canonical), as an import
    /// writes it.
    public static func relativePath(from: String, to target: String) -> String {
        let base = directory(of: from).split(separator: "/").map(String.init)
        let parts = target.split(separator: "/").map(String.init)
        var common = 0
        while common < base.count && common < parts.count - 1 && base[common] == parts[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + parts[common...]).joined(separator: "/")
    }

    /// True when `path` is `root` or inside it (both canonical).
    public static func isInside(_ path: String, root: String) -> Bool {
        if root == "/" { return path.hasPrefix("/") }
        return path == root || path.hasPrefix(root + "/")
    }
}
