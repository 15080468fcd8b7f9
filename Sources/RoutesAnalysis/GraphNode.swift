import RoutesModel
import RoutesSyntax

/// A node of a program's builder graph, by its global id: what findings name.
struct GraphNode: Hashable, Comparable, Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
    static func < (a: GraphNode, b: GraphNode) -> Bool { a.index < b.index }
}

/// A screen of a program by its element code (see `BuilderGraph.screens`).
struct ScreenCode: Hashable, Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
}
