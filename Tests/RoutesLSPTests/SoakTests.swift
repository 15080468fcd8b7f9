import TestSupport
import Foundation
import RoutesJSON
@testable import RoutesLSP
import Testing

// Thousands of seeded random incremental edits to one open document of the shop app, with a
// client-side copy of the text kept by the same rules (LSP 3.17: positions in the negotiated
// encoding, a character past the end of its line is the end of the line, a line past the end
// is the end of the text). Then the server must agree with a fresh session on the final text.
//
// `ROUTES_SOAK_EDITS` sets the number of edits (default 3000 over pipes, 1500 per encoding in
// process), `ROUTES_SOAK_SEED` the seed.

/// The soak's draws, on the shared seeded generator.
struct SoakRandom: RandomNumberGenerator {
    private var base: SplitMix64
    init(seed: UInt64) { base = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { base.next() }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0 ..< 1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0 ... items.count - 1)] }
}

/// The client's copy of a document, edited as LSP says a server edits it.
struct SoakText {
    enum Encoding { case utf16, utf8 }
    let encoding: Encoding
    private(set) var scalars: [Unicode.Scalar]
    /// Scalar indices where lines start (after `\n`, `\r\n` or a lone `\r`).
    private(set) var lineStarts: [Int] = [0]

    init(_ text: String, encoding: Encoding) {
        self.encoding = encoding
        scalars = Array(text.unicodeScalars)
        index()
    }

    var text: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    var lineCount: Int { lineStarts.count }

    private mutating func index() {
        lineStarts = [0]
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\r" {
                if i + 1 < scalars.count && scalars[i + 1] == "\n" { i += 1 }
                lineStarts.append(i + 1)
            } else if scalars[i] == "\n" {
                lineStarts.append(i + 1)
            }
            i += 1
        }
    }

    func units(_ s: Unicode.Scalar) -> Int {
        encoding == .utf16 ? s.utf16.count : s.utf8.count
    }

    /// The scalar index where line `line`'s content ends (before its terminator).
    func lineEnd(_ line: Int) -> Int {
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : scalars.count
        while end > lineStarts[line] && (scalars[end - 1] == "\n" || scalars[end - 1] == "\r") { end -= 1 }
        return end
    }

    /// The length of a line's content in the encoding's units.
    func lineLength(_ line: Int) -> Int {
        scalars[lineStarts[line] ..< lineEnd(line)].reduce(0) { $0 + units($1) }
    }

    /// The scalar index of an LSP position, clamped.
    func offset(line: Int, character: Int) -> Int {
        guard line < lineStarts.count else { return scalars.count }
        let end = lineEnd(line)
        var i = lineStarts[line], counted = 0
        while i < end {
            let u = units(scalars[i])
            if counted + u > character { break }
            counted += u
            i += 1
        }
        return i
    }

    /// The LSP position of a scalar index.
    func position(_ offset: Int) -> (line: Int, character: Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let end = min(offset, lineEnd(lo))
        return (lo, scalars[lineStarts[lo] ..< end].reduce(0) { $0 + units($1) })
    }

    mutating func apply(_ edit: SoakEdit) {
        let start = offset(line: edit.startLine, character: edit.startCharacter)
        let end = offset(line: edit.endLine, character: edit.endCharacter)
        precondition(start <= end, "the generator makes no reversed ranges")
        scalars.replaceSubrange(start ..< end, with: Array(edit.text.unicodeScalars))
        index()
    }
}

struct SoakEdit: CustomStringConvertible {
    var startLine: Int, startCharacter: Int, endLine: Int, endCharacter: Int
    var text: String

    var json: JSONValue { FeatureSession.edit(startLine, startCharacter, endLine, endCharacter, text) }

    var description: String {
        "\(startLine):\(startCharacter)-\(endLine):\(endCharacter) → \(text.debugDescription)"
    }
}

