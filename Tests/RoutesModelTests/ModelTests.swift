import Foundation
import Synchronization
import TestSupport
import Testing
@testable import RoutesModel
import RoutesSyntax


func project(_ files: [String: String], entries: [String]? = nil, root: String = "/ws") -> Project {
    let provider = MemoryProvider(files: files)
    let names = entries ?? files.keys.sorted()
    return Project(entries: names.enumerated().map { i, p in
        ProjectEntry(canonicalPath: p, displayPath: String(p.dropFirst(root.count + 1)), group: i, workspaceRoot: root)
    }, provider: provider)
}

func lower(_ text: String) -> FileModel {
    Lowering.lower(SyntaxTree.parse(SourceText(text)))
}

@Suite struct LoweringTests {
    @Test func declarationsKeepKindsTypesPresentationAndDocs() {
        let m = lower("""
            /// The first screen.
            /// Second line.
            screen Home
            screen Detail(id: String, tags: [String : Int]?) sheet
            screen Modal sheet(allowsPush: false)
            // a plain comment ends the doc
            dependency store: App.Store from Home
            optional draft: Draft
            flag isOn
            builder b { empty }
            root { b }
            """)
        #expect(m.declarations.map(\.kind) == [.screen, .screen, .screen, .dependency, .optional, .flag, .builder, .root])
        #expect(m.declarations[0].doc == "The first screen.\nSecond line.")
        #expect(m.declarations[1].presentation == .sheet)
        #expect(m.declarations[1].parameters.map(\.type) == ["String", "[String: Int]?"])
        #expect(m.declarations[2].presentation == .sheetNoPush)
        #expect(m.declarations[3].doc == nil)
        #expect(m.declarations[3].type == "App.Store")
        #expect(m.declarations[3].from?.text == "Home")
        #expect(m.declarations[0].presentation == .push)
    }

    @Test func swiftTypesAreKeptAsNormalizedText() {
        let written = [
            "Set < String >": "Set<String>",
            "Result<A,B>?": "Result<A, B>?",
            "@Sendable(Int)async throws->Void": "@Sendable (Int) async throws -> Void",
            "( _ x : inout Int , y:String ) throws ( E ) -> [ K : V ]": "(_ x: inout Int, y: String) throws(E) -> [K: V]",
            "any Store&Sendable": "any Store & Sendable",
            "some View": "some View",
            "(() -> Void)?": "(() -> Void)?",
            "Foo . Bar<Baz> . Type": "Foo.Bar<Baz>.Type",
            "()": "()",
            "Set<Set<Int>>": "Set<Set<Int>>",
            "any(P & Q)": "any (P & Q)",
            "(inout[Int]) -> Void": "(inout [Int]) -> Void",
        ]
        for (text, normalized) in written.sorted(by: { $0.key < $1.key }) {
            let source = "dependency d: \(text)\nscreen S(p: \(text))"
            #expect(SyntaxTree.parse(SourceText(source)).diagnostics.isEmpty, "\(source)")
            let m = lower(source)
            #expect(m.declarations.first?.type == normalized, "dependency d: \(text)")
            #expect(m.declarations.last?.parameters.first?.type == normalized, "screen S(p: \(text))")
        }
    }

    @Test func buildersLowerToOneCasePerBuilder() {
        let m = lower("root { anyOf { screen A uses d, e { x } conditional f { empty } else { wildcard W { y } } if let o { empty } if screen S { empty } else { empty } } }")
        guard case .anyOf(let span)? = m.declarations.last?.body.map({ m.nodes[$0].kind }) else {
            Issue.record("root is not anyOf")
            return
        }
        let branches = m.branches(span)
        #expect(branches.count == 4)
        guard case .screen(let s, let uses, let nesting) = m.nodes[branches[0]].kind else {
            Issue.record("not a screen")
            return
        }
        #expect(s?.text == "A")
        #expect(m.uses(uses).map(\.text) == ["d", "e"])
        #expect(nesting != nil)
        if case .ifLet(let o, _, let els) = m.nodes[branches[2]].kind {
            #expect(o?.text == "o")
            #expect(els == nil)  // no else: empty
        } else {
            Issue.record("not if let")
        }
        if case .ifScreen(_, _, let els) = m.nodes[branches[3]].kind {
            #expect(els != nil)
        } else {
            Issue.record("not if screen")
        }
    }

