#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why a file could not be read.
public enum SourceReadError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound
    case isDirectory
    case unreadable(String)

    public var description: String {
        switch self {
        case .notFound: return "no such file"
        case .isDirectory: return "is a directory"
        case .unreadable(let why): return why
        }
    }
}

/// Where source text comes from: the file system for the CLI, open editor buffers over the
/// file system for the language server.
public protocol SourceProvider: Sendable {
    /// The absolute path with symbolic links resolved, if the file exists.
    func canonicalPath(_ path: String) -> String?
    /// The bytes of a file, by canonical path.
    func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError>
}

/// Reads files from disk. Never writes.
public struct FileSystemProvider: SourceProvider {
    public init() {}

    public func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        var st = stat()
        guard stat(canonicalPath, &st) == 0 else { return .failure(.notFound) }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(.isDirectory) }
        let fd = open(canonicalPath, O_RDONLY)
        guard fd >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(st.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return .success(bytes)
    }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ n: Int) -> Int {
    read(fd, buf, n)
}

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

    /// True when `path` is `root` or inside it (both canonical).
    public static func isInside(_ path: String, root: String) -> Bool {
        if root == "/" { return path.hasPrefix("/") }
        return path == root || path.hasPrefix(root + "/")
    }
}

/// Finding source files on disk.
public enum SourceFiles {
    /// Relative paths of the `*.routes` files under a directory, sorted. Hidden directories
    /// are skipped and symbolic links to directories are not followed (no loops).
    public static func routesFiles(under dir: String) -> [String] {
        var result: [String] = []
        var stack = [""]
        let fm = FileManager.default
        while let rel = stack.popLast() {
            let full = rel.isEmpty ? dir : dir + "/" + rel
            guard let names = try? fm.contentsOfDirectory(atPath: full) else { continue }
            for name in names {
                if name.hasPrefix(".") { continue }
                let childRel = rel.isEmpty ? name : rel + "/" + name
                let childFull = full + "/" + name
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: childFull, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    let attrs = try? fm.attributesOfItem(atPath: childFull)
                    if attrs?[.type] as? FileAttributeType == .typeSymbolicLink { continue }
                    stack.append(childRel)
                } else if name.hasSuffix(".routes") {
                    result.append(childRel)
                }
            }
        }
        return result.sorted()
    }
}
