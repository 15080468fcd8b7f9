import RoutesModel

/// The routing tree as a graph: Graphviz DOT and Mermaid. Both draw the nodes of a
/// ``RoutingTree`` with edges from parent to child (labelled `true`/`false`/`then`/`else`
/// under decisions); a `↻ name` recursion is drawn as a dashed back edge from its parent to
/// the node where that builder's expansion started (a recursion that starts at itself,
/// `builder b { b }`, stays a dashed node). Cut descendants are one `… (truncated: N more
/// nodes)` node. Screen nodes in `highlight` (e.g. those that built a path's elements) are
/// filled and bold.
public enum PreviewGraph {
    /// A label without the `label:` prefix (edges carry it).
    static func content(_ tree: RoutingTree, _ i: Int) -> String {
        tree.line(i, labelled: false)
    }

    /// Graphviz DOT: `digraph routes { ... }`; renders with `dot -Tsvg`.
    public static func dot(_ tree: RoutingTree, highlight: Set<NodeRef> = [], title: String? = nil) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for ch in text.unicodeScalars {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": break
                default: out.unicodeScalars.append(ch)
                }
            }
            return out + "\""
        }
        var out = "digraph routes {\n"
        if let title { out += "  graph [label=\(quoted(title)), labelloc=t];\n" }
        out += "  node [shape=box, fontname=\"Helvetica\"];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
        var edges = ""
        for (index, node) in tree.nodes.enumerated() {
            let isBackEdge = node.kind == .recursion && node.recursionTarget != nil
            if !isBackEdge {
                var attrs = ["label=\(quoted(content(tree, index)))"]
                var styles: [String] = []
                switch node.kind {
                case .root: attrs.append("shape=oval")
                case .screen: styles.append("rounded")
                case .empty: attrs.append("shape=plaintext")
                case .recursion, .reference: styles.append("dashed")
                default: break
                }
                if let source = node.source, highlight.contains(source), node.kind == .screen {
                    styles += ["filled", "bold"]
                    attrs.append("fillcolor=\"#ffe9a8\"")
                }
                if !styles.isEmpty { attrs.append("style=\(quoted(styles.joined(separator: ",")))") }
                out += "  n\(index) [\(attrs.joined(separator: ", "))];\n"
            }
            if let parent = node.parent {
                if isBackEdge {
                    let label = (node.label.map { "\($0): " } ?? "") + "↻ \(node.name ?? "?")"
                    edges += "  n\(parent) -> n\(node.recursionTarget!) [style=dashed, constraint=false, label=\(quoted(label))];\n"
                } else if let label = node.label {
                    edges += "  n\(parent) -> n\(index) [label=\(quoted(label))];\n"
                } else {
                    edges += "  n\(parent) -> n\(index);\n"
                }
            }
            if node.omitted > 0 {
                out += "  t\(index) [label=\(quoted(tree.truncationLine(index))), shape=plaintext];\n"
                edges += "  n\(index) -> t\(index) [style=dotted];\n"
            }
        }
        return out + edges + "}\n"
    }

    /// Mermaid: `flowchart TD`, labels quoted (`"` and `#`, `<`, `>` as entity codes).
    public static func mermaid(_ tree: RoutingTree, highlight: Set<NodeRef> = [], title: String? = nil) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for ch in text.unicodeScalars {
                switch ch {
                case "\"": out += "#quot;"
                case "#": out += "#35;"
                case "<": out += "#lt;"
                case ">": out += "#gt;"
                case "\n", "\r": out += " "
                default: out.unicodeScalars.append(ch)
                }
            }
            return out + "\""
        }
        var out = "flowchart TD\n"
        if let title {
            // A comment, so that the text still starts with `flowchart`.
            out += "  %% " + title.replacingNewlines() + "\n"
        }
        var edges = ""
        var built: [String] = []
        for (index, node) in tree.nodes.enumerated() {
            let isBackEdge = node.kind == .recursion && node.recursionTarget != nil
            if !isBackEdge {
                let label = quoted(content(tree, index))
                switch node.kind {
                case .root: out += "  n\(index)([\(label)])\n"
                case .screen: out += "  n\(index)(\(label))\n"
                default: out += "  n\(index)[\(label)]\n"
                }
                if let source = node.source, highlight.contains(source), node.kind == .screen { built.append("n\(index)") }
            }
            if let parent = node.parent {
                if isBackEdge {
                    let label = (node.label.map { "\($0): " } ?? "") + "↻ \(node.name ?? "?")"
                    edges += "  n\(parent) -.->|\(quoted(label))| n\(node.recursionTarget!)\n"
                } else if let label = node.label {
                    edges += "  n\(parent) -->|\(quoted(label))| n\(index)\n"
                } else {
                    edges += "  n\(parent) --> n\(index)\n"
                }
            }
            if node.omitted > 0 {
                out += "  t\(index)[\(quoted(tree.truncationLine(index)))]\n"
                edges += "  n\(index) -.-> t\(index)\n"
            }
        }
        out += edges
        if !built.isEmpty {
            out += "  classDef built fill:#ffe9a8,stroke:#b58900,stroke-width:2px\n"
            out += "  class \(built.joined(separator: ",")) built\n"
        }
        return out
    }
}

fileprivate extension String {
    func replacingNewlines() -> String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
