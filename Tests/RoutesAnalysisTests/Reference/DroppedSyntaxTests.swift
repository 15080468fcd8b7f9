import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing
import TestSupport

/// `routes lint` drops each file's tokens and syntax nodes once it is lowered, lowers no doc
/// comments or types, no parameters unless a file may declare a link, keeps no text but those
/// with a suppression comment and no scope but those the analyses read
/// (`Project.forLint(entries:provider:)`); what the analysis still reads of the trees (the code quoted in
/// messages, suppression comments) is lexed again from the text, read again for the files it
/// reports on. Its diagnostics must be the very ones of a project that keeps everything:
/// checked over every fixture, every example, generated programs with mistakes planted in
/// them, and texts made for the quoting. A tree asked for afterwards (the language server
/// drops the trees of files no editor has open) is parsed again, once, and is the tree first
/// parsed.
@Suite struct DroppedSyntaxTests {
    static func project(_ files: [String: [UInt8]], keeps: Project.Keeps, provider: (any SourceProvider)? = nil) -> Project {
        Project(entries: entries(files), provider: provider ?? Self.provider(files), keeps: keeps)
    }

    /// Everything but the syntax trees (as the language server keeps files no editor has open).
    static let withoutTrees = Project.Keeps(syntaxTrees: .none, docComments: true, texts: true, signatures: true, scopes: true)

    /// The project `routes lint` makes of `files`.
    static func lintProject(_ files: [String: [UInt8]]) -> Project {
        Project.forLint(entries: entries(files), provider: provider(files))
    }

    static func entries(_ files: [String: [UInt8]]) -> [ProjectEntry] {
        files.keys.sorted().enumerated().map { i, n in
            ProjectEntry(canonicalPath: "/ws/" + n, displayPath: n, group: i, workspaceRoot: "/ws")
        }
    }

