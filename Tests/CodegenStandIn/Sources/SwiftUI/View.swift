// The little of SwiftUI that ComposableNavigator's public signatures, the generated code and
// the example apps name, with SwiftUI's own public signatures (as of the SDKs of Xcode 16
// and later, where the whole `View` protocol is main-actor isolated). A module of its own,
// as SwiftUI is: a file that names `View` without `import SwiftUI` does not compile.
// Nothing is drawn: a view here is only a value.

/// A view: a part of the user interface, described by its `body`.
///
/// As in SwiftUI, a type that conforms must provide `body` (there is no default), and the
/// whole protocol is main-actor isolated for code in Swift 6 mode (`@preconcurrency`: the
/// isolation a conforming type infers from it is checked as a warning where it is not
/// explicit). A view's memberwise initializer is nonisolated only when all its stored
/// properties are `Sendable`.
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// `Never` is a view, as in SwiftUI: the body of a primitive view, and the content of a
/// path builder that builds nothing (`PathBuilders.EmptyBuilder`).
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

/// An optional view is a view (what `if` without `else` builds in a `@ViewBuilder`).
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A type-erased view.
public struct AnyView: View {
    /// The view it erases (read by the test-only inspection of ComposableNavigator).
    @_spi(Inspection) public let erased: Any

    public init<V: View>(_ view: V) {
        erased = view
    }

    public init<V: View>(erasing view: V) {
        erased = view
    }

    public var body: Never { fatalError("a primitive view has no body") }
}

/// A view that shows nothing.
public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A view that shows text.
public struct Text: View {
    let content: String

    public init(verbatim content: String) {
        self.content = content
    }

    public init<S: StringProtocol>(_ content: S) {
        self.content = String(content)
    }

    public var body: Never { fatalError("a primitive view has no body") }
}

/// One of two views: what `if`/`else` and `switch` build in a `@ViewBuilder`.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    public var body: Never { fatalError("a primitive view has no body") }
}

/// SwiftUI's result builder for views: single views, `if`, `if`/`else` and `switch` (not
/// several views in a row, which nothing here needs).
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content {
        content
    }

    public static func buildBlock() -> EmptyView {
        EmptyView()
    }

    public static func buildBlock<Content: View>(_ content: Content) -> Content {
        content
    }

    public static func buildIf<Content: View>(_ content: Content?) -> Content? {
        content
    }

    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }
}