/// Makes random edits to a ``SoakText``: insertions, deletions and replacements, multi-line
/// and non-ASCII text, some positions out of range. Never a reversed range.
struct SoakEditor {
    var random: SoakRandom
    let original: [String]
    let originalSize: Int

    init(seed: UInt64, original: String) {
        random = SoakRandom(seed: seed)
        self.original = original.components(separatedBy: "\n")
        originalSize = original.unicodeScalars.count
    }

    static let pieces = [
        "screen ", "Shop", "Cart", "Browse", "WebPage", "Welcome", " uses ", "analytics", "apiClient", ", ",
        "cartStore", "{", "}", "{\n", "\n}", "\n", "  ", "    ", "\t", "anyOf {\n", "conditional isLoggedIn {\n",
        "} else {\n", "if let activePromotion ", "if screen Cart ", "wildcard Shop ", "empty", "tabs", "browse",
        "signIn", "root {", "builder b ", "flag f", "dependency d: D", "optional o: O from Shop", "import \"Shared.routes\"",
        "import \"App.routes\"", "\"", "//", "/// doc 🙂\n", "// é ü 日本語\n", "é", "🙂", "👩‍👩‍👧", "日本語", "\r\n", "\r",
        "(url: \"x\")", "sheet", "sheet(allowsPush: false)", "push", " ", "=", "\u{2028}", "\u{0}", "\u{FEFF}", "𝔸",
    ]

    /// Set while the text is much shorter than the original: more of the original comes back.
    var growing = false

    mutating func insertText() -> String {
        if random.chance(growing ? 0.4 : 0.06) {
            // A few lines of the original program, so that declarations keep coming back.
            let start = random.int(0 ... original.count - 1)
            let end = min(original.count, start + random.int(1 ... 8))
            return original[start ..< end].joined(separator: "\n") + "\n"
        }
        return (0 ..< random.int(1 ... 3)).map { _ in random.pick(Self.pieces) }.joined()
    }

    /// One edit of `text`.
    mutating func edit(_ text: SoakText) -> SoakEdit {
        let count = text.scalars.count
        // Keep the text around the original's size: longer deletions when it has grown, shorter
        // ones and more of the original when it has shrunk.
        let size = count > 2 * originalSize ? 2.0 : count < originalSize / 2 ? 0.3 : 1.0
        growing = count < originalSize / 2
        func length() -> Int {
            let r = random.int(0 ... 99)
            return r < 70 ? random.int(1 ... 10) : r < 95 ? random.int(10 ... 80) : random.int(80 ... 400)
        }
        let start = random.int(0 ... count)
        let s = text.position(start)
        let roll = random.int(0 ... 99)
        switch roll {
        case 0 ..< 35:  // insertion
            let t = insertText()
            return SoakEdit(startLine: s.line, startCharacter: s.character, endLine: s.line, endCharacter: s.character, text: t)
        case 35 ..< 85:  // deletion or replacement
            let end = min(count, start + Int(Double(length()) * size))
            let e = text.position(end)
            let replacement = roll < 60 && size <= 1 ? "" : insertText()
            return SoakEdit(startLine: s.line, startCharacter: s.character, endLine: e.line, endCharacter: e.character,
                            text: replacement)
        case 85 ..< 91:  // a character past the end of the line, at the start and/or the end
            let line = s.line
            let past = text.lineLength(line) + random.int(1 ... 40)
            if random.chance(0.5) {
                return SoakEdit(startLine: line, startCharacter: past, endLine: line, endCharacter: past + random.int(0 ... 9),
                                text: insertText())
            }
            let end = min(count, start + length())
            let e = text.position(end)
            let endPast = text.lineLength(e.line) + random.int(1 ... 40)
            return SoakEdit(startLine: s.line, startCharacter: s.character, endLine: e.line, endCharacter: endPast,
                            text: random.chance(0.5) ? "" : insertText())
        case 91 ..< 96:  // a line past the end: the end of the text
            let line = text.lineCount + random.int(0 ... 5)
            return SoakEdit(startLine: line, startCharacter: random.int(0 ... 30), endLine: line + random.int(0 ... 3),
                            endCharacter: random.int(0 ... 30), text: insertText())
        default:  // from near the end to past the end
            let from = max(0, count - random.int(0 ... 40))
            let f = text.position(from)
            return SoakEdit(startLine: f.line, startCharacter: f.character, endLine: text.lineCount + random.int(0 ... 3),
                            endCharacter: random.int(0 ... 10), text: random.chance(0.5) ? "" : insertText())
        }
    }

