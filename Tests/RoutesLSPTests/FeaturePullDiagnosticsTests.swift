import Foundation
import RoutesJSON
import Testing

/// Pull diagnostics (README.md, `routes lsp`): `textDocument/diagnostic` and
/// `workspace/diagnostic`, with result ids and `unchanged` reports, beside the pushed ones.
@Suite("Feature: pull diagnostics")
struct FeaturePullDiagnosticsTests {
    /// A client that can pull (as Neovim 0.10 and later can), and one that also asks to.
    static let pulling: JSONValue = ["textDocument": ["diagnostic": ["dynamicRegistration": false]]]
    static let askingToPull: JSONValue = ["pullDiagnostics": true]

    /// A client that can pull but does not ask to gets diagnostics pushed, and the server does
    /// not offer pulls (a client that did both would show each diagnostic twice); one that asks
    /// to is offered them, and then nothing is pushed.
    @Test func diagnosticsArePulledOnlyByAClientThatAsksTo() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureSessionTests.library, "App.routes": FeatureSessionTests.app])
        for (options, pulls) in [(nil, false), (["pullDiagnostics": false] as JSONValue, false), (Self.askingToPull, true)] {
            let session = try FeatureSession(workspace, capabilities: Self.pulling, initializationOptions: options)
            defer { session.stop() }
            #expect(session.serverCapabilities?["diagnosticProvider"]
                == (pulls ? ["identifier": "routes", "interFileDependencies": true, "workspaceDiagnostics": true] : nil))
            try session.open("App.routes")
            let pushed = try session.lastPublication("App.routes")
            #expect((pushed == nil) == pulls, "pushed: \(String(describing: pushed))")
            if !pulls {
                #expect(Set(ruleCodes(pushed?["diagnostics"]?.arrayValue)) == ["duplicate-declaration", "unused-declaration", "undefined-name"])
            }
            try session.finish()
        }
    }

    @Test func aClientThatPullsGetsReportsWithResultIdsAndNothingPushed() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureSessionTests.library, "App.routes": FeatureSessionTests.app])
        let session = try FeatureSession(workspace, capabilities: Self.pulling, initializationOptions: Self.askingToPull)
        defer { session.stop() }
        try session.open("App.routes")
        #expect(try session.lastPublication("App.routes") == nil, "nothing is pushed to a client that pulls")

        let first = try session.result("textDocument/diagnostic", session.document("App.routes"))
        #expect(first["kind"] == "full")
        let id = try #require(first["resultId"]?.stringValue)
        let items = try #require(first["items"]?.arrayValue)
        #expect(Set(ruleCodes(items)) == ["duplicate-declaration", "unused-declaration", "undefined-name"])
        #expect(items.first { $0["code"] == "undefined-name" }?["range"] == lspRange(11, 11, 11, 18))

        // Asked again with that id: unchanged, same id.
        let again = try session.result("textDocument/diagnostic", session.document("App.routes", ["previousResultId": .string(id)]))
        #expect(again == ["kind": "unchanged", "resultId": .string(id)])
        // A stale id: the full report.
        let stale = try session.result("textDocument/diagnostic", session.document("App.routes", ["previousResultId": "0"]))
        #expect(stale["kind"] == "full" && stale["resultId"]?.stringValue == id)

        // An edit that removes the undefined name: a new report with a new id.
        session.change("App.routes", version: 2, [FeatureSession.edit(11, 4, 11, 18, "empty")])
        let edited = try session.result("textDocument/diagnostic", session.document("App.routes", ["previousResultId": .string(id)]))
        #expect(edited["kind"] == "full")
        #expect(edited["resultId"]?.stringValue != id)
        let codes = ruleCodes(edited["items"]?.arrayValue)
        #expect(!codes.contains("undefined-name"))
        #expect(session.publications("App.routes").isEmpty)
        try session.finish()
    }

    @Test func theReportsHoldWhatIsPushedToOtherClients() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureSessionTests.library, "App.routes": FeatureSessionTests.app])
        let pushed = try FeatureSession(workspace)
        defer { pushed.stop() }
        try pushed.open("App.routes")
        let published = try #require(try pushed.diagnostics("App.routes"))
        let pulled = try pushed.result("textDocument/diagnostic", pushed.document("App.routes"))
        #expect(pulled["items"]?.arrayValue == published)
        try pushed.finish()
    }

    @Test func workspaceDiagnosticsReportEveryFileWithTheVersionsOfOpenOnes() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureSessionTests.library, "App.routes": FeatureSessionTests.app,
                                              "Clean.routes": "screen Lone\nroot { screen Lone }\n"])
        let session = try FeatureSession(workspace, capabilities: Self.pulling, initializationOptions: Self.askingToPull)
        defer { session.stop() }
        try session.open("App.routes", version: 7)
        let result = try session.result("workspace/diagnostic", ["previousResultIds": []])
        let reports = try #require(result["items"]?.arrayValue)
        let byFile = Dictionary(uniqueKeysWithValues: reports.map { (URL(string: $0["uri"]?.stringValue ?? "")?.lastPathComponent ?? "", $0) })
        #expect(Set(byFile.keys) == ["App.routes", "Clean.routes", "Library.routes"])
        #expect(byFile["App.routes"]?["version"] == 7)
        #expect(byFile["Clean.routes"]?["version"] == .null)
        #expect(byFile["App.routes"]?["uri"]?.stringValue == workspace.uri("App.routes"))
        #expect(reports.allSatisfy { $0["kind"] == "full" && $0["resultId"]?.stringValue != nil })
        #expect(byFile["Clean.routes"]?["items"] == [])
        let appCodes = ruleCodes(byFile["App.routes"]?["items"]?.arrayValue)
        #expect(appCodes.contains("undefined-name"))
        // The same as the document's own report.
        let document = try session.result("textDocument/diagnostic", session.document("App.routes"))
        #expect(document["resultId"] == byFile["App.routes"]?["resultId"])

        // With the ids it has: everything unchanged.
        let previous: [JSONValue] = reports.map { ["uri": $0["uri"] ?? .null, "value": $0["resultId"] ?? .null] }
        let again = try #require(try session.result("workspace/diagnostic", ["previousResultIds": .array(previous)])["items"]?.arrayValue)
        #expect(again.count == 3)
        #expect(again.allSatisfy { $0["kind"] == "unchanged" && $0["items"] == nil })
        // After a change on disk, only that file's report is full again.
        try workspace.write("Clean.routes", "screen Lone\nroot { screen Lone uses nothing }\n")
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(workspace.uri("Clean.routes")), "type": 2]]])
        let later = try #require(try session.result("workspace/diagnostic", ["previousResultIds": .array(previous)])["items"]?.arrayValue)
        #expect(later.filter { $0["kind"] == "full" }.compactMap { URL(string: $0["uri"]?.stringValue ?? "")?.lastPathComponent } == ["Clean.routes"])
        try session.finish()
    }

    @Test func aDocumentTooLargeToAnalyseReportsItsOneWarning() throws {
        let workspace = try FeatureWorkspace(["App.routes": "root { empty }\n"])
        let session = try FeatureSession(workspace, capabilities: Self.pulling, initializationOptions: Self.askingToPull)
        defer { session.stop() }
        let line = "// " + String(repeating: "x", count: 1020) + "\n"
        try session.open("Big.routes", text: String(repeating: line, count: 17 * 1024))
        let report = try session.result("textDocument/diagnostic", session.document("Big.routes"))
        let items = try #require(report["items"]?.arrayValue)
        #expect(items.count == 1)
        #expect(items.first?["message"]?.stringValue?.contains("the file is too large") == true)
        let all = try #require(try session.result("workspace/diagnostic", ["previousResultIds": []])["items"]?.arrayValue)
        #expect(all.contains { $0["uri"]?.stringValue == workspace.uri("Big.routes") && $0["version"] == 1 })
        #expect(session.publications("Big.routes").isEmpty)
        try session.finish()
    }
}
