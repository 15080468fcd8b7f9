import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing
import TestSupport

/// `routes lint` drops each file's tokens and syntax nodes once it is lowered, and lowers no
/// doc comments (`Project(keepsSyntax: false, keepsDocs: false)`); what the analysis still
/// reads of the trees (the code quoted in messages, suppression comments) is lexed again from
/// the text. Its diagnostics must be the
/// very ones of a project that keeps the trees: checked over every fixture, every example,
/// generated programs with mistakes planted in them, and texts made for the quoting. A tree
/// asked for afterwards (the language server drops the trees of files no editor has open) is
/// parsed again, once, and is the tree first parsed.
@Suite struct DroppedSyntaxTests {
    static func project(_ files: [String: [UInt8]], keepsSyntax: Bool, keepsDocs: Bool = true) -> Project {
        let names = files.keys.sorted()
        var paths: [String: [UInt8]] = [:]
        for (n, t) in files { paths["/ws/" + n] = t }
        return Project(entries: names.enumerated().map { i, n in
            ProjectEntry(canonicalPath: "/ws/" + n, displayPath: n, group: i, workspaceRoot: "/ws")
        }, provider: MemoryProvider(bytes: paths), keepsSyntax: keepsSyntax, keepsDocs: keepsDocs)
    }

    /// Everything a renderer shows of a diagnostic.
    static func rendered(_ session: AnalysisSession) -> [String] {
        session.diagnostics.map { d in
            "\(d.file) \(d.range) \(d.severity) \(d.rule) \(d.message) | "
                + d.related.map { "\($0.file) \($0.range) \($0.message)" }.joined(separator: "; ")
        }.sorted()
    }

    /// Checks one workspace; returns how many diagnostics it had.
    @discardableResult
    static func check(_ files: [String: [UInt8]], name: String) -> Int {
        let kept = project(files, keepsSyntax: true), dropped = project(files, keepsSyntax: false, keepsDocs: false)
        #expect(dropped.files.allSatisfy { !$0.keptSyntax.hasTokens }, "\(name): a tree was kept")
        #expect(dropped.files.allSatisfy { $0.model.declarations.allSatisfy { $0.doc == nil } }, "\(name): a doc comment was kept")
        let expected = rendered(AnalysisSession(project: kept))
        #expect(rendered(AnalysisSession(project: dropped)) == expected, "\(name)")
        // The analysis needed no tree: none was parsed again.
        #expect(!dropped.files.contains { $0.isSyntaxParsedAgain }, "\(name): a tree was parsed again")
        // Every node head and declaration quoted the same (messages quote few of them).
        for f in kept.files.indices {
            let model = kept.files[f].model
            let ranges = model.nodes.map(\.head) + model.nodes.map(\.range) + model.declarations.map(\.range)
            for r in ranges where kept.quoted(file: f, r) != dropped.quoted(file: f, r) {
                Issue.record("\(name): \(kept.files[f].displayPath) \(r) quoted «\(dropped.quoted(file: f, r))», not «\(kept.quoted(file: f, r))»")
                return expected.count
            }
        }
        // A tree asked for is the one parsed at first.
        for f in kept.files.indices {
            let (a, b) = (kept.files[f].syntax, dropped.files[f].syntax)
            #expect(a.tokens == b.tokens && a.nodes == b.nodes && a.diagnostics == b.diagnostics,
                    "\(name): \(kept.files[f].displayPath) parsed again otherwise")
            #expect(dropped.files[f].isSyntaxParsedAgain && dropped.files[f].syntax === b, "\(name): parsed again twice")
        }
        return expected.count
    }

    @Test(arguments: FixPropertyTests.inputs)
    func aFixtureOrExampleReportsTheSameWithoutItsTrees(_ input: FixPropertyTests.Input) {
        Self.check(input.files.mapValues { Array($0.utf8) }, name: input.name)
    }

    @Test func generatedProgramsReportTheSameWithoutTheirTrees() {
        var diagnostics = 0
        for seed in UInt64(0)..<150 {
            let text = Mistakes.plant(in: ProgramGenerator.generate(seed: seed).text, seed: seed)
            diagnostics += Self.check(["App.routes": Array(text.utf8)], name: "generated program \(seed)")
        }
        #expect(diagnostics > 150)
    }

    /// Heads written across lines, with comments, CR LF line ends, a byte-order mark, invalid
    /// UTF-8 and a suppression comment: the quoting lexes from a line start, not the file's.
    @Test func headsWithCommentsAndOddBytesQuoteTheSame() {
        let text = "\u{FEFF}/// The first screen.\r\nscreen Home\r\nscreen Detail(id: String) // the id\r\nflag unused // routes:ignore shadowed-branch\r\n"
            + "dependency s: Set<String> /* not a comment */\r\nroot {\r\n  anyOf {\r\n    screen // why\r\n      Home\r\n"
            + "    screen\r\n Detail uses s { wildcard // any\r\n Detail { empty } }\r\n    screen Home\r\n  }\r\n}\r\n"
        var bytes = Array(text.utf8)
        bytes.insert(contentsOf: [0xFF, 0xFE], at: bytes.count - 8)
        let count = Self.check(["App.routes": bytes], name: "odd heads")
        #expect(count >= 3)
        // The doc comment is in the model a language server reads, and left out of a lint's.
        #expect(Self.project(["App.routes": bytes], keepsSyntax: true).files[0].model.declarations[0].doc == "The first screen.")
        // The shadowed `screen Home` quotes the first branch, written across two lines.
        let session = AnalysisSession(project: Self.project(["App.routes": bytes], keepsSyntax: false))
        #expect(session.diagnostics.contains { $0.rule == .shadowedBranch && $0.message.contains("`screen Home`") })
        #expect(session.diagnostics.contains { $0.rule == .unusedSuppression })
    }
}
