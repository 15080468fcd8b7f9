import SwiftUI

/// Builds the view of one path element, or nothing (`nil`) when it is not responsible for
/// that element. The library builds a path by asking the root builder for the first element,
/// then the `NavigationNode` it built for the next one, and so on.
public protocol PathBuilder {
    associatedtype Content: View
    func build(pathElement: AnyScreen) -> Content?
}

extension PathBuilder {
    public func build<S: Screen>(pathElement: S) -> Content? {
        build(pathElement: pathElement.eraseToAnyScreen())
    }
}

/// A path builder made of a closure.
public struct _PathBuilder<Content: View>: PathBuilder {
    private let body: (AnyScreen) -> Content?

    public init(_ buildPathElement: @escaping (AnyScreen) -> Content?) {
        body = buildPathElement
    }

    public func build(pathElement: AnyScreen) -> Content? {
        body(pathElement)
    }
}

/// The namespace of the library's path builders.
public enum PathBuilders {}

// MARK: - empty

extension PathBuilders {
    /// Builds nothing, for every element.
    public struct EmptyBuilder: PathBuilder {
        public func build(pathElement: AnyScreen) -> Never? { nil }
    }

    public static var empty: EmptyBuilder { EmptyBuilder() }
}

// MARK: - screen

extension PathBuilders {
    /// Builds an element of type `S` with `content`; `nesting` builds the element after it.
    public static func screen<S: Screen, Content: View, Successor: PathBuilder>(
        onAppear: @escaping (Bool) -> Void = { _ in },
        @ViewBuilder content build: @escaping (S) -> Content,
        nesting: Successor
    ) -> _PathBuilder<NavigationNode<Content, Successor.Content>> {
        _PathBuilder { element in
            guard let screen: S = element.unwrap() else { return nil }
            return NavigationNode(content: build(screen), onAppear: onAppear, buildSuccessor: nesting.build(pathElement:))
        }
    }

    /// Builds an element of type `S` with `content`; nothing follows it.
    public static func screen<S: Screen, Content: View>(
        onAppear: @escaping (Bool) -> Void = { _ in },
        @ViewBuilder content build: @escaping (S) -> Content
    ) -> _PathBuilder<NavigationNode<Content, Never>> {
        screen(onAppear: onAppear, content: build, nesting: PathBuilders.empty)
    }

    /// Builds an element of type `type` with `content` (which does not see the element);
    /// `nesting` builds the element after it.
    public static func screen<S: Screen, Content: View, Successor: PathBuilder>(
        _ type: S.Type,
        onAppear: @escaping (Bool) -> Void = { _ in },
        @ViewBuilder content build: @escaping () -> Content,
        nesting: Successor
    ) -> _PathBuilder<NavigationNode<Content, Successor.Content>> {
        _PathBuilder { element in
            guard element.is(type) else { return nil }
            return NavigationNode(content: build(), onAppear: onAppear, buildSuccessor: nesting.build(pathElement:))
        }
    }

    /// Builds an element of type `type` with `content`; nothing follows it.
    public static func screen<S: Screen, Content: View>(
        _ type: S.Type,
        onAppear: @escaping (Bool) -> Void = { _ in },
        @ViewBuilder content build: @escaping () -> Content
    ) -> _PathBuilder<NavigationNode<Content, Never>> {
        screen(type, onAppear: onAppear, content: build, nesting: PathBuilders.empty)
    }
}

// MARK: - if (a condition, an unwrapped value, a screen type)

extension PathBuilders {
    /// `then` when `condition()` holds (asked at every build), else nothing.
    public static func `if`<If: PathBuilder>(
        _ condition: @escaping () -> Bool,
        then builder: If
    ) -> _PathBuilder<EitherAB<If.Content, Never>> {
        `if`(condition, then: builder, else: PathBuilders.empty)
    }

