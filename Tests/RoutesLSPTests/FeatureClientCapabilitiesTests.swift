import Foundation
import RoutesJSON
import Testing

/// LSP 3.17 asks a server to use only what the client declared it supports: dynamic
/// registration only where the client opted in (`client/registerCapability`: "A client opts
/// in via the dynamicRegistration property on the specific client capabilities"), and
/// `MarkupContent` only in the formats the client lists (`completionItem.documentationFormat`,
/// `hover.contentFormat`). Real clients differ here: Neovim 0.10 declares
/// `workspace.didChangeWatchedFiles.dynamicRegistration: false`, Emacs 29's eglot declares no
/// `documentationFormat` for completion items.
@Suite("Feature: respecting the client's capabilities")
struct FeatureClientCapabilitiesTests {
    static func registrations(_ capabilities: JSONValue) throws -> [JSONValue] {
        let workspace = try FeatureWorkspace(["App.routes": try FeatureWorkspace.example("Seed/App.routes")])
        let session = try FeatureSession(workspace, capabilities: capabilities)
        defer { session.stop() }
        try session.sync()
        let requests = session.client.messages.filter { $0["method"] == "client/registerCapability" }
        try session.finish()
        return requests.flatMap { $0["params"]?["registrations"]?.arrayValue ?? [] }
    }

    @Test func fileWatchersAreRegisteredWithAClientThatAllowsIt() throws {
        let registered = try Self.registrations(["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]]])
        #expect(registered.count == 1)
        let registration = try #require(registered.first)
        #expect(registration["method"] == "workspace/didChangeWatchedFiles")
        #expect(registration["registerOptions"]?["watchers"]?[0]?["globPattern"] == "**/*.routes")
    }

    @Test(arguments: [
        JSONValue.object([:]),
        ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": false]]],
        ["workspace": ["didChangeWatchedFiles": [:]]],
    ])
    func noDynamicRegistrationForAClientThatDidNotOptIn(capabilities: JSONValue) throws {
        let registered = try Self.registrations(capabilities)
        #expect(registered.isEmpty, "client/registerCapability sent to a client that did not opt in: \(registered)")
    }

    static let plainTextOnly: JSONValue = ["textDocument": [
        "completion": ["completionItem": ["documentationFormat": ["plaintext"]]],
        "hover": ["contentFormat": ["plaintext"]],
    ]]

    /// A documentation or hover `contents` value that is not markdown: a plain string, or
    /// `MarkupContent` of kind plaintext.
    static func isPlainText(_ value: JSONValue?) -> Bool {
        guard let value else { return true }
        if value.stringValue != nil { return true }
        return value["kind"] == "plaintext"
    }

    @Test func completionDocumentationAndHoverAreNotMarkdownForAPlainTextClient() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": seed]), capabilities: Self.plainTextOnly)
        defer { session.stop() }
        try session.open("App.routes")
        // Completion at the top level: keyword items with documentation.
        let end = seed.components(separatedBy: "\n").count
        let completion = try session.result("textDocument/completion", session.at("App.routes", end, 0))
        let items = completion["items"]?.arrayValue ?? []
        #expect(!items.isEmpty)
        let markdown = items.filter { !Self.isPlainText($0["documentation"]) }
        #expect(markdown.isEmpty, "markdown documentation for a plaintext client: \(markdown.first ?? .null)")
        // Hover on the use of `Home` in `root`.
        let at = lspPosition(of: "screen Home uses", in: seed, delta: 8)
        let hover = try session.result("textDocument/hover", session.at("App.routes", at.line, at.character))
        #expect(hover["contents"] != nil)
        #expect(Self.isPlainText(hover["contents"]), "\(hover["contents"] ?? .null)")
        try session.finish()
    }

    @Test func aMarkdownClientGetsMarkdown() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let capabilities: JSONValue = ["textDocument": [
            "completion": ["completionItem": ["documentationFormat": ["markdown", "plaintext"]]],
            "hover": ["contentFormat": ["markdown", "plaintext"]],
        ]]
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": seed]), capabilities: capabilities)
        defer { session.stop() }
        try session.open("App.routes")
        let at = lspPosition(of: "screen Home uses", in: seed, delta: 8)
        let hover = try session.result("textDocument/hover", session.at("App.routes", at.line, at.character))
        #expect(hover["contents"]?["kind"] == "markdown")
        try session.finish()
    }
}
