import Foundation
import Testing
import RoutesJSON
@testable import RoutesLSP

/// Edits that wait in the queue while the server works: each would be analysed and published
/// in turn, each analysis made stale by the next. The server publishes once the queue is
/// empty, or before it answers a request.
@Suite("Protocol: edits queued behind one another")
struct QueuedEditsTests {
    /// A server in process, initialized, with `Catalog.routes` of the shop open (the
    /// workspace and the features returned too: the harness holds neither).
    private static func opened() throws -> (LifecycleHarness, String, String, (FeatureWorkspace, LanguageFeatures)) {
        let workspace = try FeatureWorkspace.shop()
        let original = try workspace.read("Catalog.routes")
        let uri = workspace.uri("Catalog.routes")
        var features: LanguageFeatures?
        let harness = LifecycleHarness { features = LanguageFeatures(server: $0) }
        let held = try #require(features)
        _ = harness.request(1, "initialize", ["processId": nil, "rootUri": .string(workspace.rootURI), "capabilities": [:]])
        harness.send(LSPTestClient.notificationMessage("initialized", [:]))
        harness.send(LSPTestClient.notificationMessage("textDocument/didOpen", ["textDocument": [
            "uri": .string(uri), "languageId": "routes", "version": 1, "text": .string(original),
        ]]))
        let opened = harness.takeOutput().filter { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri }
        #expect(opened.count == 1, "a document opened is published at once")
        return (harness, uri, original, (workspace, held))
    }

    private static func change(_ uri: String, version: Int, text: String) -> JSONValue {
        LSPTestClient.notificationMessage("textDocument/didChange", [
            "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
            "contentChanges": [["text": .string(text)]],
        ])
    }

    private static func publications(_ output: [JSONValue], _ uri: String) -> [JSONValue] {
        output.filter { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri }
    }

    @Test func aRunOfQueuedEditsIsPublishedOnceForTheLastText() throws {
        let (harness, uri, original, held) = try Self.opened()
        defer { withExtendedLifetime(held) {} }
        // Thirty whole-text changes, each a new undefined name: every one would be analysed
        // again from the start.
        for version in 2...31 {
            harness.enqueue(Self.change(uri, version: version, text: original + "\nbuilder extra\(version) { missing\(version) }\n"))
        }
        #expect(harness.server.processQueued() == nil)
        let published = Self.publications(harness.takeOutput(), uri)
        #expect(published.count == 1, "\(published.count) publications for 30 queued edits")
        #expect(published.last?["params"]?["version"] == 31)
        let messages = published.last?["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        #expect(messages.contains { $0.contains("missing31") })
        #expect(!messages.contains { $0.contains("missing30") })
    }

    @Test func aRequestAfterAnEditIsAnsweredAfterTheEditsDiagnostics() throws {
        let (harness, uri, original, held) = try Self.opened()
        defer { withExtendedLifetime(held) {} }
        harness.enqueue(Self.change(uri, version: 2, text: original + "\nbuilder extra { missing }\n"))
        harness.enqueue(LSPTestClient.notificationMessage("textDocument/didChange", [:]))
        harness.enqueue(["jsonrpc": "2.0", "id": 7, "method": "textDocument/documentSymbol",
                         "params": ["textDocument": ["uri": .string(uri)]]])
        #expect(harness.server.processQueued() == nil)
        let output = harness.takeOutput()
        let published = output.firstIndex { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri }
        let answered = output.firstIndex { $0["id"] == 7 }
        #expect(published != nil && answered != nil && published! < answered!, "\(output)")
        #expect(Self.publications(output, uri).count == 1)
    }
}
