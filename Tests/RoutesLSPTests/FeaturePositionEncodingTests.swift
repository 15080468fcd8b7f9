import Foundation
import RoutesJSON
import Testing

/// Position encoding (README.md, `routes lsp`, Positions): UTF-8 when the client offers it,
/// otherwise UTF-16, for every position in and out; out-of-range positions are clamped, not
/// errors.
@Suite("Feature: position encodings and clamping")
struct FeaturePositionEncodingTests {
    /// The imported file's name has four emoji: each is 4 UTF-8 bytes and 2 UTF-16 units, so
    /// everything after the import string on line 0 is 8 columns further right in UTF-8.
    static let emojiFile = "🙂🙂🙂🙂.routes"

    /// Line 0, in UTF-16 units: `flag` 25…29, `unusedFlag` 30…40, `flag` 41…45, `other` 46…51.
    /// In UTF-8 bytes: `flag` 33…37, `unusedFlag` 38…48, `flag` 49…53, `other` 54…59.
    static let app = """
        import "🙂🙂🙂🙂.routes" flag unusedFlag flag other
        root {
          screen Smile
        }
        """

    static func workspace() throws -> FeatureWorkspace {
        try FeatureWorkspace([emojiFile: "/// Smiles.\nscreen Smile\n", "App.routes": app])
    }

    static let utf8Capabilities: JSONValue = ["general": ["positionEncodings": ["utf-8", "utf-16"]]]

    static let offers: [(JSONValue, String)] = [
        (JSONValue.object([:]), "utf-16"),
        (["general": ["positionEncodings": ["utf-16"]]], "utf-16"),
        (["general": ["positionEncodings": []]], "utf-16"),
        (["general": ["positionEncodings": ["utf-8", "utf-16"]]], "utf-8"),
        (["general": ["positionEncodings": ["utf-32", "utf-8"]]], "utf-8"),
    ]

    @Test(arguments: offers)
    func theNegotiatedEncodingIsInTheInitializeResult(capabilities: JSONValue, expected: String) throws {
        let session = try FeatureSession(try FeatureWorkspace(), capabilities: capabilities)
        defer { session.stop() }
        #expect(session.serverCapabilities?["positionEncoding"]?.stringValue == expected)
        try session.finish()
    }

