import RoutesModel

/// Texts in memory by canonical path, for a project with fixes applied. A path it does not
/// hold is asked of `base` (an import through a symbolic link, or of a file the project has
/// not read, such as the one an import's fix points at).
struct MemorySources: SourceProvider {
    let texts: [String: [UInt8]]
    let base: SourceProvider?

    func canonicalPath(_ path: String) -> String? {
        let normalized = PathUtil.normalize(path)
        if texts[normalized] != nil { return normalized }
        return base?.canonicalPath(path)
    }

    func whyNoCanonicalPath(_ path: String) -> String? {
        texts[PathUtil.normalize(path)] != nil ? nil : base?.whyNoCanonicalPath(path)
    }

    func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        if let text = texts[canonicalPath] { return .success(text) }
        return base?.read(canonicalPath) ?? .failure(.notFound)
    }
}
