import RoutesAnalysis
import RoutesEncoding
import RoutesIDE
import RoutesJSON
import RoutesModel
import RoutesSyntax
import RoutesWorkspace

/// Binds the editor features to the server's dispatch table: each LSP method is decoded
/// here, answered by a plain function of `RoutesIDE` or `RoutesAnalysis`, and encoded back.
/// Knows nothing about how the analyses work.
public final class LanguageFeatures {
    let server: Server
    let workspace = LSPWorkspace()
    var encoding: PositionEncoding = .utf16
    var snippets = false
    /// Whether completion items may carry an `InsertReplaceEdit` (`completionItem.insertReplaceSupport`).
    var insertReplace = false
    /// What the client can render (`hover.contentFormat`, `completionItem.documentationFormat`).
    var markdownHover = true
    var markdownDocumentation = true
    /// The configs whose problems were published last (to clear them when mended).
    var publishedConfigs: [String: [ProjectConfig.Problem]] = [:]
    /// Whether the client lets us register file watchers (`didChangeWatchedFiles.dynamicRegistration`).
    var canWatchFiles = false
    /// Whether the client pulls diagnostics: it declares it can (`textDocument.diagnostic`) and
    /// asks to (`initializationOptions.pullDiagnostics`). Then none are pushed for `.routes`
    /// documents (PullDiagnostics.swift).
    var pullsDiagnostics = false
    /// The `workspace/…/refresh` requests the client supports (EditorRequests.swift).
    var refreshes: [String] = []
    /// What the client takes of code actions (CodeActions.swift).
    var codeActionClient = CodeActionClient()

    /// At most this many directory entries are looked at when the workspace folders are
    /// scanned for `.routes` files (200,000 by default).
    public var workspaceScanLimit: Int {
        get { workspace.scanLimit }
        set { workspace.scanLimit = newValue }
    }

    public init(server: Server) {
        self.server = server
        register()
    }

    // MARK: Positions

    func position(_ text: SourceText, _ offset: Int) -> JSONValue {
        JSONPositions.position(offset, in: text, encoding: encoding)
    }

    func range(_ text: SourceText, _ r: Range<Int>) -> JSONValue {
        JSONPositions.range(r, in: text, encoding: encoding)
    }

    func lineColumn(_ v: JSONValue?) throws(ResponseError) -> LineColumn {
        guard let line = v?["line"]?.intValue, let character = v?["character"]?.intValue else {
            throw ResponseError.invalidParams("expected a position {line, character}")
        }
        // Negative values are invalid JSON-RPC params (LSP uses uinteger).
        guard line >= 0, character >= 0 else { throw ResponseError.invalidParams("negative position") }
        return LineColumn(line: Int(clamping: line), column: Int(clamping: character))
    }

    func location(_ file: FileID, _ r: Range<Int>) -> JSONValue {
        let session = workspace.session
        return ["uri": .string(workspace.uri(for: file)), "range": range(session.project.files[file].text, r)]
    }

    /// The document and byte offset of `textDocument` + `position` params.
    func target(_ params: JSONValue?) throws(ResponseError) -> (file: FileID, offset: Int) {
        let file = try document(params)
        let lc = try lineColumn(params?["position"])
        let text = workspace.session.project.files[file].text
        return (file, text.offset(of: lc, encoding: encoding))
    }

    // MARK: Registration