    @Test func headRangeRunsFromFirstTokenThroughTheName() {
        let text = "root { if let store { empty } }"
        let m = lower(text)
        let node = m.nodes[m.declarations[0].body!]
        #expect(SourceText(text).text(node.head) == "if let store")
    }

    /// A parameter without a label is a syntax error and is left out; a duplicate label is
    /// reported once and the first kept; `sheet(allowsPush: false)` forbids pushes.
    @Test func parametersAndPresentationLowerWithDuplicatesReportedOnce() {
        let m = lower("screen A(: String, id: Int)\nscreen B(id: Int, id: String) sheet(allowsPush: false)\n")
        #expect(m.declarations.map(\.name.text) == ["A", "B"])
        #expect(m.declarations[0].parameters.map(\.label.text) == ["id"])
        #expect(m.declarations[1].parameters.map(\.label.text) == ["id"])
        #expect(m.declarations[1].presentation == .sheetNoPush)
        #expect(m.diagnostics.map(\.message) == ["parameter `id` of screen `B` is declared twice"])
    }

    @Test func aHoleLeftBySyntaxErrorsIsMissing() {
        let m = lower("root { conditional f { } else { empty } }")
        let node = m.nodes[m.declarations[0].body!]
        guard case .conditional(_, let then, _) = node.kind else {
            Issue.record("not conditional")
            return
        }
        if case .missing = m.nodes[then].kind {} else { Issue.record("expected a missing node") }
    }
}

@Suite struct ProjectTests {
    @Test func importsResolveRelativeToTheImportingFile() {
        let p = project([
            "/ws/App.routes": "import \"features/Feature.routes\"\nroot { screen Feature }",
            "/ws/features/Feature.routes": "import \"../Shared.routes\"\nscreen Feature",
            "/ws/Shared.routes": "screen Shared",
        ], entries: ["/ws/App.routes"])
        #expect(p.files.count == 3)
        #expect(p.diagnostics.isEmpty)
        #expect(p.programs.count == 1)
        #expect(p.programs[0].files.count == 3)
        #expect(p.files.map(\.displayPath) == ["App.routes", "features/Feature.routes", "Shared.routes"])
    }

    @Test func namesAreVisibleOnlyThroughImports() {
        let p = project([
            "/ws/A.routes": "screen A\nroot { screen B }",
            "/ws/B.routes": "screen B",
        ])
        #expect(p.diagnostics.map(\.rule) == [.undefinedName])
    }

    /// Imports lead away from the file that declares `root`: the import that leads back to
    /// it (a library importing the app) closes the cycle, whatever the files' names.
    @Test func importCycleIsReportedOnceAtTheClosingImport() {
        let p = project([
            "/ws/A.routes": "import \"B.routes\"\nscreen A",
            "/ws/B.routes": "import \"A.routes\"\nscreen B\nroot { screen A }",
        ], entries: ["/ws/A.routes"])
        let cycles = p.diagnostics.filter { $0.rule == .importError }
        #expect(cycles.count == 1)
        #expect(cycles.first?.file == p.file(atPath: "/ws/A.routes"))
        // Two cycles through the import that leads back to the app are that one error.
        let three = project([
            "/ws/Account.routes": "import \"Shared.routes\"\nscreen Detail",
            "/ws/App.routes": "import \"Account.routes\"\nimport \"Shared.routes\"\nscreen Home\nroot { screen Home { screen Detail } }",
            "/ws/Shared.routes": "import \"App.routes\"\ndependency api: API",
        ], entries: ["/ws/Account.routes"])
        let closing = three.diagnostics.filter { $0.rule == .importError }
        #expect(closing.count == 1)
        #expect(closing.first?.file == three.file(atPath: "/ws/Shared.routes"))
        // Names still resolve across the cycle.
        #expect(!p.diagnostics.contains { $0.rule == .undefinedName })
    }

    /// Which import of a cycle is reported does not depend on the order files are given in
    /// (the command line, a workspace scan): the search starts from the files that declare
    /// `root`, then the others, each in path order.
    @Test func theReportedImportOfACycleDoesNotDependOnTheEntryOrder() {
        let files = [
            "/ws/lib/Lib.routes": "import \"../app/App.routes\"\nscreen LibA",
            "/ws/app/App.routes": "import \"../lib/Lib.routes\"\nscreen Home\nroot { screen Home }",
        ]
        for entries in [["/ws/app/App.routes", "/ws/lib/Lib.routes"], ["/ws/lib/Lib.routes", "/ws/app/App.routes"],
                        ["/ws/lib/Lib.routes"], ["/ws/app/App.routes"]] {
            let p = project(files, entries: entries)
            let cycles = p.diagnostics.filter { $0.rule == .importError }
            #expect(cycles.count == 1, "\(entries)")
            #expect(cycles.first.map { p.files[$0.file].path } == "/ws/lib/Lib.routes", "\(entries)")
        }
    }

