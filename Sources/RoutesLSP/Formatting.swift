import RoutesIDE
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// `textDocument/formatting`, `rangeFormatting` and `onTypeFormatting` (on `}`): the
/// canonical layout of docs/formatting.md, as edits of the runs of whitespace that change.
/// The client's `FormattingOptions` are checked but not followed: there is one layout.
extension LanguageFeatures {
    /// What `initialize` announces for formatting.
    static let formattingCapabilities: JSONObject = [
        "documentFormattingProvider": true,
        "documentRangeFormattingProvider": true,
        "documentOnTypeFormattingProvider": ["firstTriggerCharacter": "}"],
    ]

    func registerFormatting() {
        server.onRequest("textDocument/formatting") { [unowned self] p throws(ResponseError) in try self.formatting(p) }
        server.onRequest("textDocument/rangeFormatting") { [unowned self] p throws(ResponseError) in try self.rangeFormatting(p) }
        server.onRequest("textDocument/onTypeFormatting") { [unowned self] p throws(ResponseError) in try self.onTypeFormatting(p) }
    }

    /// `options` (FormattingOptions): an object whose `tabSize` is a non-negative integer and
    /// `insertSpaces` a boolean, when given.
    func checkFormattingOptions(_ params: JSONValue?) throws(ResponseError) {
        guard let options = params?["options"], !options.isNull else { return }
        guard options.objectValue != nil else { throw ResponseError.invalidParams("options must be an object {tabSize, insertSpaces}") }
        if let size = options["tabSize"], !size.isNull {
            guard let spaces = size.intValue, spaces >= 0 else { throw ResponseError.invalidParams("options.tabSize must be a non-negative integer") }
        }
        if let spaces = options["insertSpaces"], !spaces.isNull, spaces.boolValue == nil {
            throw ResponseError.invalidParams("options.insertSpaces must be a boolean")
        }
    }

    func encode(_ edits: [TextEdit], in text: SourceText) -> JSONValue {
        .array(edits.map { ["range": range(text, $0.range), "newText": .string($0.newText)] })
    }

    func formatting(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        try checkFormattingOptions(params)
        let project = workspace.session.project
        do {
            return encode(try IDE.formatting(project: project, file: file), in: project.files[file].text)
        } catch {
            throw ResponseError.requestFailed("cannot format: \(error.message)")
        }
    }

    func rangeFormatting(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let file = try document(params)
        guard let rangeParam = params?["range"], rangeParam.objectValue != nil else { throw ResponseError.invalidParams("expected a range {start, end}") }
        let start = try lineColumn(rangeParam["start"]), end = try lineColumn(rangeParam["end"])
        guard start <= end else { throw ResponseError.invalidParams("the range ends before it starts") }
        try checkFormattingOptions(params)
        let project = workspace.session.project
        let text = project.files[file].text
        let bytes = text.offset(of: start, encoding: encoding)..<max(text.offset(of: start, encoding: encoding), text.offset(of: end, encoding: encoding))
        do {
            return encode(try IDE.rangeFormatting(project: project, file: file, range: bytes), in: text)
        } catch {
            throw ResponseError.requestFailed("cannot format: \(error.message)")
        }
    }

    func onTypeFormatting(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
        let (file, offset) = try target(params)
        guard let ch = params?["ch"]?.stringValue else { throw ResponseError.invalidParams("expected ch, the character typed") }
        try checkFormattingOptions(params)
        // Only `}` is announced: any other character formats nothing.
        guard ch == "}" else { return [] }
        let project = workspace.session.project
        return encode(IDE.onTypeFormatting(project: project, file: file, offset: offset), in: project.files[file].text)
    }
}