    /// The changes of one `didChange`: 1 to 4 edits, each applied to `text`.
    mutating func changes(_ text: inout SoakText) -> [SoakEdit] {
        (0 ..< random.int(1 ... 4)).map { _ in
            let e = edit(text)
            text.apply(e)
            return e
        }
    }
}

enum Soak {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    /// The resident set size of a process, from /proc (nil where unavailable).
    static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).filter(\.isNumber))
        }
        return nil
    }

    static func edits(default value: Int) -> Int { environment["ROUTES_SOAK_EDITS"].flatMap(Int.init) ?? value }
    static var seed: UInt64 { environment["ROUTES_SOAK_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026 }

    /// Diagnostics as a multiset of compact JSON texts.
    static func multiset(_ diagnostics: [JSONValue]) -> [String: Int] {
        diagnostics.reduce(into: [:]) { $0[JSON.serialize($1), default: 0] += 1 }
    }

    /// `code line:col-line:col message` of each diagnostic, sorted: for messages.
    static func summary(_ diagnostics: [JSONValue]) -> [String] {
        diagnostics.map { d in
            let r = d["range"]
            let where_ = "\(r?["start"]?["line"] ?? .null):\(r?["start"]?["character"] ?? .null)-"
                + "\(r?["end"]?["line"] ?? .null):\(r?["end"]?["character"] ?? .null)"
            return "\(d["code"]?.stringValue ?? "?") \(where_) \(d["message"]?.stringValue ?? "")"
        }.sorted()
    }

    /// The answer of a request without its id: a result or an error.
    static func answer(_ response: JSONValue) -> JSONValue {
        if let error = response["error"] { return ["error": error] }
        return ["result": response["result"] ?? .null]
    }
}

@Suite("Soak: thousands of random incremental edits", .serialized)
struct SoakTests {
    @Test func theServerAgreesWithAFreshSessionAfterThousandsOfRandomEditsOverPipes() throws {
        let editCount = Soak.edits(default: 3000)
        let file = "App.routes"
        let workspace = try FeatureWorkspace.shop()
        let original = try workspace.read(file)
        var text = SoakText(original, encoding: .utf16)
        var editor = SoakEditor(seed: Soak.seed, original: original)

        let session = try FeatureSession(workspace)
        defer { session.stop() }
        try session.open(file, text: original, version: 1)
        _ = try session.diagnostics(file)
        let rssStart = Soak.residentKilobytes(of: session.client.process.processIdentifier)
        let started = ContinuousClock.now
        var version = 1, sent = 0, notifications = 0
        var requestIDs: [JSONValue] = []
        var batch: [UInt8] = []
        let methods = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
                       "textDocument/references", "textDocument/prepareRename", "textDocument/documentSymbol"]
        while sent < editCount {
            let changes = editor.changes(&text)
            sent += changes.count
            version += 1
            notifications += 1
            batch += LSPTestClient.frame(LSPTestClient.notificationMessage("textDocument/didChange", [
                "textDocument": ["uri": .string(workspace.uri(file)), "version": .int(Int64(version))],
                "contentChanges": .array(changes.map(\.json)),
            ]))
            // Now and then a request at a random place of the text as it is now.
            if notifications % 25 == 0 {
                let p = text.position(editor.random.int(0 ... text.scalars.count))
                let request = session.client.requestMessage(editor.random.pick(methods),
                                                            session.at(file, p.line, p.character))
                requestIDs.append(request["id"]!)
                batch += LSPTestClient.frame(request)
            }
            if batch.count > 1 << 16 {
                session.client.sendRaw(batch)
                batch = []
            }
        }
        session.client.sendRaw(batch)
        let end = try session.sync()
        let elapsed = ContinuousClock.now - started
        // The server gives memory back when it goes idle after the burst (just after answering
        // the last request), so look a few times rather than racing it.
        var rssEnd = Soak.residentKilobytes(of: session.client.process.processIdentifier)
        for _ in 0..<20 where (rssEnd ?? 0) - (rssStart ?? 0) >= 16 * 1024 {
            Thread.sleep(forTimeInterval: 0.1)
            rssEnd = Soak.residentKilobytes(of: session.client.process.processIdentifier)
        }
        print("soak: \(sent) edits in \(notifications) didChange notifications, \(requestIDs.count) requests, "
              + "final text \(text.scalars.count) scalars in \(text.lineCount) lines, \(elapsed); "
              + "server RSS \(rssStart.map { "\($0 / 1024)" } ?? "?") MB after open, \(rssEnd.map { "\($0 / 1024)" } ?? "?") MB at the end")
        // Memory stays bounded: the server keeps one text and one analysis, not a history. (Not
        // under AddressSanitizer, whose quarantine holds freed memory on purpose.)
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil, let rssStart, let rssEnd {
            #expect(rssEnd - rssStart < 64 * 1024, "the server grew from \(rssStart) kB to \(rssEnd) kB")
        }

        // Every request was answered, none with an error.
        let responses = session.client.responses
        for id in requestIDs {
            let answers = responses.filter { $0["id"] == id }
            #expect(answers.count == 1, "request \(id) answered once")
            #expect(answers.first?["error"] == nil, "\(answers.first ?? .null)")
        }
        #expect(!session.client.standardError.contains("was not answered"))

        let published = try #require(session.publications(file, upTo: end).last)
        #expect(published["version"] == .int(Int64(version)), "the last publication is for the last version")
        let soaked = published["diagnostics"]?.arrayValue ?? []
        let symbols = Soak.answer(try session.client.call("textDocument/documentSymbol", session.document(file)))
        let preview = Soak.answer(try session.client.call("routes/preview", session.document(file)))

        // A fresh session, opening the final text.
        let fresh = try FeatureSession(workspace)
        defer { fresh.stop() }
        try fresh.open(file, text: text.text, version: 1)
        let expected = try #require(try fresh.diagnostics(file))
        #expect(Soak.multiset(soaked) == Soak.multiset(expected),
                "diagnostics differ from a fresh open of the final text:\nsoaked: \(Soak.summary(soaked))\nfresh: \(Soak.summary(expected))")
        #expect(Soak.summary(soaked) == Soak.summary(expected))
        // The same declarations at the same places (the text is the same), the same preview.
        #expect(symbols == Soak.answer(try fresh.client.call("textDocument/documentSymbol", fresh.document(file))))
        #expect(preview == Soak.answer(try fresh.client.call("routes/preview", fresh.document(file))))

        // The soaked server still works: a full text puts the app back, and it is clean again.
        let mark = session.mark
        session.change(file, version: version + 1, [FeatureSession.fullText(original)])
        #expect(try session.diagnostics(file, from: mark) == [])
        let tree = try session.result("routes/preview", session.document(file))
        #expect(tree["text"]?.stringValue?.hasPrefix("root\n") == true)
        try session.finish()
        try fresh.finish()
    }

    /// In process, the server's own copy of the text is compared with the client's after every
    /// `didChange`, in both encodings: the first difference names the edit that caused it.
    @Test(arguments: [SoakText.Encoding.utf16, .utf8])
    func theServersTextEqualsTheClientsAfterEveryChange(encoding: SoakText.Encoding) throws {
        let editCount = Soak.edits(default: 1500)
        let file = "Catalog.routes"
        let workspace = try FeatureWorkspace.shop()
        let original = try workspace.read(file)
        let uri = workspace.uri(file)
        var features: LanguageFeatures?
        let harness = LifecycleHarness { features = LanguageFeatures(server: $0) }
        let server = try #require(features)
        var capabilities: JSONObject = [:]
        if encoding == .utf8 { capabilities["general"] = ["positionEncodings": ["utf-8"]] }
        let initialize = harness.request(1, "initialize", [
            "processId": nil, "rootUri": .string(workspace.rootURI), "capabilities": .object(capabilities),
        ])
        #expect(initialize["result"]?["capabilities"]?["positionEncoding"] == (encoding == .utf8 ? "utf-8" : "utf-16"))
        harness.send(LSPTestClient.notificationMessage("initialized", [:]))
        harness.send(LSPTestClient.notificationMessage("textDocument/didOpen", ["textDocument": [
            "uri": .string(uri), "languageId": "routes", "version": 1, "text": .string(original),
        ]]))
        _ = harness.takeOutput()

        var text = SoakText(original, encoding: encoding)
        var editor = SoakEditor(seed: Soak.seed &+ (encoding == .utf8 ? 1 : 2), original: original)
        var sent = 0, version = 1
        while sent < editCount {
            let before = text.text
            let changes = editor.changes(&text)
            sent += changes.count
            version += 1
            harness.send(LSPTestClient.notificationMessage("textDocument/didChange", [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                "contentChanges": .array(changes.map(\.json)),
            ]))
            let output = harness.takeOutput()
            let held = server.workspace.store.document(uri)
            #expect(held?.version == version)
            guard let held, held.text.bytes == Array(text.text.utf8) else {
                Issue.record("""
                    after edit \(sent) (version \(version)) the server's text differs from the client's.
                    changes: \(changes)
                    text before: \(before.debugDescription)
                    server: \((held?.text.string ?? "nil").debugDescription)
                    client: \(text.text.debugDescription)
                    """)
                return
            }
            let publications = output.filter {
                $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
            }
            #expect(publications.count == 1 && publications.first?["params"]?["version"] == .int(Int64(version)))
        }
        print("soak in process (\(encoding)): \(sent) edits, final text \(text.scalars.count) scalars")
        let response = harness.request(2, "shutdown")
        #expect(response["result"] == .null)
        #expect(harness.send(LSPTestClient.notificationMessage("exit")) == 0)
    }
}

