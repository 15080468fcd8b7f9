import Foundation
import RoutesJSON
import Testing

/// Completion (README.md, `routes lsp`, Features) through `textDocument/completion`, on the
/// seed app with one spot edited.
@Suite("Feature: completion")
struct FeatureCompletionTests {
    /// Marks the cursor in a test text; it appears nowhere in the examples.
    static let cursor = "‸"

    /// The seed app with `original` (which must occur exactly once) replaced by `replacement`,
    /// a text holding ``cursor``.
    static func seed(replacing original: String, with replacement: String) throws -> String {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let parts = seed.components(separatedBy: original)
        #expect(parts.count == 2, "`\(original)` must occur once in the seed app")
        return parts.joined(separator: replacement)
    }

    /// Opens `text` (holding ``cursor`` once) as `Edit.routes` and asks for completion at the
    /// cursor; returns the items.
    static func complete(_ text: String, capabilities: JSONValue = [:],
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [JSONValue] {
        let at = lspPosition(of: cursor, in: text)
        let clean = text.replacingOccurrences(of: cursor, with: "")
        let workspace = try FeatureWorkspace(["Edit.routes": clean])
        let session = try FeatureSession(workspace, capabilities: capabilities)
        defer { session.stop() }
        try session.open("Edit.routes")
        let result = try session.result("textDocument/completion", session.at("Edit.routes", at.line, at.character),
                                        sourceLocation: sourceLocation)
        try session.finish(sourceLocation: sourceLocation)
        // A CompletionList or a bare array.
        return result["items"]?.arrayValue ?? result.arrayValue ?? []
    }

    static func labels(_ items: [JSONValue]) -> [String] { items.compactMap { $0["label"]?.stringValue } }

    static let screens: Set<String> = ["Home", "Settings", "Detail", "Login"]

    @Test func afterScreenInABuilderPositionTheDeclaredScreens() throws {
        let items = try Self.complete(Self.seed(replacing: "screen Settings uses settingsStore",
                                                with: "screen Settings uses settingsStore\n          screen \(Self.cursor)"))
        #expect(Set(Self.labels(items)) == Self.screens)
        #expect(items.allSatisfy { $0["kind"] == 22 }, "screens are structs")
        // The documentation is the doc comment.
        let home = items.first { $0["label"] == "Home" }
        #expect(home?["documentation"]?["value"]?.stringValue?.contains("The landing screen") == true)
    }

    @Test func aLongListIsCutToTheBestHundredAndMarkedIncomplete() throws {
        // 150 dependencies provided by Other (not in scope at Home) and 3 always in scope.
        var text = "screen Home\nscreen Other\n"
        for i in 0..<150 { text += "dependency late\(i): T from Other\n" }
        text += "dependency a1: T\ndependency a2: T\ndependency a3: T\n"
        text += "root { screen Home uses \(Self.cursor) }\n"
        let at = lspPosition(of: Self.cursor, in: text)
        let workspace = try FeatureWorkspace(["Edit.routes": text.replacingOccurrences(of: Self.cursor, with: "")])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("Edit.routes")
        let result = try session.result("textDocument/completion", session.at("Edit.routes", at.line, at.character))
        let items = result["items"]?.arrayValue ?? []
        #expect(items.count == 100)
        #expect(result["isIncomplete"] == true)
        // Best first: the ones in scope are kept.
        #expect(Array(Self.labels(items).prefix(3)) == ["a1", "a2", "a3"])
        // A prefix narrows it to a complete list.
        let typed = text.replacingOccurrences(of: "uses \(Self.cursor)", with: "uses late14\(Self.cursor)")
        let typedAt = lspPosition(of: Self.cursor, in: typed)
        session.change("Edit.routes", version: 2, [FeatureSession.fullText(typed.replacingOccurrences(of: Self.cursor, with: ""))])
        let narrowed = try session.result("textDocument/completion", session.at("Edit.routes", typedAt.line, typedAt.character))
        #expect(narrowed["isIncomplete"] == false)
        let narrowedLabels = Self.labels(narrowed["items"]?.arrayValue ?? [])
        #expect(narrowedLabels.contains("late14") && narrowedLabels.contains("late149") && narrowedLabels.count < 100)
        #expect(!narrowedLabels.contains("late20") && !narrowedLabels.contains("a1"))
        try session.finish()
    }

    @Test func aTypedPrefixFiltersAndIsReplaced() throws {
        let text = try Self.seed(replacing: "screen Settings uses settingsStore",
                                 with: "screen Se\(Self.cursor)ttings uses settingsStore")
        let items = try Self.complete(text)
        #expect(Self.labels(items) == ["Settings"])
        let at = lspPosition(of: "Se\(Self.cursor)", in: text)
        // The whole word under the cursor is replaced.
        #expect(items.first?["textEdit"]?["range"] == lspRange(at.line, at.character, at.line, at.character + 8))
        #expect(items.first?["textEdit"]?["newText"] == "Settings")
    }

    @Test func afterUsesTheDependenciesInScopeComeFirstAndTheOthersSayWhyNot() throws {
        // At `screen Home` (the first element): appStore and loginStore are always in scope;
        // settingsStore comes from Home, so not to Home itself; detailStore is optional.
        let items = try Self.complete(Self.seed(replacing: "screen Home uses appStore {",
                                                with: "screen Home uses \(Self.cursor) {"))
        let sortTexts = items.map { $0["sortText"]?.stringValue ?? $0["label"]?.stringValue ?? "" }
        #expect(sortTexts == sortTexts.sorted(), "items come in sortText order: \(Self.labels(items))")
        let inScope: Set<String> = ["appStore", "loginStore"]
        let outOfScope: Set<String> = ["settingsStore", "detailStore"]
        #expect(Set(Self.labels(items)) == inScope.union(outOfScope))
        #expect(Set(Self.labels(items).prefix(2)) == inScope)
        func item(_ name: String) -> JSONValue? { items.first { $0["label"]?.stringValue == name } }
        for name in inScope {
            for other in outOfScope {
                let a = item(name)?["sortText"]?.stringValue ?? name, b = item(other)?["sortText"]?.stringValue ?? other
                #expect(a < b, "\(name) sorts before \(other)")
            }
            #expect(item(name)?["detail"]?.stringValue?.contains("not in scope") != true)
        }
        #expect(item("settingsStore")?["detail"]?.stringValue?.contains("not in scope") == true)
        #expect(item("settingsStore")?["detail"]?.stringValue?.contains("Home") == true)
        #expect(item("detailStore")?["detail"]?.stringValue?.contains("not in scope") == true)
        #expect(item("detailStore")?["detail"]?.stringValue?.contains("if let") == true)
    }

    @Test func afterACommaInAUsesListTheNamesAlreadyListedAreLeftOut() throws {
        // At Settings (after Home): settingsStore is in scope there.
        let items = try Self.complete(Self.seed(replacing: "screen Settings uses settingsStore",
                                                with: "screen Settings uses settingsStore, \(Self.cursor)"))
        #expect(Self.labels(items) == ["appStore", "loginStore", "detailStore"])
        #expect(items.last?["detail"]?.stringValue?.contains("not in scope") == true)
    }

    @Test func afterConditionalTheFlags() throws {
        let items = try Self.complete(Self.seed(replacing: "conditional isLoggedIn {", with: "conditional \(Self.cursor) {"))
        #expect(Self.labels(items) == ["isLoggedIn"])
        #expect(items.first?["documentation"]?["value"]?.stringValue?.contains("signed in") == true)
    }

    @Test func afterIfLetTheOptionals() throws {
        let items = try Self.complete(Self.seed(replacing: "if let detailStore {\n", with: "if let \(Self.cursor) {\n"))
        #expect(Self.labels(items) == ["detailStore"])
    }

    @Test(arguments: ["wildcard Home {", "if screen Home {"])
    func afterWildcardAndIfScreenTheScreens(head: String) throws {
        let written = head.replacingOccurrences(of: "Home {", with: "\(Self.cursor) {")
        let items = try Self.complete(Self.seed(replacing: "    wildcard Home {", with: "    \(written)"))
        #expect(Set(Self.labels(items)) == Self.screens)
        if head.hasPrefix("wildcard") {
            // A wildcard needs a screen without parameters: Detail comes last.
            #expect(Self.labels(items).last == "Detail")
        }
    }

    @Test func afterFromTheScreens() throws {
        let items = try Self.complete(Self.seed(replacing: "SettingsStore from Home", with: "SettingsStore from \(Self.cursor)"))
        #expect(Set(Self.labels(items)) == Self.screens)
    }

    @Test func atTopLevelTheDeclarationKeywords() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let items = try Self.complete(seed + "\n\(Self.cursor)")
        #expect(Self.labels(items) == ["import", "screen", "dependency", "optional", "flag", "builder", "root", "link"])
        #expect(items.allSatisfy { $0["kind"] == 14 })
    }

