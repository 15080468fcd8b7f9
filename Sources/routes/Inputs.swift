import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesModel

/// Turns the paths named on the command line into project entries: directories are
/// searched recursively for `*.routes` (hidden directories skipped, symbolic links to
/// directories not followed), files are taken as they are.
struct Inputs {
    var entries: [ProjectEntry] = []
    /// Messages for arguments that cannot be read (exit status 2).
    var failures: [String] = []

    init(paths: [String], root: String?, provider: FileSystemProvider) throws {
        let cwd = currentDirectory()
        let canonicalCwd = provider.canonicalPath(cwd) ?? cwd
        var fixedRoot: String? = nil
        if let root {
            try validateRoot(root)
            fixedRoot = provider.canonicalPath(root)
        }
        var resolved: [(given: String, canonical: String)] = []
        for p in paths {
            guard let c = provider.canonicalPath(p) else {
                failures.append("cannot read '\(p)': no such file or directory")
                continue
            }
            resolved.append((p, c))
        }
        if fixedRoot == nil && resolved.allSatisfy({ PathUtil.isInside($0.canonical, root: canonicalCwd) }) {
            fixedRoot = canonicalCwd
        }
        var seen = Set<String>()
        for (group, item) in resolved.enumerated() {
            let display = Inputs.displayPath(item.given)
            if isDirectory(item.canonical) {
                let root = fixedRoot ?? item.canonical
                let scan = SourceFiles.scan(under: item.canonical, maxEntries: .max)
                // A folder that cannot be listed is reported like a file that cannot be read.
                for (rel, reason) in scan.unreadable {
                    failures.append("cannot read '\(rel == "." ? item.given : PathUtil.join(display, rel))': \(reason)")
                }
                for rel in scan.files {
                    let canonical = provider.canonicalPath(item.canonical + "/" + rel) ?? item.canonical + "/" + rel
                    guard seen.insert(canonical).inserted else { continue }
                    // A file found in a directory that cannot be read is reported, not skipped.
                    if let why = provider.problem(canonical) {
                        failures.append("cannot read '\(PathUtil.join(display, rel))': \(why)")
                        continue
                    }
                    entries.append(ProjectEntry(canonicalPath: canonical, displayPath: PathUtil.join(display, rel),
                                                group: group, workspaceRoot: root))
                }
            } else {
                if let why = provider.problem(item.canonical) {
                    failures.append("cannot read '\(item.given)': \(why)")
                    continue
                }
                guard seen.insert(item.canonical).inserted else { continue }
                let root = fixedRoot ?? PathUtil.directory(of: item.canonical)
                entries.append(ProjectEntry(canonicalPath: item.canonical, displayPath: display,
                                            group: group, workspaceRoot: root))
            }
        }
    }

    /// The path as the user gave it, without a leading `./` or trailing `/`.
    static func displayPath(_ given: String) -> String {
        PathUtil.normalize(given)
    }

}

/// A `--root` must name a directory (a `ValidationError`, so that argument-parser prints the
/// usage of the subcommand it was given to).
func validateRoot(_ root: String?) throws {
    guard let root else { return }
    guard let r = FileSystemProvider().canonicalPath(root), isDirectory(r) else {
        throw ValidationError("--root \(root): not a directory")
    }
}

func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// The working directory ("." if it cannot be found).
func currentDirectory() -> String {
    guard let raw = getcwd(nil, 0) else { return "." }
    defer { free(raw) }
    return String(cString: raw)
}
