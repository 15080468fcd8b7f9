import RoutesModel
import RoutesSyntax

extension Presentation {
    /// How previews write it: `push`, `sheet`, `sheet, no push`.
    public var previewText: String {
        switch self {
        case .push: return "push"
        case .sheet: return "sheet"
        case .sheetNoPush: return "sheet, no push"
        }
    }
}

extension Project {
    /// `path:LINE:COL` of a byte offset (1-based, columns in Unicode scalars), with the file's
    /// display path.
    public func locationText(file: FileID, offset: Int) -> String {
        let f = files[file]
        let p = f.text.position(of: offset, encoding: .scalars)
        return "\(f.displayPath):\(p.line + 1):\(p.column + 1)"
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
    public func text(project: Project) -> String {
        var out = "environment: \(environment.summary)\n"
        let width = elements.map { $0.text.unicodeScalars.count }.max() ?? 0
        for e in elements {
            let pad = String(repeating: " ", count: width - e.text.unicodeScalars.count + 2)
            out += e.text + pad
            if let node = e.node {
                if let builtAs = e.builtAs {
                    out += "built as \(builtAs) at \(project.locationText(node))"
                } else {
                    out += "built at \(project.locationText(node))"
                }
                out += " (\(e.presentation?.previewText ?? "push"))"
                if let w = e.wildcard {
                    let head = project.quoted(file: w.file, project.files[w.file].model.nodes[w.node].head)
                    out += ", replaced by `\(head)` at \(project.locationText(w))"
                }
            } else if let reason = e.reason {
                out += reason.hasPrefix("not built") ? reason : "not built: \(reason)"
            } else {
                out += "not built"
            }
            out += "\n"
        }
        return out
    }
}
