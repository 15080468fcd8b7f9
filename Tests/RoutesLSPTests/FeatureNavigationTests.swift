import Foundation
import RoutesJSON
import Testing

/// Hover, definition, references, documentSymbol, prepareRename and rename, on the seed app and
/// on the five files of the shop app.
@Suite("Feature: hover, navigation, symbols, rename")
struct FeatureNavigationTests {
    static func seedSession() throws -> (FeatureSession, String) {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": seed]))
        try session.open("App.routes")
        return (session, seed)
    }

    static func hover(_ session: FeatureSession, _ text: String, _ needle: String, occurrence: Int = 0,
                      delta: Int = 1) throws -> JSONValue {
        let at = lspPosition(of: needle, in: text, occurrence: occurrence, delta: delta)
        return try session.result("textDocument/hover", session.at("App.routes", at.line, at.character))
    }

    static func markdown(_ hover: JSONValue) -> String {
        #expect(hover["contents"]?["kind"] == "markdown", "\(hover)")
        return hover["contents"]?["value"]?.stringValue ?? ""
    }

    @Test func hoverOnAScreenShowsItsDeclarationDocAndAnExamplePath() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        // At the use in `root`.
        let use = try Self.hover(session, seed, "screen Home uses", delta: 8)
        let text = Self.markdown(use)
        #expect(text.contains("```routes\nscreen Home\n```"), "\(text)")
        #expect(text.contains("The landing screen of a signed-in user."))
        #expect(text.contains("Example"))
        #expect(text.contains("`Home`"))
        #expect(text.contains("isLoggedIn=true"))
        let at = lspPosition(of: "screen Home uses", in: seed, delta: 7)
        #expect(use["range"] == lspRange(at.line, at.character, at.line, at.character + 4))
        // At a declaration: the path reaching Detail goes through Home, with the optional present.
        let detail = Self.markdown(try Self.hover(session, seed, "screen Detail(", delta: 8))
        #expect(detail.contains("screen Detail(id: String) sheet"))
        #expect(detail.contains("The detail of one item, presented modally."))
        #expect(detail.contains("Home/Detail"), "\(detail)")
        #expect(detail.contains("detailStore=present"), "\(detail)")
        try session.finish()
    }

    @Test func hoverOnAScreenNoPathReachesSaysWhy() throws {
        let text = "/// Never shown.\nscreen Orphan\nscreen Home\nroot {\n  screen Home\n}\n"
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": text]))
        defer { session.stop() }
        try session.open("App.routes")
        let markdown = Self.markdown(try session.result("textDocument/hover", session.at("App.routes", 1, 8)))
        #expect(markdown.contains("Never shown."))
        #expect(markdown.lowercased().contains("unreachable") || markdown.contains("never placed"), "\(markdown)")
        try session.finish()
    }

    @Test func hoverOnABuilderShowsTheTreeItBuildsAndOnADependencyWhereItComesFrom() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let builder = Self.markdown(try Self.hover(session, seed, "builder detail", delta: 9))
        #expect(builder.contains("```routes\nbuilder detail\n```"))
        #expect(builder.contains("Detail (sheet)  uses detailStore"), "\(builder)")
        #expect(builder.contains("↻ detail"))
        let dependency = Self.markdown(try Self.hover(session, seed, "uses settingsStore", delta: 6))
        #expect(dependency.contains("dependency settingsStore: SettingsStore from Home"))
        #expect(dependency.contains("Settings state; provided by Home"))
        // Nothing to say in a comment or on blank space.
        #expect(try session.client.call("textDocument/hover", session.at("App.routes", 0, 5))["result"] == .null)
        try session.finish()
    }

    @Test func definitionAndReferencesWorkAcrossFiles() throws {
        let workspace = try FeatureWorkspace.shop()
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        let app = try workspace.read("App.routes")
        try session.open("App.routes")

        // `signIn` (used in App.routes) is declared in Account.routes, which is not open.
        let use = lspPosition(of: "      signIn\n", in: app, delta: 7)
        let definition = try session.result("textDocument/definition", session.at("App.routes", use.line, use.character))
        let target = try #require(definition.arrayValue?.first ?? (definition.objectValue != nil ? definition : nil))
        let account = try workspace.read("Account.routes")
        let declaration = lspPosition(of: "builder signIn", in: account, delta: 8)
        #expect(FeatureWorkspace.path(ofURI: target["uri"]?.stringValue) == workspace.url("Account.routes").path)
        #expect(target["range"] == lspRange(declaration.line, declaration.character, declaration.line, declaration.character + 6))

        // On an import string: the imported file.
        let importString = lspPosition(of: "\"Catalog.routes\"", in: app, delta: 3)
        let imported = try session.result("textDocument/definition",
                                          session.at("App.routes", importString.line, importString.character))
        let file = imported.arrayValue?.first ?? imported
        #expect(FeatureWorkspace.path(ofURI: file["uri"]?.stringValue) == workspace.url("Catalog.routes").path)

        // `isLoggedIn`: declared in Shared.routes, tested in App, Catalog and Checkout.
        let flag = lspPosition(of: "conditional isLoggedIn", in: app, delta: 14)
        func references(_ include: Bool) throws -> [(String, JSONValue?)] {
            let result = try session.result("textDocument/references", session.at("App.routes", flag.line, flag.character,
                                                                                  ["context": ["includeDeclaration": .bool(include)]]))
            return (result.arrayValue ?? []).map {
                (URL(fileURLWithPath: FeatureWorkspace.path(ofURI: $0["uri"]?.stringValue) ?? "").lastPathComponent, $0["range"])
            }
        }
        let all = try references(true)
        #expect(all.map(\.0).sorted() == ["App.routes", "Catalog.routes", "Checkout.routes", "Shared.routes"])
        let shared = try workspace.read("Shared.routes")
        let declared = lspPosition(of: "flag isLoggedIn", in: shared, delta: 5)
        #expect(all.contains { $0.0 == "Shared.routes" && $0.1 == lspRange(declared.line, declared.character, declared.line, declared.character + 10) })
        for name in ["App", "Catalog", "Checkout"] {
            let text = try workspace.read("\(name).routes")
            let at = lspPosition(of: "conditional isLoggedIn", in: text, delta: 12)
            #expect(all.contains { $0.0 == "\(name).routes" && $0.1 == lspRange(at.line, at.character, at.line, at.character + 10) })
        }
        let uses = try references(false)
        #expect(uses.map(\.0).sorted() == ["App.routes", "Catalog.routes", "Checkout.routes"])
        try session.finish()
    }

    @Test func documentSymbolsHaveTheSpecifiedKinds() throws {
        let (session, seed) = try Self.seedSession()
        defer { session.stop() }
        let result = try session.result("textDocument/documentSymbol", session.document("App.routes"))
        let symbols = try #require(result.arrayValue)
        let kinds = symbols.map { "\($0["name"]?.stringValue ?? "?"):\($0["kind"]?.intValue ?? 0)" }
        #expect(kinds == ["Home:23", "Settings:23", "Detail:23", "Login:23", "appStore:13", "settingsStore:13",
                          "loginStore:13", "detailStore:13", "isLoggedIn:17", "detail:12", "root:12", "settings:14", "item:14", "login:14"])
        // DocumentSymbol (not SymbolInformation): a range holding the selection range, the name.
        let detail = try #require(symbols.first { $0["name"] == "detail" })
        let name = lspPosition(of: "builder detail", in: seed, delta: 8)
        #expect(detail["selectionRange"] == lspRange(name.line, name.character, name.line, name.character + 6))
        #expect(detail["range"]?["start"] == ["line": .int(Int64(name.line)), "character": 0])
        #expect((detail["range"]?["end"]?["line"]?.intValue ?? 0) > Int64(name.line), "the whole declaration")
        try session.finish()
    }

    @Test func renameEditsEveryFileAndPrepareRenameNamesWhatWouldBeRenamed() throws {
        let workspace = try FeatureWorkspace.shop()
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        let app = try workspace.read("App.routes")
        try session.open("App.routes")
        let use = lspPosition(of: "      webPage\n", in: app, delta: 9)
        let prepared = try session.result("textDocument/prepareRename", session.at("App.routes", use.line, use.character))
        #expect(prepared["range"] == lspRange(use.line, 6, use.line, 13))
        #expect(prepared["placeholder"] == "webPage")
        // Not on a keyword or `root`.
        let keyword = lspPosition(of: "conditional isLoggedIn", in: app, delta: 3)
        let onKeyword = try session.client.call("textDocument/prepareRename", session.at("App.routes", keyword.line, keyword.character))
        #expect(onKeyword["result"] == .null || onKeyword["error"] != nil)
        let root = lspPosition(of: "root {", in: app, delta: 1)
        let onRoot = try session.client.call("textDocument/prepareRename", session.at("App.routes", root.line, root.character))
        #expect(onRoot["result"] == .null || onRoot["error"] != nil)

        let edit = try session.result("textDocument/rename", session.at("App.routes", use.line, use.character, ["newName": "helpPage"]))
        let changes = try #require(edit["changes"]?.objectValue)
        var renamed: [String: String] = [:]
        for (uri, edits) in changes {
            let path = try #require(FeatureWorkspace.path(ofURI: uri))
            let name = URL(fileURLWithPath: path).lastPathComponent
            var lines = try workspace.read(name).components(separatedBy: "\n")
            // Apply from the last edit up; every edit replaces exactly one `webPage` on one line.
            let sorted = (edits.arrayValue ?? []).sorted {
                ($0["range"]?["start"]?["line"]?.intValue ?? 0, $0["range"]?["start"]?["character"]?.intValue ?? 0)
                    > ($1["range"]?["start"]?["line"]?.intValue ?? 0, $1["range"]?["start"]?["character"]?.intValue ?? 0)
            }
            for e in sorted {
                #expect(e["newText"] == "helpPage")
                let line = Int(e["range"]?["start"]?["line"]?.intValue ?? -1)
                let start = Int(e["range"]?["start"]?["character"]?.intValue ?? -1)
                let end = Int(e["range"]?["end"]?["character"]?.intValue ?? -1)
                #expect(e["range"]?["end"]?["line"]?.intValue == Int64(line))
                guard lines.indices.contains(line) else { Issue.record("edit past the end of \(name)"); continue }
                var utf16 = Array(lines[line].utf16)
                guard start >= 0, end <= utf16.count, start <= end else { Issue.record("bad range in \(name)"); continue }
                #expect(String(decoding: utf16[start ..< end], as: UTF16.self) == "webPage", "\(name):\(line)")
                utf16.replaceSubrange(start ..< end, with: Array("helpPage".utf16))
                lines[line] = String(decoding: utf16, as: UTF16.self)
            }
            renamed[name] = lines.joined(separator: "\n")
        }
        #expect(Set(renamed.keys) == ["Shared.routes", "App.routes", "Account.routes", "Catalog.routes", "Checkout.routes"])
        // Every `webPage` in code was renamed (comments keep theirs), so the renamed app is clean.
        for (name, text) in renamed {
            let code = text.components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            #expect(!code.joined().contains("webPage"), "\(name)")
            try workspace.write(name, text)
        }
        let renamedSession = try FeatureSession(workspace)
        defer { renamedSession.stop() }
        for name in renamed.keys.sorted() { try renamedSession.open(name) }
        for name in renamed.keys.sorted() {
            #expect(try renamedSession.diagnostics(name) == [], "\(name)")
        }
        try renamedSession.finish()
        try session.finish()
    }

    /// Invalid names, keywords, and names taken in a file that sees `webPage` (Shared.routes
    /// itself; App.routes and Checkout.routes, which import it).
    @Test(arguments: ["9lives", "screen", "root", "two words", "", "Shop", "isLoggedIn", "onboarding", "checkout", "Cart"])
    func renameToAnInvalidOrTakenNameIsAnErrorResponse(newName: String) throws {
        let workspace = try FeatureWorkspace.shop()
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        let app = try workspace.read("App.routes")
        try session.open("App.routes")
        let use = lspPosition(of: "      webPage\n", in: app, delta: 9)
        let response = try session.client.call("textDocument/rename",
                                               session.at("App.routes", use.line, use.character, ["newName": .string(newName)]))
        #expect(response["result"] == nil)
        #expect(response["error"]?["code"]?.intValue != nil, "\(response)")
        #expect(response["error"]?["message"]?.stringValue?.isEmpty == false)
        // The server goes on.
        let ok = try session.result("textDocument/prepareRename", session.at("App.routes", use.line, use.character))
        #expect(ok["placeholder"] == "webPage")
        try session.finish()
    }
}

