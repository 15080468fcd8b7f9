import Foundation
import RoutesJSON
import Testing

/// `textDocument/codeAction` over pipes (README.md, Fixes): quick fixes with their
/// diagnostics and `isPreferred`, `source.organizeImports` and `source.fixAll`, `context.only`
/// and `context.diagnostics`, workspace edits as `changes` or versioned `documentChanges`,
/// positions in the negotiated encoding, and -32602 for bad params.
@Suite("Feature: code actions")
struct FeatureCodeActionTests {
    static let app = """
        import "b.routes"
        import "a.routes"
        screen Home
        /// Never tested.
        flag isBeta
        dependency catalogStore: CatalogStore

        root { screen Home uses catalogStor }

        """

    static let literals: JSONValue = ["textDocument": ["codeAction": ["codeActionLiteralSupport": [
        "codeActionKind": ["valueSet": ["quickfix", "source", "source.organizeImports", "source.fixAll"]],
    ]]]]

    static func workspace() throws -> FeatureWorkspace {
        try FeatureWorkspace(["App.routes": app, "a.routes": "", "b.routes": ""])
    }

    /// `textDocument/codeAction` params for a range of `App.routes`.
    static func params(_ session: FeatureSession, _ range: JSONValue, diagnostics: [JSONValue] = [], only: [String]? = nil) -> JSONValue {
        var context: JSONObject = ["diagnostics": .array(diagnostics)]
        if let only { context["only"] = .array(only.map { .string($0) }) }
        return session.document("App.routes", ["range": range, "context": .object(context)])
    }

