import Foundation
import RoutesJSON
import Testing

/// Workspace symbols, document highlights, selection ranges, inlay hints, code lenses and the
/// completion of import paths (README.md, `routes lsp`), over real pipes.
@Suite("Feature: symbols, highlights, selection, hints, lenses")
struct FeatureEditorRequestsTests {
    static func seedSession(capabilities: JSONValue = [:]) throws -> (FeatureSession, String) {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": seed]), capabilities: capabilities)
        try session.open("App.routes")
        return (session, seed)
    }

    /// `{line, character}` of `needle` in `text`, moved `delta`.
    static func at(_ text: String, _ needle: String, delta: Int = 0, occurrence: Int = 0) -> (line: Int, character: Int) {
        lspPosition(of: needle, in: text, occurrence: occurrence, delta: delta)
    }

    @Test func initializeAnnouncesEachRequestInItsLSPShape() throws {
        let (session, _) = try Self.seedSession()
        defer { session.stop() }
        let caps = try #require(session.serverCapabilities)
        #expect(caps["workspaceSymbolProvider"] == true)
        #expect(caps["documentHighlightProvider"] == true)
        #expect(caps["selectionRangeProvider"] == true)
        #expect(caps["inlayHintProvider"] == ["resolveProvider": false])
        #expect(caps["codeLensProvider"] == ["resolveProvider": true])
        // Pulls are offered only to a client that asks for them (FeaturePullDiagnosticsTests).
        #expect(caps["diagnosticProvider"] == nil)
        let triggers = caps["completionProvider"]?["triggerCharacters"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(triggers) == [" ", ",", "\"", "/"])
        try session.finish()
    }

