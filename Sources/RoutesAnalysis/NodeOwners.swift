import RoutesModel
import RoutesSyntax

/// Per node, an owner (the screen node of a nesting, or the builder of a body) tagged with
/// which, or none: an array, not a dictionary, since it is read on the way from every
/// warning to its builder; one for both, since a node tops at most one block.
struct NodeOwners {
    enum Kind: Int32 {
        case nesting = 0, body
    }

    var owners: [Int32]

    init(count: Int) { owners = Array(repeating: -1, count: count) }

    subscript(g: Int, kind: Kind) -> Int? {
        get {
            let owner = owners[g]
            return owner < 0 || owner & 1 != kind.rawValue ? nil : Int(owner >> 1)
        }
        set {
            assert(owners[g] < 0 || owners[g] & 1 == kind.rawValue, "a node tops one block")
            owners[g] = newValue.map { Int32($0) << 1 | kind.rawValue } ?? -1
        }
    }
}
