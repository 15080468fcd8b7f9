// The little of SwiftUI that ComposableNavigator's path-builder signatures mention. A view
// here is only a value: nothing is drawn.

/// A view: what a path builder builds for one path element. (SwiftUI's `View` also has a
/// `body`; nothing the generated code calls needs it.)
public protocol View {}

/// `Never` is a view, as in SwiftUI: the content of a builder that builds nothing
/// (`PathBuilders.EmptyBuilder`).
extension Never: View {}

/// A type-erased view, as SwiftUI's.
public struct AnyView: View {
    let erased: Any

    public init<V: View>(_ view: V) {
        erased = view
    }
}

/// SwiftUI's result builder for views, reduced to what a single-expression content closure
/// needs: `PathBuilders.screen(content:)` marks its closure `@ViewBuilder`.
@resultBuilder
public struct ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content {
        content
    }
}