    @Test func workspaceSymbolsFindDeclarationsInFilesThatAreNotOpen() throws {
        let workspace = try FeatureWorkspace.shop()
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let found = try #require(try session.result("workspace/symbol", ["query": "catSt"]).arrayValue)
        let catalog = try #require(found.first)
        #expect(catalog["name"] == "catalogStore")
        #expect(catalog["kind"] == 13)
        #expect(catalog["containerName"] == "Catalog.routes")
        let shared = try workspace.read("Catalog.routes")
        let declared = Self.at(shared, "dependency catalogStore", delta: 11)
        #expect(FeatureWorkspace.path(ofURI: catalog["location"]?["uri"]?.stringValue) == workspace.url("Catalog.routes").path)
        #expect(catalog["location"]?["range"] == lspRange(declared.line, declared.character, declared.line, declared.character + 12))
        // Screens are structs, builders functions; every file of the workspace is searched.
        // An empty query: every declaration of the five files, links included (fewer than the
        // limit).
        let all = try #require(try session.result("workspace/symbol", ["query": ""]).arrayValue)
        var count = 0
        for name in ["App", "Shared", "Catalog", "Account", "Checkout"] {
            count += try workspace.read("\(name).routes").components(separatedBy: "\n").filter {
                $0.range(of: #"^(screen|dependency|optional|flag|builder|root|link)\b"#, options: .regularExpression) != nil
            }.count
        }
        #expect(all.count == count && count > 50)
        for (query, file, kind) in [("Welcome", "App.routes", 23), ("apiClient", "Shared.routes", 13), ("SignIn", "Account.routes", 23),
                                    ("Cart", "Checkout.routes", 23), ("browse", "Catalog.routes", 12), ("isLoggedIn", "Shared.routes", 17)] {
            let first = try session.result("workspace/symbol", ["query": .string(query)]).arrayValue?.first
            #expect(first?["name"]?.stringValue == query)
            #expect(first?["containerName"]?.stringValue == file, "\(query)")
            #expect(first?["kind"] == .int(Int64(kind)), "\(query)")
        }
        #expect(try session.result("workspace/symbol", ["query": "zzzz"]) == [])
        try session.finish()
    }

    @Test func documentHighlightsMarkTheDeclarationAsWriteAndUsesAsRead() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let use = Self.at(seed, "screen Home uses", delta: 9)
        let highlights = try #require(try session.result("textDocument/documentHighlight",
                                                         session.at("App.routes", use.line, use.character)).arrayValue)
        func range(_ needle: String, _ delta: Int) -> JSONValue {
            let p = Self.at(seed, needle, delta: delta)
            return lspRange(p.line, p.character, p.line, p.character + 4)
        }
        #expect(highlights.map { $0["range"] } == [range("screen Home\n", 7), range("SettingsStore from Home", 19), range("wildcard Home", 9),
                                                   range("screen Home uses", 7), range("-> Home/Settings", 3), range("-> Home/Detail", 3)])
        #expect(highlights.map { $0["kind"] } == [3, 2, 2, 2, 2, 2])
        // A keyword: nothing.
        let keyword = Self.at(seed, "anyOf")
        #expect(try session.result("textDocument/documentHighlight", session.at("App.routes", keyword.line, keyword.character)) == [])
        try session.finish()
    }

    @Test func selectionRangesNestFromTheTokenToTheDocument() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let name = Self.at(seed, "uses settingsStore", delta: 8)
        let result = try #require(try session.result("textDocument/selectionRange", session.document("App.routes", [
            "positions": [["line": .int(Int64(name.line)), "character": .int(Int64(name.character))],
                          ["line": 10_000, "character": 0]],
        ])).arrayValue)
        #expect(result.count == 2)
        func chain(_ r: JSONValue) -> [JSONValue] {
            var out: [JSONValue] = []
            var node: JSONValue? = r
            while let n = node {
                out.append(n["range"] ?? .null)
                node = n["parent"]
            }
            return out
        }
        let first = chain(result[0])
        #expect(first.first == lspRange(name.line, name.character - 8 + 5, name.line, name.character - 8 + 18))
        #expect(first.dropFirst().first == lspRange(name.line, name.character - 8, name.line, name.character - 8 + 18))
        let lines = seed.components(separatedBy: "\n")
        let whole = lspRange(0, 0, lines.count - 1, lines.last!.utf16.count)
        #expect(first.last == whole)
        #expect(chain(result[1]).last == whole)
        // Each range holds the one before it.
        func key(_ p: JSONValue?) -> [Int64] { [p?["line"]?.intValue ?? -1, p?["character"]?.intValue ?? -1] }
        for (inner, outer) in zip(first, first.dropFirst()) {
            #expect(key(outer["start"]).lexicographicallyPrecedes(key(inner["start"])) || key(outer["start"]) == key(inner["start"]))
            #expect(key(inner["end"]).lexicographicallyPrecedes(key(outer["end"])) || key(outer["end"]) == key(inner["end"]))
            #expect(inner != outer)
        }
        // No positions: no ranges.
        #expect(try session.result("textDocument/selectionRange", session.document("App.routes", ["positions": []])) == [])
        try session.finish()
    }

    @Test func inlayHintsOfTheRequestedRange() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let lines = seed.components(separatedBy: "\n").count
        let all = try #require(try session.result("textDocument/inlayHint", session.document("App.routes", [
            "range": lspRange(0, 0, lines, 0),
        ])).arrayValue)
        let detail = Self.at(seed, "  screen Detail uses", delta: 15)
        let home = Self.at(seed, "screen Home uses appStore", delta: 25)
        #expect(all.map { $0["position"] } == [["line": .int(Int64(detail.line)), "character": .int(Int64(detail.character))],
                                                ["line": .int(Int64(home.line)), "character": .int(Int64(home.character))]])
        #expect(all.map { $0["label"] } == ["sheet", "provides settingsStore"])
        #expect(all.map { $0["kind"] } == [1, nil])
        #expect(all.allSatisfy { $0["paddingLeft"] == true && $0["tooltip"]?["kind"] == "markdown" })
        // The lines of `root` only.
        let root = Self.at(seed, "root {")
        let some = try session.result("textDocument/inlayHint", session.document("App.routes", ["range": lspRange(root.line, 0, lines, 0)]))
        #expect(some.arrayValue?.map { $0["label"] } == ["provides settingsStore"])
        // A range past the end is clamped; a reversed one is read the right way round.
        let reversed = try session.result("textDocument/inlayHint", session.document("App.routes", ["range": lspRange(9_999, 0, 0, 0)]))
        #expect(reversed.arrayValue?.count == 2)
        try session.finish()
    }

    @Test func codeLensesResolveToAPreviewTheServerRuns() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let lenses = try #require(try session.result("textDocument/codeLens", session.document("App.routes")).arrayValue)
        // Each screen, `root`, and each link.
        #expect(lenses.count == 8)
        #expect(lenses.allSatisfy { $0["command"] == nil && $0["data"] != nil })
        let detail = Self.at(seed, "screen Detail(", delta: 7)
        let lens = try #require(lenses.first { $0["range"] == lspRange(detail.line, detail.character, detail.line, detail.character + 6) })
        let resolved = try session.result("codeLens/resolve", lens)
        #expect(resolved["range"] == lens["range"])
        let command = try #require(resolved["command"])
        #expect(command["title"] == "preview Home/Detail")
        #expect(command["command"] == "routes.showPreview")
        let argument = try #require(command["arguments"]?[0])
        #expect(argument["path"] == "Home/Detail")
        #expect(argument["flags"] == ["isLoggedIn": true])
        #expect(argument["optionals"] == ["detailStore": true])
        // The argument is the params of routes/preview: the path resolves, every element built.
        let preview = try session.result("routes/preview", argument)
        let elements = try #require(preview["tree"]?["elements"]?.arrayValue)
        #expect(elements.map { $0["screen"] } == ["Home", "Detail"])
        #expect(elements.allSatisfy { $0["built"] == true })
        // root: the whole tree.
        let root = Self.at(seed, "root {")
        let rootLens = try #require(lenses.first { $0["range"]?["start"]?["line"] == .int(Int64(root.line)) })
        let tree = try session.result("codeLens/resolve", rootLens)
        #expect(tree["command"]?["title"] == "preview routing tree")
        let treeArgument = try #require(tree["command"]?["arguments"]?[0])
        #expect(try session.result("routes/preview", treeArgument)["text"]?.stringValue == FeaturePreviewTests.seedTree)
        try session.finish()
    }

    @Test func aLensWhoseDeclarationIsGoneResolvesToANoteNotAnError() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let lenses = try #require(try session.result("textDocument/codeLens", session.document("App.routes")).arrayValue)
        let login = try #require(lenses.first { $0["data"]?["name"] == "Login" })
        session.change("App.routes", version: 2, [FeatureSession.fullText(seed.replacingOccurrences(of: "screen Login\n", with: "\n"))])
        let resolved = try session.result("codeLens/resolve", login)
        #expect(resolved["command"]?["command"] == "")
        #expect(resolved["command"]?["title"]?.stringValue?.isEmpty == false)
        try session.finish()
    }

    @Test func importPathsCompleteFromTheFolders() throws {
        let workspace = try FeatureWorkspace(["App.routes": "import \"Lib/\"\n", "Lib/Extra.routes": "screen Extra\n",
                                              "Lib/Deeper/Bottom.routes": "screen Bottom\n"])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let result = try session.result("textDocument/completion", session.at("App.routes", 0, 12))
        let items = result["items"]?.arrayValue ?? []
        #expect(items.map { $0["label"] } == ["Extra.routes", "Deeper/", "../"])
        #expect(items.map { $0["kind"] } == [17, 19, 19])
        #expect(items.first?["textEdit"]?["range"] == lspRange(0, 12, 0, 12))
        // In the root folder, nothing above it.
        session.change("App.routes", version: 2, [FeatureSession.fullText("import \"\"\n")])
        let top = try session.result("textDocument/completion", session.at("App.routes", 0, 8))
        #expect(top["items"]?.arrayValue?.map { $0["label"] } == ["Lib/"])
        try session.finish()
    }

    @Test func aClientThatCanRefreshIsAskedToAfterAChangeOnDisk() throws {
        let refreshing: JSONValue = ["workspace": [
            "diagnostics": ["refreshSupport": true], "inlayHint": ["refreshSupport": true], "codeLens": ["refreshSupport": true],
        ]]
        let pulling: JSONValue = ["textDocument": ["diagnostic": [:]], "workspace": refreshing["workspace"]!]
        // Diagnostics are asked for again only by a client that pulls them.
        for (capabilities, expected) in [(pulling, ["workspace/codeLens/refresh", "workspace/diagnostic/refresh", "workspace/inlayHint/refresh"]),
                                         (refreshing, ["workspace/codeLens/refresh", "workspace/inlayHint/refresh"]),
                                         ([:] as JSONValue, [])] {
            let workspace = try FeatureWorkspace(["Library.routes": FeatureWorkspaceTests.library, "App.routes": FeatureWorkspaceTests.app])
            let session = try FeatureSession(workspace, capabilities: capabilities, initializationOptions: ["pullDiagnostics": true])
            defer { session.stop() }
            try session.open("App.routes")
            try session.sync()
            let mark = session.mark
            try workspace.write("Library.routes", FeatureWorkspaceTests.library + "screen Later\n")
            session.client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(workspace.uri("Library.routes")), "type": 2]]])
            let end = try session.sync()
            let requests = session.client.messages[mark..<end].compactMap { m -> String? in
                m["id"] != nil ? m["method"]?.stringValue : nil
            }
            #expect(requests.filter { $0.hasSuffix("/refresh") }.sorted() == expected)
            try session.finish()
        }
    }
}
