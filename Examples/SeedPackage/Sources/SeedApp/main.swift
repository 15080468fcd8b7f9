@_spi(Inspection) import ComposableNavigator

// On an iPhone the app hands the tree to ComposableNavigator:
//
//     Root(dataSource: Navigator.Datasource(root: AppRoutes.Home()),
//          pathBuilder: AppRoutes.root(environment: environment, content: AppContent()))
//
// Here, on Linux, the stand-in's test-only inspection walks a few paths the way the
// library builds them, and prints what each element is built with.

/// What each element of a path is built with: its view, or where building stops.
func describe(_ path: [any Screen], in tree: some PathBuilder) -> String {
    var build: (AnyScreen) -> Any? = { tree.build(pathElement: $0).map { $0 as Any } }
    var parts: [String] = []
    for element in path {
        guard let view = build(element.eraseToAnyScreen()), let node = inspect(view) else {
            parts.append("not built")
            break
        }
        parts.append("\(type(of: node.content))" + (node.wildcards.isEmpty ? "" : " (through a wildcard)"))
        build = node.buildSuccessor
    }
    return parts.joined(separator: " / ")
}

let store = AppStore()
let tree = AppRoutes.root(environment: AppEnvironment(appStore: store), content: AppContent())
print("Home/Settings: " + describe([AppRoutes.Home(), AppRoutes.Settings()], in: tree))
print("Home/Detail/Detail: " + describe([AppRoutes.Home(), AppRoutes.Detail(id: "1"), AppRoutes.Detail(id: "2")], in: tree))
print("Settings: " + describe([AppRoutes.Settings()], in: tree))
store.openDetail = nil
print("Home/Detail without a DetailStore: " + describe([AppRoutes.Home(), AppRoutes.Detail(id: "1")], in: tree))
store.isLoggedIn = false
print("Home, signed out: " + describe([AppRoutes.Home()], in: tree))