    /// The unused flags' ranges, by name.
    static func unusedRanges(_ diagnostics: [JSONValue]?) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for d in diagnostics ?? [] where d["code"] == "unused-declaration" {
            for name in ["unusedFlag", "other"] where d["message"]?.stringValue?.contains("`\(name)`") == true {
                out[name] = d["range"]
            }
        }
        return out
    }

    /// `routes/preview` locations follow the negotiated encoding too.
    @Test(arguments: [true, false])
    func previewRangesUseTheNegotiatedEncoding(utf8: Bool) throws {
        let prefix = "import \"🙂🙂🙂🙂.routes\" root { "
        let workspace = try FeatureWorkspace([Self.emojiFile: "screen Smile\n", "App.routes": prefix + "screen Smile }\n"])
        let session = try FeatureSession(workspace, capabilities: utf8 ? Self.utf8Capabilities : [:])
        defer { session.stop() }
        try session.open("App.routes")
        let start = utf8 ? prefix.utf8.count : prefix.utf16.count
        let tree = try session.result("routes/preview", session.document("App.routes"))
        let screen = tree["tree"]?["children"]?.arrayValue?.first
        #expect(screen?["name"] == "Smile")
        #expect(screen?["location"]?["range"] == lspRange(0, start, 0, start + 12))
        let resolved = try session.result("routes/preview", session.document("App.routes", ["path": "Smile"]))
        #expect(resolved["tree"]?["elements"]?.arrayValue?.first?["node"]?["range"] == lspRange(0, start, 0, start + 12))
        try session.finish()
    }

    @Test func aClientOfferingUTF8GetsRangesInUTF8Bytes() throws {
        let workspace = try Self.workspace()
        let session = try FeatureSession(workspace, capabilities: Self.utf8Capabilities)
        defer { session.stop() }
        #expect(session.serverCapabilities?["positionEncoding"] == "utf-8")
        try session.open("App.routes")
        let diagnostics = try session.diagnostics("App.routes")
        #expect(Self.unusedRanges(diagnostics) == ["unusedFlag": lspRange(0, 38, 0, 48), "other": lspRange(0, 54, 0, 59)],
                "\(diagnostics ?? [])")
        // In: column 47 is inside `unusedFlag` in UTF-8 (inside `other` in UTF-16). Out: UTF-8.
        let references = try session.result("textDocument/references", session.at("App.routes", 0, 47,
                                                                                  ["context": ["includeDeclaration": true]]))
        #expect(references.arrayValue?.map { $0["range"] } == [lspRange(0, 38, 0, 48)])
        let hover = try session.result("textDocument/hover", session.at("App.routes", 0, 55))
        #expect(hover["range"] == lspRange(0, 54, 0, 59))
        #expect(hover["contents"]?["value"]?.stringValue?.contains("flag other") == true)
        // A change at a UTF-8 column: `x` in front of `unusedFlag`.
        let mark = session.mark
        session.change("App.routes", version: 2, [FeatureSession.edit(0, 38, 0, 38, "x")])
        let after = try session.diagnostics("App.routes", from: mark)
        #expect(after?.contains { $0["message"]?.stringValue?.contains("`xunusedFlag`") == true } == true, "\(after ?? [])")
        #expect(after?.first { $0["message"]?.stringValue?.contains("`xunusedFlag`") == true }?["range"] == lspRange(0, 38, 0, 49))
        // Completion's edit range is in UTF-8 too: `scr` typed at the end of line 0 is replaced.
        session.change("App.routes", version: 3, [FeatureSession.edit(0, 9_999, 0, 9_999, " scr")])
        try session.sync()
        let completion = try session.result("textDocument/completion", session.at("App.routes", 0, 64))
        let screenItem = completion["items"]?.arrayValue?.first { $0["label"] == "screen" }
        #expect(screenItem?["textEdit"]?["range"] == lspRange(0, 61, 0, 64), "\(completion)")
        try session.finish()
    }

    @Test func aClientWithoutUTF8GetsRangesInUTF16Units() throws {
        let workspace = try Self.workspace()
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        #expect(session.serverCapabilities?["positionEncoding"] == "utf-16")
        try session.open("App.routes")
        let diagnostics = try session.diagnostics("App.routes")
        #expect(Self.unusedRanges(diagnostics) == ["unusedFlag": lspRange(0, 30, 0, 40), "other": lspRange(0, 46, 0, 51)],
                "\(diagnostics ?? [])")
        // Column 47 is inside `other` in UTF-16.
        let references = try session.result("textDocument/references", session.at("App.routes", 0, 47,
                                                                                  ["context": ["includeDeclaration": true]]))
        #expect(references.arrayValue?.map { $0["range"] } == [lspRange(0, 46, 0, 51)])
        let hover = try session.result("textDocument/hover", session.at("App.routes", 0, 31))
        #expect(hover["range"] == lspRange(0, 30, 0, 40))
        let mark = session.mark
        session.change("App.routes", version: 2, [FeatureSession.edit(0, 30, 0, 30, "x")])
        let after = try session.diagnostics("App.routes", from: mark)
        #expect(after?.first { $0["message"]?.stringValue?.contains("`xunusedFlag`") == true }?["range"] == lspRange(0, 30, 0, 41),
                "\(after ?? [])")
        // The import string leads to the file with the emoji name.
        let definition = try session.result("textDocument/definition", session.at("App.routes", 0, 10))
        let target = definition.arrayValue?.first ?? definition
        #expect(FeatureWorkspace.path(ofURI: target["uri"]?.stringValue) == workspace.url(Self.emojiFile).path)
        try session.finish()
    }

    @Test(arguments: [false, true])
    func outOfRangePositionsAreClampedNotErrors(utf8: Bool) throws {
        let workspace = try Self.workspace()
        let session = try FeatureSession(workspace, capabilities: utf8 ? Self.utf8Capabilities : [:])
        defer { session.stop() }
        try session.open("App.routes")
        try session.sync()
        let huge = 1 << 40
        for (line, character) in [(999, 0), (0, 999), (2, 500), (999, 999), (huge, huge), (3, 2)] {
            for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion",
                           "textDocument/references", "textDocument/prepareRename"] {
                let response = try session.client.call(method, session.at("App.routes", line, character))
                #expect(response["error"] == nil, "\(method) at \(line):\(character): \(response)")
                #expect(response.objectValue?.keys.contains("result") == true)
            }
        }
        // Line 2 is `  screen Smile`: a column past its end is the end of the line, right after `Smile`.
        let definition = try session.result("textDocument/definition", session.at("App.routes", 2, 500))
        let target = definition.arrayValue?.first ?? definition
        #expect(FeatureWorkspace.path(ofURI: target["uri"]?.stringValue) == workspace.url(Self.emojiFile).path)
        #expect(target["range"] == lspRange(1, 7, 1, 12))

        // Changes: a line past the end is the end of the text, a character past the end of its
        // line the end of that line.
        let mark = session.mark
        session.change("App.routes", version: 2, [
            FeatureSession.edit(0, 9_999, 0, 9_999, " flag third"),
            FeatureSession.edit(9_999, 3, 9_999, 3, "\nflag fourth\n"),
            FeatureSession.edit(1, 100, 1, 200, " "),  // an empty range past the end of `root {`
        ])
        let after = try session.diagnostics("App.routes", from: mark)
        func rangeOf(_ name: String) -> JSONValue? {
            after?.first { $0["message"]?.stringValue?.contains("`\(name)`") == true }?["range"]
        }
        let endOfLine0 = utf8 ? 59 : 51
        #expect(rangeOf("third") == lspRange(0, endOfLine0 + 6, 0, endOfLine0 + 11), "\(after ?? [])")
        #expect(rangeOf("fourth") == lspRange(4, 5, 4, 11), "\(after ?? [])")
        #expect(!ruleCodes(after).contains("syntax-error"), "\(after ?? [])")
        try session.finish()
    }
}
