import ComposableNavigator

// What the app writes: its stores, its views, and the two conformances the generated
// code asks for (AppRoutesEnvironment and AppRoutesContent, in App.routes.swift, which the
// RoutesGenerator plugin writes on every build). Everything else (the screen types, the
// routing tree) is generated.

final class AppStore {
    var isLoggedIn = true
    var openDetail: DetailStore? = DetailStore()
}
final class SettingsStore {}
final class LoginStore {}
final class DetailStore {}

struct HomeView: View { let store: AppStore }
struct SettingsView: View { let store: SettingsStore }
struct DetailView: View {
    let id: String
    let store: DetailStore
}
struct LoginView: View { let store: LoginStore }

/// Flags, optionals and app-wide dependencies, read whenever a path is built.
struct AppEnvironment: AppRoutesEnvironment {
    let appStore: AppStore
    let loginStore = LoginStore()
    var isLoggedIn: Bool { appStore.isLoggedIn }
    var detailStore: DetailStore? { appStore.openDetail }
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
