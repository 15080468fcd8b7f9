import RoutesAnalysis
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// Pull diagnostics (LSP 3.17, README.md `routes lsp`): `textDocument/diagnostic` for one
/// document and `workspace/diagnostic` for every file of the workspace, beside the pushed
/// `publishDiagnostics`. A client that can pull (`textDocument.diagnostic`) and asks to
/// (`initializationOptions.pullDiagnostics`) is offered pulls and gets no pushed diagnostics
/// for `.routes` documents, so that it does not show them twice; the others get pushes only.
///
/// A report's `resultId` is a hash of the report's items: the same diagnostics give the same
/// id, whatever happened in between, so the server keeps no state per client, and a client
/// that sends the id of what it shows gets `unchanged` when that is still right.
extension LanguageFeatures {
    /// The diagnostics of a file as LSP `Diagnostic`s, in the order the analysis sorts them.
    ///
    /// At most `itemsPerDocument` of them, errors first, and then one more item, of severity
    /// information at the first one left out, that says how many there are and how to see
    /// them all: an editor's list of a million problems helps nobody, and writing it, for the
    /// client to read, would hold the server for tens of seconds after each change.
    func diagnosticItems(_ file: FileID, _ diagnostics: [Diagnostic]) -> [JSONValue] {
        let text = workspace.session.project.files[file].text
        let limit = Self.itemsPerDocument
        var shown = diagnostics
        var firstLeftOut: Diagnostic? = nil
        if diagnostics.count > limit {
            let errors = diagnostics.reduce(0) { $0 + ($1.severity == .error ? 1 : 0) }
            var warningsKept = max(0, limit - errors), errorsKept = min(errors, limit)
            shown = []
            shown.reserveCapacity(limit)
            for d in diagnostics {
                if d.severity == .error ? errorsKept > 0 : warningsKept > 0 {
                    if d.severity == .error { errorsKept -= 1 } else { warningsKept -= 1 }
                    shown.append(d)
                } else if firstLeftOut == nil {
                    firstLeftOut = d
                }
            }
        }
        var items = shown.map { d -> JSONValue in
            var object: JSONObject = [
                "range": range(text, d.range),
                "severity": .int(d.severity == .error ? 1 : 2),
                "code": .string(d.rule.rawValue),
                "source": "routes",
                "message": .string(d.message),
            ]
            if !d.related.isEmpty {
                object["relatedInformation"] = .array(d.related.map { r in
                    ["location": location(r.file, r.range), "message": .string(r.message)]
                })
            }
            if d.isUnnecessary { object["tags"] = [1] }
            return .object(object)
        }
        if let firstLeftOut {
            items.append([
                "range": range(text, firstLeftOut.range), "severity": 3, "source": "routes",
                "message": .string("routes shows \(limit) of the \(diagnostics.count) problems of this file, errors first; `routes lint` on the file lists them all"),
            ])
        }
        return items
    }

    /// The most diagnostics published for one document (see `diagnosticItems(_:_:)`).
    static let itemsPerDocument = 1_000

    /// The one diagnostic of an open document too large to analyse, at its start.
    static func tooLargeItem(_ size: Int) -> JSONValue {
        let zero: JSONValue = ["line": 0, "character": 0]
        return ["range": ["start": zero, "end": zero], "severity": 2, "source": "routes",
                "message": .string("routes does not analyse this file: \(SourceReadError.tooLarge(size))")]
    }

    /// A result id for a list of items: FNV-1a (64 bits) of their JSON, in hex.
    static func resultID(_ items: [JSONValue]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in JSON.serialize(.array(items)).utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A full report, or `unchanged` when `previous` is its id.
    static func report(_ items: [JSONValue], previous: String?) -> JSONObject {
        let id = resultID(items)
        if previous == id { return ["kind": "unchanged", "resultId": .string(id)] }
        return ["kind": "full", "resultId": .string(id), "items": .array(items)]
    }

    // MARK: textDocument/diagnostic

    func documentDiagnostics(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let previous = params?["previousResultId"]?.stringValue
        if let uri = params?["textDocument"]?["uri"]?.stringValue, let doc = workspace.store.document(uri),
           doc.text.bytes.count > SourceLimits.maxFileBytes {
            return .object(Self.report([Self.tooLargeItem(doc.text.bytes.count)], previous: previous))
        }
        let file = try document(params)
        let diagnostics = workspace.session.diagnostics.filter { $0.file == file }
        return .object(Self.report(diagnosticItems(file, diagnostics), previous: previous))
    }

    // MARK: workspace/diagnostic

    /// A report for every file of the workspace (open or not, imported ones included), by
    /// path, with the version of the open ones.
    func workspaceDiagnostics(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        if let given = params?["previousResultIds"], !given.isNull, given.arrayValue == nil {
            throw ResponseError.invalidParams("previousResultIds must be an array")
        }
        var previous: [String: String] = [:]
        for entry in params?["previousResultIds"]?.arrayValue ?? [] {
            guard let uri = entry["uri"]?.stringValue, let value = entry["value"]?.stringValue else {
                throw ResponseError.invalidParams("previousResultIds: each entry is {uri, value}")
            }
            previous[workspace.path(forURI: uri) ?? uri] = value
        }
        let session = workspace.session
        var byFile: [FileID: [Diagnostic]] = [:]
        for diagnostic in session.diagnostics { byFile[diagnostic.file, default: []].append(diagnostic) }
        var reports: [JSONValue] = []
        for file in session.project.files.sorted(by: { $0.path < $1.path }) {
            var report = Self.report(diagnosticItems(file.id, byFile[file.id] ?? []), previous: previous[file.path])
            let uri = workspace.uri(for: file.id)
            report["uri"] = .string(uri)
            report["version"] = workspace.store.document(uri).map { .int(Int64($0.version)) } ?? .null
            reports.append(.object(report))
        }
        // Open documents too large to analyse are in no snapshot.
        for doc in workspace.store.documents.values.sorted(by: { $0.uri < $1.uri })
        where doc.text.bytes.count > SourceLimits.maxFileBytes {
            var report = Self.report([Self.tooLargeItem(doc.text.bytes.count)], previous: previous[doc.path])
            report["uri"] = .string(doc.uri)
            report["version"] = .int(Int64(doc.version))
            reports.append(.object(report))
        }
        return ["items": .array(reports)]
    }
}