    @Test func theServerAdvertisesItsKindsToClientsThatTakeLiterals() throws {
        let withLiterals = try FeatureSession(try Self.workspace(), capabilities: Self.literals)
        defer { withLiterals.stop() }
        #expect(withLiterals.serverCapabilities?["codeActionProvider"]?["codeActionKinds"]
                == ["quickfix", "source.organizeImports", "source.fixAll"])
        try withLiterals.finish()
        let plain = try FeatureSession(try Self.workspace())
        defer { plain.stop() }
        #expect(plain.serverCapabilities?["codeActionProvider"] == true)
        try plain.finish()
    }

    @Test func aQuickFixCarriesTheClientsDiagnosticAndIsPreferred() throws {
        let session = try FeatureSession(try Self.workspace(), capabilities: Self.literals)
        defer { session.stop() }
        try session.open("App.routes")
        let published = try #require(try session.diagnostics("App.routes"))
        let undefined = try #require(published.first { $0["code"] == "undefined-name" })
        let range = try #require(undefined["range"])
        let actions = try #require(try session.result("textDocument/codeAction",
                                                      Self.params(session, range, diagnostics: [undefined], only: ["quickfix"])).arrayValue)
        let use = try #require(actions.first { $0["title"] == "Use `catalogStore`" }, "\(actions)")
        #expect(use["kind"] == "quickfix")
        #expect(use["isPreferred"] == true)
        #expect(use["diagnostics"] == [undefined])
        #expect(use["edit"]?["changes"]?[session.workspace.uri("App.routes")] == [["range": range, "newText": "catalogStore"]])
        // The declaration is offered too, not preferred.
        let declare = try #require(actions.first { $0["title"] == "Declare a dependency `catalogStor`" })
        #expect(declare["isPreferred"] == nil)
        #expect(actions.allSatisfy { $0["kind"] == "quickfix" })
        try session.finish()
    }

    @Test func theClientsDiagnosticsChooseWhichAreFixed() throws {
        let session = try FeatureSession(try Self.workspace(), capabilities: Self.literals)
        defer { session.stop() }
        try session.open("App.routes")
        let published = try #require(try session.diagnostics("App.routes"))
        let unused = try #require(published.first { $0["code"] == "unused-declaration" })
        // The whole file: with the unused flag's diagnostic sent, only its fix comes back.
        let whole = lspRange(0, 0, 9, 0)
        let actions = try #require(try session.result("textDocument/codeAction",
                                                      Self.params(session, whole, diagnostics: [unused], only: ["quickfix"])).arrayValue)
        #expect(actions.map { $0["title"] } == ["Remove the unused flag `isBeta`"])
        // The same diagnostic with its range's members in another order (as some clients write
        // them), at the cursor's line start (as Neovim asks): matched all the same.
        let start = try #require(unused["range"]?["start"]), end = try #require(unused["range"]?["end"])
        var reordered = unused
        if case .object(var o) = reordered { o["range"] = ["end": end, "start": start]; reordered = .object(o) }
        let cursor = lspRange(4, 0, 4, 0)
        let again = try #require(try session.result("textDocument/codeAction",
                                                    Self.params(session, cursor, diagnostics: [reordered], only: ["quickfix"])).arrayValue)
        #expect(again.map { $0["title"] } == ["Remove the unused flag `isBeta`"])
        #expect(again.first?["diagnostics"] == [reordered], "the client's own diagnostic comes back")
        // Without diagnostics, the fixes of every diagnostic the range meets.
        let all = try #require(try session.result("textDocument/codeAction", Self.params(session, whole, only: ["quickfix"])).arrayValue)
        // (The unused flag's removal; for the misspelt name, using `catalogStore`, declaring
        // `catalogStor`, or renaming the declaration, which nothing else uses.)
        #expect(all.count == 4, "\(all.map { $0["title"] })")
        #expect(all.contains { $0["title"] == "Rename the declaration `catalogStore` to `catalogStor`" && $0["isPreferred"] == nil })
        // A diagnostic the server does not have (stale) gets nothing.
        var stale = unused
        if case .object(var o) = stale { o["range"] = lspRange(1, 0, 1, 1); stale = .object(o) }
        #expect(try session.result("textDocument/codeAction", Self.params(session, whole, diagnostics: [stale], only: ["quickfix"])) == [])
        try session.finish()
    }

    @Test func sourceActionsOrganizeImportsAndApplyTheSafeFixes() throws {
        let session = try FeatureSession(try Self.workspace(), capabilities: Self.literals)
        defer { session.stop() }
        try session.open("App.routes")
        let uri = session.workspace.uri("App.routes")
        let point = lspRange(0, 0, 0, 0)
        let organize = try #require(try session.result("textDocument/codeAction",
                                                       Self.params(session, point, only: ["source.organizeImports"])).arrayValue)
        #expect(organize.count == 1)
        #expect(organize.first?["kind"] == "source.organizeImports")
        #expect(organize.first?["edit"]?["changes"]?[uri] == [["range": lspRange(0, 0, 1, 17), "newText": "import \"a.routes\"\nimport \"b.routes\""]])
        let fixAll = try #require(try session.result("textDocument/codeAction", Self.params(session, point, only: ["source.fixAll"])).arrayValue)
        #expect(fixAll.count == 1)
        #expect(fixAll.first?["kind"] == "source.fixAll")
        // The unused flag and its doc comment; the misspelt name's fix is unsafe, not applied.
        #expect(fixAll.first?["edit"]?["changes"]?[uri] == [["range": lspRange(3, 0, 5, 0), "newText": ""]])
        // `source` covers both; `quickfix` neither; no `only`, everything.
        #expect(try session.result("textDocument/codeAction", Self.params(session, point, only: ["source"])).arrayValue?.count == 2)
        #expect(try session.result("textDocument/codeAction", Self.params(session, point, only: ["quickfix"])) == [])
        #expect(try session.result("textDocument/codeAction", Self.params(session, point)).arrayValue?.count == 2)
        try session.finish()
    }

    /// The fix-all runs rounds, as `routes lint --fix` does: the unused flag and the stale
    /// suppression on its line edit one line, so one round takes one of them and the next the
    /// other; the edit turns the document into the text the rounds leave.
    @Test func fixAllAppliesTheRoundsThatFixesWhichTouchNeed() throws {
        let text = "screen Home\nflag a\nflag b // routes:ignore shadowed-branch\nroot { screen Home }\n"
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": text]), capabilities: Self.literals)
        defer { session.stop() }
        try session.open("App.routes")
        let uri = session.workspace.uri("App.routes")
        let actions = try #require(try session.result("textDocument/codeAction",
                                                      Self.params(session, lspRange(0, 0, 0, 0), only: ["source.fixAll"])).arrayValue)
        #expect(actions.count == 1)
        #expect(actions.first?["title"] == "Apply 3 safe fixes")
        // One edit, from the first changed line to the last.
        #expect(actions.first?["edit"]?["changes"]?[uri] == [["range": lspRange(1, 0, 3, 0), "newText": ""]])
        // A request without `only` (the light bulb, at each move of the cursor) gets one
        // round, which costs no second analysis.
        let all = try #require(try session.result("textDocument/codeAction", Self.params(session, lspRange(0, 0, 0, 0))).arrayValue)
        #expect(all.first { $0["kind"] == "source.fixAll" }?["title"] == "Apply 2 safe fixes")
        try session.finish()
    }

    @Test func aFixOfTwoFilesIsVersionedDocumentChanges() throws {
        let workspace = try FeatureWorkspace([
            "Lib.routes": "dependency inboxStore: InboxStore from Inbox\n",
            "App.routes": "import \"Lib.routes\"\n/// The inbox.\nscreen Inbox\nroot { screen Inbox }\n",
        ])
        var capabilities = Self.literals
        if case .object(var o) = capabilities {
            o["workspace"] = ["workspaceEdit": ["documentChanges": true]]
            capabilities = .object(o)
        }
        let session = try FeatureSession(workspace, capabilities: capabilities)
        defer { session.stop() }
        try session.open("Lib.routes", version: 4)
        let published = try #require(try session.diagnostics("Lib.routes"))
        let undefined = try #require(published.first { $0["code"] == "undefined-name" })
        let actions = try #require(try session.result("textDocument/codeAction", session.document("Lib.routes", [
            "range": undefined["range"]!, "context": ["diagnostics": [undefined]],
        ])).arrayValue)
        let move = try #require(actions.first { $0["title"]?.stringValue?.hasPrefix("Move the declaration of `Inbox`") == true }, "\(actions)")
        // Files are named as `routes lint` run in the workspace names them, not by absolute paths.
        #expect(move["title"]?.stringValue == "Move the declaration of `Inbox` from App.routes into this file")
        let message = try #require(undefined["message"]?.stringValue)
        #expect(message.contains("App.routes") && !message.contains(workspace.url("App.routes").path), "\(message)")
        let changes = try #require(move["edit"]?["documentChanges"]?.arrayValue)
        #expect(changes.count == 2)
        let byPath = Dictionary(uniqueKeysWithValues: changes.compactMap { c in
            FeatureWorkspace.path(ofURI: c["textDocument"]?["uri"]?.stringValue).map { ($0, c) }
        })
        let lib = try #require(byPath[workspace.url("Lib.routes").path])
        let app = try #require(byPath[workspace.url("App.routes").path])
        #expect(lib["textDocument"]?["version"] == 4, "the open document's version")
        #expect(app["textDocument"]?["version"] == .null, "a file that is not open has none")
        #expect(lib["edits"] == [["range": lspRange(0, 0, 0, 0), "newText": "/// The inbox.\nscreen Inbox\n"]])
        #expect(app["edits"] == [["range": lspRange(1, 0, 3, 0), "newText": ""]])
        try session.finish()
    }

    @Test func positionsAreInTheNegotiatedEncoding() throws {
        let text = "screen Home // café ☕️\nroot { screen Home uses catalogStor } // ☕️\ndependency catalogStore: C\n"
        let workspace = try FeatureWorkspace(["App.routes": text])
        var capabilities = Self.literals
        if case .object(var o) = capabilities {
            o["general"] = ["positionEncodings": ["utf-8", "utf-16"]]
            capabilities = .object(o)
        }
        let session = try FeatureSession(workspace, capabilities: capabilities)
        defer { session.stop() }
        try session.open("App.routes")
        let name = lspPosition(of: "catalogStor }", in: text, utf8: true)
        let range = lspRange(name.line, name.character, name.line, name.character + 11)
        let actions = try #require(try session.result("textDocument/codeAction", Self.params(session, range, only: ["quickfix"])).arrayValue)
        let use = try #require(actions.first { $0["title"] == "Use `catalogStore`" })
        #expect(use["edit"]?["changes"]?[session.workspace.uri("App.routes")] == [["range": range, "newText": "catalogStore"]])
        try session.finish()
    }

    @Test func badParamsGetInvalidParamsAndTheServerGoesOn() throws {
        let session = try FeatureSession(try Self.workspace(), capabilities: Self.literals)
        defer { session.stop() }
        try session.open("App.routes")
        let uri = session.workspace.uri("App.routes")
        let good: JSONObject = ["textDocument": ["uri": .string(uri)], "range": lspRange(0, 0, 1, 0), "context": ["diagnostics": []]]
        func with(_ key: String, _ value: JSONValue?) -> JSONValue {
            var p = good
            p[key] = value
            return .object(p)
        }
        let cases: [(String, JSONValue?)] = [
            ("no params", nil),
            ("an array", [.object(good)]),
            ("no textDocument", with("textDocument", nil)),
            ("an unknown document", with("textDocument", ["uri": "file:///no/such/dir/Unknown.routes"])),
            ("no range", with("range", nil)),
            ("range a string", with("range", "0:0")),
            ("range without end", with("range", ["start": ["line": 0, "character": 0]])),
            ("a negative line", with("range", lspRange(-1, 0, 0, 0))),
            ("character a string", with("range", ["start": ["line": 0, "character": "0"], "end": ["line": 0, "character": 0]])),
            ("no context", with("context", nil)),
            ("context a number", with("context", 3)),
            ("diagnostics an object", with("context", ["diagnostics": ["code": "x"]])),
            ("only a string", with("context", ["diagnostics": [], "only": "quickfix"])),
            ("only holding a number", with("context", ["diagnostics": [], "only": [1]])),
        ]
        for (name, params) in cases {
            let response = try session.client.call("textDocument/codeAction", params)
            #expect(response["error"]?["code"] == -32602, "\(name): \(response)")
            #expect(response["result"] == nil, "\(name)")
        }
        // Strange but well-formed diagnostics are only not matched; good params still work.
        let odd = with("context", ["diagnostics": [1, "x", ["range": 2]], "only": ["quickfix"]])
        #expect(try session.result("textDocument/codeAction", odd) == [])
        #expect(try session.result("textDocument/codeAction", .object(good)).arrayValue != nil)
        try session.finish()
    }
}
