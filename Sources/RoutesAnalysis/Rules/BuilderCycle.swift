import RoutesModel
import RoutesSyntax

/// `builder-cycle`: a named builder whose evaluation, for some element and environment,
/// reaches a reference to itself again before it returns. A property of the builder, over all
/// elements and environments, reported for every builder, used or not. The cycles are found
/// with the semantics (`Semantics.findCycles`), per program; this merges what the programs
/// that share a builder found.
enum BuilderCycle: RuleDefinition {
    static let id = RuleID("builder-cycle")
    static let severity = Severity.error
    static let category = RuleCategory.routing
    static let summary = "A named builder reaches itself again before it builds an element."
    static let documentation = RuleDocumentation(
        what: """
            Evaluating a named builder can reach a reference to the same builder again, for \
            some element and environment, before any element is built: `builder a { anyOf { \
            b … } }` with `b` referring back to `a` outside a screen's nesting. Recursion \
            through a nesting (`builder detail { screen Detail { detail } }`) is fine: each \
            level builds the next path element. Reported at the first reference of the cycle \
            in source order, related to the others.
            """,
        why: """
            Building such an element never finishes: in the app, the path builder recurses \
            until the stack overflows.
            """,
        example: """
            screen Home
            screen Cart
            builder browse { anyOf { screen Home categories } }
            builder categories { anyOf { browse } }
            root { browse }
            """,
        fix: """
            Put the recursive reference inside a screen's nesting, or remove it: a builder \
            should reach itself again only for the next path element.
            """)

    /// A cycle: its builders and its references, as one or several programs found them.
    struct Finding {
        var builders: [Symbol]
        var references: [NodeRef]
    }

    /// One finding per cycle: a cycle among builders of files that several programs share is
    /// found by each of them (with the elements of each): one finding holds the references
    /// any of them found.
    static func merge(_ found: [(builders: [Symbol], references: [NodeRef])]) -> [Finding] {
        var merged: [[Symbol]: Set<NodeRef>] = [:]
        for cycle in found { merged[cycle.builders, default: []].formUnion(cycle.references) }
        return merged.map { Finding(builders: $0.key, references: Array($0.value)) }
    }

    static func diagnostic(_ f: Finding, project: Project) -> Diagnostic {
        func head(_ r: NodeRef) -> Range<Int> { project.files[r.file].model.nodes[r.node].head }
        let ordered = f.references.sorted {
            ($0.file, project.files[$0.file].model.nodes[$0.node].range.lowerBound)
                < ($1.file, project.files[$1.file].model.nodes[$1.node].range.lowerBound)
        }
        let first = ordered[0]
        let names = ordered.compactMap { r -> String? in
            guard case .reference(let name) = project.files[r.file].model.nodes[r.node].kind,
                  let s = project.resolve(name, in: r.file) else { return nil }
            return project.declaration(s).name.text
        }
        let chain = names.count == 1 ? "`\(names[0])` refers to itself" : names.map { "`\($0)`" }.joined(separator: ", ")
        return Diagnostic(
            Self.self, file: first.file, range: head(first),
            message: "builder cycle: evaluating this reference can reach it again before any element is built (\(chain))",
            related: ordered.dropFirst().map { RelatedLocation(file: $0.file, range: head($0), message: "part of the cycle") })
    }
}

extension RuleID {
    public static let builderCycle = BuilderCycle.id
}
