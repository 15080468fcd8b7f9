// The navigation path and the navigator that changes it, with the library's public
// signatures for what an app's wiring calls: `Navigator.Datasource(root:)` (and its other
// initializers), `Navigator(dataSource:)`, `replace(path:)` and `go(to:on:)`. The
// library's `Datasource` is also an `ObservableObject` whose `path` is `@Published`, so that
// `Root` and every `NavigationNode` are drawn again when the path changes; Combine is not
// mirrored here, and nothing is drawn.

import Foundation

/// The identity of an element of the navigation path.
public typealias ScreenID = UUID

extension ScreenID {
    /// The identity of the first element of every path.
    public static let root = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
}

/// An element of the navigation path: a screen and its identity.
public struct IdentifiedScreen: Hashable, Identifiable {
    public let id: ScreenID
    public let content: AnyScreen
    public var hasAppeared: Bool

    public init(id: ScreenID, content: AnyScreen, hasAppeared: Bool) {
        self.id = id
        self.content = content
        self.hasAppeared = hasAppeared
    }

    public init<S: Screen>(id: ScreenID, content: S, hasAppeared: Bool) {
        self.init(id: id, content: content.eraseToAnyScreen(), hasAppeared: hasAppeared)
    }
}

/// The navigation path before and after its last change.
public struct PathUpdate: Equatable {
    public let previous: [IdentifiedScreen]
    public let current: [IdentifiedScreen]
}

/// Changes the navigation path of a data source.
public struct Navigator {
    private let replacePath: ([AnyScreen]) -> Void
    private let goToOnScreen: (AnyScreen, AnyScreen) -> Void

    /// A navigator that changes the path of `dataSource`.
    public init(dataSource: Navigator.Datasource) {
        replacePath = { dataSource.replace(path: $0) }
        goToOnScreen = { dataSource.go(to: $0, on: $1) }
    }

    /// Makes `path` the navigation path (an empty path is ignored).
    public func replace(path: AnyScreen...) {
        replacePath(path)
    }

    /// Makes `path` the navigation path (an empty path is ignored).
    public func replace(path: [AnyScreen]) {
        replacePath(path)
    }

    /// Shows `screen` after the last `parent` on the path, in place of what followed it.
    public func go<S: Screen, Parent: Screen>(to screen: S, on parent: Parent) {
        goToOnScreen(screen.eraseToAnyScreen(), parent.eraseToAnyScreen())
    }
}

extension Navigator {
    /// Holds the navigation path that `Root` builds.
    public class Datasource {
        public var path: PathUpdate

        private let screenID: () -> ScreenID

        init(path: [IdentifiedScreen], screenID: @escaping () -> ScreenID = ScreenID.init) {
            self.path = PathUpdate(previous: [], current: path)
            self.screenID = screenID
        }

        /// The path becomes `elements`; the elements it keeps from the front of the old path
        /// keep their identities, the first one is `ScreenID.root`.
        func replace(path elements: [AnyScreen]) {
            guard !elements.isEmpty else { return }
            let old = path.current
            var kept = true
            var new: [IdentifiedScreen] = []
            for (i, element) in elements.enumerated() {
                kept = kept && i < old.count && old[i].content == element
                    && old[i].content.presentationStyle == element.presentationStyle
                let id = kept ? old[i].id : (i == 0 ? ScreenID.root : screenID())
                new.append(IdentifiedScreen(id: id, content: element, hasAppeared: kept && old[i].hasAppeared))
            }
            update(new)
        }

        /// `successor` follows the last element showing `parent`; what followed it goes.
        func go(to successor: AnyScreen, on parent: AnyScreen) {
            guard let i = path.current.lastIndex(where: { $0.content == parent }) else { return }
            update(Array(path.current[...i]) + [IdentifiedScreen(id: screenID(), content: successor, hasAppeared: false)])
        }

        private func update(_ new: [IdentifiedScreen]) {
            if new != path.current { path = PathUpdate(previous: path.current, current: new) }
        }
    }
}

extension Navigator.Datasource {
    /// A path of one element, `root`.
    public convenience init<S: Screen>(root: S, screenID: @escaping () -> ScreenID = ScreenID.init) {
        self.init(root: root.eraseToAnyScreen(), screenID: screenID)
    }

    /// A path of one element, `root`.
    public convenience init(root: AnyScreen, screenID: @escaping () -> ScreenID = ScreenID.init) {
        self.init(path: [IdentifiedScreen(id: .root, content: root, hasAppeared: false)], screenID: screenID)
    }

    /// A path of the elements of `path`.
    public convenience init(path: [AnyScreen], screenID: @escaping () -> ScreenID = ScreenID.init) {
        self.init(path: path.map { IdentifiedScreen(id: screenID(), content: $0, hasAppeared: false) }, screenID: screenID)
    }
}