    static func provider(_ files: [String: [UInt8]]) -> MemoryProvider {
        var paths: [String: [UInt8]] = [:]
        for (n, t) in files { paths["/ws/" + n] = t }
        return MemoryProvider(bytes: paths)
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
        let kept = project(files, keeps: .everything)
        let dropped = lintProject(files)
        #expect(dropped.files.allSatisfy { !$0.keptSyntax.hasTokens }, "\(name): a tree was kept")
        #expect(dropped.files.allSatisfy { $0.model.declarations.allSatisfy { $0.doc == nil } }, "\(name): a doc comment was kept")
        #expect(dropped.files.allSatisfy { $0.model.declarations.allSatisfy { $0.type == nil } }, "\(name): a type was kept")
        // The screens' parameters, where a file may declare a link (all files are loaded at
        // once here), and those only.
        let keepsParameters = files.values.contains { LinkKeyword.mayDeclareLink(in: $0) }
        #expect(!kept.hasLinks || keepsParameters, "\(name): a link was not seen")
        for f in dropped.files {
            for (declaration, full) in zip(f.model.declarations, kept.files[f.id].model.declarations) {
                #expect(declaration.parameters == (keepsParameters ? full.parameters : []), "\(name): \(declaration.name.text)'s parameters")
            }
        }
        // A scope is kept where an analysis reads it, and only there.
        for f in dropped.files.indices {
            let read = !dropped.files[f].model.skippedNames.isEmpty
            #expect(dropped.scopes[f].count == (read ? kept.scopes[f].count : 0), "\(name): the scope of \(dropped.files[f].displayPath)")
        }
        // Without the root files' scopes, a program still knows which declarations are
        // declared again.
        for p in kept.programs {
            for f in p.files {
                for d in kept.files[f].model.declarations.indices {
                    let s = Symbol(file: f, declaration: d)
                    #expect(dropped.isRedeclaration(s, in: p) == kept.isRedeclaration(s, in: p), "\(name): \(s)")
                }
            }
        }
        // A text is kept where it mentions the suppression marker, and only there.
        for f in dropped.files {
            let marked = kept.files[f.id].text.string.contains("routes:ignore")
            #expect(f.keepsText == marked && (f.keepsText || f.keptSyntax.source.count == 0), "\(name): \(f.displayPath)")
        }
        let expected = rendered(AnalysisSession.forEditor(project: kept))
        let droppedSession = AnalysisSession.forLint(project: dropped)
        #expect(rendered(droppedSession) == expected, "\(name)")
        // The files declaring the screens of links' paths: a link is checked against their
        // parameters, which a lint's model leaves out.
        var linked = Set<FileID>()
        for file in kept.files {
            for declaration in file.model.declarations {
                for element in declaration.link?.path ?? [] {
                    if let s = kept.resolve(element.screen, in: file.id) { linked.insert(s.file) }
                }
            }
        }
        // The analysis read again only the texts of files its diagnostics are in or point to,
        // and those.
        let mentioned = Set(droppedSession.diagnostics.flatMap { [$0.file] + $0.related.map(\.file) })
        for f in dropped.files where f.isTextReadAgain && !mentioned.contains(f.id) && !linked.contains(f.id) {
            Issue.record("\(name): \(f.displayPath) was read again, and no diagnostic is about it")
        }
        #expect(!dropped.files.contains { $0.isTextChangedSinceRead }, "\(name)")
        // The analysis needed no tree but those of the files declaring a screen with
        // parameters that a wildcard names (whose labels the message lists), and those whose
        // builder nodes it lowered again for a `missing-dependency` error's name.
        let labelled = Set(droppedSession.diagnostics.filter { $0.rule == .invalidWildcard }.flatMap { $0.related.map(\.file) })
        let relowered = Set(droppedSession.diagnostics.filter { $0.rule == .missingDependency }.map(\.file))
        #expect(!dropped.files.contains { $0.isSyntaxParsedAgain && !labelled.contains($0.id) && !relowered.contains($0.id) && !linked.contains($0.id) },
                "\(name): a tree was parsed again")
        // A project with links keeps its builder nodes: the link rules resolve paths over them.
        let slim = droppedSession.project
        if kept.hasLinks {
            #expect(slim.files.allSatisfy { !$0.model.nodesLeftOut }, "\(name): builder nodes were left out")
        } else {
            // The session let go of every builder node, and of what names resolve to but the
            // declarations' `from`.
            #expect(slim.files.allSatisfy { $0.model.nodesLeftOut && $0.model.nodes.isEmpty }, "\(name): builder nodes were kept")
        }
        for f in slim.files.indices where !kept.hasLinks {
            let froms = Set(slim.files[f].model.declarations.compactMap { $0.from?.range.lowerBound })
            let expectedFroms = kept.resolutions[f].filter { froms.contains($0.key) }
            #expect(slim.resolutions[f].map(\.key).sorted() == expectedFroms.map(\.key).sorted(), "\(name): resolutions of \(f)")
            let again = slim.builderNodes(of: f), model = kept.files[f].model
            #expect(again.nodes.map(\.range) == model.nodes.map(\.range), "\(name): nodes of \(f)")
            #expect(again.useNames == model.useNames && again.branchIDs == model.branchIDs, "\(name): lists of \(f)")
        }
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
        #expect(Self.project(["App.routes": bytes], keeps: .everything).files[0].model.declarations[0].doc == "The first screen.")
        // The shadowed `screen Home` quotes the first branch, written across two lines.
        let session = AnalysisSession.forEditor(project: Self.project(["App.routes": bytes], keeps: Self.withoutTrees))
        #expect(session.diagnostics.contains { $0.rule == .shadowedBranch && $0.message.contains("`screen Home`") })
        #expect(session.diagnostics.contains { $0.rule == .unusedSuppression })
        // Without the suppression comment the lint keeps no text: the quotes, positions and
        // the invalid bytes' error come from the text read again.
        var plainBytes = Array(text.replacing(" // routes:ignore shadowed-branch", with: "").utf8)
        plainBytes.insert(contentsOf: [0xFF, 0xFE], at: plainBytes.count - 8)
        #expect(Self.check(["App.routes": plainBytes], name: "odd heads, no suppression") >= 3)
        let lint = Self.project(["App.routes": plainBytes], keeps: Project.Keeps(syntaxTrees: .none, docComments: false, texts: false, signatures: true, scopes: true))
        #expect(!lint.files[0].keepsText && lint.files[0].text.invalidUTF8.count == 1)
    }

    /// A run of invalid UTF-8 is read as one U+FFFD, which the lexer knows from a U+FFFD
    /// written in the file (a run of unexpected characters, glued to what follows): lexed
    /// again from a line start, the run is still known as a run, and the head quoted in a
    /// message, or a screen's parameters read again alone, are the same.
    @Test func aRunOfInvalidBytesLexesAgainAsItDidFirst() {
        var head = Array("screen A\nscreen C\nflag beta\nroot {\n  screen A {\n    conditional beta { empty } else if ".utf8)
        head += [0xFF, 0xFF, 0x0B] + Array("beta { screen C }\n  }\n}\n".utf8)
        let files = ["App.routes": head]
        Self.check(files, name: "invalid bytes in a head")
        let lint = AnalysisSession.forLint(project: Self.lintProject(files))
        #expect(lint.diagnostics.contains { $0.rule == .unreachableScreen && $0.message.contains("`if \u{FFFD} \u{0B} beta`") },
                "\(lint.diagnostics.map(\.message))")
        var screen = Array("screen Home\nscreen Detail(id: Int, ".utf8) + [0xFF, 0x0B] + Array("n: Int)\nlink d \"/d/{id}\" -> Home/Detail(id: id)\n".utf8)
        screen += Array("root { screen Home { screen Detail } }\n".utf8)
        Self.check(["App.routes": screen], name: "invalid bytes in a parameter list")
    }

    /// A syntax error on the line after a plain link, before the next declaration, is the
    /// link's, as when the link is read token by token: its path is judged in neither case.
    @Test func aSyntaxErrorAfterAPlainLinkIsHeldByIt() {
        let text = """
            screen Home
            screen Orphan
            link never "/x" -> Home/Orphan
            $root { screen Home }

            """
        let files = ["App.routes": Array(text.utf8)]
        Self.check(files, name: "an error after a link")
        let lint = AnalysisSession.forLint(project: Self.lintProject(files))
        #expect(!lint.diagnostics.contains { $0.rule == UnbuildableLink.id })
        #expect(lint.diagnostics.contains { $0.rule == .syntaxError })
    }

    /// The screens of a lint's links are looked up by their bytes: a screen of the file or of
    /// an import, a scope laid over its import's, a typo (its suggestion), a flag and a builder
    /// named where a screen goes are reported as the server reports them.
    @Test func aLinksScreensResolveAsTheServersDo() {
        let files: [String: [UInt8]] = [
            "App.routes": Array("""
                import "Lib.routes"
                screen Home
                flag on
                builder more { screen Home }
                link a "/a/{id}" -> Home/Detail(id: id)
                link b "/b" -> Home/Detial(id: 1)
                link c "/c" -> on/Home
                link d "/d" -> Home/more
                link e "/e" -> Home/Détail
                root { screen Home { anyOf { screen Detail more } } }

                """.utf8),
            "Lib.routes": Array("screen Detail(id: Int)\n".utf8),
        ]
        Self.check(files, name: "links' screens")
        let session = AnalysisSession.forLint(project: Self.lintProject(files))
        let messages = session.diagnostics.map(\.message)
        #expect(session.diagnostics.contains { $0.rule == .undefinedName && $0.message.contains("Detial") && $0.message.contains("Detail") },
                "\(messages)")
        #expect(session.diagnostics.filter { $0.rule == .wrongKind }.count == 2, "\(messages)")
    }

    /// A name in text a syntax error skipped, in a file that is not a program's root: the
    /// lint keeps that file's scope, which says what the name stands for (here the screen
    /// the skipped builder places, not reported as never placed).
    @Test func aNameSkippedInALibraryIsReadInItsScope() {
        let files: [String: [UInt8]] = [
            "App.routes": Array("import \"Lib.routes\"\nroot { lib }\n".utf8),
            "Lib.routes": Array("screen Home\nscreen Extra\nbuilder lib {\n  screen Home\n  screen Extra\n}\n".utf8),
        ]
        Self.check(files, name: "skipped name in a library")
        let lint = Self.lintProject(files)
        let lib = lint.files.first { $0.displayPath == "Lib.routes" }!
        #expect(!lib.model.skippedNames.isEmpty && !lint.scopes[lib.id].isEmpty)
        let session = AnalysisSession.forEditor(project: lint)
        #expect(session.diagnostics.contains { $0.rule == .syntaxError })
        #expect(!session.diagnostics.contains { $0.message.contains("Extra") }, "\(session.diagnostics.map(\.message))")
    }

    /// Names declared twice, in a root file whose scope is laid over its import's and in a
    /// program that reaches the same file by two imports: a lint keeps no root file's scope,
    /// and knows the same declarations lose.
    @Test func aNameDeclaredTwiceLosesAsInTheRootFilesScope() {
        let files: [String: [UInt8]] = [
            // App's scope is laid over Lib's (App imports Lib alone).
            "App.routes": Array("import \"Lib.routes\"\nscreen Home\nscreen Only\nroot { lib }\n".utf8),
            "Lib.routes": Array("screen Home\nscreen Twice\nscreen Twice\nbuilder lib { anyOf { screen Home\n screen Twice } }\n".utf8),
            // Other sees Lib and Mid, which both declare `Mid`.
            "Other.routes": Array("import \"Mid.routes\"\nimport \"Lib.routes\"\nroot { anyOf { lib\n mid } }\n".utf8),
            "Mid.routes": Array("import \"Lib.routes\"\nscreen Twice\nscreen Extra\nbuilder mid { screen Extra }\n".utf8),
        ]
        let count = Self.check(files, name: "names declared twice")
        #expect(count >= 3)
        let lint = Self.lintProject(files)
        #expect(lint.scopes.allSatisfy { $0.isEmpty })
        let full = Self.project(files, keeps: .everything)
        var redeclared: [String] = []
        for p in lint.programs {
            for f in p.files {
                for d in lint.files[f].model.declarations.indices where lint.isRedeclaration(Symbol(file: f, declaration: d), in: p) {
                    redeclared.append("\(lint.files[p.root.file].displayPath): \(lint.files[f].displayPath) \(lint.files[f].model.declarations[d].name.text)")
                }
            }
        }
        let expected = ["App.routes: App.routes Home", "App.routes: Lib.routes Twice",
                        "Other.routes: Lib.routes Twice", "Other.routes: Mid.routes Twice"]
        #expect(redeclared.sorted() == expected)
        #expect(full.programs.count == 2)
    }

    /// A program large enough that a lint makes its `missing-dependency` plan on another
    /// core while the semantics is computed, checks the rule before the flows and gives the
    /// plan's pages back: the same diagnostics as the server's order, a missing dependency
    /// planted in every seventh feature among them.
    @Test func aLargeProgramChecksMissingDependenciesAsTheServerDoes() {
        var text = "dependency analytics: Analytics\nscreen Web sheet\nbuilder web { screen Web uses analytics }\n"
        let features = 800
        for k in 0..<features {
            let (F, f, next) = ("F\(k)", "f\(k)", "f\((k + 1) % features)")
            // The share builder of every seventh feature uses the feature's store, which only
            // its home screen provides: the next feature's detail reaches it without.
            let shareUses = k % 7 == 0 ? "\(f)Store" : "analytics"
            text += """
                screen \(F)Home
                screen \(F)List(filter: String)
                screen \(F)Detail(id: \(F).ID) sheet
                screen \(F)Edit(id: \(F).ID) sheet(allowsPush: false)
                screen \(F)Related(id: \(F).ID)
                screen \(F)Settings
                screen \(F)Beta
                screen \(F)Share sheet
                screen \(F)Help
                dependency \(f)Store: \(F)Store from \(F)Home
                optional \(f)Draft: \(F)Draft
                flag \(f)Beta
                builder \(f)Share { screen \(F)Share uses \(shareUses) }
                builder \(f)Detail {
                  screen \(F)Detail uses \(f)Store, analytics {
                    anyOf {
                      screen \(F)Related uses \(f)Store { \(f)Detail }
                      if let \(f)Draft { screen \(F)Edit uses \(f)Store, \(f)Draft }
                      \(next)Share
                      web
                    }
                  }
                }
                builder \(f) {
                  screen \(F)Home uses analytics {
                    anyOf {
                      screen \(F)List uses \(f)Store { \(f)Detail }
                      conditional \(f)Beta { screen \(F)Beta uses \(f)Store } else { screen \(F)Settings uses \(f)Store }
                      if screen \(F)Help { screen \(F)Help } else { \(f)Detail }
                      \(f)Share
                    }
                  }
                }

                """
        }
        text += "root {\n  anyOf {\n" + (0..<features).map { "    f\($0)\n" }.joined() + "  }\n}\n"
        let files = ["App.routes": Array(text.utf8)]
        let nodes = Self.project(files, keeps: Self.withoutTrees).files[0].model.nodes.count
        #expect(nodes >= 16_384, "\(nodes) nodes: too few for the plan to be made on another core")
        Self.check(files, name: "a large program")
        let lint = AnalysisSession.forLint(project: Self.lintProject(files))
        let missing = lint.diagnostics.filter { $0.rule == .missingDependency }
        #expect(missing.count >= features / 7, "\(missing.count) missing dependencies")
    }

    /// A lint's checker works in its own order (`missing-dependency` before the flows, nodes
    /// freed in between and made again): with any node budget, it stops (an `analysis-limit`
    /// error) exactly where the server's analysis stops, because one that ran out is made
    /// again in the server's order.
    @Test func aLintStopsAtItsBudgetWhereTheServerStops() {
        var differed = 0
        for seed in UInt64(0)..<12 {
            let files = ["App.routes": Array(ProgramGenerator.generate(seed: seed).text.utf8)]
            let total = AnalysisSession.forEditor(project: Self.project(files, keeps: .everything)).decisionNodeCounts.max() ?? 0
            for budget in 1...(total + 2) {
                let limits = AnalysisLimits(nodes: budget)
                let server = AnalysisSession.forEditor(project: Self.project(files, keeps: .everything), limits: limits)
                let lint = AnalysisSession.forLint(project: Self.lintProject(files), limits: limits)
                if Self.rendered(lint) != Self.rendered(server) {
                    differed += 1
                    Issue.record("generated program \(seed), a budget of \(budget) nodes: the lint reports otherwise: \(Self.rendered(lint)) against \(Self.rendered(server))")
                }
            }
        }
        #expect(differed == 0)
    }

    /// The same with links: a lint follows their paths on another core, in a copy of the
    /// decision-diagram manager whose work is charged to the original's budget; with any node
    /// budget it reports what the server reports (`unbuildable-link` included), and stops
    /// where the server stops.
    @Test func aLintWithLinksStopsAtItsBudgetWhereTheServerStops() {
        var differed = 0, unbuildable = 0, stopped = 0, linted = 0
        for seed in UInt64(0)..<12 {
            let generated = ProgramGenerator.generate(seed: seed)
            var rng = SplitMix64(seed: seed &* 131 &+ 3)
            let names = ["Home", "Detail", "Settings", "Profile", "Modal"].filter { generated.text.contains("screen \($0)") }
            guard !names.isEmpty else { continue }
            var links: [String] = []
            for index in 0..<6 {
                let path = (0..<(Int(rng.next() % 3) + 1)).map { _ -> String in
                    let name = names[Int(rng.next() % UInt64(names.count))]
                    return generated.text.contains("screen \(name)(id: String)") ? "\(name)(id: v)" : name
                }
                let placeholder = path.contains { $0.hasSuffix("(id: v)") } ? "/{v}" : ""
                links.append("link l\(index) \"/l\(index)\(placeholder)\" -> \(path.joined(separator: "/"))")
            }
            let files = ["App.routes": Array((generated.text + "\n" + links.joined(separator: "\n") + "\n").utf8)]
            let total = AnalysisSession.forEditor(project: Self.project(files, keeps: .everything)).decisionNodeCounts.max() ?? 0
            for budget in [nil] + (1...(total + 2)).map({ Optional($0) }) {
                let limits = budget.map { AnalysisLimits(nodes: $0) } ?? .standard
                let server = AnalysisSession.forEditor(project: Self.project(files, keeps: .everything), limits: limits)
                let lint = AnalysisSession.forLint(project: Self.lintProject(files), limits: limits)
                let (mine, theirs) = (Self.rendered(lint), Self.rendered(server))
                linted += 1
                if mine.contains(where: { $0.contains("unbuildable-link") }) { unbuildable += 1 }
                if mine.contains(where: { $0.contains("analysis-limit") }) { stopped += 1 }
                if mine != theirs {
                    differed += 1
                    Issue.record("generated program \(seed) with links, a budget of \(budget.map(String.init) ?? "none"): the lint reports otherwise: \(mine.filter { !theirs.contains($0) }) against \(theirs.filter { !mine.contains($0) })")
                }
            }
        }
        #expect(differed == 0)
        // The programs exercise unbuildable links, and budgets that stop the analysis.
        #expect(unbuildable >= 20 && stopped >= 100 && linted - stopped >= 40, "\(linted) lints: \(unbuildable) with an unbuildable link, \(stopped) stopped")
    }

    /// A declaration edit resolves names again in the file's scope: a lint's project, which
    /// keeps few scopes, is built again rather than edited.
    @Test func aLintsProjectIsNotEditedInPlace() {
        let text = "screen Home\nscreen Other\nroot { screen Home }\n"
        let files = ["App.routes": Array(text.utf8)]
        let start = text.range(of: "{ screen Home")!.upperBound.utf16Offset(in: text) - 4
        let edited = SourceText(bytes: Array(text.replacing("{ screen Home", with: "{ screen Other").utf8))
        let full = Self.project(files, keeps: .everything)
        #expect(full.applyingDeclarationEdit(file: 0, range: start..<(start + 4), replacement: Array("Other".utf8), newSource: edited) != nil)
        let lint = Self.lintProject(files)
        #expect(lint.applyingDeclarationEdit(file: 0, range: start..<(start + 4), replacement: Array("Other".utf8), newSource: edited) == nil)
    }

    /// A file that changes on disk between the load and the first question for its text is
    /// noticed (the lint then reports nothing and exits 2), and one that does not is not.
    @Test func aTextReadAgainIsCheckedAgainstTheFirstRead() {
        let first = Array("screen Home\nscreen Lost\nroot { screen Home }\n".utf8)
        final class Changing: SourceProvider, @unchecked Sendable {
            var bytes: [UInt8]
            init(_ bytes: [UInt8]) { self.bytes = bytes }
            func canonicalPath(_ path: String) -> String? { path == "/ws/App.routes" ? path : nil }
            func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> { .success(bytes) }
        }
        // (Changes of one byte that keep the length: in each of the digest's four lanes of the
        // first 32 bytes, and in its last bytes.)
        func replacing(_ offset: Int) -> [UInt8] {
            var bytes = first
            bytes[offset] ^= 0x20
            return bytes
        }
        for (later, changed) in [(first, false), (Array("screen Home\nscreen Lost\nroot { screen Lost }\n".utf8), true),
                                 (first + [0x0A], true), ([], true),
                                 (replacing(1), true), (replacing(12), true), (replacing(20), true), (replacing(27), true),
                                 (replacing(first.count - 3), true)] {
            let provider = Changing(first)
            let project = Self.project(["App.routes": first], keeps: Project.Keeps(syntaxTrees: .none, docComments: true, texts: false, signatures: true, scopes: true), provider: provider)
            #expect(!project.files[0].keepsText && !project.files[0].isTextReadAgain)
            provider.bytes = later
            let session = AnalysisSession.forEditor(project: project)
            // `Lost` is never placed: its warning is positioned in the text read again.
            #expect(session.diagnostics.contains { $0.rule == .unreachableScreen || $0.rule == .unusedDeclaration })
            _ = project.files[0].text.position(of: 12, encoding: .scalars)
            #expect(project.files[0].isTextReadAgain)
            #expect(project.files[0].isTextChangedSinceRead == changed, "\(later.count) bytes")
        }
    }
}