    @Test func importLeavingTheWorkspaceIsRefused() {
        let p = project([
            "/ws/App.routes": "import \"../etc/secret.routes\"\nroot { empty }",
            "/etc/secret.routes": "screen Secret",
        ], entries: ["/ws/App.routes"])
        #expect(p.files.count == 1)
        #expect(p.diagnostics.map(\.rule) == [.importError])
    }

    @Test func duplicateAcrossImportsIsReportedAtTheLaterOne() {
        let p = project([
            "/ws/App.routes": "import \"A.routes\"\nimport \"B.routes\"\nroot { screen X }",
            "/ws/A.routes": "screen X",
            "/ws/B.routes": "flag X",
        ], entries: ["/ws/App.routes"])
        let dups = p.diagnostics.filter { $0.rule == .duplicateDeclaration }
        #expect(dups.count == 1)
        #expect(dups.first?.file == p.file(atPath: "/ws/B.routes"))
        #expect(dups.first?.related.first?.file == p.file(atPath: "/ws/A.routes"))
    }

    @Test func resolutionRecordsTheSymbolEvenForTheWrongKind() {
        let p = project(["/ws/A.routes": "flag f\nroot { screen f }"])
        #expect(p.diagnostics.map(\.rule) == [.wrongKind])
        let use = p.files[0].model.nameUses.first!.name
        #expect(p.resolve(use, in: 0).map { p.declaration($0).kind } == .flag)
    }

    @Test func suggestionsPreferTheClosestName() {
        #expect(Suggestion.closest(to: "Hme", among: ["Home", "Help", "Settings"]) == "Home")
        #expect(Suggestion.closest(to: "isLogedIn", among: ["isLoggedIn", "isAdmin"]) == "isLoggedIn")
        #expect(Suggestion.closest(to: "Xylophone", among: ["Home"]) == nil)
        #expect(Suggestion.closest(to: "settings", among: ["Settings"]) == "Settings")
        // Two neighbours swapped are one edit.
        #expect(Suggestion.closest(to: "emtpy", among: ["empty", "Detail"]) == "empty")
        #expect(Suggestion.closest(to: "Hoem", among: ["Home", "Help"]) == "Home")
        #expect(Suggestion.closest(to: "Détial", among: ["Détail", "Detail"]) == "Détail")
        // A name that ends another as a word of its own (a declaration renamed).
        #expect(Suggestion.closest(to: "Detail", among: ["ItemDetail", "Home"]) == "ItemDetail")
        #expect(Suggestion.closest(to: "store", among: ["appStore", "Home"]) == "appStore")
        #expect(Suggestion.closest(to: "ails", among: ["Details"]) == nil)
        // Not when two names end with it: neither is more likely.
        #expect(Suggestion.closest(to: "store", among: ["cartStore", "userStore"]) == nil)
        func scalars(_ s: String) -> [Unicode.Scalar] { Array(s.unicodeScalars) }
        #expect(Suggestion.distance(scalars("emtpy"), scalars("empty")) == 1)
        #expect(Suggestion.distance(scalars("ab"), scalars("ba")) == 1)
        // A letter swapped is not edited again (the alignment's restriction): `ca` to `abc`.
        #expect(Suggestion.distance(scalars("ca"), scalars("abc")) == 3)
    }

