import RoutesAnalysis
import RoutesIDE
import RoutesJSON
import RoutesSyntax

extension LanguageFeatures {
    /// `textDocument/codeAction` (README.md, Fixes): the quick fixes of the diagnostics of
    /// `context.diagnostics` (matched by range and code, each action carrying the client's
    /// diagnostic), or of those the range meets when the client sends none; then
    /// `source.organizeImports` and `source.fixAll` when they would change something; all
    /// filtered by `context.only`.
    func codeAction(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        guard let range = params?["range"], range.objectValue != nil else {
            throw ResponseError.invalidParams("expected a range {start, end}")
        }
        let start = try lineColumn(range["start"]), end = try lineColumn(range["end"])
        let (sent, only) = try codeActionContext(params)
        func wanted(_ kind: String) -> Bool {
            only.map { $0.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true
        }

        let session = workspace.session
        let text = session.project.files[file].text
        var lower = text.offset(of: start, encoding: encoding), upper = text.offset(of: end, encoding: encoding)
        if upper < lower { swap(&lower, &upper) }
        let fixContext = FixContext(session: session, provider: workspace.provider)
        var actions: [JSONValue] = []
        if wanted("quickfix") {
            actions += quickFixes(in: file, range: lower ... upper, sent: sent, session: session, context: fixContext)
        }
        if wanted("source.organizeImports") {
            let edits = IDE.organizeImports(project: session.project, file: file)
            if !edits.isEmpty {
                actions.append(["title": "Organize imports", "kind": "source.organizeImports", "edit": workspaceEdit([file: edits])])
            }
        }
        if wanted("source.fixAll") {
            // Rounds, as `routes lint --fix` runs them (a round takes only fixes that do not
            // touch); the edit replaces the span of each file that they changed. Each round
            // after the first analyses the program again: only when the client asks for the
            // fix-all by its kind (on save, or from a menu); a request without `only` (the
            // light bulb, at each move of the cursor) gets one round, which costs no analysis.
            let (texts, count) = IDE.fixAllRounds(context: fixContext, files: [file], unsafe: false, maxRounds: only == nil ? 1 : 10)
            if !texts.isEmpty {
                var edits: [FileID: [TextEdit]] = [:]
                for (fixedFile, bytes) in texts {
                    edits[fixedFile] = [IDE.replacement(of: session.project.files[fixedFile].text.bytes, by: bytes)]
                }
                let title = count == 1 ? "Apply the safe fix" : "Apply \(count) safe fixes"
                actions.append(["title": .string(title), "kind": "source.fixAll", "edit": workspaceEdit(edits)])
            }
        }
        return .array(actions)
    }

    /// The `context` of a code action request: the diagnostics the client sent, and the kinds
    /// it asks for (nil: every kind).
    func codeActionContext(_ params: JSONValue?) throws(ResponseError) -> (sent: [JSONValue], only: [String]?) {
        guard let context = params?["context"], context.objectValue != nil else {
            throw ResponseError.invalidParams("expected a context {diagnostics, only?}")
        }
        var sent: [JSONValue] = []
        if let diagnostics = context["diagnostics"], !diagnostics.isNull {
            guard let list = diagnostics.arrayValue else { throw ResponseError.invalidParams("context.diagnostics must be an array") }
            sent = list
        }
        var only: [String]? = nil
        if let kinds = context["only"], !kinds.isNull {
            guard let list = kinds.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw ResponseError.invalidParams("context.only must be an array of code action kinds")
            }
            only = list.compactMap(\.stringValue)
        }
        return (sent, only)
    }

