import ComposableNavigator
import Foundation
import SwiftUI

// What the app writes: its state, its views, the two conformances the generated code asks
// for (AppRoutesEnvironment and AppRoutesContent, in App.routes.swift, which the
// RoutesGenerator plugin writes on every build), and the wiring to ComposableNavigator's
// `Root`. Everything else (the screen types, the routing tree) is generated.
//
// Swift 6 and SwiftUI: the library builds a path's elements in closures that are not
// isolated to the main actor, so the content methods and the environment's members are not
// either (they run on the main thread, while SwiftUI draws). The state is main-actor
// isolated, as the state views read is, which makes it `Sendable`; a view whose stored
// properties are all `Sendable` has a nonisolated memberwise initializer, so the content
// methods can make it.

// MARK: - State

/// The app's state.
@MainActor final class AppStore {
    var isLoggedIn = true
    var openDetail: DetailStore? = DetailStore()
    let loginStore = LoginStore()
}

/// Settings state, made by Home (`settingsStore from Home`) in its content method.
@MainActor final class SettingsStore {
    nonisolated init() {}
}

@MainActor final class LoginStore {}

@MainActor final class DetailStore {}

// MARK: - Views

struct HomeView: View {
    let store: AppStore
    var body: some View { Text("Home") }
}

struct SettingsView: View {
    let store: SettingsStore
    var body: some View { Text("Settings") }
}

struct DetailView: View {
    let id: String
    let store: DetailStore
    var body: some View { Text("Detail \(id)") }
}

struct LoginView: View {
    let store: LoginStore
    var body: some View { Text("Sign in") }
}

// MARK: - The conformances

/// Flags, optionals and app-wide dependencies, read whenever an element is built (on the
/// main thread, while SwiftUI draws: `assumeIsolated` reads the main actor's state there).
struct AppEnvironment: AppRoutesEnvironment {
    let appStore: AppStore
    var loginStore: LoginStore { appStore.loginStore }
    var isLoggedIn: Bool { MainActor.assumeIsolated { appStore.isLoggedIn } }
    var detailStore: DetailStore? { MainActor.assumeIsolated { appStore.openDetail } }
}

/// One method per screen: the view, from exactly the dependencies its `uses` names. Home
/// provides `settingsStore` to the screens after it.
struct AppContent: AppRoutesContent {
    func home(_ screen: AppRoutes.Home, using deps: AppRoutes.HomeDeps) -> (view: HomeView, settingsStore: SettingsStore) {
        (HomeView(store: deps.appStore), SettingsStore())
    }

    func settings(_ screen: AppRoutes.Settings, using deps: AppRoutes.SettingsDeps) -> SettingsView {
        SettingsView(store: deps.settingsStore)
    }

    func detail(_ screen: AppRoutes.Detail, using deps: AppRoutes.DetailDeps) -> DetailView {
        DetailView(id: screen.id, store: deps.detailStore)
    }

    func login(_ screen: AppRoutes.Login, using deps: AppRoutes.LoginDeps) -> LoginView {
        LoginView(store: deps.loginStore)
    }
}

// MARK: - The wiring

/// The app's state and its navigation, made once when the app starts and kept while it
/// runs. On iOS the app's `App` holds it:
///
///     @main struct Seed: App {
///         let model = AppModel()
///         var body: some Scene { WindowGroup { model.rootView } }
///     }
@MainActor public final class AppModel {
    let store = AppStore()

    /// The navigation path. Its first element is built by `root`, whose `conditional
    /// isLoggedIn` has a `wildcard` at the top of both branches: a wildcard builds whatever
    /// element it is given as its own screen (Home or Login) and, once shown, puts that
    /// screen in the element's place. So any screen can start the path, whatever the flag.
    let dataSource = Navigator.Datasource(root: AppRoutes.Home())

    public init() {}

    /// The routing tree, over this model's state.
    var pathBuilder: some PathBuilder {
        AppRoutes.root(environment: AppEnvironment(appStore: store), content: AppContent())
    }

    /// The view at the root of the app.
    public var rootView: some View {
        Root(dataSource: dataSource, pathBuilder: pathBuilder)
    }

    var navigator: Navigator { Navigator(dataSource: dataSource) }

    /// The tree reads `isLoggedIn` whenever it builds an element, and the library builds
    /// the elements again when the path changes. So a change of the flag is followed by a
    /// new path, which shows the screens of the other branch (and drops the screens of the
    /// signed-in user from the path).
    public func signOut() {
        store.isLoggedIn = false
        navigator.replace(path: AppRoutes.Login().eraseToAnyScreen())
    }

    public func signIn() {
        store.isLoggedIn = true
        navigator.replace(path: AppRoutes.Home().eraseToAnyScreen())
    }

    /// Opens a URL of one of the app's links (the `link` declarations of App.routes): its
    /// path replaces the navigator's. False for a URL that matches no link. On iOS 14 and
    /// later the app's scene hands it every URL it is opened with:
    ///
    ///     WindowGroup { model.rootView.onOpenURL { model.open($0) } }
    @discardableResult public func open(_ url: URL) -> Bool {
        guard let path = AppRoutes.path(for: url) else { return false }
        navigator.replace(path: path)
        return true
    }
}