    @Test func atABuilderPositionTheBuilderKeywordsAndNamedBuilders() throws {
        let items = try Self.complete(Self.seed(replacing: "screen Settings uses settingsStore",
                                                with: "screen Settings uses settingsStore\n          \(Self.cursor)"))
        let labels = Set(Self.labels(items))
        #expect(labels.isSuperset(of: ["screen", "anyOf", "conditional", "wildcard", "empty", "detail"]), "\(labels)")
        #expect(labels.contains { $0.hasPrefix("if") })
        #expect(!labels.contains("root") && !labels.contains("dependency"), "no declaration keywords in a block")
        #expect(items.first { $0["label"] == "detail" }?["kind"] == 3)
    }

    static let snippetCapabilities: JSONValue = [
        "textDocument": ["completion": ["completionItem": ["snippetSupport": true]]],
    ]

    /// The text an item inserts: its textEdit's, else its insertText, else its label.
    static func inserted(_ item: JSONValue) -> String {
        item["textEdit"]?["newText"]?.stringValue ?? item["insertText"]?.stringValue ?? item["label"]?.stringValue ?? ""
    }

    @Test func snippetsOnlyForAClientThatSupportsThem() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let inBlock = try Self.seed(replacing: "screen Settings uses settingsStore",
                                    with: "screen Settings uses settingsStore\n          \(Self.cursor)")
        for text in [seed + "\n\(Self.cursor)", inBlock] {
            let plain = try Self.complete(text)
            #expect(!plain.isEmpty)
            #expect(plain.allSatisfy { ($0["insertTextFormat"]?.intValue ?? 1) == 1 }, "no snippets: \(plain)")
            #expect(plain.allSatisfy { !Self.inserted($0).contains("$") })

            let snippets = try Self.complete(text, capabilities: Self.snippetCapabilities)
            #expect(Self.labels(snippets) == Self.labels(plain))
            let formatted = snippets.filter { $0["insertTextFormat"] == 2 }
            #expect(!formatted.isEmpty, "some keyword items are snippets")
            #expect(formatted.allSatisfy { Self.inserted($0).contains("$") })
            #expect(formatted.allSatisfy { Self.inserted($0).hasPrefix($0["label"]?.stringValue?.components(separatedBy: " ").first ?? "?") })
        }
    }

    /// At the start of a name already in a `uses` list, that name is offered too; a client that
    /// can choose gets an insert range (before the name) and a replace range (the name).
    @Test func atTheStartOfAListedNameItIsOfferedAndMayReplaceIt() throws {
        let text = try Self.seed(replacing: "screen Settings uses settingsStore",
                                 with: "screen Settings uses \(Self.cursor)settingsStore")
        let at = lspPosition(of: Self.cursor, in: text)
        let plain = try Self.complete(text)
        #expect(Self.labels(plain).contains("settingsStore"), "\(Self.labels(plain))")
        let item = plain.first { $0["label"] == "settingsStore" }
        #expect(item?["textEdit"]?["range"] == lspRange(at.line, at.character, at.line, at.character))

        let capabilities: JSONValue = ["textDocument": ["completion": ["completionItem": ["insertReplaceSupport": true]]]]
        let rich = try Self.complete(text, capabilities: capabilities)
        #expect(Self.labels(rich) == Self.labels(plain))
        let edit = rich.first { $0["label"] == "settingsStore" }?["textEdit"]
        #expect(edit?["insert"] == lspRange(at.line, at.character, at.line, at.character))
        #expect(edit?["replace"] == lspRange(at.line, at.character, at.line, at.character + 13))
        #expect(edit?["range"] == nil)
        // In the middle of a name both ranges are the name: a plain edit.
        let middle = try Self.complete(text.replacingOccurrences(of: "\(Self.cursor)settingsStore", with: "sett\(Self.cursor)ingsStore"),
                                       capabilities: capabilities)
        #expect(middle.first?["textEdit"]?["range"] == lspRange(at.line, at.character, at.line, at.character + 13))
    }

    @Test func nothingInsideACommentOrAString() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        #expect(try Self.complete(seed.replacingOccurrences(of: "/// Whether a user is signed in.",
                                                            with: "/// Whether a user \(Self.cursor)is signed in.")).isEmpty)
        #expect(try Self.complete("import \"Some\(Self.cursor)thing.routes\"\n").isEmpty)
    }
}