/// Random edits to several open documents of a workspace of several programs (two copies of
/// the shop, the seed app, two apps sharing a library, a loose file importing it): the server
/// keeps the analysis of every program an edit does not touch, and moves kept results over
/// edits that keep the analysis, so after each burst every open document's diagnostics must
/// equal those of a fresh server opening the same texts.
@Suite("Soak: random edits across the programs of a workspace", .serialized)
struct WorkspaceSoakTests {
    static let library = """
        /// Shared by both apps.
        screen Detail(id: String)
        screen Settings
        flag beta
        dependency store: Store from Detail
        optional session: Session
        builder details {
          anyOf {
            screen Detail {
              screen Settings uses store
            }
            conditional beta { screen Settings uses store } else { empty }
            if let session { screen Settings uses session }
          }
        }

        """

    static func app(_ name: String) -> String {
        """
        import "../lib/Lib.routes"
        // The \(name) app.
        screen \(name)
        flag unused\(name)
        root {
          anyOf {
            screen \(name) { details }
            details
          }
        }

        """
    }

    static let loose = """
        import "../lib/Lib.routes"
        builder loop {
          anyOf {
            screen Detail
            loop
          }
        }

        """

    /// Waits for `session` to publish for every open document (`texts`, at `versions`), then
    /// checks each one's last diagnostics against a fresh server opening the same texts over
    /// the same disk; returns how many documents it compared.
    static func compareWithAFreshServer(_ session: FeatureSession, _ workspace: FeatureWorkspace, texts: [String: SoakText],
                                        versions: [String: Int], burst: Int) throws -> Int {
        let end = try session.sync()
        let fresh = try FeatureSession(workspace)
        defer { fresh.stop() }
        let open = texts.keys.sorted()
        for file in open { try fresh.open(file, text: texts[file]!.text, version: 1) }
        let freshEnd = try fresh.sync()
        for file in open {
            let mine = try #require(session.publications(file, upTo: end).last)
            #expect(mine["version"] == .int(Int64(versions[file]!)), "burst \(burst): \(file) published for its version")
            let theirs = try #require(fresh.publications(file, upTo: freshEnd).last)
            let a = mine["diagnostics"]?.arrayValue ?? [], b = theirs["diagnostics"]?.arrayValue ?? []
            #expect(Soak.multiset(a) == Soak.multiset(b),
                    "burst \(burst): \(file) differs from a fresh server:\nkept: \(Soak.summary(a))\nfresh: \(Soak.summary(b))")
        }
        try fresh.finish()
        return open.count
    }

    /// A file on disk that apps may import, in the versions the test writes: a screen and a
    /// builder (one that misuses the library's store), or a screen alone.
    static let more = [
        "screen Extra\nbuilder more { screen Extra uses store }\n",
        "import \"Lib.routes\"\nscreen Extra\nbuilder more { screen Detail { screen Extra } }\n",
        "screen Extra\n",
    ]

    /// Imports added to and removed from open documents, and files created, changed and
    /// deleted on disk (announced by `didChangeWatchedFiles`), between random edits: after
    /// each burst every open document's diagnostics equal those of a fresh server opening the
    /// same texts over the same disk.
    @Test func importsAndFilesOnDiskComeAndGoAsAFreshServerSeesThem() throws {
        let files: [String: String] = [
            "lib/Lib.routes": Self.library, "a/App.routes": Self.app("Home"), "b/App.routes": Self.app("Start"),
            "loose/Loose.routes": Self.loose,
        ]
        let workspace = try FeatureWorkspace(files)
        let open = ["lib/Lib.routes", "a/App.routes", "b/App.routes", "loose/Loose.routes"]
        let importers = ["a/App.routes", "b/App.routes", "loose/Loose.routes"]
        let line = "import \"../lib/More.routes\"\n"
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        var texts: [String: SoakText] = [:]
        var versions: [String: Int] = [:]
        for file in open {
            try session.open(file, text: files[file], version: 1)
            texts[file] = SoakText(files[file]!, encoding: .utf16)
            versions[file] = 1
        }
        var random = SoakRandom(seed: Soak.seed &+ 7)
        var onDisk = false
        var compared = 0, created = 0, deleted = 0, imported = 0, unimported = 0, uses = 0
        func change(_ file: String, _ edit: SoakEdit) {
            texts[file]!.apply(edit)
            versions[file]! += 1
            session.change(file, version: versions[file]!, [edit.json])
        }
        for burst in 0..<40 {
            for _ in 0..<random.int(1 ... 4) {
                switch random.int(0 ... 4) {
                case 0:
                    // The file appears, changes or goes on disk.
                    let type: Int
                    if onDisk && random.chance(0.4) {
                        try workspace.remove("lib/More.routes")
                        type = 3
                        deleted += 1
                    } else {
                        try workspace.write("lib/More.routes", random.pick(Self.more))
                        type = onDisk ? 2 : 1
                        if !onDisk { created += 1 }
                    }
                    onDisk = type != 3
                    session.client.notify("workspace/didChangeWatchedFiles", ["changes": [
                        ["uri": .string(workspace.uri("lib/More.routes")), "type": .int(Int64(type))],
                    ]])
                case 1:
                    // An import added at the top of a document, or the one added removed.
                    let file = random.pick(importers)
                    if texts[file]!.text.hasPrefix(line) {
                        change(file, SoakEdit(startLine: 0, startCharacter: 0, endLine: 1, endCharacter: 0, text: ""))
                        unimported += 1
                    } else {
                        change(file, SoakEdit(startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0, text: line))
                        imported += 1
                    }
                case 2:
                    // A use of what the file declares, at the end of a document.
                    let file = random.pick(importers)
                    let end = texts[file]!.position(texts[file]!.scalars.count)
                    let text = random.pick(["root { more }\n", "builder x { anyOf { more  screen Extra } }\n", "screen Extra\n"])
                    change(file, SoakEdit(startLine: end.line, startCharacter: end.character, endLine: end.line,
                                          endCharacter: end.character, text: text))
                    uses += 1
                default:
                    // A character typed anywhere in an open document.
                    let file = random.pick(open)
                    let p = texts[file]!.position(random.int(0 ... texts[file]!.scalars.count))
                    change(file, SoakEdit(startLine: p.line, startCharacter: p.character, endLine: p.line,
                                          endCharacter: p.character, text: random.pick([" ", "\n", "x", "}"])))
                }
            }
            compared += try Self.compareWithAFreshServer(session, workspace, texts: texts, versions: versions, burst: burst)
        }
        #expect(compared == 40 * open.count)
        #expect(created > 2 && deleted > 2 && imported > 2 && unimported > 2 && uses > 2,
                "\(created) created, \(deleted) deleted, \(imported) imports added, \(unimported) removed, \(uses) uses")
        try session.finish()
    }

    @Test func everyOpenDocumentAgreesWithAFreshServerAfterEachBurst() throws {
        var files: [String: String] = [
            "lib/Lib.routes": Self.library, "a/App.routes": Self.app("Home"), "b/App.routes": Self.app("Start"),
            "loose/Loose.routes": Self.loose, "seed/App.routes": try FeatureWorkspace.example("Seed/App.routes"),
        ]
        for copy in ["shop1", "shop2"] {
            for name in ["App", "Shared", "Catalog", "Account", "Checkout"] {
                files["\(copy)/\(name).routes"] = try FeatureWorkspace.example("Shop/\(name).routes")
            }
        }
        let workspace = try FeatureWorkspace(files)
        let open = ["lib/Lib.routes", "a/App.routes", "loose/Loose.routes", "seed/App.routes", "shop1/Catalog.routes",
                    "shop2/App.routes"]
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        var texts: [String: SoakText] = [:]
        var editors: [String: SoakEditor] = [:]
        var versions: [String: Int] = [:]
        for (i, file) in open.enumerated() {
            try session.open(file, text: files[file], version: 1)
            texts[file] = SoakText(files[file]!, encoding: .utf16)
            editors[file] = SoakEditor(seed: Soak.seed &+ UInt64(i), original: files[file]!)
            versions[file] = 1
        }
        var random = SoakRandom(seed: Soak.seed &+ 99)
        let bursts = max(1, Soak.edits(default: 3000) / 250)
        var compared = 0
        for burst in 0..<bursts {
            // A burst: edits to one or two documents (most programs are untouched).
            for _ in 0..<random.int(1 ... 6) {
                let file = random.pick(random.chance(0.5) ? Array(open.prefix(2)) : open)
                var text = texts[file]!
                // Mostly small edits (which keep the analysis when they fall in a comment or
                // whitespace), now and then the soak's larger ones.
                let changes: [SoakEdit]
                if random.chance(0.5) {
                    let p = text.position(random.int(0 ... text.scalars.count))
                    let edit = SoakEdit(startLine: p.line, startCharacter: p.character, endLine: p.line,
                                        endCharacter: p.character, text: random.pick([" ", "\n", "// x", "x", "é"]))
                    text.apply(edit)
                    changes = [edit]
                } else {
                    changes = editors[file]!.changes(&text)
                }
                texts[file] = text
                versions[file]! += 1
                session.change(file, version: versions[file]!, changes.map(\.json))
            }
            compared += try Self.compareWithAFreshServer(session, workspace, texts: texts, versions: versions, burst: burst)
        }
        #expect(compared == bursts * open.count)
        try session.finish()
    }
}
