import Foundation
import RoutesJSON
import Testing

// Shared by the Feature*Tests and Soak*Tests: a temporary workspace folder of `.routes`
// files, and a scripted `routes lsp` session over it (real pipes, through ``LSPTestClient``).

/// A temporary workspace folder: `.routes` files written to disk, removed at `deinit`.
final class FeatureWorkspace {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of a file under `Examples/` (e.g. `Seed/App.routes`).
    static func example(_ relative: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Examples").appendingPathComponent(relative),
                   encoding: .utf8)
    }

    /// The folder holding everything (removed at `deinit`).
    private let container: URL
    /// The workspace folder itself (symbolic links resolved).
    let root: URL

    /// A fresh folder named `name` with `files` (relative path → text) in it.
    init(_ files: [String: String] = [:], name: String = "workspace") throws {
        container = FileManager.default.temporaryDirectory
            .appendingPathComponent("routes-feature-\(UUID().uuidString)")
        let folder = container.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        root = folder.resolvingSymlinksInPath()
        for (path, text) in files { try write(path, text) }
    }

    /// A workspace with the five files of `Examples/Shop`.
    static func shop() throws -> FeatureWorkspace {
        var files: [String: String] = [:]
        for name in ["App", "Shared", "Catalog", "Account", "Checkout"] {
            files["\(name).routes"] = try example("Shop/\(name).routes")
        }
        return try FeatureWorkspace(files)
    }

    deinit { try? FileManager.default.removeItem(at: container) }

    func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The `file://` URI of a file of the workspace, percent-encoded as editors send it.
    func uri(_ relative: String) -> String { url(relative).absoluteString }

    /// The workspace folder's URI.
    var rootURI: String { root.absoluteString }

    func write(_ relative: String, _ text: String) throws {
        let target = url(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
    }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(at: url(relative)) }

    func read(_ relative: String) throws -> String { try String(contentsOf: url(relative), encoding: .utf8) }

    /// The file-system path of a `file://` URI (percent-decoded), to compare URIs that may be
    /// encoded differently.
    static func path(ofURI uri: String?) -> String? {
        guard let uri, let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }
}

/// A `routes lsp` session initialized with a ``FeatureWorkspace`` as `rootUri` and only workspace
/// folder. Call ``stop()`` in a `defer`.
final class FeatureSession {
    let client: LSPTestClient
    let workspace: FeatureWorkspace
    /// The `initialize` response.
    let initializeResponse: JSONValue
    private var barriers = 0

    /// `capabilities`: the client capabilities sent at `initialize`.
    /// `folder`: a folder of the workspace to open as the workspace folder instead of its root.
    init(_ workspace: FeatureWorkspace, capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil,
         environment: [String: String] = [:], folder: String? = nil) throws {
        self.workspace = workspace
        client = try LSPTestClient(environment: environment)
        let rootURI = folder.map { workspace.uri($0) } ?? workspace.rootURI
        do {
            var params: JSONObject = [
                "processId": nil,
                "rootUri": .string(rootURI),
                "workspaceFolders": [["uri": .string(rootURI), "name": "workspace"]],
                "capabilities": capabilities,
                "clientInfo": ["name": "FeatureSession"],
            ]
            if let initializationOptions { params["initializationOptions"] = initializationOptions }
            initializeResponse = try client.initialize(.object(params))
        } catch {
            client.stop()
            throw error
        }
    }

    /// The capabilities the server answered `initialize` with.
    var serverCapabilities: JSONValue? { initializeResponse["result"]?["capabilities"] }

    func stop() { client.stop() }

    /// `shutdown` and `exit`, expecting status 0 and a clean stdout.
    func finish(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(try client.shutdownAndExit() == 0, sourceLocation: sourceLocation)
        #expect(client.protocolViolations.isEmpty, "\(client.protocolViolations)", sourceLocation: sourceLocation)
    }

    // MARK: Documents

