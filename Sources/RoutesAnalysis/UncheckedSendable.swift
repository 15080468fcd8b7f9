import CMalloc
import RoutesModel
import RoutesSyntax

/// A value handed to another thread whose use there is known to be safe (see its use).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
