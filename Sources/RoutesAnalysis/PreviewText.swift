import RoutesModel
import RoutesSyntax

extension Project {
    /// `path:LINE:COL` of a byte offset (1-based, columns in Unicode scalars), with the file's
    /// display path; `path:LINE` without `column`.
    public func locationText(file: FileID, offset: Int, column: Bool = true) -> String {
        let sourceFile = files[file]
        let position = sourceFile.text.position(of: offset, encoding: .scalars)
        return "\(sourceFile.displayPath):\(position.line + 1)" + (column ? ":\(position.column + 1)" : "")
    }

    /// `path:LINE:COL` of a builder node's head.
    public func locationText(_ node: NodeRef) -> String {
        locationText(file: node.file, offset: files[node.file].model.nodes[node.node].head.lowerBound)
    }
}

extension PathResolution {
    /// The resolution as text: the environment used, then one line per element, aligned:
    ///
    ///     environment: isLoggedIn=true, detailStore=absent (defaults: isLoggedIn)
    ///     Home     built at App.routes:47:7 (push)
    ///     Detail   not built: `if let detailStore`: absent
    ///     Detail   not built, because element 2 (Detail) was not built
    ///
    /// Aligned on the widest element of at most `alignedWidth` characters: a longer one (long
    /// arguments) is followed by two blanks alone, and pads no other line.
    public func text(project: Project) -> String {
        var out = "environment: \(environment.summary)\n"
        let width = elements.map { $0.text.unicodeScalars.count }.filter { $0 <= Self.alignedWidth }.max() ?? 0
        for element in elements {
            let pad = String(repeating: " ", count: max(0, width - element.text.unicodeScalars.count) + 2)
            out += element.text + pad
            if let node = element.node {
                if let builtAs = element.builtAs {
                    out += "built as \(builtAs) at \(project.locationText(node))"
                } else {
                    out += "built at \(project.locationText(node))"
                }
                out += " (\(element.presentation?.previewText ?? "push"))"
                if let wildcard = element.wildcard {
                    let head = project.quoted(file: wildcard.file, project.files[wildcard.file].model.nodes[wildcard.node].head)
                    out += ", replaced by `\(head)` at \(project.locationText(wildcard))"
                }
            } else if let reason = element.reason {
                out += reason.hasPrefix("not built") ? reason : "not built: \(reason)"
            } else {
                out += "not built"
            }
            out += "\n"
        }
        return out
    }

    /// The widest element `text(project:)` aligns the others on.
    static let alignedWidth = 40
}