    func register() {
        server.onInitialize = { [unowned self] params throws(ResponseError) in try self.initialize(params) }
        server.onInitialized = { [unowned self] in
            self.registerFileWatchers()
            // The workspace is read and analysed now, before the editor opens a file: opening a
            // file as it is on disk then only publishes what is known (see `didOpen`).
            _ = self.workspace.session
        }
        server.onNotification("textDocument/didOpen") { [unowned self] in self.didOpen($0) }
        server.onNotification("textDocument/didChange") { [unowned self] in self.didChange($0) }
        server.onNotification("textDocument/didClose") { [unowned self] in self.didClose($0) }
        server.onNotification("textDocument/didSave") { [unowned self] _ in self.publishWhenIdle(refreshing: false) }
        server.onCatchUp = { [unowned self] in self.publishPending() }
        server.onNotification("workspace/didChangeWatchedFiles") { [unowned self] in self.didChangeWatchedFiles($0) }
        server.onNotification("workspace/didChangeWorkspaceFolders") { [unowned self] in self.didChangeFolders($0) }
        server.onRequest("textDocument/completion") { [unowned self] p throws(ResponseError) in try self.completion(p) }
        server.onRequest("textDocument/hover") { [unowned self] p throws(ResponseError) in try self.hover(p) }
        server.onRequest("textDocument/definition") { [unowned self] p throws(ResponseError) in try self.definition(p) }
        server.onRequest("textDocument/references") { [unowned self] p throws(ResponseError) in try self.references(p) }
        server.onRequest("textDocument/documentSymbol") { [unowned self] p throws(ResponseError) in try self.documentSymbols(p) }
        server.onRequest("textDocument/prepareRename") { [unowned self] p throws(ResponseError) in try self.prepareRename(p) }
        server.onRequest("textDocument/rename") { [unowned self] p throws(ResponseError) in try self.rename(p) }
        server.onRequest("routes/preview") { [unowned self] p throws(ResponseError) in try self.preview(p) }
        server.onRequest("textDocument/semanticTokens/full") { [unowned self] p throws(ResponseError) in try self.semanticTokens(p) }
        server.onRequest("textDocument/foldingRange") { [unowned self] p throws(ResponseError) in try self.foldingRanges(p) }
        registerEditorRequests()
        registerFormatting()
        server.onRequest("textDocument/codeAction") { [unowned self] p throws(ResponseError) in try self.codeAction(p) }
    }

    // MARK: Lifecycle

