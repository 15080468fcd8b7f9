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
        func q(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
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
        if let title { out += "  graph [label=\(q(title)), labelloc=t];\n" }
        out += "  node [shape=box, fontname=\"Helvetica\"];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
        var edges = ""
        for (i, n) in tree.nodes.enumerated() {
            let isBackEdge = n.kind == .recursion && n.recursionTarget != nil
            if !isBackEdge {
                var attrs = ["label=\(q(content(tree, i)))"]
                var styles: [String] = []
                switch n.kind {
                case .root: attrs.append("shape=oval")
                case .screen: styles.append("rounded")
                case .empty: attrs.append("shape=plaintext")
                case .recursion, .reference: styles.append("dashed")
                default: break
                }
                if let s = n.source, highlight.contains(s), n.kind == .screen {
                    styles += ["filled", "bold"]
                    attrs.append("fillcolor=\"#ffe9a8\"")
                }
                if !styles.isEmpty { attrs.append("style=\(q(styles.joined(separator: ",")))") }
                out += "  n\(i) [\(attrs.joined(separator: ", "))];\n"
            }
            if let p = n.parent {
                if isBackEdge {
                    let label = (n.label.map { "\($0): " } ?? "") + "↻ \(n.name ?? "?")"
                    edges += "  n\(p) -> n\(n.recursionTarget!) [style=dashed, constraint=false, label=\(q(label))];\n"
                } else if let label = n.label {
                    edges += "  n\(p) -> n\(i) [label=\(q(label))];\n"
                } else {
                    edges += "  n\(p) -> n\(i);\n"
                }
            }
            if n.omitted > 0 {
                out += "  t\(i) [label=\(q(tree.truncationLine(i))), shape=plaintext];\n"
                edges += "  n\(i) -> t\(i) [style=dotted];\n"
            }
        }
        return out + edges + "}\n"
    }

    /// Mermaid: `flowchart TD`, labels quoted (`"` and `#`, `<`, `>` as entity codes).
    public static func mermaid(_ tree: RoutingTree, highlight: Set<NodeRef> = [], title: String? = nil) -> String {
        func q(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
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
        for (i, n) in tree.nodes.enumerated() {
            let isBackEdge = n.kind == .recursion && n.recursionTarget != nil
            if !isBackEdge {
                let label = q(content(tree, i))
                switch n.kind {
                case .root: out += "  n\(i)([\(label)])\n"
                case .screen: out += "  n\(i)(\(label))\n"
                default: out += "  n\(i)[\(label)]\n"
                }
                if let s = n.source, highlight.contains(s), n.kind == .screen { built.append("n\(i)") }
            }
            if let p = n.parent {
                if isBackEdge {
                    let label = (n.label.map { "\($0): " } ?? "") + "↻ \(n.name ?? "?")"
                    edges += "  n\(p) -.->|\(q(label))| n\(n.recursionTarget!)\n"
                } else if let label = n.label {
                    edges += "  n\(p) -->|\(q(label))| n\(i)\n"
                } else {
                    edges += "  n\(p) --> n\(i)\n"
                }
            }
            if n.omitted > 0 {
                out += "  t\(i)[\(q(tree.truncationLine(i)))]\n"
                edges += "  n\(i) -.-> t\(i)\n"
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