    /// The pruned search picks what sorting every candidate and measuring each would.
    @Test func suggestionsEqualAnExhaustiveSearch() {
        // ASCII `name`, four letters or more, ends ASCII `c` as a word of its own.
        func isWordSuffix(_ name: String, of c: String) -> Bool {
            let n = Array(name.utf8), b = Array(c.utf8)
            guard n.count >= 4, b.count > n.count, n.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else { return false }
            let start = b.count - n.count
            guard String(decoding: b[start...], as: UTF8.self).lowercased() == name.lowercased() else { return false }
            return (b[start] >= 0x41 && b[start] <= 0x5A) || b[start - 1] == 0x5F
        }
        func reference(_ name: String, _ candidates: [String]) -> String? {
            let target = Array(name.lowercased().unicodeScalars)
            var best: (distance: Int, text: String)? = nil
            for c in candidates.sorted() {
                let d = Suggestion.distance(target, Array(c.lowercased().unicodeScalars))
                let limit = max(1, max(target.count, c.unicodeScalars.count) / 3)
                let isPrefix = c.lowercased().hasPrefix(name.lowercased()) && target.count >= 3
                let uniqueSuffix = isWordSuffix(name, of: c) && Set(candidates.filter { isWordSuffix(name, of: $0) }).count == 1
                guard d <= limit || isPrefix || uniqueSuffix else { continue }
                if best == nil || d < best!.distance { best = (d, c) }
            }
            return best?.text
        }
        var state: UInt64 = 12345
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let letters = Array("aAbBeEhHmMoOsS_1İé")
        func word() -> String { String((0..<(1 + next(9))).map { _ in letters[next(letters.count)] }) }
        for _ in 0..<3000 {
            let candidates = (0..<next(30)).map { _ in word() }
            let name = next(3) == 0 && !candidates.isEmpty ? String(candidates[next(candidates.count)].dropLast()) : word()
            #expect(Suggestion.closest(to: name, among: candidates) == reference(name, candidates), "\(name) among \(candidates)")
        }
        // Long ASCII names a few edits apart (generated apps name screens `F12Detail`), where
        // the distance's band and its cut-off decide.
        let ascii = Array("abAB01")
        func long() -> String { String((0..<(1 + next(24))).map { _ in ascii[next(ascii.count)] }) }
        func mutated(_ w: String) -> String {
            var chars = Array(w)
            for _ in 0..<next(5) {
                let i = next(chars.count + 1)
                switch next(4) {
                case 0: chars.insert(ascii[next(ascii.count)], at: i)
                case 1: if i < chars.count { chars.remove(at: i) }
                case 2: if i + 1 < chars.count { chars.swapAt(i, i + 1) }
                default: if i < chars.count { chars[i] = ascii[next(ascii.count)] }
                }
            }
            return String(chars)
        }
        for _ in 0..<3000 {
            let base = long()
            let candidates = (0..<next(30)).map { _ in next(2) == 0 ? mutated(base) : long() }
            let name = next(4) == 0 ? String(base.prefix(1 + next(base.count))) : mutated(base)
            #expect(Suggestion.closest(to: name, among: candidates) == reference(name, candidates), "\(name) among \(candidates)")
        }
    }
}

