#if os(Linux)
@_spi(Inspection) import ComposableNavigator
import Foundation

// On Linux only, where the app builds against the test-only stand-ins: their inspection
// (not part of the library) walks the model's path through its `Root` as ComposableNavigator
// builds it when it draws: `Root` builds the first element, the `NavigationNode` of each
// element the next one. The model changes the path only through its navigator, as the app's
// views would.

extension AppModel {
    /// What each element of the path is built with: its view, or where building stops.
    func describePath() -> String {
        var parts: [String] = []
        for (_, node) in Root(dataSource: dataSource, pathBuilder: pathBuilder).inspectPath() {
            guard let node else {
                parts.append("not built")
                break
            }
            parts.append("\(type(of: node.content))" + (node.wildcards.isEmpty ? "" : " (through a wildcard)"))
        }
        return dataSource.path.current.map { Self.name($0.content) }.joined(separator: "/") + ": " + parts.joined(separator: " / ")
    }

    static func name(_ element: AnyScreen) -> String {
        if let detail: AppRoutes.Detail = element.unwrap() { return "Detail(\(detail.id))" }
        if element.is(AppRoutes.Home.self) { return "Home" }
        if element.is(AppRoutes.Settings.self) { return "Settings" }
        return element.is(AppRoutes.Login.self) ? "Login" : "?"
    }
}

/// Builds a few paths of the seed app, and how a change of state reaches them.
@MainActor public func seedDemo() -> [String] {
    let model = AppModel()
    var lines = [model.describePath()]
    model.navigator.go(to: AppRoutes.Settings(), on: AppRoutes.Home())
    lines.append(model.describePath())
    model.navigator.replace(path: AppRoutes.Home().eraseToAnyScreen(), AppRoutes.Detail(id: "1").eraseToAnyScreen(),
                            AppRoutes.Detail(id: "2").eraseToAnyScreen())
    lines.append(model.describePath())
    model.store.openDetail = nil
    lines.append(model.describePath() + "  (without a DetailStore)")
    model.navigator.replace(path: AppRoutes.Settings().eraseToAnyScreen())
    lines.append(model.describePath())
    model.signOut()
    lines.append(model.describePath() + "  (signed out)")
    model.signIn()
    lines.append(model.describePath() + "  (signed in again)")
    // Links: the URL's path replaces the navigator's.
    model.store.openDetail = DetailStore()
    for url in ["https://seed.example/items/42", "seed://settings", "seed://orders/1"] {
        let opened = model.open(URL(string: url)!)
        lines.append(opened ? model.describePath() + "  (opened \(url))" : "\(url) matches no link")
    }
    return lines
}
#endif
