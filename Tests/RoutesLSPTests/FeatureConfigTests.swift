import Foundation
import RoutesJSON
import Testing

/// The project's config (routes.json) in the editor: its problems are diagnostics on it, the
/// defaults apply meanwhile, and a change on disk is read again.
@Suite("Feature: the project config (routes.json)")
struct FeatureConfigTests {
    static let app = "screen Home\nflag leftover\nroot { screen Home }\n"

    @Test func aConfigsProblemsArePublishedOnItAndTheDefaultsApply() throws {
        let workspace = try FeatureWorkspace([
            "routes.json": "{\n  \"rules\": { \"unused-declaratin\": \"off\" }\n}\n",
            "App.routes": Self.app,
        ])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        #expect(ruleCodes(try session.diagnostics("App.routes")) == ["unused-declaration"], "the defaults apply")
        let config = try #require(try session.diagnostics("routes.json"))
        #expect(config.count == 1)
        #expect(config.first?["range"] == lspRange(1, 13, 1, 13))
        #expect(config.first?["severity"] == 1)
        #expect(config.first?["message"]?.stringValue?.contains("unknown rule `unused-declaratin`; did you mean `unused-declaration`?") == true)
        try session.finish()
    }

    @Test func aConfigChangedOnDiskIsReadAgain() throws {
        let workspace = try FeatureWorkspace(["routes.json": "{ not json }\n", "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        #expect(try session.diagnostics("routes.json")?.first?["message"]?.stringValue?.hasPrefix("not valid JSON") == true)
        try workspace.write("routes.json", "{\n  // quiet\n  \"rules\": { \"unused-declaration\": \"off\" }\n}\n")
        let mark = session.mark
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("routes.json")), "type": 2],
        ]])
        #expect(try session.diagnostics("App.routes", from: mark) == [], "the rule is off now")
        #expect(try session.diagnostics("routes.json", from: mark) == [], "the config's problems are cleared")
        try session.finish()
    }

    /// The editor opened on `app/`, the config one folder up: the root is the config's folder,
    /// as for `routes lint`, so an import of `../lib` is inside it.
    @Test func aFolderBelowTheConfigHasTheConfigsFolderAsItsRoot() throws {
        let outer = try FeatureWorkspace([
            "routes.json": "{}\n",
            "lib/Lib.routes": "screen Home\n",
            "app/App.routes": "import \"../lib/Lib.routes\"\nroot { screen Home }\n",
        ])
        let session = try FeatureSession(outer, folder: "app")
        defer { session.stop() }
        try session.open("app/App.routes")
        #expect(try session.diagnostics("app/App.routes") == [])
        try session.finish()
    }
}
