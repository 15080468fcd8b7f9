import Foundation
import RoutesJSON
import Testing

/// Edits inside one declaration take the server's fast way (the declaration parsed and
/// resolved alone, the analysis kept or run again): over real pipes, after each edit of a
/// scripted typing session in the shop app, the published diagnostics must equal those of a
/// fresh server opening the same text.
@Suite("Protocol: edits inside one declaration")
struct DeclarationEditProtocolTests {
    /// One edit: replace `remove` characters at the `occurrence`-th `needle` (plus `delta`) by `insert`.
    struct Step {
        var needle: String
        var delta: Int
        var remove: Int
        var insert: String
    }

    /// The steps, each with the way the server's debug log says it took.
    static let steps: [(Step, String)] = [
        // A parameter's type: the analysis is kept.
        (Step(needle: "categories: [String]", delta: 19, remove: 0, insert: "?"), "the analysis is kept"),
        // A builder's screen name: undefined, then defined again (analysed again).
        (Step(needle: "screen Welcome uses analytics", delta: 14, remove: 0, insert: "X"), "analysed again"),
        (Step(needle: "screen WelcomeX uses analytics", delta: 14, remove: 1, insert: ""), "analysed again"),
        // A `uses` list grows by a dependency that is not in scope there, then shrinks.
        (Step(needle: "screen NotificationPermission uses analytics", delta: 44, remove: 0, insert: ", cartStore"), "analysed again"),
        (Step(needle: "uses analytics, cartStore", delta: 14, remove: 11, insert: ""), "analysed again"),
        // A flag renamed: its uses become undefined, then back. The files that see it are
        // resolved again; the program is analysed again over a new graph (a test of an
        // unknown flag is a variable of its own, which a patched graph has no room for).
        (Step(needle: "flag hasCompletedOnboarding", delta: 27, remove: 0, insert: "2"), "analysed again (1 programs, 0 over a patched graph)"),
        (Step(needle: "flag hasCompletedOnboarding2", delta: 27, remove: 1, insert: ""), "analysed again (1 programs, 0 over a patched graph)"),
        // A screen renamed, then back: its nodes stop naming it, and the program is analysed
        // again over its graph patched (they are still screen nodes).
        (Step(needle: "screen OnboardingInterests(", delta: 26, remove: 0, insert: "X"), "analysed again (1 programs, 1 over a patched graph)"),
        (Step(needle: "screen OnboardingInterestsX(", delta: 26, remove: 1, insert: ""), "analysed again (1 programs, 1 over a patched graph)"),
        // A presentation changed (what other screens see of it): pushes inside it now warn.
        (Step(needle: "screen Welcome\n", delta: 14, remove: 0, insert: " sheet(allowsPush: false)"), "every file is resolved again"),
    ]

    @Test func diagnosticsAfterEachEditEqualAFreshOpen() throws {
        let workspace = try FeatureWorkspace.shop()
        let file = "App.routes"
        var text = try workspace.read(file)
        let session = try FeatureSession(workspace, environment: ["ROUTES_LSP_LOG": "debug"])
        defer { session.stop() }
        try session.open(file, text: text, version: 1)
        _ = try session.diagnostics(file)
        var version = 1
        for (step, way) in Self.steps {
            let logged = session.client.standardError.components(separatedBy: "declaration edit in").count
            let position = lspPosition(of: step.needle, in: text, delta: step.delta)
            let start = text.utf16.index(text.utf16.startIndex, offsetBy: utf16Offset(of: step.needle, in: text) + step.delta)
            let end = text.utf16.index(start, offsetBy: step.remove)
            text.replaceSubrange(start..<end, with: step.insert)
            version += 1
            let before = session.mark
            session.change(file, version: version, [FeatureSession.edit(position.line, position.character, position.line,
                                                                        position.character + step.remove, step.insert)])
            let published = try #require(try session.diagnostics(file, from: before))
            let fresh = try FeatureSession(workspace)
            defer { fresh.stop() }
            try fresh.open(file, text: text, version: 1)
            let expected = try #require(try fresh.diagnostics(file))
            // The edit took the fast way it should have.
            let log = session.client.standardError.components(separatedBy: "declaration edit in")
            #expect(log.count == logged + 1 && log.last?.contains(way) == true, "after \(step): \(log.last ?? "no declaration edit logged")")
            #expect(Soak.multiset(published) == Soak.multiset(expected),
                    "after \(step): \(Soak.summary(published)) vs a fresh open: \(Soak.summary(expected))")
            try fresh.finish()
        }
        try session.finish()
    }

    private func utf16Offset(of needle: String, in text: String) -> Int {
        text.utf16.distance(from: text.utf16.startIndex, to: text.range(of: needle)!.lowerBound.samePosition(in: text.utf16)!)
    }
}
