import Foundation
import SwiftUI

// The wiring of the navigation that the RoutesGenerator plugin generates from Reader.routes
// for SwiftUI's NavigationStack (routes.json: `"swiftTarget": "swiftui"`): the app's state,
// the environment and the content the generated code asks for, and the model that holds the
// navigator. In the iOS app target:
//
//     @main struct Reader: App {
//         @StateObject var model = ReaderModel()
//         var body: some Scene { WindowGroup { model.rootView.onOpenURL { model.open($0) } } }
//     }

/// The articles and the reader's subscription: main-actor state that the views observe.
@MainActor public final class ArticleStore: ObservableObject {
    @Published public var isSubscriber = false
    public let titles = ["42": "Navigation, checked", "7": "Sheets and stacks"]

    public nonisolated init() {}
}

/// What the routing tree reads: a value made each time the root view draws, so a change of
/// the subscription reaches the tree.
struct ReaderEnvironment: ReaderRoutesEnvironment {
    let store: ArticleStore
    let isSubscriber: Bool
}

/// The views of the screens: each receives exactly what its `uses` names.
struct ReaderContent: ReaderRoutesContent {
    func library(_ screen: ReaderRoutes.Library, using deps: ReaderRoutes.LibraryDeps) -> TitleView {
        TitleView(title: "Library")
    }

    func article(_ screen: ReaderRoutes.Article, using deps: ReaderRoutes.ArticleDeps) -> ArticleView {
        ArticleView(id: screen.id, store: deps.store)
    }

    func paywall(_ screen: ReaderRoutes.Paywall) -> TitleView { TitleView(title: "Paywall") }
    func share(_ screen: ReaderRoutes.Share) -> TitleView { TitleView(title: "Share") }

    func comments(_ screen: ReaderRoutes.Comments, using deps: ReaderRoutes.CommentsDeps) -> TitleView {
        TitleView(title: "Comments")
    }

    func profile(_ screen: ReaderRoutes.Profile) -> TitleView { TitleView(title: "Profile") }
}

/// A screen that shows its title.
struct TitleView: View {
    let title: String
    var body: some View { Text(verbatim: title) }
}

/// An article: its title, from the store.
struct ArticleView: View {
    let id: String
    let store: ArticleStore
    var body: some View { Text(verbatim: "Article \(id)") }
}

/// The app's model: the store and the navigator, made once.
@MainActor public final class ReaderModel: ObservableObject {
    public let store = ArticleStore()
    let navigator = ReaderRoutesNavigator(path: [.library(ReaderRoutes.Library())])

    public init() {}

    /// The navigation, as the app shows it.
    public var rootView: some View { ReaderRootView(model: self, store: store) }

    /// Opens a URL of a link (`https://reader.example/articles/42`); true when a link matches.
    @discardableResult public func open(_ url: URL) -> Bool {
        guard let path = ReaderRoutes.path(for: url) else { return false }
        navigator.replace(path: path)
        return true
    }

    public func subscribe() { store.isSubscriber = true }

    /// Opens an article after the one shown last (a related article is a sheet there).
    public func read(_ id: String) { navigator.go(to: .article(ReaderRoutes.Article(id: id))) }
    public func share() { navigator.go(to: .share(ReaderRoutes.Share())) }
    public func comments() { navigator.go(to: .comments(ReaderRoutes.Comments())) }

    /// What the navigator's path holds, by screen name.
    public var pathNames: [String] { navigator.path.map(\.screenName) }

    /// What the routing tree builds of the path under the store's state, by screen name and
    /// presentation (`AppRoutes.resolve`, as an app's unit test asks it).
    public var resolved: [String] {
        let conditions = ReaderRoutes.Conditions(isSubscriber: store.isSubscriber)
        return ReaderRoutes.resolve(navigator.path, in: conditions).steps.map { "\($0.element.screenName) (\($0.node.presentation))" }
    }
}

/// The root: draws again when the store changes, so that the tree reads the new state.
struct ReaderRootView: View {
    let model: ReaderModel
    @ObservedObject var store: ArticleStore

    var body: some View {
        ReaderRoutes.RootView(navigator: model.navigator,
                              environment: ReaderEnvironment(store: store, isSubscriber: store.isSubscriber),
                              content: ReaderContent())
    }
}