    /// The quick fixes of the file's diagnostics: of those the client sent (matched by range
    /// and code), or of those `range` (byte offsets) meets when it sent none.
    func quickFixes(in file: FileID, range: ClosedRange<Int>, sent: [JSONValue], session: AnalysisSession,
                    context fixContext: FixContext) -> [JSONValue] {
        let text = session.project.files[file].text
        var actions: [JSONValue] = []
        // The lines the sent diagnostics start on: a diagnostic that starts on no such line
        // matches none of them, and is not made an LSP object to be compared (a document may
        // have a million diagnostics, and a client sends a few).
        let sentLines = Set(sent.compactMap { $0["range"]?["start"]?["line"]?.intValue.map { Int(truncatingIfNeeded: $0) } })
        for diagnostic in session.diagnostics where diagnostic.file == file {
            if sent.isEmpty {
                guard diagnostic.range.lowerBound <= range.upperBound && range.lowerBound <= diagnostic.range.upperBound else { continue }
            } else if !sentLines.contains(text.line(containing: diagnostic.range.lowerBound)) {
                continue
            }
            let mine = codeActionDiagnostic(diagnostic, text)
            // A client that sends its diagnostics (those of the range, or of the cursor's
            // line) gets the actions of those, matched by range and code; else the range
            // chooses.
            // (Not an information item: the one that says how many diagnostics a document
            // has beyond those published stands for no diagnostic.)
            let theirs = sent.first {
                $0["severity"]?.intValue != 3 && Self.sameRange($0["range"], mine["range"]) && ($0["code"] == nil || $0["code"] == mine["code"])
            }
            if !sent.isEmpty && theirs == nil { continue }
            for fix in IDE.fixes(for: diagnostic, context: fixContext) {
                var action: JSONObject = [
                    "title": .string(fix.title), "kind": "quickfix",
                    "diagnostics": [theirs ?? mine], "edit": workspaceEdit(fix.edits),
                ]
                if fix.isPreferred { action["isPreferred"] = true }
                actions.append(.object(action))
            }
        }
        return actions
    }

    /// Whether two LSP ranges are the same (whatever the order of their members).
    static func sameRange(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        func numbers(_ r: JSONValue?) -> [Int64?] {
            [r?["start"]?["line"]?.intValue, r?["start"]?["character"]?.intValue,
             r?["end"]?["line"]?.intValue, r?["end"]?["character"]?.intValue]
        }
        let first = numbers(a)
        return !first.contains(nil) && first == numbers(b)
    }

    /// A diagnostic as `publishDiagnostics` sends it (for an action's `diagnostics`).
    func codeActionDiagnostic(_ d: Diagnostic, _ text: SourceText) -> JSONValue {
        var object: JSONObject = [
            "range": range(text, d.range), "severity": .int(d.severity == .error ? 1 : 2),
            "code": .string(d.rule.rawValue), "source": "routes", "message": .string(d.message),
        ]
        if d.isUnnecessary { object["tags"] = [1] }
        return .object(object)
    }

    /// A `WorkspaceEdit`: `documentChanges` when the client takes them (an open document's
    /// edits name its version), else `changes`; files in path order, edits in text order.
    func workspaceEdit(_ edits: [FileID: [TextEdit]]) -> JSONValue {
        let project = workspace.session.project
        var changes = JSONObject()
        var documentChanges: [JSONValue] = []
        for (file, list) in edits.sorted(by: { project.files[$0.key].path < project.files[$1.key].path }) {
            let text = project.files[file].text
            let uri = workspace.uri(for: file)
            let encoded: JSONValue = .array(list.sorted { $0.range.lowerBound < $1.range.lowerBound }.map {
                ["range": range(text, $0.range), "newText": .string($0.newText)]
            })
            if codeActionClient.documentChanges {
                let version: JSONValue = workspace.store.document(uri).map { .int(Int64($0.version)) } ?? .null
                documentChanges.append(["textDocument": ["uri": .string(uri), "version": version], "edits": encoded])
            } else {
                changes[uri] = encoded
            }
        }
        return codeActionClient.documentChanges ? ["documentChanges": .array(documentChanges)] : ["changes": .object(changes)]
    }
}
