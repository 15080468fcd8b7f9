import RoutesModel

/// Reads open documents from the editor and everything else from disk (cached until the
/// client says the file changed). Never writes.
final class OverlayProvider: SourceProvider, @unchecked Sendable {
    // Mutated only by the server's single request thread, between analyses.
    var open: [String: [UInt8]] = [:]
    private var disk: [String: Result<[UInt8], SourceReadError>] = [:]
    private let fileSystem = FileSystemProvider()

    func canonicalPath(_ path: String) -> String? {
        if open[path] != nil { return path }
        return fileSystem.canonicalPath(path) ?? (open[PathUtil.normalize(path)] != nil ? PathUtil.normalize(path) : nil)
    }

    func whyNoCanonicalPath(_ path: String) -> String? {
        open[path] != nil || open[PathUtil.normalize(path)] != nil ? nil : fileSystem.whyNoCanonicalPath(path)
    }

    func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        if let text = open[canonicalPath] {
            // The editor keeps the whole text; the analyses skip a document this large.
            if text.count > SourceLimits.maxFileBytes { return .failure(.tooLarge(text.count)) }
            return .success(text)
        }
        if let cached = disk[canonicalPath] { return cached }
        let result = fileSystem.read(canonicalPath)
        disk[canonicalPath] = result
        return result
    }

    func routesFileNames(inFolder canonicalFolder: String) -> [String]? {
        var names = Set(fileSystem.routesFileNames(inFolder: canonicalFolder) ?? [])
        for path in open.keys where PathUtil.directory(of: path) == canonicalFolder && path.hasSuffix(".routes") {
            names.insert(String(path.dropFirst(canonicalFolder == "/" ? 1 : canonicalFolder.count + 1)))
        }
        return names.sorted()
    }

    func invalidate(_ path: String) { disk[path] = nil }
    func invalidateAll() { disk.removeAll() }
}
