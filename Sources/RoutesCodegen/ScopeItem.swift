import RoutesModel

/// A value that is in scope only in part of the routing tree: the value of a `dependency`
/// or `optional` declared `from P`, which a `screen P` provides to the builders of its
/// nesting, or an optional unwrapped by `if let`, inside its `then` block.
public enum ScopeItem: Sendable, Hashable {
    case provided(Symbol)
    case unwrapped(Symbol)

    var symbol: Symbol {
        switch self {
        case .provided(let symbol), .unwrapped(let symbol): return symbol
        }
    }
}
