import SwiftUI

/// The view of one built element: the screen's content, and how the element after it is
/// built (the nesting of the `screen` builder that built this one).
public struct NavigationNode<Content: View, Successor: View>: View {
    let content: Content
    let onAppear: (Bool) -> Void
    let buildSuccessor: (AnyScreen) -> Successor?

    public init(
        content: Content,
        onAppear: @escaping (Bool) -> Void,
        buildSuccessor: @escaping (AnyScreen) -> Successor?
    ) {
        self.content = content
        self.onAppear = onAppear
        self.buildSuccessor = buildSuccessor
    }

    /// The screen's content. (The library's also presents the successor, pushed or as a
    /// sheet, and reports when the screen appears.)
    public var body: some View {
        content
    }
}