/// What `routes` refuses to read, so that no file makes it hang or run out of memory.
@Suite struct ReadLimitTests {
    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routes-limits-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func devicesAndFIFOsAreNotReadAndDoNotBlock() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.routes"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO with no writer would block forever; it is refused before that.
        #expect(FileSystemProvider().read(fifo) == .failure(.notRegularFile))
        #expect(FileSystemProvider().read("/dev/zero") == .failure(.notRegularFile))
        #expect(FileSystemProvider().read("/dev/null") == .failure(.notRegularFile))
    }

    @Test func aFileIsReadWholeWhateverSizeItsFolderGives() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Sizes around the read's first buffer (the size `fstat` gives, and a byte more).
        for size in [0, 1, 4095, 4096, 65537] {
            let path = dir + "/f\(size).routes"
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            #expect((try? FileSystemProvider().read(path).get()) == bytes, "\(size) bytes")
        }
        // A file whose size `stat` does not tell (0), read to its end all the same.
        let status = try #require(try? FileSystemProvider().read("/proc/self/status").get())
        #expect(status.starts(with: Array("Name:".utf8)) && status.count > 100)
    }

    @Test func aFileOverTheSizeLimitIsRefusedWithItsSize() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let big = dir + "/big.routes", atLimit = dir + "/limit.routes"
        // Sparse files: the size is what counts, not the disk they take.
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(SourceLimits.maxFileBytes + 1)) == 0)
        #expect(FileSystemProvider().read(big) == .failure(.tooLarge(SourceLimits.maxFileBytes + 1)))
        #expect(SourceReadError.tooLarge(SourceLimits.maxFileBytes + 1).description
                == "the file is too large (16.0 MiB; the limit is 16.0 MiB)")
        #expect(SourceReadError.tooLarge(20 << 20).description == "the file is too large (20.0 MiB; the limit is 16.0 MiB)")
        #expect(FileManager.default.createFile(atPath: atLimit, contents: nil))
        #expect(truncate(atLimit, off_t(SourceLimits.maxFileBytes)) == 0)
        #expect((try? FileSystemProvider().read(atLimit).get().count) == SourceLimits.maxFileBytes)
    }

    @Test func anImportOfAFileTooLargeIsAnImportError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "import \"big.routes\"\nscreen Home\nroot { screen Home }\n".write(toFile: dir + "/App.routes", atomically: true, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: dir + "/big.routes", contents: nil))
        #expect(truncate(dir + "/big.routes", off_t(SourceLimits.maxFileBytes + 4096)) == 0)
        let fs = FileSystemProvider()
        let app = try #require(fs.canonicalPath(dir + "/App.routes"))
        let project = Project(entries: [ProjectEntry(canonicalPath: app, displayPath: "App.routes", group: 0,
                                                     workspaceRoot: PathUtil.directory(of: app))], provider: fs)
        let errors = project.diagnostics.filter { $0.rule == .importError }
        #expect(errors.map(\.message) == ["cannot read `big.routes`: the file is too large (16.0 MiB; the limit is 16.0 MiB)"])
    }

    @Test func aWorkspaceScanStopsAtItsBudget() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<10 { try "screen S\(i)\n".write(toFile: dir + "/f\(i).routes", atomically: true, encoding: .utf8) }
        let partial = SourceFiles.scan(under: dir, maxEntries: 4)
        #expect(!partial.complete)
        #expect(partial.files.count == 4)
        let whole = SourceFiles.scan(under: dir, maxEntries: 100)
        #expect(whole.complete && whole.files.count == 10 && whole.entries == 10)
        #expect(SourceFiles.routesFiles(under: dir) == whole.files)
        #expect(whole.unreadable.isEmpty)
    }

    @Test func aFolderThatCannotBeListedIsReportedNotSkipped() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = SourceFiles.scan(under: dir + "/gone", maxEntries: 100)
        #expect(missing.unreadable.map(\.path) == ["."])
        #expect(missing.unreadable.first?.reason == "no such file or directory")
        // (As root every folder can be listed; a locked one is tested by the CLI tests when
        // they run as another user.)
    }

    @Test func anEntryThatCannotBeReadIsKeptInTheProjectsList() {
        let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/Gone.routes", displayPath: "Gone.routes", group: 0, workspaceRoot: "/ws")],
                              provider: MemoryProvider(files: [:]))
        #expect(project.files.isEmpty)
        #expect(project.unreadableEntries.map(\.path) == ["Gone.routes"])
        #expect(project.unreadableEntries.first?.error == .notFound)
    }
}

@Suite struct ParseCacheTests {
    static let files = [
        "/ws/App.routes": "import \"Lib.routes\"\nroot { screen Home uses store }\n",
        "/ws/Lib.routes": "screen Home\ndependency store: Store from Nope\nroot { screen Home }\n",
        "/ws/Other.routes": "screen Lonely\nbuilder b { screen Missing }\nflag\n",
    ]

    static func key(_ p: Project) -> [String] {
        p.diagnostics.map { "\(p.files[$0.file].path) \($0.rule) \($0.range) \($0.message)" }.sorted()
    }

    @Test func unchangedFilesAreReusedAndTheProjectIsTheSame() {
        let cache = ParseCache()
        let provider = MemoryProvider(files: Self.files)
        func entries(_ order: [String]) -> [ProjectEntry] {
            order.enumerated().map { ProjectEntry(canonicalPath: $1, displayPath: $1, group: $0, workspaceRoot: "/ws") }
        }
        let first = Project(entries: entries(["/ws/App.routes", "/ws/Other.routes"]), provider: provider, cache: cache)
        #expect(cache.hits == 0)
        // Another order gives the files other ids: the kept trees and models follow.
        let second = Project(entries: entries(["/ws/Other.routes", "/ws/App.routes"]), provider: provider, cache: cache)
        #expect(cache.hits == 3)
        #expect(Self.key(second) == Self.key(first))
        #expect(Self.key(second).contains { $0.contains("Other.routes") && $0.contains("syntax-error") })
        #expect(second.diagnostics.allSatisfy { d in second.files[d.file].syntax.diagnostics.allSatisfy { $0.file == d.file } })
        #expect(Self.key(second) == Self.key(Project(entries: entries(["/ws/Other.routes", "/ws/App.routes"]), provider: provider)))
        // A changed file is parsed again; the others are not.
        var changed = Self.files
        changed["/ws/Other.routes"] = "screen Lonely\nbuilder b { screen Lonely }\nflag\n"
        let third = Project(entries: entries(["/ws/Other.routes", "/ws/App.routes"]), provider: MemoryProvider(files: changed), cache: cache)
        #expect(cache.hits == 5)
        #expect(Self.key(third) == Self.key(Project(entries: entries(["/ws/Other.routes", "/ws/App.routes"]), provider: MemoryProvider(files: changed))))
        #expect(!Self.key(third).contains { $0.contains("Missing") })
    }
}

