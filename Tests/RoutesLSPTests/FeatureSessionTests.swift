import Foundation
import RoutesJSON
import Testing
import TestSupport

/// Text synchronization and `publishDiagnostics`, over real pipes: what is published on open,
/// change (incremental and full) and close, with which fields, and for which documents.
@Suite("Feature: document sync and diagnostics")
struct FeatureSessionTests {
    static let library = """
        /// A screen every program shares.
        screen Shared
        /// The API client.
        dependency api: API
        flag beta

        """

    static let app = """
        import "Library.routes"

        /// The first screen.
        screen Home
        screen Home
        screen Shared
        flag unusedFlag

        root {
          anyOf {
            screen Home uses api
            screen Missing
          }
        }

        """

    @Test func didOpenPublishesDiagnosticsWithVersionCodeSourceSeverityRelatedInformationAndTags() throws {
        let workspace = try FeatureWorkspace(["Library.routes": Self.library, "App.routes": Self.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes", version: 7)
        let published = try #require(try session.lastPublication("App.routes"))
        #expect(published["version"] == 7)
        #expect(FeatureWorkspace.path(ofURI: published["uri"]?.stringValue) == workspace.url("App.routes").path)
        #expect(published["uri"]?.stringValue == workspace.uri("App.routes"), "the document's own URI is echoed")
        let diagnostics = try #require(published["diagnostics"]?.arrayValue)
        #expect(diagnostics.allSatisfy { $0["source"] == "routes" })
        #expect(Set(ruleCodes(diagnostics)) == ["duplicate-declaration", "unused-declaration", "undefined-name"])

        func find(_ code: String, _ message: String) -> JSONValue? {
            diagnostics.first { $0["code"]?.stringValue == code && $0["message"]?.stringValue?.contains(message) == true }
        }
        // duplicate-declaration in the same file: the later name, related to the first.
        let home = try #require(find("duplicate-declaration", "Home"))
        #expect(home["severity"] == 1)
        #expect(home["range"] == lspRange(4, 7, 4, 11))
        let homeRelated = try #require(home["relatedInformation"]?.arrayValue?.first)
        #expect(homeRelated["location"]?["uri"]?.stringValue == workspace.uri("App.routes"))
        #expect(homeRelated["location"]?["range"] == lspRange(3, 7, 3, 11))
        #expect(homeRelated["message"]?.stringValue?.isEmpty == false)
        // duplicate-declaration across files: related to the library (not open) by its URI.
        let shared = try #require(find("duplicate-declaration", "Shared"))
        #expect(shared["range"] == lspRange(5, 7, 5, 13))
        let sharedRelated = try #require(shared["relatedInformation"]?.arrayValue?.first)
        #expect(FeatureWorkspace.path(ofURI: sharedRelated["location"]?["uri"]?.stringValue)
                == workspace.url("Library.routes").path)
        #expect(sharedRelated["location"]?["range"] == lspRange(1, 7, 1, 13))
        #expect(sharedRelated["message"]?.stringValue?.contains("Shared") == true)
        // unused-declaration: a warning tagged unnecessary (1); nothing else is tagged.
        let unused = try #require(find("unused-declaration", "unusedFlag"))
        #expect(unused["severity"] == 2)
        #expect(unused["range"] == lspRange(6, 5, 6, 15))
        #expect(unused["tags"] == [1])
        #expect(diagnostics.filter { $0["tags"] != nil }.count == 1)
        // undefined-name: an error at the name.
        let missing = try #require(find("undefined-name", "Missing"))
        #expect(missing["severity"] == 1)
        #expect(missing["range"] == lspRange(11, 11, 11, 18))
        try session.finish()
    }

    @Test func incrementalChangesInOneNotificationApplyInOrderAndAreRepublishedWithTheNewVersion() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes")
        let workspace = try FeatureWorkspace(["App.routes": seed])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes", version: 1)
        #expect(try session.diagnostics("App.routes") == [])

        // Each change's positions refer to the text left by the changes before it.
        let settings = lspPosition(of: "screen Settings uses", in: seed, delta: 7)  // 48:17
        let mark = session.mark
        session.change("App.routes", version: 2, [
            // `Settings` → `Prefs` (undefined) in the anyOf.
            FeatureSession.edit(settings.line, settings.character, settings.line, settings.character + 8, "Prefs"),
            // two lines in front (one with an emoji): every line moves down by 2 …
            FeatureSession.edit(0, 0, 0, 0, "// 🙂 a note\n// another\n"),
            // … then the old first line goes: a net move of 1.
            FeatureSession.edit(2, 0, 3, 0, ""),
            // A multi-line replacement of `Login`'s line, also moved by one line.
            FeatureSession.edit(59, 20, 61, 0, "\n      screen Login\n        uses loginStore, ghost\n"),
        ])
        let published = try #require(try session.lastPublication("App.routes", from: mark))
        #expect(published["version"] == 2)
        let diagnostics = try #require(published["diagnostics"]?.arrayValue)
        let undefined = diagnostics.filter { $0["code"] == "undefined-name" }
        #expect(undefined.map { $0["range"] } == [lspRange(settings.line + 1, 17, settings.line + 1, 22), lspRange(61, 25, 61, 30)],
                "\(diagnostics)")
        #expect(undefined.first?["message"]?.stringValue?.contains("Prefs") == true)
        #expect(undefined.last?["message"]?.stringValue?.contains("ghost") == true)

