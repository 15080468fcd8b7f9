import RoutesAnalysis
import RoutesIDE
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// Workspace symbols, document highlights, selection ranges, inlay hints and code lenses
/// (README.md, `routes lsp`): each handler decodes its params, calls `RoutesIDE` and encodes
/// the answer. Registered by ``LanguageFeatures``; their capabilities are
/// ``editorRequestCapabilities()``.
extension LanguageFeatures {
    /// The command a code lens runs: the client shows `routes/preview` for its one argument,
    /// which is that request's params.
    static let previewCommand = "routes.showPreview"

    /// At most this many nested ranges per position in a `selectionRange` answer (the innermost
    /// ones, then the whole file), so that a pathologically deep file stays a small answer.
    static let maxSelectionRanges = 64

    func registerEditorRequests() {
        server.onRequest("workspace/symbol") { [unowned self] p throws(ResponseError) in try self.workspaceSymbols(p) }
        server.onRequest("textDocument/documentHighlight") { [unowned self] p throws(ResponseError) in try self.documentHighlights(p) }
        server.onRequest("textDocument/selectionRange") { [unowned self] p throws(ResponseError) in try self.selectionRanges(p) }
        server.onRequest("textDocument/inlayHint") { [unowned self] p throws(ResponseError) in try self.inlayHints(p) }
        server.onRequest("textDocument/codeLens") { [unowned self] p throws(ResponseError) in try self.codeLenses(p) }
        server.onRequest("codeLens/resolve") { [unowned self] p throws(ResponseError) in try self.resolveCodeLens(p) }
        server.onRequest("textDocument/diagnostic") { [unowned self] p throws(ResponseError) in try self.documentDiagnostics(p) }
        server.onRequest("workspace/diagnostic") { [unowned self] p throws(ResponseError) in try self.workspaceDiagnostics(p) }
    }

    /// The server capabilities of these requests (LSP 3.17 shapes).
    func editorRequestCapabilities() -> JSONObject {
        var capabilities: JSONObject = [
            "workspaceSymbolProvider": true,
            "documentHighlightProvider": true,
            "selectionRangeProvider": true,
            "inlayHintProvider": ["resolveProvider": false],
            "codeLensProvider": ["resolveProvider": true],
        ]
        if pullsDiagnostics {
            capabilities["diagnosticProvider"] = ["identifier": "routes", "interFileDependencies": true, "workspaceDiagnostics": true]
        }
        return capabilities
    }

    /// Reads what the client says it does with these requests (at `initialize`). Diagnostics
    /// are pulled only by a client that can and asks to (`"pullDiagnostics": true` in its
    /// initialization options): the others get them pushed, and, since the server then does
    /// not offer pulls, do not pull them as well (clients that do both show each twice).
    func readEditorCapabilities(_ capabilities: JSONValue?, options: JSONValue?) {
        pullsDiagnostics = capabilities?["textDocument"]?["diagnostic"]?.objectValue != nil
            && options?["pullDiagnostics"]?.boolValue == true
        let workspace = capabilities?["workspace"]
        refreshes = [
            "workspace/diagnostic/refresh": pullsDiagnostics && workspace?["diagnostics"]?["refreshSupport"]?.boolValue ?? false,
            "workspace/inlayHint/refresh": workspace?["inlayHint"]?["refreshSupport"]?.boolValue ?? false,
            "workspace/codeLens/refresh": workspace?["codeLens"]?["refreshSupport"]?.boolValue ?? false,
        ].filter(\.value).map(\.key).sorted()
    }

    /// Asks the client to ask again for the diagnostics, inlay hints and code lenses it shows
    /// (those it supports refreshing): after a change another document or the disk made, which
    /// the client cannot know changes what it shows.
    func refreshViews() {
        for method in refreshes { server.sendRequest(method, .null) }
    }

    // MARK: workspace/symbol

    func workspaceSymbols(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        guard let query = params?["query"]?.stringValue else { throw ResponseError.invalidParams("expected a query string") }
        let project = workspace.session.project
        return .array(IDE.workspaceSymbols(project: project, query: query).map { s in
            ["name": .string(s.name), "kind": .int(Int64(s.kind.rawValue)),
             "location": location(s.location.file, s.location.range), "containerName": .string(s.containerName)]
        })
    }

    // MARK: textDocument/documentHighlight