extension ParseCacheTests {
    /// Found in review: a kept tree's "unclosed `{`" and a kept model's "first declared here"
    /// related locations kept the file's old id (the server then crashed when that id was gone).
    @Test func keptDiagnosticsMoveTheirRelatedLocationsToTheNewID() {
        let files = [
            "/ws/A.routes": "screen A\n",
            "/ws/B.routes": "screen Pair(x: Int, x: Int)\nbuilder x {\n  screen Pair\n",
        ]
        let cache = ParseCache()
        let provider = MemoryProvider(files: files)
        func entries(_ order: [String]) -> [ProjectEntry] {
            order.enumerated().map { ProjectEntry(canonicalPath: $1, displayPath: $1, group: $0, workspaceRoot: "/ws") }
        }
        _ = Project(entries: entries(["/ws/A.routes", "/ws/B.routes"]), provider: provider, cache: cache)
        let moved = Project(entries: entries(["/ws/B.routes"]), provider: provider, cache: cache)
        #expect(cache.hits == 1)
        let withRelated = moved.diagnostics.filter { !$0.related.isEmpty }
        #expect(withRelated.count >= 2, "an unclosed block and a duplicate parameter")
        for d in withRelated {
            #expect(d.file == 0)
            #expect(d.related.allSatisfy { $0.file == 0 }, "\(d.message): \(d.related)")
        }
    }
}

