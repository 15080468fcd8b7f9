import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesModel
import RoutesWorkspace

/// The files a preview or the code generator reads, from the paths named on the command
/// line: each path's workspace root as `routes lint` finds it (see `LintInputs`), without the
/// other files of the workspace (those commands need the programs of the files named only).
struct Inputs {
    var entries: [ProjectEntry] = []
    /// Messages for arguments that cannot be read (exit status 2).
    var failures: [String] = []

    init(paths: [String], root: String?, provider: FileSystemProvider) throws {
        let fixedRoot: String? = root.flatMap { provider.canonicalPath($0) }
        let inputs = LintInputs(paths: paths, fixedRoot: fixedRoot, stdin: nil, cwd: currentDirectory(), provider: provider,
                                scanWorkspaces: false)
        entries = inputs.entries
        failures = inputs.failures.map { "cannot read '\($0.path)': \($0.message)" }
    }
}

/// A `--root` must name a directory (a `ValidationError`, so that argument-parser prints the
/// usage of the subcommand it was given to).
func validateRoot(_ root: String?) throws {
    guard let root else { return }
    guard let canonical = FileSystemProvider().canonicalPath(root), isDirectory(canonical) else {
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
