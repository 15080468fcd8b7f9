import RoutesModel
import RoutesSyntax

/// One builder node of a project: a file and a node of that file's model.
public struct NodeRef: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var file: FileID
    public var node: NodeID
    public init(file: FileID, node: NodeID) {
        self.file = file
        self.node = node
    }
    public static func < (a: NodeRef, b: NodeRef) -> Bool { (a.file, a.node) < (b.file, b.node) }
    public var description: String { "\(file)#\(node)" }
}

/// What building one element yields (docs/language.md#how-a-path-is-built): the `screen` node
/// that built it, or nothing and why.
public enum BuildOutcome: Sendable, Hashable {
    /// `screen` is the screen that was built: the element's own, or the screen of the
    /// innermost `wildcard` that replaced it (`via`).
    case built(NodeRef, screen: Symbol, via: NodeRef?)
    /// `reason`: the innermost decision on the last branch tried; nil when there was no
    /// decision (a `screen` of another type, `empty`, a hole a syntax error left).
    case nothing(reason: String?)
}

/// How one element of a path resolved.
public struct ElementResolution: Sendable, Hashable {
    /// The element's screen as written in the path.
    public var screen: String
    /// The element as written (`Detail(id: "42")`).
    public var text: String
    /// The `screen` node that built it; nil when not built.
    public var node: NodeRef?
    /// The screen that was built, when a `wildcard` replaced the element by another screen.
    public var builtAs: String?
    /// The `wildcard` node that replaced the element, if one did.
    public var wildcard: NodeRef?
    /// The presentation in force at the node that built the element (the node's own `as …`,
    /// else its screen's declaration); nil when not built.
    public var presentation: Presentation?
    /// Why it was not built; nil when built.
    public var reason: String?

    public var built: Bool { node != nil }
}

/// A resolved path: one entry per element.
public struct PathResolution: Sendable, Hashable {
    public var environment: ProgramEnvironment
    public var elements: [ElementResolution]
    /// The index of the first element not built, if any.
    public var firstNotBuilt: Int? { elements.firstIndex { !$0.built } }
}
