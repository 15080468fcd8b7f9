// What the reader app shows for a few navigations, on Linux (`make example`): the views are
// rendered by the test-only SwiftUI stand-in, which records the stacks, pushes and
// presentations it is asked to show (`[A > B]` a stack, ` sheet X` a presentation).
import Foundation
import ReaderApp
@_spi(Inspection) import SwiftUI

@MainActor func show(_ what: String, _ model: ReaderModel) async {
    let shown = await Hierarchy.render(model.rootView).text
    print("\(what)\n  path:  \(model.pathNames.joined(separator: "/"))\n  shows: \(shown)")
}

@MainActor func demo() async {
    let model = ReaderModel()
    await show("The library:", model)
    model.read("42")
    await show("An article, without a subscription (the routing tree builds no article then):", model)
    model.open(URL(string: "https://reader.example/articles/42")!)
    model.subscribe()
    await show("Subscribed, from a shared URL:", model)
    model.read("7")
    model.comments()
    await show("A related article, a sheet over the first, and its comments, a sheet over it:", model)
    print("  resolved: \(model.resolved.joined(separator: ", "))")
    let back = await Hierarchy.render(model.rootView)
    _ = await back.dismissTop()
    await show("After a swipe down on the comments:", model)
}

await demo()
