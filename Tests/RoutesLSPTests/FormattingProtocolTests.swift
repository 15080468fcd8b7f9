import Foundation
import RoutesJSON
import Testing

/// `textDocument/formatting`, `rangeFormatting` and `onTypeFormatting` over real pipes
/// (docs/formatting.md): the edits, applied as an editor applies them, give the text
/// `routes fmt` gives; bad params get -32602; a file that cannot be formatted gets -32803.
@Suite("Feature: formatting")
struct FormattingProtocolTests {
    static let messy = """
        screen   Home
        screen Detail( id:String )   sheet
        dependency appStore :AppStore // the store
        flag isLoggedIn


        root {
        screen Home uses appStore {
              anyOf { screen Detail
          screen Home }
            }
        }
        builder other { conditional isLoggedIn { screen Home } else { empty } }

        """

    static let formatted = """
        screen Home
        screen Detail(id: String) sheet
        dependency appStore: AppStore // the store
        flag isLoggedIn

        root {
          screen Home uses appStore {
            anyOf {
              screen Detail
              screen Home
            }
          }
        }
        builder other { conditional isLoggedIn { screen Home } else { empty } }

        """

    static let options: JSONValue = ["tabSize": 4, "insertSpaces": true]

    /// `text` with LSP text edits applied (positions in UTF-16 code units, or UTF-8 bytes).
    static func apply(_ edits: JSONValue?, to text: String, utf8: Bool = false) -> String {
        var units: [UInt16] = Array(text.utf16)
        var bytes: [UInt8] = Array(text.utf8)
        func offset(_ p: JSONValue?) -> Int {
            let line = Int(p?["line"]?.intValue ?? 0), character = Int(p?["character"]?.intValue ?? 0)
            var l = 0, i = 0
            let newline: Int = 0x0A
            let count = utf8 ? bytes.count : units.count
            while l < line && i < count {
                if (utf8 ? Int(bytes[i]) : Int(units[i])) == newline { l += 1 }
                i += 1
            }
            return i + character
        }
        let list = (edits?.arrayValue ?? []).map { (offset($0["range"]?["start"]), offset($0["range"]?["end"]), $0["newText"]?.stringValue ?? "") }
        // Sorted, none overlapping; applied from the last.
        for (a, b) in zip(list, list.dropFirst()) { #expect(a.1 <= b.0, "edits overlap or are out of order: \(list)") }
        for (start, end, new) in list.reversed() {
            if utf8 { bytes.replaceSubrange(start..<end, with: Array(new.utf8)) } else { units.replaceSubrange(start..<end, with: Array(new.utf16)) }
        }
        return utf8 ? String(decoding: bytes, as: UTF8.self) : String(decoding: units, as: UTF16.self)
    }

    @Test func initializeAnnouncesFormatting() throws {
        let session = try FeatureSession(try FeatureWorkspace())
        defer { session.stop() }
        let capabilities = session.serverCapabilities
        #expect(capabilities?["documentFormattingProvider"] == true)
        #expect(capabilities?["documentRangeFormattingProvider"] == true)
        #expect(capabilities?["documentOnTypeFormattingProvider"]?["firstTriggerCharacter"] == "}")
        try session.finish()
    }

    @Test func formattingEditsGiveTheCanonicalText() throws {
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": Self.messy]))
        defer { session.stop() }
        try session.open("App.routes")
        let edits = try session.result("textDocument/formatting", session.document("App.routes", ["options": Self.options]))
        // Small edits (the runs of whitespace that change), not one edit of the whole text.
        #expect((edits.arrayValue?.count ?? 0) > 3)
        for e in edits.arrayValue ?? [] { #expect((e["newText"]?.stringValue ?? "").allSatisfy { $0 == " " || $0 == "\n" }, "\(e)") }
        let after = Self.apply(edits, to: Self.messy)
        #expect(after == Self.formatted)
        // Applied: nothing more to do.
        session.change("App.routes", version: 2, [FeatureSession.fullText(after)])
        let again = try session.result("textDocument/formatting", session.document("App.routes", ["options": Self.options]))
        #expect(again.arrayValue == [])
        try session.finish()
    }

    @Test func editsUseTheNegotiatedEncoding() throws {
        let text = "// 😀 é\nscreen   Home // 😀\nroot {   screen Home }\n"
        for utf8 in [false, true] {
            let capabilities: JSONValue = utf8 ? ["general": ["positionEncodings": ["utf-8"]]] : [:]
            let session = try FeatureSession(try FeatureWorkspace(["App.routes": text]), capabilities: capabilities)
            defer { session.stop() }
            try session.open("App.routes")
            let edits = try session.result("textDocument/formatting", session.document("App.routes", ["options": Self.options]))
            #expect(Self.apply(edits, to: text, utf8: utf8) == "// 😀 é\nscreen Home // 😀\nroot { screen Home }\n")
            try session.finish()
        }
    }

    @Test func rangeFormattingChangesOnlyTheDeclarationsInTheRange() throws {
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": Self.messy]))
        defer { session.stop() }
        try session.open("App.routes")
        // The second line only.
        let edits = try session.result("textDocument/rangeFormatting", session.document("App.routes", [
            "range": lspRange(1, 3, 1, 5), "options": Self.options,
        ]))
        let lines = Self.apply(edits, to: Self.messy).split(separator: "\n", omittingEmptySubsequences: false)
        let before = Self.messy.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "screen Detail(id: String) sheet")
        #expect(lines[0] == before[0] && Array(lines[2...]) == Array(before[2...]))
        // The root declaration, from a range inside it.
        let root = try session.result("textDocument/rangeFormatting", session.document("App.routes", [
            "range": lspRange(8, 8, 8, 9), "options": Self.options,
        ]))
        let formatted = Self.apply(root, to: Self.messy)
        #expect(formatted.contains("root {\n  screen Home uses appStore {\n    anyOf {\n      screen Detail\n      screen Home\n    }\n  }\n}\n"))
        #expect(formatted.hasPrefix("screen   Home\n"))
        try session.finish()
    }

    @Test func typingAClosingBraceFormatsTheBlockItCloses() throws {
        let text = "screen Home\nscreen Detail\nroot {\nscreen Home {\n anyOf { screen Detail\n screen Home\n}\n}\n}\n"
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": text]))
        defer { session.stop() }
        try session.open("App.routes")
        // After the `}` of line 6 (the `anyOf`'s): the anyOf's lines only.
        let edits = try session.result("textDocument/onTypeFormatting", session.at("App.routes", 6, 1, ["ch": "}", "options": Self.options]))
        #expect(Self.apply(edits, to: text) == "screen Home\nscreen Detail\nroot {\nscreen Home {\n    anyOf {\n      screen Detail\n      screen Home\n    }\n}\n}\n")
        // After the last `}`: the whole `root`.
        let root = try session.result("textDocument/onTypeFormatting", session.at("App.routes", 8, 1, ["ch": "}", "options": Self.options]))
        #expect(Self.apply(root, to: text) == "screen Home\nscreen Detail\nroot {\n  screen Home {\n    anyOf {\n      screen Detail\n      screen Home\n    }\n  }\n}\n")
        // Another character, or no `}` before the position: nothing.
        #expect(try session.result("textDocument/onTypeFormatting", session.at("App.routes", 8, 1, ["ch": "\n", "options": Self.options])).arrayValue == [])
        #expect(try session.result("textDocument/onTypeFormatting", session.at("App.routes", 3, 6, ["ch": "}", "options": Self.options])).arrayValue == [])
        try session.finish()
    }

    @Test func linesWithSyntaxErrorsAreLeftAlone() throws {
        let text = "screen   Home\nflag   f = true\nroot {   screen Home }\n"
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": text]))
        defer { session.stop() }
        try session.open("App.routes")
        let edits = try session.result("textDocument/formatting", session.document("App.routes", ["options": Self.options]))
        #expect(Self.apply(edits, to: text) == "screen Home\nflag   f = true\nroot { screen Home }\n")
        try session.finish()
    }

    @Test func aFileThatCannotBeFormattedGetsRequestFailed() throws {
        let workspace = try FeatureWorkspace(["App.routes": "screen Home\nroot { screen Home }\n"])
        // Not UTF-8: the formatter will not write back bytes it cannot read.
        try Data([0x73, 0x63, 0x72, 0x65, 0x65, 0x6E, 0x20, 0x41, 0x20, 0x2F, 0x2F, 0x20, 0xFF, 0x0A]).write(to: workspace.url("Bad.routes"))
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let response = try session.client.call("textDocument/formatting", session.document("Bad.routes", ["options": Self.options]))
        #expect(response["error"]?["code"] == -32803, "\(response)")
        #expect(response["error"]?["message"]?.stringValue?.contains("UTF-8") == true)
        try session.finish()
    }

    /// Ways to spoil each method's params, each with a name.
    static func spoiled(_ method: String, _ uri: String) -> [(String, JSONValue?)] {
        var good: JSONObject = ["textDocument": ["uri": .string(uri)], "options": options]
        if method == "textDocument/rangeFormatting" { good["range"] = lspRange(0, 0, 1, 0) }
        if method == "textDocument/onTypeFormatting" {
            good["position"] = ["line": 1, "character": 1]
            good["ch"] = "}"
        }
        func with(_ key: String, _ value: JSONValue?) -> JSONValue {
            var params = good
            params[key] = value
            return .object(params)
        }
        var cases: [(String, JSONValue?)] = [
            ("no params", nil),
            ("an array", [.object(good)]),
            ("no textDocument", with("textDocument", nil)),
            ("uri a number", with("textDocument", ["uri": 7])),
            ("an unknown document", with("textDocument", ["uri": "file:///no/such/dir/Unknown.routes"])),
            ("not a file URI", with("textDocument", ["uri": "https://example.com/App.routes"])),
            ("options a string", with("options", "tabs")),
            ("tabSize negative", with("options", ["tabSize": -2, "insertSpaces": true])),
            ("insertSpaces a string", with("options", ["tabSize": 2, "insertSpaces": "yes"])),
        ]
        if method == "textDocument/rangeFormatting" {
            cases += [
                ("no range", with("range", nil)),
                ("range a string", with("range", "all")),
                ("range without end", with("range", ["start": ["line": 0, "character": 0]])),
                ("negative line", with("range", lspRange(-1, 0, 0, 0))),
                ("end before start", with("range", lspRange(2, 0, 1, 0))),
            ]
        }
        if method == "textDocument/onTypeFormatting" {
            cases += [
                ("no position", with("position", nil)),
                ("position without character", with("position", ["line": 1])),
                ("negative character", with("position", ["line": 1, "character": -1])),
                ("no ch", with("ch", nil)),
                ("ch a number", with("ch", 125)),
            ]
        }
        return cases
    }

    @Test(arguments: ["textDocument/formatting", "textDocument/rangeFormatting", "textDocument/onTypeFormatting"])
    func badParamsGetInvalidParamsAndTheServerGoesOn(method: String) throws {
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": Self.messy]))
        defer { session.stop() }
        try session.open("App.routes")
        let uri = session.workspace.uri("App.routes")
        for (name, params) in Self.spoiled(method, uri) {
            let response = try session.client.call(method, params)
            #expect(response["error"]?["code"] == -32602, "\(method) with \(name): \(response)")
            #expect(response["result"] == nil, "\(method) with \(name)")
        }
        // Options may be left out; good params still work.
        let ok = try session.client.call(method, Self.spoiled(method, uri)[1].1?.arrayValue?.first.map { p -> JSONValue in
            var o = p.objectValue ?? [:]
            o["options"] = nil
            return .object(o)
        })
        #expect(ok["error"] == nil, "\(method): \(ok)")
        let ids = session.client.responses.compactMap { $0["id"] }
        #expect(ids.count == Set(ids).count)
        try session.finish()
    }
}