    func initialize(_ params: JSONValue?) throws(ResponseError) -> JSONObject {
        if let params, params.objectValue == nil { throw ResponseError.invalidParams("initialize params must be an object") }
        // A field left out is read as its default (clients written for older versions leave
        // out some); one of another type is an error.
        func check(_ field: String, _ fits: (JSONValue) -> Bool, _ what: String) throws(ResponseError) {
            if let value = params?[field], !value.isNull, !fits(value) {
                throw ResponseError.invalidParams("initialize params: \(field) must be \(what)")
            }
        }
        try check("processId", { $0.intValue != nil }, "an integer or null")
        try check("rootUri", { $0.stringValue != nil }, "a URI or null")
        try check("rootPath", { $0.stringValue != nil }, "a path or null")
        try check("capabilities", { $0.objectValue != nil }, "an object")
        try check("workspaceFolders", { $0.arrayValue?.allSatisfy { $0["uri"]?.stringValue != nil } ?? false },
                  "an array of {uri, name} or null")
        let encodings = params?["capabilities"]?["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        encoding = encodings.contains("utf-8") ? .utf8 : .utf16
        let textDocument = params?["capabilities"]?["textDocument"]
        snippets = textDocument?["completion"]?["completionItem"]?["snippetSupport"]?.boolValue ?? false
        insertReplace = textDocument?["completion"]?["completionItem"]?["insertReplaceSupport"]?.boolValue ?? false
        // Markdown unless the client lists the formats it renders without it.
        func rendersMarkdown(_ formats: JSONValue?) -> Bool {
            guard let list = formats?.arrayValue?.compactMap(\.stringValue) else { return true }
            return list.contains("markdown")
        }
        markdownHover = rendersMarkdown(textDocument?["hover"]?["contentFormat"])
        markdownDocumentation = rendersMarkdown(textDocument?["completion"]?["completionItem"]?["documentationFormat"])
        canWatchFiles = params?["capabilities"]?["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"]?.boolValue ?? false
        readEditorCapabilities(params?["capabilities"], options: params?["initializationOptions"])
        codeActionClient = CodeActionClient(params)
        var roots: [String] = []
        if let folders = params?["workspaceFolders"]?.arrayValue {
            roots = folders.compactMap { $0["uri"]?.stringValue.flatMap(FileURI.path) }
        }
        if roots.isEmpty, let uri = params?["rootUri"]?.stringValue, let path = FileURI.path(uri) { roots = [path] }
        if roots.isEmpty, let path = params?["rootPath"]?.stringValue { roots = [path] }
        workspace.setRoots(roots)
        var capabilities: JSONObject = [
            "positionEncoding": .string(encoding == .utf8 ? "utf-8" : "utf-16"),
            "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
            "completionProvider": ["triggerCharacters": [" ", ",", "\"", "/"], "resolveProvider": false],
            "hoverProvider": true,
            "definitionProvider": true,
            "referencesProvider": true,
            "documentSymbolProvider": true,
            "renameProvider": ["prepareProvider": true],
            "semanticTokensProvider": [
                "legend": [
                    "tokenTypes": .array(SemanticToken.Kind.allCases.map { .string($0.legendName) }),
                    "tokenModifiers": .array(SemanticToken.Modifiers.legendNames.map { .string($0) }),
                ],
                "full": true,
            ],
            "foldingRangeProvider": true,
            "codeActionProvider": codeActionClient.capability,
            "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": true]],
            "experimental": ["routesPreview": true],
        ]
        for (key, value) in editorRequestCapabilities() { capabilities[key] = value }
        for (key, value) in Self.formattingCapabilities { capabilities[key] = value }
        return capabilities
    }

    /// Asks the client to tell us about `.routes` files changed on disk.
    func registerFileWatchers() {
        guard canWatchFiles else { return }
        server.sendRequest("client/registerCapability", [
            "registrations": [[
                "id": "routes-watch",
                "method": "workspace/didChangeWatchedFiles",
                "registerOptions": ["watchers": [["globPattern": "**/*.routes"], ["globPattern": "**/routes.json"]]],
            ]],
        ])
    }

    // MARK: Documents

    func didOpen(_ params: JSONValue?) {
        guard let doc = params?["textDocument"], let uri = doc["uri"]?.stringValue,
              let text = doc["text"]?.stringValue, let path = workspace.path(forURI: uri) else { return }
        let version = Int(clamping: doc["version"]?.intValue ?? 0)
        guard workspace.store.open(uri: uri, path: path, version: version, text: text) else {
            Log.error("too many open documents; ignoring \(uri)")
            return
        }
        // A file opened as the analysis read it (from disk, usually) changes nothing.
        if !workspace.snapshotHolds(path: path, bytes: Array(text.utf8)) { workspace.invalidate() }
        publishWhenIdle(refreshing: workspace.store.documents.count > 1)
    }

    func didChange(_ params: JSONValue?) {
        guard let uri = params?["textDocument"]?["uri"]?.stringValue,
              let changes = params?["contentChanges"]?.arrayValue else { return }
        let version = Int(clamping: params?["textDocument"]?["version"]?.intValue ?? 0)
        var decoded: [DocumentStore.Change] = []
        for change in changes {
            guard let text = change["text"]?.stringValue else { return }
            if let rangeParam = change["range"] {
                guard let start = try? lineColumn(rangeParam["start"]), let end = try? lineColumn(rangeParam["end"]) else { return }
                decoded.append(.init(range: (start, end), text: text))
            } else {
                decoded.append(.init(range: nil, text: text))
            }
        }
        guard let applied = workspace.store.change(uri: uri, version: version, changes: decoded, encoding: encoding),
              let doc = workspace.store.document(uri) else { return }
        // One edit inside a comment or a run of whitespace (typing a comment, re-indenting):
        // the analysis is kept and only positions move. One edit inside one declaration: that
        // declaration is parsed and resolved again, and the analysis kept when what it analyses
        // did not change. Anything else: everything is analysed again.
        if applied.count == 1, decoded[0].range != nil {
            let edit = applied[0]
            if workspace.applyTriviaEdit(path: doc.path, range: edit.range, replacement: edit.replacement, newText: doc.text)
                || workspace.applyDeclarationEdit(path: doc.path, range: edit.range, replacement: edit.replacement, newText: doc.text) {
                publishWhenIdle(refreshing: workspace.store.documents.count > 1)
                return
            }
        }
        workspace.invalidate()
        publishWhenIdle(refreshing: workspace.store.documents.count > 1)
    }

    func didClose(_ params: JSONValue?) {
        guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return }
        workspace.store.close(uri: uri)
        if let path = workspace.path(forURI: uri) { workspace.provider.invalidate(path) }
        workspace.invalidate()
        server.sendNotification("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []])
        publishWhenIdle(refreshing: !workspace.store.documents.isEmpty)
    }

    func didChangeWatchedFiles(_ params: JSONValue?) {
        var structural = false
        var config = false
        for change in params?["changes"]?.arrayValue ?? [] {
            guard let uri = change["uri"]?.stringValue, let raw = FileURI.path(uri) else { continue }
            // A project's config: its roots, settings and exclusions are read again.
            if raw.hasSuffix("/" + WorkspaceRoot.configName) {
                config = true
                continue
            }
            workspace.provider.invalidate(workspace.path(forURI: uri) ?? raw)
            // 1 created, 2 changed, 3 deleted.
            if let type = change["type"]?.intValue, type != 2 { structural = true }
        }
        if config {
            workspace.reloadConfigs()
        } else if structural {
            workspace.rescan()
        } else {
            workspace.invalidate()
        }
        publishWhenIdle(refreshing: true)
    }

    func didChangeFolders(_ params: JSONValue?) {
        var roots = Set(workspace.folders)
        for folder in params?["event"]?["removed"]?.arrayValue ?? [] {
            if let path = folder["uri"]?.stringValue.flatMap(FileURI.path) { roots.remove(path) }
        }
        for folder in params?["event"]?["added"]?.arrayValue ?? [] {
            if let path = folder["uri"]?.stringValue.flatMap(FileURI.path) { roots.insert(path) }
        }
        workspace.setRoots(roots.sorted())
        publishWhenIdle(refreshing: true)
    }

    /// Whether a change waits for its diagnostics to be published, and whether the client is
    /// then asked to refresh its views (see `publishWhenIdle(refreshing:)`).
    private var publishing: (pending: Bool, refresh: Bool) = (false, false)

    /// After a change: the diagnostics are published (and the views refreshed) once no
    /// message is left in the queue, or before the next request is answered
    /// (`Server.onCatchUp`), not at once. A snapshot that a later change in the queue would
    /// make stale is then not made (a change that invalidates the snapshot leaves it to be
    /// made on demand: 30 such changes queued cost one analysis, of the last text); an edit
    /// taken a fast way (`LSPWorkspace.applyDeclarationEdit`) is still analysed as it comes.
    /// A client sees a change's diagnostics before the answer to a request it sent after the
    /// change.
    func publishWhenIdle(refreshing: Bool) {
        publishing.pending = true
        publishing.refresh = publishing.refresh || refreshing
        // The analyses the change replaced are freed now, not once the queue is empty: a run
        // of edits each analysed its fast way would otherwise keep one analysis per edit.
        workspace.releaseRetired()
    }

    /// What `publishWhenIdle(refreshing:)` put off, done.
    func publishPending() {
        guard publishing.pending else { return }
        let refresh = publishing.refresh
        publishing = (false, false)
        republish()
        if refresh { refreshViews() }
    }

    /// Publishes the diagnostics of every open document (those of every program they are part
    /// of), with its current version: after every change (README.md, `routes lsp`).
    func republish() {
        let session = workspace.session
        var byFile: [FileID: [Diagnostic]] = [:]
        for diagnostic in session.diagnostics { byFile[diagnostic.file, default: []].append(diagnostic) }
        for doc in workspace.store.documents.values.sorted(by: { $0.uri < $1.uri }) {
            guard let file = workspace.fileID(doc.path) else {
                // Only a document over the size limit is left out of the snapshot: say so, at
                // its start, instead of leaving the user with no diagnostics and no reason.
                if doc.text.bytes.count > SourceLimits.maxFileBytes && !pullsDiagnostics {
                    server.sendNotification("textDocument/publishDiagnostics", [
                        "uri": .string(doc.uri), "version": .int(Int64(doc.version)),
                        "diagnostics": [Self.tooLargeItem(doc.text.bytes.count)],
                    ])
                }
                continue
            }
            // A client that pulls asks for them (PullDiagnostics.swift).
            if pullsDiagnostics { continue }
            let list = diagnosticItems(file, byFile[file] ?? [])
            let value = JSONValue.array(list)
            server.sendNotification("textDocument/publishDiagnostics", [
                "uri": .string(doc.uri), "version": .int(Int64(doc.version)), "diagnostics": value,
            ])
        }
        publishConfigProblems()
        workspace.releaseRetired()
    }

    /// The problems of each project config (routes.json) on it, where editors show them; an
    /// empty list once a config that had problems has none (the defaults apply meanwhile).
    func publishConfigProblems() {
        var now: [String: [ProjectConfig.Problem]] = [:]
        for (_, config) in workspace.configs where !config.loaded.problems.isEmpty {
            now[config.path] = config.loaded.problems
        }
        for path in publishedConfigs.keys where now[path] == nil {
            server.sendNotification("textDocument/publishDiagnostics", ["uri": .string(FileURI.uri(path)), "diagnostics": []])
        }
        for (path, problems) in now.sorted(by: { $0.key < $1.key }) where publishedConfigs[path] != problems {
            let list: [JSONValue] = problems.map { p in
                let position: JSONValue = ["line": .int(Int64(p.line)), "character": .int(Int64(p.column))]
                return ["range": ["start": position, "end": position], "severity": 1, "source": "routes",
                        "message": .string(p.message)]
            }
            server.sendNotification("textDocument/publishDiagnostics", ["uri": .string(FileURI.uri(path)), "diagnostics": .array(list)])
        }
        publishedConfigs = now
    }

    // MARK: Requests

    func completion(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        let session = workspace.session
        let text = session.project.files[file].text
        let word = IDE.wordRange(project: session.project, file: file, offset: offset)
        let insertRange = range(text, word)
        // At the start of a name, a client that can choose may replace the name or insert before it.
        let wider = insertReplace ? IDE.replaceRange(project: session.project, file: file, offset: offset) : word
        let replaceRange: JSONValue? = wider == word ? Optional.none : .some(range(text, wider))
        var all = IDE.completions(session: session, file: file, offset: offset, snippets: snippets,
                                  directories: FileSystemDirectories())
        // Like clangd, at most `maxCompletionItems`, best first, marked incomplete so that the
        // client asks again as the user types (a large app has hundreds of dependencies).
        let incomplete = all.count > Self.maxCompletionItems
        if incomplete {
            all.sort { ($0.sortText ?? $0.label, $0.label) < ($1.sortText ?? $1.label, $1.label) }
            all.removeSubrange(Self.maxCompletionItems...)
        }
        let items: [JSONValue] = all.map { item in
            var object: JSONObject = ["label": .string(item.label), "kind": .int(Int64(completionKind(item.kind)))]
            if let detail = item.detail { object["detail"] = .string(detail) }
            if let doc = item.documentation { object["documentation"] = markup(doc, markdown: markdownDocumentation) }
            if let sortText = item.sortText { object["sortText"] = .string(sortText) }
            let insert = item.insertText ?? item.label
            object["insertTextFormat"] = .int(item.isSnippet ? 2 : 1)
            if let replaceRange {
                object["textEdit"] = ["insert": insertRange, "replace": replaceRange, "newText": .string(insert)]
            } else {
                object["textEdit"] = ["range": insertRange, "newText": .string(insert)]
            }
            return .object(object)
        }
        return ["isIncomplete": .bool(incomplete), "items": .array(items)]
    }

    /// The most completion items in one answer.
    static let maxCompletionItems = 100

    /// MarkupContent: markdown as is, or plain text with the markdown syntax taken out.
    func markup(_ markdown: String, markdown allowed: Bool) -> JSONValue {
        if allowed { return ["kind": "markdown", "value": .string(markdown)] }
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") || line == "---" { continue }
            // Drop `**` and the backticks (a lone `*` stays).
            var plain = ""
            var previousStar = false
            for character in line {
                if character == "`" { continue }
                if character == "*" {
                    if previousStar { plain.removeLast(); previousStar = false; continue }
                    previousStar = true
                } else {
                    previousStar = false
                }
                plain.append(character)
            }
            lines.append(plain)
        }
        return ["kind": "plaintext", "value": .string(lines.joined(separator: "\n"))]
    }

    func completionKind(_ k: CompletionItem.Kind) -> Int {
        switch k {
        case .keyword: return 14
        case .snippet: return 15
        case .screen: return 22  // Struct
        case .builder: return 3  // Function
        case .dependency, .optional: return 6  // Variable
        case .flag, .link: return 21  // Constant
        case .label: return 5  // Field
        case .placeholder: return 6  // Variable
        case .file: return 17
        case .folder: return 19
        }
    }

    func hover(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        let session = workspace.session
        guard let hover = IDE.hover(session: session, file: file, offset: offset) else { return .null }
        return ["contents": markup(hover.markdown, markdown: markdownHover),
                "range": range(session.project.files[file].text, hover.range)]
    }

    func definition(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        let found = IDE.definition(project: workspace.session.project, file: file, offset: offset)
        if found.isEmpty { return .null }
        return .array(found.map { location($0.file, $0.range) })
    }

    func references(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        var include = true
        if let context = params?["context"], !context.isNull {
            guard context.objectValue != nil else { throw ResponseError.invalidParams("context must be {includeDeclaration}") }
            if let value = context["includeDeclaration"], !value.isNull {
                guard let flag = value.boolValue else { throw ResponseError.invalidParams("context.includeDeclaration must be a boolean") }
                include = flag
            }
        }
        let found = IDE.references(project: workspace.session.project, file: file, offset: offset, includeDeclaration: include)
        return .array(found.map { location($0.file, $0.range) })
    }

    func documentSymbols(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        let text = workspace.session.project.files[file].text
        func encode(_ s: DocumentSymbol) -> JSONValue {
            var object: JSONObject = [
                "name": .string(s.name), "kind": .int(Int64(s.kind.rawValue)),
                "range": range(text, s.range), "selectionRange": range(text, s.selectionRange),
            ]
            if let detail = s.detail { object["detail"] = .string(detail) }
            if !s.children.isEmpty { object["children"] = .array(s.children.map(encode)) }
            return .object(object)
        }
        return .array(IDE.documentSymbols(project: workspace.session.project, file: file).map(encode))
    }

    func prepareRename(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        let project = workspace.session.project
        guard let prepared = IDE.prepareRename(project: project, file: file, offset: offset) else { return .null }
        return ["range": range(project.files[file].text, prepared.range), "placeholder": .string(prepared.placeholder)]
    }

    func rename(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        guard let newName = params?["newName"]?.stringValue else { throw ResponseError.invalidParams("expected newName") }
        let project = workspace.session.project
        let edits: [FileID: [TextEdit]]
        do {
            edits = try IDE.rename(project: project, file: file, offset: offset, newName: newName)
        } catch {
            throw ResponseError.requestFailed(error.message)
        }
        var changes = JSONObject()
        for (file, list) in edits.sorted(by: { $0.key < $1.key }) {
            let text = project.files[file].text
            changes[workspace.uri(for: file)] = .array(list.sorted { $0.range.lowerBound < $1.range.lowerBound }.map {
                ["range": range(text, $0.range), "newText": .string($0.newText)]
            })
        }
        return ["changes": .object(changes)]
    }

    /// The document of `textDocument` params.
    func document(_ params: JSONValue?) throws(ResponseError) -> FileID {
        guard let uri = params?["textDocument"]?["uri"]?.stringValue else {
            throw ResponseError.invalidParams("expected textDocument.uri")
        }
        guard let path = workspace.path(forURI: uri), let file = workspace.fileID(path) else {
            if let path = workspace.path(forURI: uri), let uriOpen = workspace.store.uriByPath[path], let doc = workspace.store.document(uriOpen),
               doc.text.bytes.count > SourceLimits.maxFileBytes {
                throw ResponseError.invalidParams("\(uri) is not analysed: \(SourceReadError.tooLarge(doc.text.bytes.count))")
            }
            throw ResponseError.invalidParams("unknown document \(uri)")
        }
        return file
    }

    /// `{data: [Δline, Δstart, length, type, modifiers]*}` in the negotiated encoding.
    func semanticTokens(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        let project = workspace.session.project
        let text = project.files[file].text
        var data: [JSONValue] = []
        var lastLine = 0, lastStart = 0
        for token in IDE.semanticTokens(project: project, file: file) {
            let start = text.position(of: token.range.lowerBound, encoding: encoding)
            let end = text.position(of: token.range.upperBound, encoding: encoding)
            // Tokens never span lines; cut one that would at its line's end.
            let length = end.line == start.line ? end.column - start.column
                : text.columnWidth(from: token.range.lowerBound, to: text.lineRange(start.line).upperBound, encoding: encoding)
            if length <= 0 { continue }
            let deltaLine = start.line - lastLine
            let deltaStart = deltaLine == 0 ? start.column - lastStart : start.column
            data.append(contentsOf: [.int(Int64(deltaLine)), .int(Int64(deltaStart)), .int(Int64(length)),
                                     .int(Int64(token.kind.rawValue)), .int(Int64(token.modifiers.rawValue))])
            lastLine = start.line
            lastStart = start.column
        }
        return ["data": .array(data)]
    }

    func foldingRanges(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        return .array(IDE.foldingRanges(project: workspace.session.project, file: file).map { r in
            var object: JSONObject = ["startLine": .int(Int64(r.startLine)), "endLine": .int(Int64(r.endLine))]
            if let kind = r.kind { object["kind"] = .string(kind.rawValue) }
            return .object(object)
        })
    }

    // MARK: routes/preview

    /// `{"textDocument": {"uri"}, "path": "Home/Detail" | null, "flags": {...}, "optionals": {...}}`
    /// → `{"text", "tree"}` (README.md, `routes/preview`), rendered as `routes tree` renders it.
    func preview(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        let uri = params?["textDocument"]?["uri"]?.stringValue ?? ""
        let session = workspace.session
        let project = session.project
        guard let program = project.programs.first(where: { $0.root.file == file })
                ?? project.programs.first(where: { $0.files.contains(file) }) else {
            throw ResponseError.invalidParams("\(uri) belongs to no program (no `root` declares or imports it)")
        }
        func assignments(_ key: String) throws(ResponseError) -> [String: Bool] {
            guard let given = params?[key], !given.isNull else { return [:] }
            guard let object = given.objectValue else { throw ResponseError.invalidParams("\(key) must be an object of booleans") }
            var out: [String: Bool] = [:]
            for (name, value) in object {
                guard let isOn = value.boolValue else { throw ResponseError.invalidParams("\(key).\(name) must be a boolean") }
                out[name] = isOn
            }
            return out
        }
        let given = Environment(flags: try assignments("flags"), optionals: try assignments("optionals"))
        let environment: ProgramEnvironment
        do {
            environment = try ProgramEnvironment(given, program: program, project: project)
        } catch {
            throw ResponseError.invalidParams(error.message)
        }
        let pathValue = params?["path"]
        let toPath: @Sendable (SourceFile) -> String = { $0.path }
        if let url = params?["url"]?.stringValue {
            // A URL stands in place of a path: both given, one would be ignored.
            if let pathValue, !pathValue.isNull { throw ResponseError.invalidParams("give a url or a path, not both") }
            return try previewURL(url, session: session, program: program, environment: environment, toPath: toPath)
        }
        if let urlValue = params?["url"], !urlValue.isNull { throw ResponseError.invalidParams("url must be a string or null") }
        if let literal = pathValue?.stringValue {
            let resolution: PathResolution
            do {
                let parsed = try PathLiteral.parse(literal)
                resolution = try Resolution.resolve(parsed, program: program, project: project, environment: environment)
            } catch {
                throw ResponseError.invalidParams("path: " + error.message)
            }
            return ["text": .string(resolution.text(project: project)),
                    "tree": TreeJSON.resolution(resolution, project: project, path: toPath, encoding: encoding)]
        }
        if let pathValue, !pathValue.isNull { throw ResponseError.invalidParams("path must be a string or null") }
        let tree = RoutingTree(program: program, project: project)
        return ["text": .string(tree.text), "tree": TreeJSON.tree(tree, project: project, path: toPath, encoding: encoding)]
    }

    /// `routes/preview` with a URL: the path of the link it opens, resolved, and the link's
    /// name; a URL that opens no link (or ties) is invalid params, with why.
    private func previewURL(_ url: String, session: AnalysisSession, program: Program, environment: ProgramEnvironment,
                            toPath: @escaping @Sendable (SourceFile) -> String) throws(ResponseError) -> JSONValue {
        let project = session.project
        guard let links = session.links(ofProgramRootedAt: program.root) else {
            throw ResponseError.invalidParams("url: the program is too large to analyse: its links cannot be matched")
        }
        let parsed: LinkURL
        switch LinkURL.parse(url) {
        case .failure(let problem): throw ResponseError.invalidParams("url: matches no link: \(problem.message)")
        case .success(let value): parsed = value
        }
        let match = links.match(parsed)
        guard let position = match.link else {
            if match.winners.count > 1 {
                throw ResponseError.invalidParams("url: ambiguous: " + match.winners.map { "`\(links.links[$0].name)`" }.joined(separator: ", ") + " match it equally well")
            }
            let closest = match.candidates.map { "`\(links.links[$0.link].name)`: \($0.reason)" }.joined(separator: "; ")
            throw ResponseError.invalidParams("url: matches no link" + (closest.isEmpty ? "" : " (closest: \(closest))"))
        }
        guard let resolution = links.resolve(position, values: match.values, program: program, project: project, environment: environment) else {
            throw ResponseError.invalidParams("url: the link `\(links.links[position].name)` has an error")
        }
        return ["text": .string(resolution.text(project: project)), "link": .string(links.links[position].name),
                "tree": TreeJSON.resolution(resolution, project: project, path: toPath, encoding: encoding)]
    }
}
