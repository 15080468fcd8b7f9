import RoutesModel
import RoutesSyntax

/// What a dependency or optional needs to be in scope at a node: a provider screen built
/// earlier on the way (`from P`), or the then-branch of its `if let` on the way (an optional).
enum ScopeItem: Hashable {
    /// A `from P` provider: in scope after an element built by a `screen P` node (its code).
    case provider(Int)
    /// An optional: in scope inside the then-branch of `if let o` (its condition index).
    case optional(Int)
}

/// A scope item as a number in one program: a provider's screen code, or the screens' count
/// plus an optional's condition index; `none` for no item.
struct ScopeItemCode: Hashable, Sendable {
    let raw: Int32
    init(raw: Int32) { self.raw = raw }
    static let none = ScopeItemCode(raw: -1)
    var isNone: Bool { raw < 0 }
    var index: Int { Int(raw) }
}