/// `routes/preview` (README.md, `routes lsp`): the routing-tree text and JSON of `routes tree`,
/// a resolution for a path, and -32602 for what cannot be resolved.
@Suite("Feature: routes/preview")
struct FeaturePreviewTests {
    /// The seed app's routing tree, verbatim: `Examples/Seed/App.tree`.
    static let seedTree = (try? FeatureWorkspace.example("Seed/App.tree")) ?? "missing Examples/Seed/App.tree"

    static func session() throws -> FeatureSession {
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": try FeatureWorkspace.example("Seed/App.routes")]))
        try session.open("App.routes")
        return session
    }

    @Test func theSeedAppsTreeIsSpecSection6sTree() throws {
        let session = try Self.session()
        defer { session.stop() }
        for params in [session.document("App.routes"), session.document("App.routes", ["path": nil])] {
            let preview = try session.result("routes/preview", params)
            #expect(preview["text"]?.stringValue == Self.seedTree)
            let tree = try #require(preview["tree"])
            #expect(tree["kind"] == "root")
            let conditional = tree["children"]?[0]
            #expect(conditional?["kind"] == "conditional" && conditional?["name"] == "isLoggedIn")
            #expect(conditional?["children"]?.arrayValue?.map { $0["label"] ?? .null } == ["true", "false"])
            let home = conditional?["children"]?[0]?["children"]?[0]
            #expect(home?["kind"] == "screen" && home?["name"] == "Home" && home?["presentation"] == "push")
            #expect(home?["uses"] == ["appStore"])
            #expect(home?["location"]?["range"]?["start"] != nil)
        }
        try session.finish()
    }

