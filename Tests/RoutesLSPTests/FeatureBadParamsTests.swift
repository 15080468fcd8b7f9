import Foundation
import RoutesJSON
import Testing

/// Bad params (README.md, `routes lsp`, Lifecycle): every request with params it cannot use
/// gets -32602, and the server keeps working.
@Suite("Feature: bad params")
struct FeatureBadParamsTests {
    static let positionMethods = ["textDocument/completion", "textDocument/hover", "textDocument/definition",
                                  "textDocument/references", "textDocument/prepareRename", "textDocument/rename",
                                  "textDocument/documentHighlight"]
    static let documentMethods = ["textDocument/documentSymbol", "routes/preview", "textDocument/selectionRange",
                                  "textDocument/inlayHint", "textDocument/codeLens", "textDocument/diagnostic"]

    /// Params each method accepts (for the document `uri`).
    static func good(_ method: String, _ uri: String) -> JSONObject {
        var params: JSONObject = ["textDocument": ["uri": .string(uri)]]
        if positionMethods.contains(method) { params["position"] = ["line": 3, "character": 10] }
        if method == "textDocument/rename" { params["newName"] = "Start2" }
        if method == "textDocument/references" { params["context"] = ["includeDeclaration": true] }
        if method == "textDocument/selectionRange" { params["positions"] = [["line": 3, "character": 10]] }
        if method == "textDocument/inlayHint" { params["range"] = lspRange(0, 0, 5, 0) }
        return params
    }

    /// Ways to spoil good params, each with a name.
    static func spoiled(_ method: String, _ uri: String) -> [(String, JSONValue?)] {
        let good = good(method, uri)
        func with(_ key: String, _ value: JSONValue?) -> JSONValue {
            var params = good
            params[key] = value
            return .object(params)
        }
        var cases: [(String, JSONValue?)] = [
            ("no params", nil),
            ("an empty object", [:]),
            ("an array", [.object(good)]),
            ("no textDocument", with("textDocument", nil)),
            ("textDocument a string", with("textDocument", .string(uri))),
            ("textDocument without uri", with("textDocument", ["version": 1])),
            ("uri a number", with("textDocument", ["uri": 7])),
            ("uri null", with("textDocument", ["uri": nil])),
            ("an unknown document", with("textDocument", ["uri": "file:///no/such/dir/Unknown.routes"])),
            ("not a file URI", with("textDocument", ["uri": "https://example.com/App.routes"])),
        ]
        if positionMethods.contains(method) {
            cases += [
                ("no position", with("position", nil)),
                ("position a number", with("position", 3)),
                ("position an array", with("position", [2, 9])),
                ("position without character", with("position", ["line": 2])),
                ("line a string", with("position", ["line": "2", "character": 9])),
                ("character null", with("position", ["line": 2, "character": nil])),
                ("negative line", with("position", ["line": -1, "character": 0])),
                ("negative character", with("position", ["line": 0, "character": -5])),
                ("fractional line", with("position", ["line": 1.5, "character": 0])),
            ]
        }
        if method == "textDocument/rename" {
            cases += [("no newName", with("newName", nil)), ("newName a number", with("newName", 5))]
        }
        if method == "textDocument/references" {
            cases += [("context a number", with("context", 5)),
                      ("includeDeclaration a string", with("context", ["includeDeclaration": "yes"]))]
        }
        if method == "textDocument/selectionRange" {
            cases += [("no positions", with("positions", nil)), ("positions an object", with("positions", ["line": 1, "character": 0])),
                      ("a position a number", with("positions", [3])),
                      ("a negative position", with("positions", [["line": 1, "character": 0], ["line": -1, "character": 0]]))]
        }
        if method == "textDocument/inlayHint" {
            cases += [("no range", with("range", nil)), ("range a string", with("range", "all")),
                      ("range without end", with("range", ["start": ["line": 0, "character": 0]])),
                      ("a negative line", with("range", lspRange(-1, 0, 2, 0)))]
        }
        if method == "routes/preview" {
            cases += [("flags an array", with("flags", ["isLoggedIn"])), ("optionals a string", with("optionals", "x")),
                      ("path an object", with("path", ["screen": "Start"]))]
        }
        return cases
    }

