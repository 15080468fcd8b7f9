import TestSupport
import RoutesModel
import RoutesSyntax


enum ReferenceSupport {
    static let workspace = "/ws"
    static let mainPath = "/ws/App.routes"

    /// A one-file project: `App.routes` holding `source`.
    static func project(_ source: String) -> Project {
        let provider = MemoryProvider(files: [mainPath: source])
        return Project(
            entries: [ProjectEntry(canonicalPath: mainPath, displayPath: "App.routes", group: 0, workspaceRoot: workspace)],
            provider: provider)
    }

    /// `line:col` (1-based, columns in bytes; the generated programs are ASCII).
    static func position(_ offset: Int, in project: Project, file: FileID) -> String {
        let p = project.files[file].text.position(of: offset, encoding: .utf8)
        return "\(p.line + 1):\(p.column + 1)"
    }

    /// The source with line numbers, for failure messages.
    static func numbered(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { i, line in
                let n = String(i + 1)
                return String(repeating: " ", count: max(0, 3 - n.count)) + n + "| " + line
            }
            .joined(separator: "\n")
    }
}