    @Test func aPathGivesAResolutionWithElements() throws {
        let session = try Self.session()
        defer { session.stop() }
        let preview = try session.result("routes/preview", session.document("App.routes", ["path": #"Home/Detail(id: "1")"#]))
        let tree = try #require(preview["tree"])
        let elements = try #require(tree["elements"]?.arrayValue)
        #expect(elements.map { $0["screen"] ?? .null } == ["Home", "Detail"])
        #expect(elements.allSatisfy { $0["built"] == true })
        #expect(elements.map { $0["presentation"] ?? .null } == ["push", "sheet"])
        #expect(elements.first?["node"]?["range"] != nil)
        #expect(tree["environment"]?["flags"]?["isLoggedIn"] == true, "unset flags are true")
        #expect(tree["environment"]?["optionals"]?["detailStore"] == true, "unset optionals are present")
        #expect(preview["text"]?.stringValue?.isEmpty == false)

        // Under another environment, an element is not built, with the reason.
        let absent = try session.result("routes/preview", session.document("App.routes", [
            "path": #"Home/Detail(id: "1")"#, "flags": ["isLoggedIn": true], "optionals": ["detailStore": false],
        ]))
        let last = absent["tree"]?["elements"]?[1]
        #expect(last?["built"] == false)
        #expect(last?["reason"]?.stringValue?.contains("detailStore") == true, "\(absent)")
        #expect(absent["tree"]?["environment"]?["optionals"]?["detailStore"] == false)
        try session.finish()
    }

    @Test(arguments: [
        ["flags": ["nope": true]] as JSONObject,
        ["optionals": ["isLoggedIn": true]],
        ["flags": ["isLoggedIn": "yes"]],
        ["flags": [true]],
        ["path": "Home/Nope"],
        ["path": #"Home/Detail(nope: "1")"#],
        ["path": "Home/Detail(id: 1)"],
        ["path": "Home//"],
        ["path": "Home/Detail(id: "],
        ["path": 42],
    ])
    func unknownNamesAndBadPathsAreInvalidParams(extra: JSONObject) throws {
        let session = try Self.session()
        defer { session.stop() }
        #expect(try session.errorCode("routes/preview", session.document("App.routes", extra)) == -32602)
        #expect(try session.result("routes/preview", session.document("App.routes"))["text"]?.stringValue == Self.seedTree)
        try session.finish()
    }

    @Test func anArgumentOfTheWrongTypeNamesTheSignature() throws {
        let session = try Self.session()
        defer { session.stop() }
        let response = try session.client.call("routes/preview", session.document("App.routes", ["path": "Home/Detail(id: 1)"]))
        #expect(response["error"]?["message"]?.stringValue
            == "path: argument `id` of `Detail` must be a string, not the number `1`: it is declared `Detail(id: String)`")
        try session.finish()
    }

    @Test func aLibraryIsPreviewedThroughTheProgramThatImportsItAndAFileOfNoProgramIsInvalidParams() throws {
        let workspace = try FeatureWorkspace([
            "Library.routes": FeatureWorkspaceTests.library, "App.routes": FeatureWorkspaceTests.app,
            "Lonely.routes": "screen Alone\n",
        ])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("Library.routes")
        try session.open("Lonely.routes")
        let preview = try session.result("routes/preview", session.document("Library.routes"))
        #expect(preview["text"]?.stringValue?.contains("Start  uses api") == true, "\(preview)")
        #expect(try session.errorCode("routes/preview", session.document("Lonely.routes")) == -32602)
        try session.finish()
    }
}
