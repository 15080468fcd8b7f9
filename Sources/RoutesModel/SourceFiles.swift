#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// The files of `files` that are symbolic links. The scan follows no link to a
        /// folder, so every other file's path, `dir` + `/` + its relative path, is canonical
        /// when `dir` is.
        public var links: Set<String> = []
    }

    /// Like ``routesFiles(under:)``, but looks at no more than `maxEntries` directory entries,
    /// so that a workspace folder such as `/` or a home directory cannot stall the caller.
    /// `skip` is asked about each folder (its path relative to `dir`): true leaves it out.
    public static func scan(under dir: String, maxEntries: Int, skip: ((String) -> Bool)? = nil) -> Scan {
        var result: [String] = []
        var stack = [""]
        var budget = maxEntries
        var unreadable: [(path: String, reason: String)] = []
        var links = Set<String>()
        while let rel = stack.popLast() {
            let full = rel.isEmpty ? dir : dir + "/" + rel
            guard let names = directoryEntries(full) else {
                unreadable.append((rel.isEmpty ? "." : rel, SourceReadError.systemMessage(errno)))
                continue
            }
            for name in names {
                if budget == 0 { return Scan(files: result.sorted(), complete: false, entries: maxEntries, unreadable: unreadable, links: links) }
                budget -= 1
                if name.hasPrefix(".") { continue }
                let childRel = rel.isEmpty ? name : rel + "/" + name
                let childFull = full + "/" + name
                // `lstat` first: a symbolic link to a directory is not followed (no loops).
                var st = stat()
                guard lstat(childFull, &st) == 0 else { continue }
                var mode = st.st_mode & S_IFMT
                let isLink = mode == S_IFLNK
                if isLink {
                    guard stat(childFull, &st) == 0 else {
                        // A link to nothing named as a source file is found, to be reported
                        // as unreadable where it is read (not left out in silence).
                        if name.hasSuffix(".routes") {
                            result.append(childRel)
                            links.insert(childRel)
                        }
                        continue
                    }
                    mode = st.st_mode & S_IFMT
                    if mode == S_IFDIR { continue }
                }
                if mode == S_IFDIR {
                    if skip?(childRel) ?? false { continue }
                    stack.append(childRel)
                } else if name.hasSuffix(".routes") {
                    result.append(childRel)
                    if isLink { links.insert(childRel) }
                }
            }
        }
        return Scan(files: result.sorted(), complete: true, entries: maxEntries - budget, unreadable: unreadable, links: links)
    }
}
