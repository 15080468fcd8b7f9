import RoutesModel
import RoutesSyntax

/// Files in memory, by path, so that a test builds a `Project` from strings (or raw bytes,
/// for invalid UTF-8) without touching the disk.
public struct MemoryProvider: SourceProvider {
    public var files: [String: [UInt8]]

    public init(files: [String: String]) { self.files = files.mapValues { Array($0.utf8) } }
    public init(bytes: [String: [UInt8]]) { files = bytes }

    public func canonicalPath(_ path: String) -> String? {
        let p = PathUtil.normalize(path)
        return files[p] != nil ? p : nil
    }

    public func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        files[canonicalPath].map { .success($0) } ?? .failure(.notFound)
    }
}