    /// `didOpen` of a workspace file; `text` defaults to what is on disk.
    func open(_ relative: String, text: String? = nil, version: Int = 1) throws {
        let text = try text ?? workspace.read(relative)
        client.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(workspace.uri(relative)), "languageId": "routes",
            "version": .int(Int64(version)), "text": .string(text),
        ]])
    }

    /// `didChange` with the given content changes (see ``FeatureSession/edit(_:_:_:_:_:)``).
    func change(_ relative: String, version: Int, _ changes: [JSONValue]) {
        client.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(workspace.uri(relative)), "version": .int(Int64(version))],
            "contentChanges": .array(changes),
        ])
    }

    func close(_ relative: String) {
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(workspace.uri(relative))]])
    }

    /// A content change replacing `(line, character)…(line, character)` by `text`.
    static func edit(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int,
                     _ text: String) -> JSONValue {
        ["range": lspRange(startLine, startCharacter, endLine, endCharacter), "text": .string(text)]
    }

    /// A content change replacing the whole text.
    static func fullText(_ text: String) -> JSONValue { ["text": .string(text)] }

    // MARK: Requests

    /// `{"textDocument": {"uri"}, "position": {...}}` plus `extra`.
    func at(_ relative: String, _ line: Int, _ character: Int, _ extra: JSONObject = [:]) -> JSONValue {
        var params: JSONObject = [
            "textDocument": ["uri": .string(workspace.uri(relative))],
            "position": ["line": .int(Int64(line)), "character": .int(Int64(character))],
        ]
        for (key, value) in extra { params[key] = value }
        return .object(params)
    }

    /// The params naming a document only.
    func document(_ relative: String, _ extra: JSONObject = [:]) -> JSONValue {
        var params: JSONObject = ["textDocument": ["uri": .string(workspace.uri(relative))]]
        for (key, value) in extra { params[key] = value }
        return .object(params)
    }

    /// Sends a request and returns its `result`, recording an issue for an error response.
    func result(_ method: String, _ params: JSONValue?,
                sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
        let response = try client.call(method, params)
        #expect(response["error"] == nil, "\(method): \(response)", sourceLocation: sourceLocation)
        return response["result"] ?? .null
    }

    /// Sends a request and returns its error code (nil for a result).
    func errorCode(_ method: String, _ params: JSONValue?) throws -> Int64? {
        try client.call(method, params)["error"]?["code"]?.intValue
    }

    // MARK: Diagnostics

    /// Waits until the server has handled everything sent before: messages are handled in
    /// order and each notification's diagnostics are written before the next message is read,
    /// so once the answer to a request sent now arrives, they are all in. Returns the number of
    /// messages received up to (and without) that answer.
    @discardableResult
    func sync() throws -> Int {
        barriers += 1
        let id = JSONValue.string("feature-barrier-\(barriers)")
        _ = try client.call("routes/featureTestBarrier", id: id)
        let messages = client.messages
        return messages.firstIndex { $0["id"] == id && $0["method"] == nil } ?? messages.count
    }

    /// Every `publishDiagnostics` for `relative` among the first `limit` messages (all of them when
    /// nil), after `start`, in order: their params.
    func publications(_ relative: String, from start: Int = 0, upTo limit: Int? = nil) -> [JSONValue] {
        let uri = workspace.uri(relative)
        let messages = client.messages
        let end = min(limit ?? messages.count, messages.count)
        guard start < end else { return [] }
        return messages[start ..< end].compactMap { message in
            guard message["method"] == "textDocument/publishDiagnostics", let params = message["params"],
                  FeatureWorkspace.path(ofURI: params["uri"]?.stringValue) == FeatureWorkspace.path(ofURI: uri)
            else { return nil }
            return params
        }
    }

    /// After ``sync()``: the params of the last `publishDiagnostics` for `relative` (nil if none).
    func lastPublication(_ relative: String, from start: Int = 0) throws -> JSONValue? {
        let end = try sync()
        return publications(relative, from: start, upTo: end).last
    }

    /// After ``sync()``: the diagnostics last published for `relative` (nil if none were).
    func diagnostics(_ relative: String, from start: Int = 0) throws -> [JSONValue]? {
        try lastPublication(relative, from: start)?["diagnostics"]?.arrayValue
    }

    /// The number of messages received so far (a start for ``publications(_:from:upTo:)``).
    var mark: Int { client.messages.count }
}

