import RoutesModel

/// The file system, with some files' text given in memory (the standard input's).
public struct OverlayFileSystem: SourceProvider {
    public var files: [String: [UInt8]]
    private let disk = FileSystemProvider()

    public init(files: [String: [UInt8]] = [:]) { self.files = files }

    /// Its texts are not changed while a project reads them, and the disk keeps nothing.
    public var readsConcurrently: Bool { true }

    public func canonicalPath(_ path: String) -> String? {
        if files[path] != nil { return path }
        if let canonical = disk.canonicalPath(path) { return canonical }
        let normalized = PathUtil.normalize(path)
        return files[normalized] != nil ? normalized : nil
    }

    public func whyNoCanonicalPath(_ path: String) -> String? {
        files[path] != nil || files[PathUtil.normalize(path)] != nil ? nil : disk.whyNoCanonicalPath(path)
    }

    public func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        if let bytes = files[canonicalPath] {
            return bytes.count > SourceLimits.maxFileBytes ? .failure(.tooLarge(bytes.count)) : .success(bytes)
        }
        return disk.read(canonicalPath)
    }

    public func problem(_ canonicalPath: String) -> SourceReadError? {
        if let bytes = files[canonicalPath] { return bytes.count > SourceLimits.maxFileBytes ? .tooLarge(bytes.count) : nil }
        return disk.problem(canonicalPath)
    }

    public func routesFileNames(inFolder canonicalFolder: String) -> [String]? {
        disk.routesFileNames(inFolder: canonicalFolder)
    }
}
