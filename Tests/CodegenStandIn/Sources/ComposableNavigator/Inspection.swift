// Test-only access to what the path builders built (not part of the library's API: the
// generated code cannot see it, since it does not import this SPI). A test walks a path as
// the library's `Root` and `NavigationNode` do: the root builder builds the first element,
// the `NavigationNode` found in that view builds the next one, and so on.

@_spi(Inspection) import SwiftUI

/// The navigation node at the top of a built view, found through either-views, wildcard
/// views and erasure.
@_spi(Inspection) public struct InspectedNode {
    /// The screen's view, as the content closure returned it.
    public var content: Any
    /// Builds the element after this one (the nesting of the `screen` builder).
    public var buildSuccessor: (AnyScreen) -> Any?
    /// The screens that wildcards put in the element's place, outermost first.
    public var wildcards: [AnyScreen]
}

@_spi(Inspection) public protocol InspectableView {
    func inspect() -> InspectedNode?
}

@_spi(Inspection) extension Root {
    /// Each element of the data source's path with the navigation node built for it, as the
    /// library builds them: the first by `pathBuilder` (what `body` shows), each next one by
    /// the node before it; nil from the first element not built.
    @MainActor public func inspectPath() -> [(element: AnyScreen, node: InspectedNode?)] {
        var node = ComposableNavigator.inspect(body)
        var out: [(element: AnyScreen, node: InspectedNode?)] = []
        for (i, element) in dataSource.path.current.enumerated() {
            if i > 0 { node = node.flatMap { $0.buildSuccessor(element.content) }.flatMap(ComposableNavigator.inspect) }
            out.append((element.content, node))
        }
        return out
    }
}

/// The navigation node of a built view, if it shows one.
@_spi(Inspection) public func inspect(_ view: Any) -> InspectedNode? {
    (view as? any InspectableView)?.inspect()
}

@_spi(Inspection) extension NavigationNode: InspectableView {
    public func inspect() -> InspectedNode? {
        let build = buildSuccessor
        return InspectedNode(content: content, buildSuccessor: { build($0).map { $0 as Any } }, wildcards: [])
    }
}

@_spi(Inspection) extension PathBuilders.WildcardView: InspectableView {
    public func inspect() -> InspectedNode? {
        guard var node = ComposableNavigator.inspect(content) else { return nil }
        node.wildcards.insert(wildcard.eraseToAnyScreen(), at: 0)
        return node
    }
}

@_spi(Inspection) extension Optional: InspectableView {
    public func inspect() -> InspectedNode? {
        flatMap { ComposableNavigator.inspect($0) }
    }
}

@_spi(Inspection) extension AnyView: InspectableView {
    public func inspect() -> InspectedNode? {
        ComposableNavigator.inspect(erased)
    }
}

@_spi(Inspection) extension EitherAB: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABC: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCD: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCDE: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        case .e(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCDEF: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        case .e(let view): return ComposableNavigator.inspect(view)
        case .f(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCDEFG: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        case .e(let view): return ComposableNavigator.inspect(view)
        case .f(let view): return ComposableNavigator.inspect(view)
        case .g(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCDEFGH: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        case .e(let view): return ComposableNavigator.inspect(view)
        case .f(let view): return ComposableNavigator.inspect(view)
        case .g(let view): return ComposableNavigator.inspect(view)
        case .h(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCDEFGHI: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        case .e(let view): return ComposableNavigator.inspect(view)
        case .f(let view): return ComposableNavigator.inspect(view)
        case .g(let view): return ComposableNavigator.inspect(view)
        case .h(let view): return ComposableNavigator.inspect(view)
        case .i(let view): return ComposableNavigator.inspect(view)
        }
    }
}

@_spi(Inspection) extension EitherABCDEFGHIJ: InspectableView {
    public func inspect() -> InspectedNode? {
        switch self {
        case .a(let view): return ComposableNavigator.inspect(view)
        case .b(let view): return ComposableNavigator.inspect(view)
        case .c(let view): return ComposableNavigator.inspect(view)
        case .d(let view): return ComposableNavigator.inspect(view)
        case .e(let view): return ComposableNavigator.inspect(view)
        case .f(let view): return ComposableNavigator.inspect(view)
        case .g(let view): return ComposableNavigator.inspect(view)
        case .h(let view): return ComposableNavigator.inspect(view)
        case .i(let view): return ComposableNavigator.inspect(view)
        case .j(let view): return ComposableNavigator.inspect(view)
        }
    }
}
