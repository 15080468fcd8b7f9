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
        var references: [Reference]
    }

    /// A reference of a cycle, with what its diagnostic reads of it (taken from the graph
    /// that found it, which a lint's model no longer backs).
    struct Reference: Hashable {
        var node: NodeRef
        var head: Range<Int>
        /// The builder it names (nil if it names none, which no cycle's reference does).
        var builder: String?
    }

    /// One finding per cycle: a cycle among builders of files that several programs share is
    /// found by each of them (with the elements of each): one finding holds the references
    /// any of them found.
    static func merge(_ found: [(builders: [Symbol], references: [Reference])]) -> [Finding] {
        var merged: [[Symbol]: Set<Reference>] = [:]
        for cycle in found { merged[cycle.builders, default: []].formUnion(cycle.references) }
        return merged.map { Finding(builders: $0.key, references: Array($0.value)) }
    }

    static func diagnostic(_ finding: Finding) -> Diagnostic {
        let ordered = finding.references.sorted { ($0.node.file, $0.head.lowerBound) < ($1.node.file, $1.head.lowerBound) }
        let first = ordered[0]
        let names = ordered.compactMap(\.builder)
        let chain = names.count == 1 ? "`\(names[0])` refers to itself" : names.map { "`\($0)`" }.joined(separator: ", ")
        return Diagnostic(
            Self.self, file: first.node.file, range: first.head,
            message: "builder cycle: evaluating this reference can reach it again before any element is built (\(chain))",
            related: ordered.dropFirst().map { RelatedLocation(file: $0.node.file, range: $0.head, message: "part of the cycle") })
    }
}

extension RuleID {
    public static let builderCycle = BuilderCycle.id
}
