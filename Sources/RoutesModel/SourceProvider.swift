#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read.
public enum SourceReadError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound
    case isDirectory
    case unreadable(String)
    /// A device, FIFO or socket: reading it could block forever or never end.
    case notRegularFile
    /// Larger than ``SourceLimits/maxFileBytes``; the size in bytes.
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .notFound: return "no such file"
        case .isDirectory: return "is a directory"
        case .unreadable(let why): return why
        case .notRegularFile: return "not a regular file"
        case .tooLarge(let size):
            return "the file is too large (\(SourceLimits.mebibytes(size)); the limit is \(SourceLimits.mebibytes(SourceLimits.maxFileBytes)))"
        }
    }
}

/// Limits on what `routes` reads, so that no input makes it hang or exhaust memory.
public enum SourceLimits {
    /// The largest source file read or analysed: 16 MiB (a generated 100,000-line program is
    /// about 2 MiB).
    public static let maxFileBytes = 16 << 20

    /// `12.3 MiB`.
    public static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}

/// Where source text comes from: the file system for the CLI, open editor buffers over the
/// file system for the language server.
public protocol SourceProvider: Sendable {
    /// The absolute path with symbolic links resolved, if the file exists.
    func canonicalPath(_ path: String) -> String?
    /// The bytes of a file, by canonical path.
    func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError>
    /// The names of the `*.routes` files in a folder (by canonical path), for the suggestion
    /// of an import that finds no file; nil when the provider cannot list it.
    func routesFileNames(inFolder canonicalFolder: String) -> [String]?
}

extension SourceProvider {
    public func routesFileNames(inFolder canonicalFolder: String) -> [String]? { nil }
}

/// Reads files from disk. Never writes.
public struct FileSystemProvider: SourceProvider {
    public init() {}

    public func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public func routesFileNames(inFolder canonicalFolder: String) -> [String]? {
        directoryEntries(canonicalFolder)?.filter { $0.hasSuffix(".routes") && !$0.hasPrefix(".") }
    }

    /// Why ``read(_:)`` would fail, found with `stat` alone (nil: it looks readable), so that
    /// callers can report unreadable inputs before reading anything.
    public func problem(_ canonicalPath: String) -> SourceReadError? {
        var st = stat()
        guard stat(canonicalPath, &st) == 0 else { return .notFound }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .isDirectory }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .notRegularFile }
        if Int(st.st_size) > SourceLimits.maxFileBytes { return .tooLarge(Int(st.st_size)) }
        guard access(canonicalPath, R_OK) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        return nil
    }

    public func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        var st = stat()
        guard stat(canonicalPath, &st) == 0 else { return .failure(.notFound) }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(.isDirectory) }
        // Devices, FIFOs and sockets could block or never end (`/dev/zero`, a named pipe).
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
        if Int(st.st_size) > SourceLimits.maxFileBytes { return .failure(.tooLarge(Int(st.st_size))) }
        let fd = open(canonicalPath, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        // The file may be swapped for something else between `stat` and `open`.
        var opened = stat()
        guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(Int(opened.st_size), SourceLimits.maxFileBytes))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            // A file that grows while it is read (or a /proc file that lies about its size).
            if bytes.count > SourceLimits.maxFileBytes { return .failure(.tooLarge(bytes.count)) }
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
        scan(under: dir, maxEntries: .max).files
    }

    /// What ``scan(under:maxEntries:skip:)`` found.
    public struct Scan: Sendable {
        /// Relative paths of the `*.routes` files, sorted.
        public var files: [String]
        /// False when the scan stopped at `maxEntries` directory entries.
        public var complete: Bool
        /// How many directory entries were looked at.
        public var entries: Int
        /// Directories that could not be listed (relative paths, `.` for `dir` itself), with why.
        public var unreadable: [(path: String, reason: String)] = []
    }

    /// Like ``routesFiles(under:)``, but looks at no more than `maxEntries` directory entries,
    /// so that a workspace folder such as `/` or a home directory cannot stall the caller.
    /// `skip` is asked about each folder (its path relative to `dir`): true leaves it out.
    public static func scan(under dir: String, maxEntries: Int, skip: ((String) -> Bool)? = nil) -> Scan {
        var result: [String] = []
        var stack = [""]
        var budget = maxEntries
        var unreadable: [(path: String, reason: String)] = []
        while let rel = stack.popLast() {
            let full = rel.isEmpty ? dir : dir + "/" + rel
            guard let names = directoryEntries(full) else {
                unreadable.append((rel.isEmpty ? "." : rel, String(cString: strerror(errno))))
                continue
            }
            for name in names {
                if budget == 0 { return Scan(files: result.sorted(), complete: false, entries: maxEntries, unreadable: unreadable) }
                budget -= 1
                if name.hasPrefix(".") { continue }
                let childRel = rel.isEmpty ? name : rel + "/" + name
                let childFull = full + "/" + name
                // `lstat` first: a symbolic link to a directory is not followed (no loops).
                var st = stat()
                guard lstat(childFull, &st) == 0 else { continue }
                var mode = st.st_mode & S_IFMT
                if mode == S_IFLNK {
                    guard stat(childFull, &st) == 0 else { continue }
                    mode = st.st_mode & S_IFMT
                    if mode == S_IFDIR { continue }
                }
                if mode == S_IFDIR {
                    if skip?(childRel) ?? false { continue }
                    stack.append(childRel)
                } else if name.hasSuffix(".routes") {
                    result.append(childRel)
                }
            }
        }
        return Scan(files: result.sorted(), complete: true, entries: maxEntries - budget, unreadable: unreadable)
    }
}

/// The names in a directory (without `.` and `..`), in no particular order; nil when it
/// cannot be read (`errno` says why). (Plain `opendir`, so that `routes` needs no Foundation:
/// loading it and ICU took most of the process start.)
func directoryEntries(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<length], as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