    func documentHighlights(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        let project = workspace.session.project
        let text = project.files[file].text
        return .array(IDE.documentHighlights(project: project, file: file, offset: offset).map { h in
            ["range": range(text, h.range), "kind": .int(Int64(h.kind.rawValue))]
        })
    }

    // MARK: textDocument/selectionRange

    func selectionRanges(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        guard let positions = params?["positions"]?.arrayValue else { throw ResponseError.invalidParams("expected positions") }
        var offsets: [Int] = []
        let text = workspace.session.project.files[file].text
        for requested in positions { offsets.append(text.offset(of: try lineColumn(requested), encoding: encoding)) }
        let project = workspace.session.project
        return .array(offsets.map { offset in
            var ranges = IDE.selectionRanges(project: project, file: file, offset: offset)
            if ranges.count > Self.maxSelectionRanges {
                ranges.replaceSubrange((Self.maxSelectionRanges - 1)..<(ranges.count - 1), with: [])
            }
            var nested: JSONValue? = nil
            for byteRange in ranges.reversed() {
                var object: JSONObject = ["range": range(text, byteRange)]
                if let nested { object["parent"] = nested }
                nested = .object(object)
            }
            // An empty file: the empty range at its start.
            return nested ?? ["range": range(text, 0..<0)]
        })
    }

    // MARK: textDocument/inlayHint

    func inlayHints(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        guard let rangeParam = params?["range"] else { throw ResponseError.invalidParams("expected a range") }
        let start = try lineColumn(rangeParam["start"]), end = try lineColumn(rangeParam["end"])
        let project = workspace.session.project
        let text = project.files[file].text
        var lower = text.offset(of: start, encoding: encoding), upper = text.offset(of: end, encoding: encoding)
        if upper < lower { swap(&lower, &upper) }
        return .array(IDE.inlayHints(project: project, file: file, range: lower..<upper).map { h in
            var object: JSONObject = ["position": position(text, h.offset), "label": .string(h.label), "paddingLeft": true]
            if let kind = h.kind { object["kind"] = .int(Int64(kind.rawValue)) }
            if let tooltip = h.tooltip { object["tooltip"] = markup(tooltip, markdown: markdownHover) }
            return .object(object)
        })
    }

    // MARK: textDocument/codeLens, codeLens/resolve

    /// The lenses of a document, without their commands: `codeLens/resolve` works each out
    /// when the editor shows it. `data` names the declaration by document, kind and name (its
    /// index may change before the lens is resolved).
    func codeLenses(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        let uri = params?["textDocument"]?["uri"]?.stringValue ?? workspace.uri(for: file)
        let project = workspace.session.project
        let text = project.files[file].text
        return .array(IDE.codeLensDeclarations(project: project, file: file).map { lens in
            let decl = project.files[file].model.declarations[lens.declaration]
            return ["range": range(text, lens.range),
                    "data": ["uri": .string(uri), "kind": .string(decl.kind.rawValue), "name": .string(decl.name.text)]]
        })
    }

    func resolveCodeLens(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        guard var lens = params?.objectValue, let rangeParam = lens["range"], rangeParam["start"] != nil, rangeParam["end"] != nil,
              let data = lens["data"], let uri = data["uri"]?.stringValue,
              let kind = data["kind"]?.stringValue, let name = data["name"]?.stringValue else {
            throw ResponseError.invalidParams("expected a code lens of this server (range and data)")
        }
        let file = try document(["textDocument": ["uri": .string(uri)]])
        let session = workspace.session
        let declarations = session.project.files[file].model.declarations
        let found = declarations.firstIndex { $0.kind.rawValue == kind && $0.name.text == name }
        guard let index = found, let resolved = IDE.codeLens(session: session, file: file, declaration: index) else {
            lens["command"] = ["title": "(changed: save or edit to update)", "command": ""]
            return .object(lens)
        }
        guard let preview = resolved.preview else {
            lens["command"] = ["title": .string(resolved.title), "command": ""]
            return .object(lens)
        }
        var argument: JSONObject = [
            "textDocument": ["uri": .string(workspace.uri(for: preview.rootFile))],
            "path": preview.path.map { .string($0) } ?? .null,
        ]
        argument["flags"] = .object(JSONObject(preview.flags.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) }))
        argument["optionals"] = .object(JSONObject(preview.optionals.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) }))
        lens["command"] = ["title": .string(resolved.title), "command": .string(Self.previewCommand), "arguments": [.object(argument)]]
        return .object(lens)
    }
}
