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

    /// A system error as the messages say it: `too many levels of symbolic links`.
    public static func systemMessage(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// What a failed `stat` or `open` of a path means: nothing there, or something there that
    /// cannot be reached.
    public static func system(_ code: Int32) -> SourceReadError {
        code == ENOENT || code == ENOTDIR ? .notFound : .unreadable(systemMessage(code))
    }

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
    /// Why ``canonicalPath(_:)`` found nothing when it is not that nothing is there (a
    /// symbolic link that leads back to itself, a folder that cannot be searched); nil when
    /// the path names nothing.
    func whyNoCanonicalPath(_ path: String) -> String?
    /// The bytes of a file, by canonical path.
    func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError>
    /// The names of the `*.routes` files in a folder (by canonical path), for the suggestion
    /// of an import that finds no file; nil when the provider cannot list it.
    func routesFileNames(inFolder canonicalFolder: String) -> [String]?
    /// Whether `read(_:)` may be called from several threads at once (a project then reads
    /// its files on every core). False by default: a provider that caches what it reads is
    /// not.
    var readsConcurrently: Bool { get }
}

extension SourceProvider {
    public func whyNoCanonicalPath(_ path: String) -> String? { nil }
    public func routesFileNames(inFolder canonicalFolder: String) -> [String]? { nil }
    public var readsConcurrently: Bool { false }
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
