import SwiftUI

/// The view at the root of an app whose navigation ComposableNavigator drives: it builds the
/// first element of the data source's path with `pathBuilder`, and the `NavigationNode` of
/// each element builds the next one. (The library's also embeds it in a `NavigationView`
/// and is drawn again whenever the path changes.) When `pathBuilder` does not build the
/// first element, it shows nothing.
public struct Root<Builder: PathBuilder>: View {
    let dataSource: Navigator.Datasource
    let navigator: Navigator
    let pathBuilder: Builder

    public init(dataSource: Navigator.Datasource, navigator: Navigator, pathBuilder: Builder) {
        self.dataSource = dataSource
        self.navigator = navigator
        self.pathBuilder = pathBuilder
    }

    public var body: some View {
        dataSource.path.current.first.flatMap { pathBuilder.build(pathElement: $0.content) }
    }
}

extension Root {
    public init(dataSource: Navigator.Datasource, pathBuilder: Builder) {
        self.init(dataSource: dataSource, navigator: Navigator(dataSource: dataSource), pathBuilder: pathBuilder)
    }
}