    @Test(arguments: positionMethods + documentMethods)
    func badParamsGetInvalidParamsAndTheServerGoesOn(method: String) throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureWorkspaceTests.library,
                                              "App.routes": FeatureWorkspaceTests.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let uri = workspace.uri("App.routes")
        for (name, params) in Self.spoiled(method, uri) {
            let response = try session.client.call(method, params)
            #expect(response["error"]?["code"] == -32602, "\(method) with \(name): \(response)")
            #expect(response["result"] == nil, "\(method) with \(name)")
        }
        // Good params still work, and so does everything else.
        let ok = try session.client.call(method, .object(Self.good(method, uri)))
        #expect(ok["error"] == nil, "\(method): \(ok)")
        let hover = try session.result("textDocument/hover", session.at("App.routes", 3, 10))
        #expect(hover["contents"]?["value"]?.stringValue?.contains("Start") == true)
        // Every request was answered exactly once.
        let ids = session.client.responses.compactMap { $0["id"] }
        #expect(ids.count == Set(ids).count)
        try session.finish()
    }

    /// The requests that name no document: their own bad params.
    @Test func badParamsOfWorkspaceRequestsAndCodeLensResolve() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureWorkspaceTests.library,
                                              "App.routes": FeatureWorkspaceTests.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let uri = JSONValue.string(workspace.uri("App.routes"))
        let range = lspRange(3, 2, 3, 7)
        let bad: [(String, JSONValue?)] = [
            ("workspace/symbol", nil), ("workspace/symbol", [:]), ("workspace/symbol", ["query": 5]),
            ("workspace/symbol", ["query": nil]), ("workspace/symbol", ["q"]),
            ("codeLens/resolve", nil), ("codeLens/resolve", [:]), ("codeLens/resolve", ["range": range]),
            ("codeLens/resolve", ["range": range, "data": "x"]), ("codeLens/resolve", ["data": ["uri": uri, "kind": "screen", "name": "Start"]]),
            ("codeLens/resolve", ["range": range, "data": ["uri": uri, "kind": 1, "name": "Start"]]),
            ("codeLens/resolve", ["range": range, "data": ["uri": "file:///no/such/Unknown.routes", "kind": "screen", "name": "Start"]]),
            ("workspace/diagnostic", ["previousResultIds": "x"]), ("workspace/diagnostic", ["previousResultIds": [["uri": uri]]]),
            ("workspace/diagnostic", ["previousResultIds": [5]]),
        ]
        for (method, params) in bad {
            let response = try session.client.call(method, params)
            #expect(response["error"]?["code"] == -32602, "\(method) with \(params.map { JSON.serialize($0) } ?? "no params"): \(response)")
        }
        // Good ones still work.
        #expect(try session.result("workspace/symbol", ["query": "sta"]).arrayValue?.first?["name"] == "Start")
        #expect(try session.result("workspace/diagnostic", nil)["items"]?.arrayValue?.count == 2)
        try session.finish()
    }

    /// Positions and ranges past the end of the document are clamped, as for the other requests.
    @Test func positionsOutOfRangeAreClampedNotRefused() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureWorkspaceTests.library,
                                              "App.routes": FeatureWorkspaceTests.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let far: JSONValue = ["line": 5_000, "character": 99_999]
        #expect(try session.result("textDocument/documentHighlight", session.document("App.routes", ["position": far])) == [])
        let selection = try session.result("textDocument/selectionRange", session.document("App.routes", ["positions": [far, far]]))
        #expect(selection.arrayValue?.count == 2)
        let hints = try session.result("textDocument/inlayHint", session.document("App.routes", ["range": ["start": far, "end": far]]))
        #expect(hints == [])
        let completion = try session.result("textDocument/completion", session.document("App.routes", ["position": far]))
        #expect(completion["items"] != nil)
        try session.finish()
    }

    @Test func badNotificationsAreIgnoredAndTheServerGoesOn() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureWorkspaceTests.library,
                                              "App.routes": FeatureWorkspaceTests.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let uri = JSONValue.string(workspace.uri("App.routes"))
        let bad: [(String, JSONValue?)] = [
            ("textDocument/didOpen", nil),
            ("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1]]),
            ("textDocument/didOpen", ["textDocument": ["uri": uri, "version": "one", "text": 5]]),
            ("textDocument/didChange", nil),
            ("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2]]),
            ("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["range": "all", "text": "x"]]]),
            ("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2],
                                        "contentChanges": [["range": ["start": ["line": -1, "character": 0],
                                                                      "end": ["line": 0, "character": 0]], "text": "x"]]]),
            ("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": 12]]]),
            ("textDocument/didClose", ["textDocument": 1]),
            ("textDocument/didSave", ["textDocument": nil]),
            ("workspace/didChangeWatchedFiles", ["changes": [["uri": 1, "type": "x"], "junk"]]),
            ("workspace/didChangeWorkspaceFolders", ["event": "x"]),
            ("initialized", [1, 2]),
        ]
        for (method, params) in bad { session.client.notify(method, params) }
        try session.sync()
        // The document is as it was opened.
        let hover = try session.result("textDocument/hover", session.at("App.routes", 3, 10))
        #expect(hover["range"] == lspRange(3, 9, 3, 14))
        let mark = session.mark
        session.change("App.routes", version: 9, [FeatureSession.edit(3, 23, 3, 23, ", nope")])
        let published = try session.lastPublication("App.routes", from: mark)
        #expect(published?["version"] == 9)
        #expect(ruleCodes(published?["diagnostics"]?.arrayValue) == ["undefined-name"])
        try session.finish()
    }
}