/// `{"start": {"line", "character"}, "end": {...}}`.
func lspRange(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSONValue {
    ["start": ["line": .int(Int64(startLine)), "character": .int(Int64(startCharacter))],
     "end": ["line": .int(Int64(endLine)), "character": .int(Int64(endCharacter))]]
}

/// The codes of a list of diagnostics, in order.
func ruleCodes(_ diagnostics: [JSONValue]?) -> [String] {
    (diagnostics ?? []).compactMap { $0["code"]?.stringValue }
}

/// Where `needle` (its `occurrence`-th appearance, 0-based) starts in `text`, as an LSP position
/// in UTF-16 code units (or UTF-8 bytes when `utf8`), moved `delta` characters right.
func lspPosition(of needle: String, in text: String, occurrence: Int = 0, delta: Int = 0,
              utf8: Bool = false) -> (line: Int, character: Int) {
    var searchStart = text.startIndex
    var found: Range<String.Index>?
    for _ in 0 ... occurrence {
        guard let r = text.range(of: needle, range: searchStart ..< text.endIndex) else {
            Issue.record("`\(needle)` (occurrence \(occurrence)) is not in the text")
            return (0, 0)
        }
        found = r
        searchStart = r.upperBound
    }
    let before = text[..<found!.lowerBound]
    let line = before.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    let prefix = text[lineStart ..< found!.lowerBound]
    return (line, (utf8 ? prefix.utf8.count : prefix.utf16.count) + delta)
}

// MARK: - Workspace: files read from disk, watched files

/// The workspace (README.md, `routes lsp`, Workspace): what is not open is read from disk, at
/// `initialize` the workspace is scanned, and `workspace/didChangeWatchedFiles` refreshes what
/// was read.
@Suite("Feature: the workspace (disk, imports, watched files)")
struct FeatureWorkspaceTests {
    static let library = """
        /// A screen the app shows first.
        screen Start
        /// The API client.
        dependency api: API

        """

    static let app = """
        import "Library.routes"

        root {
          screen Start uses api
        }

        """

    @Test func anImportedFileThatIsNotOpenIsReadFromDisk() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        #expect(try session.diagnostics("App.routes") == [], "Start and api come from Library.routes on disk")
        // Navigation reaches into the file on disk, with its own URI.
        let at = lspPosition(of: "Start uses", in: Self.app, delta: 1)
        let definition = try session.result("textDocument/definition", session.at("App.routes", at.line, at.character))
        let target = definition.arrayValue?.first ?? definition
        #expect(FeatureWorkspace.path(ofURI: target["uri"]?.stringValue) == workspace.url("Library.routes").path)
        #expect(target["range"] == lspRange(1, 7, 1, 12))
        // Nothing is published for the file that is not open.
        #expect(session.publications("Library.routes").isEmpty)
        try session.finish()
    }

    /// A buffer not yet saved (`untitled:`) is analysed as any open document, its imports
    /// looked for in the workspace folder: its diagnostics are published under its own URI,
    /// and it is formatted and navigated like a file; closing it clears them.
    @Test func anUntitledDocumentIsAnalysedWithItsImportsFromTheWorkspaceFolder() throws {
        let workspace = try FeatureWorkspace(["Lib.routes": "screen Home\nscreen Detail\n"])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        let uri = "untitled:Untitled 1"
        let text = "import \"Lib.routes\"\nroot {   screen Home { screen Nope } }\n"
        session.client.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(uri), "languageId": "routes", "version": 1, "text": .string(text),
        ]])
        func published(from start: Int) throws -> [[JSONValue]] {
            let end = try session.sync()
            return session.client.messages[start..<end].compactMap { message in
                guard message["method"] == "textDocument/publishDiagnostics", message["params"]?["uri"]?.stringValue == uri else { return nil }
                return message["params"]?["diagnostics"]?.arrayValue
            }
        }
        let opened = try published(from: 0)
        #expect(opened.last.map(ruleCodes) == ["undefined-name"], "\(opened)")
        let formatted = try session.result("textDocument/formatting", ["textDocument": ["uri": .string(uri)],
                                                                      "options": ["tabSize": 2, "insertSpaces": true]])
        #expect(formatted.arrayValue?.isEmpty == false)
        let definition = try session.result("textDocument/definition", ["textDocument": ["uri": .string(uri)],
                                                                        "position": ["line": 1, "character": 17]])
        let target = definition.arrayValue?.first ?? definition
        #expect(FeatureWorkspace.path(ofURI: target["uri"]?.stringValue) == workspace.url("Lib.routes").path)
        // Another untitled document whose name differs only in what a path cannot hold is a
        // document of its own, with its own diagnostics.
        let other = "untitled:Untitled_1"
        let before = session.mark
        session.client.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(other), "languageId": "routes", "version": 1, "text": "import \"Lib.routes\"\nroot { screen Detail }\n",
        ]])
        _ = try session.sync()
        #expect(session.client.messages[before...].contains { $0["method"] == "textDocument/publishDiagnostics"
            && $0["params"]?["uri"]?.stringValue == other && $0["params"]?["diagnostics"]?.arrayValue == [] })
        // (Answered from its own text, which the formatter changes, not the other's.)
        let again = try session.result("textDocument/formatting", ["textDocument": ["uri": .string(uri)],
                                                                  "options": ["tabSize": 2, "insertSpaces": true]])
        #expect(again.arrayValue?.isEmpty == false)
        let mark = session.mark
        session.client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
        #expect(try published(from: mark).last == [])
        // Nothing was written to disk.
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.root.path) == ["Lib.routes"])
        try session.finish()
    }

    @Test func theWorkspaceIsScannedAtInitializeSoThatTheProgramsOfAnOpenLibraryAreKnown() throws {
        // Only the library is open. App.routes (on disk, never opened) makes it part of a
        // program, so it gets the program's checks: `Extra` is never placed in its tree.
        let library = Self.library + "screen Extra\n"
        let workspace = try FeatureWorkspace(["Library.routes": library, "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("Library.routes")
        let diagnostics = try session.diagnostics("Library.routes")
        #expect(ruleCodes(diagnostics) == ["unreachable-screen"])
        #expect(diagnostics?.first?["range"] == lspRange(4, 7, 4, 12))
        #expect(diagnostics?.first?["message"]?.stringValue?.contains("Extra") == true)
        // A library of no program gets only the checks that need no `root`
        // (docs/language.md#imports-and-programs).
        let alone = try FeatureWorkspace(["Library.routes": library])
        let second = try FeatureSession(alone)
        defer { second.stop() }
        try second.open("Library.routes")
        #expect(try second.diagnostics("Library.routes") == [])
        try session.finish()
        try second.finish()
    }

    @Test func creatingAMissingImportOnDiskAndTellingTheServerFixesTheImportError() throws {
        let workspace = try FeatureWorkspace(["App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let before = try session.diagnostics("App.routes")
        #expect(ruleCodes(before).first == "import-error")
        #expect(before?.first?["range"] == lspRange(0, 7, 0, 23), "the import string")
        // The names the missing file would have declared: counted by the one error.
        #expect(!ruleCodes(before).contains("undefined-name"))
        #expect(before?.first?["message"]?.stringValue?.contains("not reported one by one") == true)

        try workspace.write("Library.routes", Self.library)
        let mark = session.mark
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("Library.routes")), "type": 1],
        ]])
        let after = try session.lastPublication("App.routes", from: mark)
        #expect(after != nil, "didChangeWatchedFiles republishes")
        #expect(after?["diagnostics"] == [])
        #expect(after?["version"] == 1)
        try session.finish()
    }

    @Test func aProgramCreatedOnDiskIsFoundAfterDidChangeWatchedFiles() throws {
        // The library is open alone; then App.routes, which imports it, appears on disk.
        let library = Self.library + "screen Extra\n"
        let workspace = try FeatureWorkspace(["Library.routes": library])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("Library.routes")
        #expect(try session.diagnostics("Library.routes") == [])
        try workspace.write("App.routes", Self.app)
        let mark = session.mark
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("App.routes")), "type": 1],
        ]])
        #expect(ruleCodes(try session.diagnostics("Library.routes", from: mark)) == ["unreachable-screen"])
        try session.finish()
    }

    @Test func changingAndDeletingAFileOnDiskIsSeenAfterDidChangeWatchedFiles() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        #expect(try session.diagnostics("App.routes") == [])

        // Changed: `api` is gone.
        try workspace.write("Library.routes", "screen Start\n")
        var mark = session.mark
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("Library.routes")), "type": 2],
        ]])
        let changed = try session.diagnostics("App.routes", from: mark)
        #expect(ruleCodes(changed) == ["undefined-name"])
        let at = lspPosition(of: "api", in: Self.app)
        #expect(changed?.first?["range"] == lspRange(at.line, at.character, at.line, at.character + 3))

        // Deleted: the import fails.
        try workspace.remove("Library.routes")
        mark = session.mark
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("Library.routes")), "type": 3],
        ]])
        let deleted = try session.diagnostics("App.routes", from: mark)
        #expect(ruleCodes(deleted).first == "import-error")
        try session.finish()
    }

    /// The files of a small workspace are read and parsed ahead at `initialize`: a file opened
    /// as it is on disk is taken from there (the debug log says so), and its diagnostics, a
    /// syntax error among them, are its own, in it.
    @Test func aFileOpenedAsSavedWasParsedAhead() throws {
        // The broken file is not the workspace's first: its tree, parsed ahead as file 0, has
        // its diagnostics moved to its id in the snapshot.
        let broken = "import \"Library.routes\"\nroot {\n  screen Start uses api {\n    screen\n  }\n}\n"
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "Zed.routes": broken])
        let session = try FeatureSession(workspace, environment: ["ROUTES_LSP_LOG": "debug"])
        defer { session.stop() }
        try session.open("Zed.routes")
        let diagnostics = try session.diagnostics("Zed.routes") ?? []
        #expect(ruleCodes(diagnostics).contains("syntax-error"), "\(diagnostics)")
        #expect(diagnostics.allSatisfy { $0["range"]?["start"]?["line"]?.intValue == 3 }, "\(diagnostics)")
        try session.finish()
        #expect(session.client.standardError.contains("snapshot: 2 files, 2 of them parsed before"), "\(session.client.standardError)")
    }

    /// The workspace is analysed when the client says `initialized`: a file then opened as it
    /// is on disk keeps that snapshot (one snapshot in the log), with its diagnostics; a file
    /// opened with unsaved changes makes a new one.
    @Test func aFileOpenedAsSavedKeepsTheSnapshotMadeAtStart() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app,
                                              "Typo.routes": "import \"Library.routes\"\nroot { screen Start uses apx }\n"])
        let session = try FeatureSession(workspace, environment: ["ROUTES_LSP_LOG": "debug"])
        defer { session.stop() }
        try session.open("Typo.routes")
        #expect(ruleCodes(try session.diagnostics("Typo.routes")) == ["undefined-name"])
        try session.open("App.routes")
        #expect(ruleCodes(try session.diagnostics("App.routes")) == [])
        try session.open("Library.routes", text: Self.library + "screen Extra\n")
        _ = try session.diagnostics("Library.routes")
        try session.finish()
        let snapshots = session.client.standardError.components(separatedBy: "snapshot: ").count - 1
        #expect(snapshots == 2, "\(session.client.standardError)")
    }

    /// A file opened with unsaved changes is the editor's text, not the one read ahead.
    @Test func aFileOpenedWithUnsavedChangesIsNotTheOneReadAhead() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app])
        let session = try FeatureSession(workspace, environment: ["ROUTES_LSP_LOG": "debug"])
        defer { session.stop() }
        try session.open("App.routes", text: Self.app.replacingOccurrences(of: "uses api", with: "uses apx"))
        #expect(ruleCodes(try session.diagnostics("App.routes")) == ["undefined-name"])
        try session.finish()
        #expect(session.client.standardError.contains("snapshot: 2 files, 1 of them parsed before"), "\(session.client.standardError)")
    }

    @Test func theEditorsTextWinsOverTheDiskForAnOpenFile() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        try session.open("Library.routes")
        // The disk loses `api`, but the open (unchanged) library still declares it.
        try workspace.write("Library.routes", "screen Start\n")
        let mark = session.mark
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("Library.routes")), "type": 2],
        ]])
        #expect(try session.diagnostics("App.routes", from: mark) == [])
        // Closing the library without saving: now the disk's text counts.
        let closing = session.mark
        session.close("Library.routes")
        #expect(ruleCodes(try session.diagnostics("App.routes", from: closing)) == ["undefined-name"])
        #expect(try session.diagnostics("Library.routes", from: closing) == [])
        try session.finish()
    }

    /// Found in review: when files came and went, a file kept from the earlier snapshot had
    /// its related locations pointing at another file's old id, and the server crashed.
    @Test func filesCreatedAndDeletedOnDiskKeepAnOpenFilesRelatedLocationsInIt() throws {
        let workspace = try FeatureWorkspace(["B.routes": "screen B\n", "C.routes": "screen X\nbuilder x {\n  screen X\n"])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("C.routes")
        func related(_ from: Int) throws -> [String] {
            (try session.diagnostics("C.routes", from: from) ?? []).flatMap { d in
                (d["relatedInformation"]?.arrayValue ?? []).compactMap { $0["location"]?["uri"]?.stringValue }
            }
        }
        let created = session.mark
        try workspace.write("A.routes", "screen A\n")
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(workspace.uri("A.routes")), "type": 1]]])
        #expect(try related(created) == [workspace.uri("C.routes")])
        let deleted = session.mark
        try workspace.remove("A.routes")
        try workspace.remove("B.routes")
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
            ["uri": .string(workspace.uri("A.routes")), "type": 3], ["uri": .string(workspace.uri("B.routes")), "type": 3],
        ]])
        #expect(try related(deleted) == [workspace.uri("C.routes")])
        #expect(try session.result("textDocument/documentSymbol", session.document("C.routes")).arrayValue?.isEmpty == false)
        try session.finish()
    }

    @Test func aDocumentOverTheSizeLimitIsKeptButNotAnalysedAndTheUserIsTold() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        // 17 MiB of comment lines, over the 16 MiB limit.
        let line = "// " + String(repeating: "x", count: 1020) + "\n"
        let huge = String(repeating: line, count: 17 * 1024)
        let mark = session.mark
        try session.open("Big.routes", text: huge)
        let published = try #require(try session.diagnostics("Big.routes", from: mark))
        #expect(published.count == 1)
        #expect(published.first?["code"] == nil)
        #expect(published.first?["severity"] == 2)
        #expect(published.first?["message"]?.stringValue == "routes does not analyse this file: the file is too large (17.0 MiB; the limit is 16.0 MiB)")
        #expect(published.first?["range"] == lspRange(0, 0, 0, 0))
        let hover = try session.client.call("textDocument/hover", session.at("Big.routes", 0, 0))
        #expect(hover["error"]?["code"] == -32602)
        #expect(hover["error"]?["message"]?.stringValue?.contains("is not analysed: the file is too large") == true)
        // The text is kept: an edit that brings it under the limit is analysed again.
        let shrink = session.mark
        session.change("Big.routes", version: 2, [FeatureSession.fullText("root { screen Nope }\n")])
        #expect(ruleCodes(try session.diagnostics("Big.routes", from: shrink)) == ["undefined-name"])
        // The other document was analysed all along.
        #expect(try session.diagnostics("App.routes", from: mark) == [])
        try session.finish()
    }

    @Test func aDocumentWithThousandsOfProblemsPublishesTheFirstErrorsFirstAndSaysHowManyThereAre() throws {
        let workspace = try FeatureWorkspace(["App.routes": "screen Home\nroot { screen Home }\n"])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        // 1,200 flags never used (warnings) before 300 screens never declared (errors).
        let text = (0..<1_200).map { "flag f\($0)\n" }.joined() + "screen Home\nroot { screen Home { anyOf {\n"
            + (0..<300).map { "screen U\($0)\n" }.joined() + "} } }\n"
        let mark = session.mark
        try session.open("Many.routes", text: text)
        let published = try #require(try session.diagnostics("Many.routes", from: mark))
        #expect(published.count == 1_001)
        let severities = published.map { $0["severity"]?.intValue ?? 0 }
        // Every error is kept, then the first warnings, in the order of the file.
        #expect(severities.filter { $0 == 1 }.count == 300)
        #expect(severities.filter { $0 == 2 }.count == 700)
        #expect(published[0]["range"] == lspRange(0, 5, 0, 7))
        #expect(published[699]["range"] == lspRange(699, 5, 699, 9))
        #expect(published[700]["severity"] == 1)
        let notice = published[1_000]
        #expect(notice["severity"] == 3)
        #expect(notice["code"] == nil)
        #expect(notice["message"]?.stringValue == "routes shows 1000 of the 1500 problems of this file, errors first; `routes lint` on the file lists them all")
        // At the first problem left out: the 701st warning.
        #expect(notice["range"] == lspRange(700, 5, 700, 9))
        // It stands for no diagnostic: no quick fix comes with it (the unused flag at its
        // place has one, which the editor does not show).
        let context: JSONObject = ["diagnostics": [notice]]
        let actions = try session.result("textDocument/codeAction",
                                         session.document("Many.routes", ["range": notice["range"]!, "context": .object(context)]))
        #expect(actions.arrayValue?.contains { $0["kind"] == "quickfix" } == false, "\(actions)")
        let hidden: JSONObject = ["diagnostics": [], "only": ["quickfix"]]
        let atHidden = try session.result("textDocument/codeAction",
                                          session.document("Many.routes", ["range": notice["range"]!, "context": .object(hidden)]))
        #expect(atHidden.arrayValue?.isEmpty == false, "the flag left out has its fix when asked by range: \(atHidden)")
        try session.finish()
    }

    @Test func aWorkspaceFolderWithSpacesAndNonASCIICharactersInItsNameRoundTrips() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app],
                                             name: "my routes é")
        #expect(workspace.rootURI.contains("%20"))
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        #expect(try session.diagnostics("App.routes") == [])
        let at = lspPosition(of: "api", in: Self.app, delta: 1)
        let definition = try session.result("textDocument/definition", session.at("App.routes", at.line, at.character))
        let target = definition.arrayValue?.first ?? definition
        #expect(FeatureWorkspace.path(ofURI: target["uri"]?.stringValue) == workspace.url("Library.routes").path)
        #expect(target["range"] == lspRange(3, 11, 3, 14))
        try session.finish()
    }

    @Test func importsThatLeaveTheWorkspaceOrCloseACycleAreImportErrors() throws {
        // The workspace folder is `inner`; `outside.routes` lies beside it.
        let workspace = try FeatureWorkspace([
            "Escape.routes": "import \"../outside.routes\"\nimport \"link.routes\"\nroot {\n  screen Out\n}\n",
            "B.routes": "import \"sub/C.routes\"\nscreen B\n",
            "sub/C.routes": "import \"../B.routes\"\n",
        ], name: "inner")
        let outside = workspace.root.deletingLastPathComponent().appendingPathComponent("outside.routes")
        try Data("screen Out\n".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: workspace.url("link.routes").path, withDestinationPath: outside.path)
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("Escape.routes")
        try session.open("sub/C.routes")
        let escape = try session.diagnostics("Escape.routes")
        let importErrors = (escape ?? []).filter { $0["code"] == "import-error" }
        #expect(importErrors.map { $0["range"] } == [lspRange(0, 7, 0, 26), lspRange(1, 7, 1, 20)], "\(escape ?? [])")
        #expect(!ruleCodes(escape).contains("undefined-name"), "`Out` is counted by the failed imports")
        #expect(importErrors.first?["message"]?.stringValue?.contains("1 name it would have declared is undefined") == true)
        // The cycle B → C → B is reported at the import that closes it.
        let cycle = try session.diagnostics("sub/C.routes")
        #expect(ruleCodes(cycle) == ["import-error"])
        #expect(cycle?.first?["range"] == lspRange(0, 7, 0, 20))
        #expect(cycle?.first?["message"]?.stringValue?.contains("cycle") == true)
        try session.finish()
    }

    @Test func aLibraryInTwoProgramsGetsEachDiagnosticOnce() throws {
        let import_ = "import \"Lib.routes\"\nroot {\n  screen Shared\n}\n"
        let workspace = try FeatureWorkspace([
            "Lib.routes": "screen Shared\nscreen Lost\n", "A.routes": import_, "B.routes": import_,
        ])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("Lib.routes")
        let diagnostics = try session.diagnostics("Lib.routes")
        #expect(ruleCodes(diagnostics) == ["unreachable-screen"], "\(diagnostics ?? [])")
        #expect(diagnostics?.first?["range"] == lspRange(1, 7, 1, 11))
        try session.finish()
    }

    @Test func aWorkspaceFolderAddedLaterIsScanned() throws {
        let library = Self.library + "screen Extra\n"
        let workspace = try FeatureWorkspace(["Library.routes": library, "App.routes": Self.app])
        // The session starts without workspace folders: the library's program is unknown.
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize(["processId": nil, "rootUri": nil, "capabilities": [:]])
        client.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(workspace.uri("Library.routes")), "languageId": "routes", "version": 1, "text": .string(library),
        ]])
        func last() throws -> JSONValue? {
            _ = try client.call("routes/featureTestBarrier")
            return client.messages.last { $0["method"] == "textDocument/publishDiagnostics" }?["params"]?["diagnostics"]
        }
        #expect(try last() == [])
        client.notify("workspace/didChangeWorkspaceFolders", ["event": [
            "added": [["uri": .string(workspace.rootURI), "name": "workspace"]], "removed": [],
        ]])
        #expect(ruleCodes(try last()?.arrayValue) == ["unreachable-screen"])
        client.notify("workspace/didChangeWorkspaceFolders", ["event": [
            "added": [], "removed": [["uri": .string(workspace.rootURI), "name": "workspace"]],
        ]])
        #expect(try last() == [])
        #expect(try client.shutdownAndExit() == 0)
    }

    /// A workspace folder opened through a symbolic link (as on macOS, where `/tmp` and
    /// `/var/folders` are links into `/private`), holding a saved file that imports a new file
    /// the editor has open but not saved yet. The import must find the open document.
    @Test func anUnsavedDocumentIsFoundByAnImportInAWorkspaceReachedThroughASymbolicLink() throws {
        let app = "import \"New.routes\"\nroot {\n  screen Fresh\n}\n"
        let workspace = try FeatureWorkspace(["App.routes": app])
        let linked = workspace.root.deletingLastPathComponent().appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: workspace.root.path)
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize(["processId": nil, "rootUri": .string(linked.absoluteString), "capabilities": [:]])
        let appURI = linked.appendingPathComponent("App.routes").absoluteString
        let newURI = linked.appendingPathComponent("New.routes").absoluteString  // not on disk
        for (uri, text) in [(newURI, "screen Fresh\n"), (appURI, app)] {
            client.notify("textDocument/didOpen", ["textDocument": [
                "uri": .string(uri), "languageId": "routes", "version": 1, "text": .string(text),
            ]])
        }
        _ = try client.call("routes/featureTestBarrier")
        let published = client.messages.last {
            $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == appURI
        }
        #expect(published?["params"]?["diagnostics"] == [], "\(published ?? .null)")
        // The same through the real path works (the control).
        let direct = try FeatureSession(workspace)
        defer { direct.stop() }
        try direct.open("New.routes", text: "screen Fresh\n")
        try direct.open("App.routes")
        #expect(try direct.diagnostics("App.routes") == [])
        #expect(try client.shutdownAndExit() == 0)
        try direct.finish()
    }
}