/// The table of resolved names answers as a dictionary would, for dense runs of offsets (a
/// long `uses` list), scattered ones, across growth, and after removals.
@Suite struct ResolutionTableTests {
    @Test func theTableAnswersAsADictionary() {
        var state: UInt64 = 99
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        for round in 0..<40 {
            var table = ResolutionTable(capacity: round % 3 == 0 ? 0 : 100)
            var reference: [Int: Symbol] = [:]
            let dense = round % 2 == 0
            for i in 0..<(50 + next(3000)) {
                let key = dense ? i * (1 + next(3)) : next(2_000_000)
                let symbol = Symbol(file: next(4), declaration: next(500))
                table[key] = symbol
                reference[key] = symbol
            }
            #expect(table.count == reference.count)
            for (k, v) in reference { #expect(table[k] == v, "round \(round), key \(k)") }
            for _ in 0..<500 {
                let k = next(2_100_000)
                #expect(table[k] == reference[k], "round \(round), key \(k)")
            }
            #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == reference)
            // Removing keys (present, absent, in long runs of taken slots) leaves the others
            // to be found.
            for _ in 0..<(10 + next(reference.count)) {
                let k = next(3) == 0 ? next(2_100_000) : Array(reference.keys)[next(reference.count)]
                table[k] = nil
                reference[k] = nil
            }
            #expect(table.count == reference.count)
            for (k, v) in reference { #expect(table[k] == v, "round \(round), key \(k) after removals") }
            #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == reference)
        }
    }
}

/// A file's scope answers as a dictionary in which the first declaration of a name wins:
/// names short and long (past a small string's 15 bytes), non-ASCII ones, names that differ
/// in one byte, across growth from no capacity.
@Suite struct ScopeTests {
    @Test func theScopeAnswersAsADictionaryWhereTheFirstWins() {
        var random = SplitMix64(seed: 7)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let stems = ["a", "home", "détail", "settingsStoreForTheAccountFeature", "x_1", "Ω"]
        for round in 0..<30 {
            var scope = Scope(capacity: round % 2 == 0 ? 0 : 64)
            var reference: [String: Symbol] = [:]
            for _ in 0..<(10 + next(2000)) {
                let name = stems[next(stems.count)] + String(next(300))
                let symbol = Symbol(file: next(5), declaration: next(1000))
                let earlier = scope.insertIfAbsent(name, symbol, kind: DeclarationKind.allCases[symbol.declaration % 6])
                #expect(earlier == reference[name], "round \(round): \(name)")
                if reference[name] == nil { reference[name] = symbol }
            }
            #expect(scope.count == reference.count)
            // A name given by its bytes is found as by its string.
            func byBytes(_ name: String) -> (symbol: Symbol, kind: DeclarationKind)?? {
                Array(name.utf8).withUnsafeBufferPointer { scope.entry(utf8: $0) }
            }
            for (k, v) in reference {
                #expect(scope[k] == v, "round \(round): \(k)")
                #expect(scope.entry(k)?.kind == DeclarationKind.allCases[v.declaration % 6])
                let found = byBytes(k)
                #expect(found??.symbol == v && found??.kind == scope.entry(k)?.kind, "round \(round): \(k) by its bytes")
            }
            for stem in stems {
                #expect(scope[stem + "x"] == nil)
                #expect(byBytes(stem + "x").map { $0 == nil } == true)
            }
            // Laid over this one, a scope finds its base's names and its own by their bytes.
            var over = Scope(over: scope)
            _ = over.insertIfAbsent("own", Symbol(file: 9, declaration: 1), kind: .screen)
            for (k, v) in reference.prefix(20) { #expect(Array(k.utf8).withUnsafeBufferPointer { over.entry(utf8: $0) }??.symbol == v) }
            #expect(Array("own".utf8).withUnsafeBufferPointer { over.entry(utf8: $0) }??.symbol == Symbol(file: 9, declaration: 1))
            #expect(Dictionary(uniqueKeysWithValues: scope.map { ($0.key, $0.value) }) == reference)
        }
    }
}

/// Renaming in a scope answers as the scope built again: names renamed among long runs of
/// taken slots (a small table, so that runs wrap around its end), to free and to taken names.
@Suite struct ScopeRenameTests {
    @Test func aRenamedScopeAnswersAsOneBuiltAgain() {
        var random = SplitMix64(seed: 11)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        for round in 0..<40 {
            var scope = Scope()
            var reference: [String: Symbol] = [:]
            for d in 0..<(5 + next(300)) {
                let name = "n\(next(400))"
                if reference[name] == nil {
                    reference[name] = Symbol(file: 0, declaration: d)
                    _ = scope.insertIfAbsent(name, Symbol(file: 0, declaration: d), kind: .screen)
                }
            }
            for _ in 0..<200 {
                let names = Array(reference.keys)
                let old = names[next(names.count)]
                let new = "n\(next(600))"
                let symbol = reference[old]!
                let renamed = scope.rename(old, to: new, symbol, kind: .screen)
                // A name taken already is refused (it would be declared twice), as is a symbol
                // the old name does not stand for.
                #expect(renamed == (reference[new] == nil && old != new), "round \(round): \(old) → \(new)")
                var copy = scope
                let wrongSymbol = copy.rename(old, to: "m\(next(9))", Symbol(file: 9, declaration: 9), kind: .screen)
                #expect(!wrongSymbol)
                if renamed {
                    reference[old] = nil
                    reference[new] = symbol
                }
                #expect(scope.count == reference.count)
            }
            for (k, v) in reference {
                #expect(scope[k] == v, "round \(round): \(k)")
                // By its bytes: the same answer, or none while renames are kept beside the table.
                let byBytes = Array(k.utf8).withUnsafeBufferPointer { scope.entry(utf8: $0) }
                #expect(byBytes == nil ? scope.renames != nil : byBytes??.symbol == v, "round \(round): \(k) by its bytes")
            }
            #expect(Dictionary(uniqueKeysWithValues: scope.map { ($0.key, $0.value) }) == reference)
        }
    }
}

/// A file's scope laid over the scope of the file it imports holds the names it would hold
/// alone, in the same order of precedence, with each duplicate reported once.
@Suite struct LayeredScopeTests {
    /// The scope built without layers: the closure's declarations in order, the first wins.
    static func flat(_ p: Project, _ f: FileID) -> [String: Symbol] {
        var out: [String: Symbol] = [:]
        for g in p.closures[f] {
            for (i, d) in p.files[g].model.declarations.enumerated() where out[d.name.text] == nil {
                out[d.name.text] = Symbol(file: g, declaration: i)
            }
        }
        return out
    }

    @Test func aScopeOverItsImportsScopeHoldsWhatItWouldAlone() {
        var files: [String: String] = [
            "/ws/Shared.routes": "screen Home\ndependency store: Store\nflag beta\nbuilder shared { screen Home }\n",
            // Declares `Home` again: the shared one wins, and the duplicate is reported once.
            "/ws/A.routes": "import \"Shared.routes\"\nscreen A\nscreen Home\nbuilder a { screen A }\n",
            // Imports Shared and A: its closure is A's and itself, so it lies over A's.
            "/ws/B.routes": "import \"Shared.routes\"\nimport \"A.routes\"\nscreen B\nbuilder b { a }\n",
            "/ws/C.routes": "import \"B.routes\"\nimport \"Other.routes\"\nscreen C\n",
            "/ws/Other.routes": "screen O\n",
        ]
        // A chain longer than the layers allowed: from some file on, scopes start flat again.
        for i in 0..<12 {
            files["/ws/Chain\(i).routes"] = (i == 0 ? "import \"Shared.routes\"\n" : "import \"Chain\(i - 1).routes\"\n") + "screen Link\(i)\n"
        }
        let p = project(files)
        func id(_ name: String) -> FileID { p.file(atPath: "/ws/\(name).routes")! }
        #expect(p.scopes[id("Shared")].depth == 0)
        #expect(p.scopes[id("A")].depth == 1)
        #expect(p.scopes[id("B")].depth == 2)
        #expect(p.scopes[id("C")].depth == 0, "C's closure adds Other before C: not A's or B's plus C")
        #expect(p.scopes.map(\.depth).max() == Project.maxScopeDepth)
        for f in p.files.indices {
            let expected = Self.flat(p, f)
            let scope = p.scopes[f]
            #expect(scope.count == expected.count, "\(p.files[f].path)")
            #expect(Dictionary(uniqueKeysWithValues: scope.map { ($0.key, $0.value) }) == expected, "\(p.files[f].path)")
            for (name, symbol) in expected { #expect(scope[name] == symbol) }
            #expect(scope["Nowhere"] == nil)
        }
        let duplicates = p.diagnostics.filter { $0.rule == .duplicateDeclaration }
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.file == id("A"))
    }

    /// The files of the earlier waves resolve their names while the last wave's scopes are
    /// made: each file's resolutions, suggestions and diagnostics are what resolving it alone,
    /// over the finished scopes, gives.
    @Test func namesResolvedWhileTheRootsScopeIsMadeAreThoseOfTheFinishedScopes() {
        var files: [String: String] = [
            "/ws/Shared.routes": "screen Home\ndependency store: Store\nflag beta\nbuilder shared { screen Home uses stre }\n",
            "/ws/App.routes": "import \"Shared.routes\"\n" + (0..<6).map { "import \"F\($0).routes\"\n" }.joined()
                + "screen Home\nroot { anyOf { f0 f5 shard screen Hme } }\n",
        ]
        for i in 0..<6 {
            files["/ws/F\(i).routes"] = "import \"Shared.routes\"\nscreen S\(i)\nbuilder f\(i) { screen S\(i) uses stor { shared } }\n"
                + "builder g\(i) { conditional bta { screen Hom } else { screen S\(i) } }\n"
        }
        let p = project(files, entries: ["/ws/App.routes"])
        #expect(p.files.count == 8)
        var undefined = 0
        for f in p.files.indices {
            let alone = p.resolveNames(in: f)
            let together = Dictionary(uniqueKeysWithValues: p.resolutions[f].map { ($0.0, $0.1) })
            #expect(together == Dictionary(uniqueKeysWithValues: alone.resolutions.map { ($0.0, $0.1) }), "\(p.files[f].path)")
            #expect(p.guesses[f] == alone.guesses, "\(p.files[f].path)")
            #expect(!alone.guesses.isEmpty, "every file here misspells a name: \(p.files[f].path)")
            for diagnostic in alone.diagnostics { #expect(p.diagnostics.contains(diagnostic)) }
            undefined += alone.diagnostics.filter { $0.rule == .undefinedName }.count
        }
        #expect(undefined == 1 + 6 * 3 + 2)
        #expect(p.diagnostics.filter { $0.rule == .undefinedName }.count == undefined)
    }
}

/// Work shared between the helper threads and the caller: every item done once, results in
/// order, whether the helpers began (or not at all) before the results were asked for.
@Suite struct SharedWorkListTests {
    @Test func everyItemIsDoneOnceInOrder() {
        for (count, started) in [(0, true), (1, true), (7, false), (500, true), (500, false)] {
            let done = Atomic<Int>(0)
            let list = SharedWorkList(count: count) { i -> Int in
                done.wrappingAdd(1, ordering: .relaxed)
                return i * i
            }
            if started { list.start() }
            #expect(list.results() == (0..<count).map { $0 * $0 })
            #expect(done.load(ordering: .relaxed) == count)
        }
    }
}
