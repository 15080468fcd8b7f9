/// How a screen is presented when it follows another one on the path.
public enum ScreenPresentationStyle: Hashable {
    /// Pushed onto the current navigation stack.
    case push
    /// Presented modally; with `allowsPush: false` nothing can be pushed onto it.
    case sheet(allowsPush: Bool = true)
}

/// One element of a navigation path: a hashable value that says how it is presented.
public protocol Screen: Hashable {
    var presentationStyle: ScreenPresentationStyle { get }
}

extension Screen {
    /// The screen as an `AnyScreen` (an `AnyScreen` stays itself).
    public func eraseToAnyScreen() -> AnyScreen {
        (self as? AnyScreen) ?? AnyScreen(self)
    }
}

/// A screen of any type, as the navigation path holds it.
public struct AnyScreen: Hashable, Screen {
    let screen: AnyHashable
    public let presentationStyle: ScreenPresentationStyle

    public init<S: Screen>(_ screen: S) {
        self.screen = AnyHashable(screen)
        presentationStyle = screen.presentationStyle
    }

    /// The screen, if it is an `S`.
    public func unwrap<S: Screen>() -> S? {
        screen.base as? S
    }

    /// Whether the screen is an `S`.
    public func `is`<S: Screen>(_ screenType: S.Type) -> Bool {
        screen.base is S
    }
}