        // A full-text change (versions need not be consecutive).
        let login = lspPosition(of: "uses loginStore", in: seed, delta: 5)
        let full = seed.replacingOccurrences(of: "uses loginStore", with: "uses nobody")
        let fullMark = session.mark
        session.change("App.routes", version: 5, [FeatureSession.fullText(full)])
        let republished = try #require(try session.lastPublication("App.routes", from: fullMark))
        #expect(republished["version"] == 5)
        let after = try #require(republished["diagnostics"]?.arrayValue)
        #expect(Set(ruleCodes(after)) == ["undefined-name", "unused-declaration"])
        #expect(after.first { $0["code"] == "undefined-name" }?["range"]
                == lspRange(login.line, login.character, login.line, login.character + 6))

        // An incremental change after the full one, and back to the seed: clean again.
        let backMark = session.mark
        session.change("App.routes", version: 6, [
            FeatureSession.edit(login.line, login.character, login.line, login.character + 6, "loginStore"),
        ])
        let back = try #require(try session.lastPublication("App.routes", from: backMark))
        #expect(back["version"] == 6 && back["diagnostics"] == [])
        // The server's text is the seed again: its preview is the seed's tree.
        let preview = try session.result("routes/preview", session.document("App.routes"))
        #expect(preview["text"]?.stringValue == FeaturePreviewTests.seedTree)
        try session.finish()
    }

    /// Edits inside comments and whitespace take the server's fast way (the analysis is kept,
    /// positions move): what it publishes must be what a fresh open of the same text gives.
    @Test func editsInCommentsAndWhitespacePublishWhatAFreshOpenWould() throws {
        let text = """
            screen Home   // the landing screen
            screen Settings
            dependency store: Store from Home
            flag unused
            root {
              anyOf {
                screen Home
                anyOf {   // a second way
                  screen Home uses store
                  screen Settings uses store
                }
              }
            }

            """
        let workspace = try FeatureWorkspace(["App.routes": text])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        var current = text
        var version = 1
        // (line, character, inserted text): into comments (also non-ASCII), into indentation,
        // a blank line, then a comment emptied.
        let edits: [(Int, Int, String)] = [(0, 20, "main "), (7, 16, " 🙂 way"), (8, 0, "  "), (4, 6, "\n"), (0, 17, "")]
        for (line, character, insert) in edits {
            let at = lspPosition(of: current.components(separatedBy: "\n")[line], in: current)
            var lines = current.components(separatedBy: "\n")
            let utf16 = Array(lines[line].utf16)
            let prefix = String(decoding: utf16[..<min(character, utf16.count)], as: UTF16.self)
            let suffix = String(decoding: utf16[min(character, utf16.count)...], as: UTF16.self)
            lines[line] = prefix + insert + suffix
            current = lines.joined(separator: "\n")
            version += 1
            let mark = session.mark
            session.change("App.routes", version: version, [FeatureSession.edit(at.line, character, at.line, character, insert)])
            let published = try #require(try session.diagnostics("App.routes", from: mark))
            let fresh = try FeatureSession(try FeatureWorkspace(["App.routes": current]))
            defer { fresh.stop() }
            try fresh.open("App.routes")
            let expected = try #require(try fresh.diagnostics("App.routes"))
            // Same diagnostics, ranges and related ranges (the related URIs name other folders).
            func strip(_ list: [JSONValue]) -> [String] {
                list.map { d in
                    "\(d["code"] ?? .null) \(d["range"] ?? .null) \(d["message"] ?? .null) \((d["relatedInformation"]?.arrayValue ?? []).map { "\($0["location"]?["range"] ?? .null) \($0["message"] ?? .null)" })"
                }
            }
            #expect(published.count >= 2)
            #expect(strip(published) == strip(expected), "after inserting \(insert.debugDescription) at \(line):\(character)")
            try fresh.finish()
        }
        #expect(!current.isEmpty)
        try session.finish()
    }

    /// An analysis over its limit is an `analysis-limit` error at the program's `root`, beside
    /// the diagnostics that need no analysis; an edit that untangles the conditions brings the
    /// full analysis back.
    @Test func anAnalysisOverItsLimitIsAnErrorAtTheRoot() throws {
        let last = ["screen A", "screen Nope"]
        let text = entangledRoutes(pairs: 24, last: last)
        let workspace = try FeatureWorkspace(["App.routes": text])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes")
        let diagnostics = try #require(try session.lastPublication("App.routes")?["diagnostics"]?.arrayValue)
        let limit = try #require(diagnostics.first { $0["code"] == "analysis-limit" })
        #expect(limit["severity"] == 1)
        let root = 2 + 2 * 24
        #expect(limit["range"] == lspRange(root, 0, root, 4))
        #expect(limit["message"]?.stringValue?.hasPrefix("the analysis of this program stopped at its limit of \(1 << 21) decision-diagram nodes") == true)
        #expect(ruleCodes(diagnostics) == ["analysis-limit", "undefined-name"], "what needs no analysis is still reported")
        session.change("App.routes", version: 2, [FeatureSession.fullText(untangledRoutes(pairs: 24, last: last))])
        _ = try session.sync()
        let after = try #require(try session.lastPublication("App.routes")?["diagnostics"]?.arrayValue)
        #expect(!ruleCodes(after).contains("analysis-limit"), "the analysis finishes: \(after)")
        #expect(ruleCodes(after).contains("undefined-name"))
        #expect(ruleCodes(after).contains("unreachable-screen"), "`B` is no longer placed: the analysis's own finding")
    }

    /// The limit forced low (`ROUTES_ANALYSIS_NODE_LIMIT`): the server publishes what the CLI
    /// prints, the limit at `root` and the unused flag, and no missing dependency.
    @Test func aLimitForcedLowIsPublishedAsTheCLIPrintsIt() throws {
        let text = "screen P\nscreen X\ndependency d: D from P\nflag unusedFlag\nroot {\n  anyOf {\n    screen X uses d\n    screen P\n  }\n}\n"
        let workspace = try FeatureWorkspace(["App.routes": text])
        let session = try FeatureSession(workspace, environment: ["ROUTES_ANALYSIS_NODE_LIMIT": "3"])
        defer { session.stop() }
        try session.open("App.routes")
        let diagnostics = try #require(try session.lastPublication("App.routes")?["diagnostics"]?.arrayValue)
        #expect(ruleCodes(diagnostics) == ["unused-declaration", "analysis-limit"], "in position order")
        let limit = try #require(diagnostics.first { $0["code"] == "analysis-limit" })
        #expect(limit["range"] == lspRange(4, 0, 4, 4))
        #expect(limit["message"]?.stringValue?.hasPrefix("the analysis of this program stopped at its limit of 3 decision-diagram nodes (or 96 steps)") == true)
        try session.finish()
    }

    @Test func didClosePublishesAnEmptyListForThatDocumentOnly() throws {
        let broken = "root {\n  screen Nowhere\n}\n"
        let workspace = try FeatureWorkspace(["A.routes": broken, "B.routes": broken])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("A.routes")
        try session.open("B.routes")
        #expect(ruleCodes(try session.diagnostics("A.routes")) == ["undefined-name"])
        #expect(ruleCodes(try session.diagnostics("B.routes")) == ["undefined-name"])

        let mark = session.mark
        session.close("A.routes")
        let closed = try session.publications("A.routes", from: mark, upTo: session.sync())
        #expect(closed.count == 1, "one publication for the closed document")
        #expect(closed.first?["diagnostics"] == [])
        #expect(closed.first?["uri"]?.stringValue == workspace.uri("A.routes"))

        // Later changes to B publish nothing more for A.
        let later = session.mark
        session.change("B.routes", version: 2, [FeatureSession.edit(1, 9, 1, 16, "Elsewhere")])
        let b = try #require(try session.lastPublication("B.routes", from: later))
        #expect(b["version"] == 2)
        #expect(b["diagnostics"]?[0]?["message"]?.stringValue?.contains("Elsewhere") == true)
        #expect(session.publications("A.routes", from: later).isEmpty)
        try session.finish()
    }

    @Test func editingAnOpenLibraryRepublishesItsOpenImporter() throws {
        let workspace = try FeatureWorkspace(["Library.routes": FeatureWorkspaceTests.library,
                                              "App.routes": FeatureWorkspaceTests.app])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open("App.routes", version: 3)
        try session.open("Library.routes", version: 1)
        #expect(try session.diagnostics("App.routes") == [])

        // Remove `dependency api: API` from the library (line 3): the program's `uses api` breaks.
        var mark = session.mark
        session.change("Library.routes", version: 2, [FeatureSession.edit(3, 0, 4, 0, "")])
        let app = try #require(try session.lastPublication("App.routes", from: mark))
        #expect(app["version"] == 3, "the importer keeps its own version")
        #expect(ruleCodes(app["diagnostics"]?.arrayValue) == ["undefined-name"])
        let library = try #require(session.publications("Library.routes", from: mark).last)
        #expect(library["version"] == 2)

        // Undo: both clean again.
        mark = session.mark
        session.change("Library.routes", version: 3, [FeatureSession.edit(3, 0, 3, 0, "dependency api: API\n")])
        #expect(try session.diagnostics("App.routes", from: mark) == [])
        #expect(session.publications("Library.routes", from: mark).last?["version"] == 3)
        try session.finish()
    }

    /// Programs not touched by an edit keep their analysis, and so their diagnostics, which
    /// must have moved with every earlier edit that kept the analysis (a comment typed in
    /// one program, then another document opened: the warning stayed five bytes early).
    @Test func aProgramKeptAcrossEditsShowsItsDiagnosticsWhereTheyAre() throws {
        let workspace = try FeatureWorkspace(["App.routes": "// c\nflag isOn\nroot { empty }\n",
                                              "Other.routes": "screen Other\nroot { screen Other }\n"])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        func warningRange() throws -> JSONValue? {
            try session.diagnostics("App.routes")?.first { $0["code"]?.stringValue == "unused-declaration" }?["range"]
        }
        try session.open("App.routes")
        let expected: JSONValue = ["start": ["line": 1, "character": 5], "end": ["line": 1, "character": 9]]
        #expect(try warningRange() == expected)
        session.change("App.routes", version: 2, [FeatureSession.edit(0, 4, 0, 4, " more")])
        _ = try session.sync()
        #expect(try warningRange() == expected)
        // Another program changes: App's analysis is kept, and published again where it is.
        try session.open("Other.routes")
        var mark = session.mark
        session.change("Other.routes", version: 2, [FeatureSession.edit(0, 12, 0, 12, "2")])
        _ = try session.sync()
        let app = try #require(try session.lastPublication("App.routes", from: mark))
        #expect(app["diagnostics"]?[0]?["range"] == expected)
        // And a parameter label written twice, then once, in an edit that keeps the analysis.
        mark = session.mark
        session.change("Other.routes", version: 3, [FeatureSession.edit(0, 13, 0, 13, "(id: Int, id: Int)")])
        #expect(ruleCodes(try session.diagnostics("Other.routes", from: mark)).contains("duplicate-declaration"))
        mark = session.mark
        session.change("Other.routes", version: 4, [FeatureSession.edit(0, 21, 0, 30, "")])
        #expect(!ruleCodes(try session.diagnostics("Other.routes", from: mark)).contains("duplicate-declaration"))
        try session.finish()
    }

    @Test func changesToADocumentThatIsNotOpenAndMalformedNotificationsAreIgnored() throws {
        let workspace = try FeatureWorkspace(["App.routes": "root {\n  empty\n}\n"])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        let mark = session.mark
        session.change("Other.routes", version: 2, [FeatureSession.edit(0, 0, 0, 0, "junk")])
        session.client.notify("textDocument/didOpen", ["textDocument": ["uri": 42]])
        session.client.notify("textDocument/didOpen", [:])
        session.client.notify("textDocument/didChange", ["textDocument": "App.routes", "contentChanges": 3])
        session.client.notify("textDocument/didClose", ["textDocument": []])
        session.client.notify("workspace/didChangeWatchedFiles", ["changes": "all"])
        try session.sync()
        #expect(session.publications("Other.routes", from: mark).isEmpty)
        try session.open("App.routes")
        #expect(try session.diagnostics("App.routes") == [])
        try session.finish()
    }

    @Test func crlfAndLoneCRLineEndingsGiveTheSameRangesAsLF() throws {
        let seed = try FeatureWorkspace.example("Seed/App.routes").replacingOccurrences(of: "uses loginStore", with: "uses nobody")
        let workspace = try FeatureWorkspace([
            "LF.routes": seed,
            "CRLF.routes": seed.replacingOccurrences(of: "\n", with: "\r\n"),
            "CR.routes": seed.replacingOccurrences(of: "\n", with: "\r"),
        ])
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        for name in ["LF", "CRLF", "CR"] { try session.open("\(name).routes") }
        let lf = try #require(try session.diagnostics("LF.routes"))
        #expect(Set(ruleCodes(lf)) == ["undefined-name", "unused-declaration"])
        #expect(try session.diagnostics("CRLF.routes") == lf)
        #expect(try session.diagnostics("CR.routes") == lf)
        // A change at the end of a CRLF line (a character past it is clamped before the `\r`).
        let at = lspPosition(of: "uses nobody", in: seed)
        for name in ["LF", "CRLF", "CR"] {
            let mark = session.mark
            session.change("\(name).routes", version: 2, [FeatureSession.edit(at.line, 999, at.line, 999, ", ghost")])
            let after = try session.diagnostics("\(name).routes", from: mark)
            let ghost = after?.first { $0["message"]?.stringValue?.contains("ghost") == true }
            #expect(ghost?["range"] == lspRange(at.line, at.character + 13, at.line, at.character + 18), "\(name)")
            #expect(!ruleCodes(after).contains("syntax-error"), "\(name)")
        }
        try session.finish()
    }
}
