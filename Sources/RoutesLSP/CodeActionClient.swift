import RoutesJSON

/// What the client said about code actions at `initialize`.
struct CodeActionClient {
    /// `textDocument.codeAction.codeActionLiteralSupport`: it takes `CodeAction` literals with
    /// kinds (else the server advertises a plain `true`, and answers with literals all the same).
    var literals = false
    /// `workspace.workspaceEdit.documentChanges`: edits as versioned `documentChanges`.
    var documentChanges = false

    init() {}

    init(_ params: JSONValue?) {
        literals = params?["capabilities"]?["textDocument"]?["codeAction"]?["codeActionLiteralSupport"]?.objectValue != nil
        documentChanges = params?["capabilities"]?["workspace"]?["workspaceEdit"]?["documentChanges"]?.boolValue ?? false
    }

    /// The kinds the server offers.
    static let kinds = ["quickfix", "source.organizeImports", "source.fixAll"]

    /// `codeActionProvider` for `initialize`.
    var capability: JSONValue {
        guard literals else { return true }
        return ["codeActionKinds": .array(Self.kinds.map { .string($0) }), "resolveProvider": false]
    }
}
