// Test-only (not SwiftUI's API: under `@_spi(Inspection)`, which the generated code does
// not import): what a view would show, as a line of text, and the gestures that change it.
//
// `[A > B > C]` is a navigation stack whose root shows A, with B and C pushed; `A` alone is a
// view shown without a stack; ` sheet X`, ` fullScreenCover X`, ` popover X` is X presented
// from what stands before it. A `Text` shows its string.

/// Renders views as text, and keeps what a gesture on them would change.
@_spi(Inspection) @MainActor public final class Hierarchy {
    public private(set) var text = ""
    /// The navigation stacks shown, outermost first: how many elements each has pushed, and
    /// what a back gesture does (sets the path one element shorter).
    var stacks: [(count: Int, back: () async -> Void)] = []
    /// The presentations shown, outermost first: what a swipe down does.
    var presentations: [() async -> Void] = []
    /// The destinations registered inside the stack being rendered, by data type.
    var destinations: [ObjectIdentifier: (Any) -> Any] = [:]

    init() {}

    /// What `view` shows.
    public static func render(_ view: Any) async -> Hierarchy {
        let hierarchy = Hierarchy()
        await hierarchy.add(view)
        return hierarchy
    }

    /// The back gesture on the innermost stack that has pushed elements; false when none has.
    public func goBack() async -> Bool {
        guard let stack = stacks.last(where: { $0.count > 0 }) else { return false }
        await stack.back()
        return true
    }

    /// The swipe that dismisses the innermost sheet, cover or popover; false when none is shown.
    public func dismissTop() async -> Bool {
        guard let dismiss = presentations.last else { return false }
        await dismiss()
        return true
    }

    func add(_ view: Any) async {
        if let renderable = view as? any _Renderable {
            await renderable._render(into: self)
        } else if let view = view as? any View {
            await addBody(of: view)
        }
    }

    private func addBody<V: View>(of view: V) async {
        await add(view.body)
    }

    func write(_ s: String) { text += s }
}

/// A view that renders itself (a primitive view, or one the stand-in records).
@_spi(Inspection) public protocol _Renderable {
    @MainActor func _render(into hierarchy: Hierarchy) async
}

@_spi(Inspection) extension Text: _Renderable {
    public func _render(into hierarchy: Hierarchy) async { hierarchy.write(content) }
}

@_spi(Inspection) extension AnyView: _Renderable {
    public func _render(into hierarchy: Hierarchy) async { await hierarchy.add(erased) }
}

@_spi(Inspection) extension EmptyView: _Renderable {
    public func _render(into hierarchy: Hierarchy) async {}
}

@_spi(Inspection) extension Optional: _Renderable where Wrapped: View {
    public func _render(into hierarchy: Hierarchy) async {
        if let view = self { await hierarchy.add(view) }
    }
}

@_spi(Inspection) extension _ConditionalContent: _Renderable {
    public func _render(into hierarchy: Hierarchy) async {
        switch storage {
        case .trueContent(let view): await hierarchy.add(view)
        case .falseContent(let view): await hierarchy.add(view)
        }
    }
}

@_spi(Inspection) extension NavigationStack: _Renderable {
    public func _render(into hierarchy: Hierarchy) async {
        let saved = hierarchy.destinations
        hierarchy.destinations = [:]
        hierarchy.write("[")
        await hierarchy.add(root)
        let elements = await pathElements()
        hierarchy.stacks.append((elements.count, { await setPathCount(elements.count - 1) }))
        for element in elements {
            hierarchy.write(" > ")
            guard let destination = hierarchy.destinations[ObjectIdentifier(type(of: element as Any))] else {
                hierarchy.write("?")
                continue
            }
            await hierarchy.add(destination(element))
        }
        hierarchy.write("]")
        hierarchy.destinations = saved
    }
}

@_spi(Inspection) extension _NavigationDestinationView: _Renderable {
    public func _render(into hierarchy: Hierarchy) async {
        let destination = self.destination
        hierarchy.destinations[ObjectIdentifier(D.self)] = { destination($0 as! D) }
        await hierarchy.add(content)
    }
}

@_spi(Inspection) extension _PresentationView: _Renderable {
    public func _render(into hierarchy: Hierarchy) async {
        await hierarchy.add(content)
        guard let shown = await item.read() else { return }
        let item = self.item
        hierarchy.presentations.append({ await item.write(nil) })
        hierarchy.write(" \(kind.rawValue) ")
        await hierarchy.add(presented(shown))
    }
}