    /// `then` when `condition()` holds (asked at every build), else `else`. There is no
    /// fallback: when the chosen branch builds nothing, nothing is built.
    public static func `if`<If: PathBuilder, Else: PathBuilder>(
        _ condition: @escaping () -> Bool,
        then thenBuilder: If,
        else elseBuilder: Else
    ) -> _PathBuilder<EitherAB<If.Content, Else.Content>> {
        _PathBuilder { element in
            condition()
                ? thenBuilder.build(pathElement: element).map { .a($0) }
                : elseBuilder.build(pathElement: element).map { .b($0) }
        }
    }

    /// The builder `then` makes of the value `let` returns, when it returns one; else `else`.
    public static func `if`<LetContent, If: PathBuilder, Else: PathBuilder>(
        `let`: @escaping () -> LetContent?,
        then: @escaping (LetContent) -> If,
        else: Else
    ) -> _PathBuilder<EitherAB<If.Content, Else.Content>> {
        _PathBuilder { element in
            if let value = `let`() {
                return then(value).build(pathElement: element).map { .a($0) }
            }
            return `else`.build(pathElement: element).map { .b($0) }
        }
    }

    /// The builder `then` makes of the value `let` returns, when it returns one; else nothing.
    public static func `if`<LetContent, If: PathBuilder>(
        `let`: @escaping () -> LetContent?,
        then: @escaping (LetContent) -> If
    ) -> _PathBuilder<EitherAB<If.Content, Never>> {
        `if`(let: `let`, then: then, else: PathBuilders.empty)
    }

    /// When the element is an `S`: the builder `screen` makes of it; else `else`.
    public static func `if`<S: Screen, If: PathBuilder, Else: PathBuilder>(
        screen pathBuilder: @escaping (S) -> If,
        else: Else
    ) -> _PathBuilder<EitherAB<If.Content, Else.Content>> {
        _PathBuilder { element in
            if let screen: S = element.unwrap() {
                return pathBuilder(screen).build(pathElement: element).map { .a($0) }
            }
            return `else`.build(pathElement: element).map { .b($0) }
        }
    }

    /// When the element is an `S`: the builder `screen` makes of it; else nothing.
    public static func `if`<S: Screen, If: PathBuilder>(
        screen pathBuilder: @escaping (S) -> If
    ) -> _PathBuilder<EitherAB<If.Content, Never>> {
        `if`(screen: pathBuilder, else: PathBuilders.empty)
    }
}

// MARK: - wildcard

extension PathBuilders {
    /// The view of an element that a wildcard replaced: when it appears, the library puts
    /// `wildcard` in the element's place on the path.
    public struct WildcardView<Content: View, Wildcard: Screen>: View {
        let wildcard: Wildcard
        let content: Content

        /// The content. (The library's also replaces the element with `wildcard` when the
        /// view appears.)
        public var body: some View {
            content
        }
    }

    /// Builds whatever element it is given as `screen`, with `pathBuilder`.
    public static func wildcard<S: Screen, ContentBuilder: PathBuilder, Content>(
        screen: S,
        pathBuilder: ContentBuilder
    ) -> _PathBuilder<WildcardView<Content, S>> where ContentBuilder.Content == Content {
        _PathBuilder { _ in
            pathBuilder.build(pathElement: screen.eraseToAnyScreen()).map { WildcardView(wildcard: screen, content: $0) }
        }
    }
}

// MARK: - erasure

/// A path builder whose views are erased to `AnyView`: a builder whose view type would
/// contain itself (a screen that can follow itself) is erased so that the type is finite.
public struct AnyPathBuilder: PathBuilder {
    private let body: (AnyScreen) -> AnyView?

    public init<Erased: PathBuilder>(erasing: Erased) {
        body = { element in erasing.build(pathElement: element).map { AnyView($0) } }
    }

    public func build(pathElement: AnyScreen) -> AnyView? {
        body(pathElement)
    }
}

extension PathBuilder {
    public func eraseCircularNavigationPath() -> AnyPathBuilder {
        AnyPathBuilder(erasing: self)
    }
}
