import RoutesSyntax

/// Nodes of one file replaced by an edit: `old` (ids in the old model) by `count` new nodes
/// from the same id on; the nodes after them moved by `count - old.count`.
public struct NodeSplice: Sendable, Equatable {
    public var file: FileID
    public var old: Range<Int>
    public var count: Int
    /// The files whose names were resolved again (the edit renamed a declaration they see:
    /// the edited file and those that import it, directly or not), their nodes otherwise as
    /// they were. Empty for an edit that kept every declaration's name.
    public var resolvedAgain: [FileID] = []
    /// Per file of `resolvedAgain`, the nodes whose names were resolved again, in order: every
    /// node of the edited file; in the others, the nodes with a name that may now stand for
    /// something else (the old or the new name, or a name that was undefined, whose
    /// suggestion may change). Every other name resolves as before.
    public var resolvedNodes: [[Int]] = []

    public init(file: FileID, old: Range<Int>, count: Int, resolvedAgain: [FileID] = [], resolvedNodes: [[Int]] = []) {
        self.file = file
        self.old = old
        self.count = count
        self.resolvedAgain = resolvedAgain
        self.resolvedNodes = resolvedNodes
    }
}
