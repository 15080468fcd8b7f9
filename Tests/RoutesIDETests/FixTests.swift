import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing
import TestSupport

@testable import RoutesIDE

/// One fix: the files (the first is `App.routes`, whose first diagnostic of `rule` is fixed),
/// the fix chosen by the start of its title, its applicability, and the files after it.
struct FixCase: CustomTestStringConvertible, Sendable {
    var name: String
    var files: [String: String]
    var rule: RuleID
    var title: String
    var applicability: FixApplicability
    var expected: [String: String]
    var preferred = false
    /// The file of the diagnostic fixed.
    var file = "App.routes"
    var testDescription: String { name }
}

private let cases: [FixCase] = [
    // undefined-name
    .init(name: "undefined-name: the suggested name",
          files: ["App.routes": "screen Home\ndependency catalogStore: CatalogStore\nroot { screen Home uses catalogStor }\n"],
          rule: .undefinedName, title: "Use `catalogStore`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\ndependency catalogStore: CatalogStore\nroot { screen Home uses catalogStore }\n"],
          preferred: true),
    .init(name: "undefined-name: declare a screen after the screens",
          files: ["App.routes": "/// Home.\nscreen Home // first\nflag f\n\nroot { screen Home { screen Inbox } }\n"],
          rule: .undefinedName, title: "Declare a screen `Inbox`", applicability: .unsafe,
          expected: ["App.routes": "/// Home.\nscreen Home // first\nscreen Inbox\nflag f\n\nroot { screen Home { screen Inbox } }\n"]),
    .init(name: "undefined-name: declare a screen after the byte-order mark",
          files: ["App.routes": "\u{FEFF}root { screen Home }\n"],
          rule: .undefinedName, title: "Declare a screen `Home`", applicability: .unsafe,
          expected: ["App.routes": "\u{FEFF}screen Home\nroot { screen Home }\n"]),
    .init(name: "undefined-name: declare a dependency with a type",
          files: ["App.routes": "screen Home\nroot { screen Home uses inboxStore }\n"],
          rule: .undefinedName, title: "Declare a dependency `inboxStore`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\ndependency inboxStore: InboxStore\nroot { screen Home uses inboxStore }\n"]),
    .init(name: "undefined-name: declare a flag after the dependencies",
          files: ["App.routes": "screen Home\ndependency a: A\n\nroot { conditional beta { screen Home } else { empty } }\n"],
          rule: .undefinedName, title: "Declare a flag `beta`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\ndependency a: A\nflag beta\n\nroot { conditional beta { screen Home } else { empty } }\n"]),
    .init(name: "undefined-name: declare a builder after the builders",
          files: ["App.routes": "screen Home\nbuilder a { screen Home }\n\nroot { anyOf { a b } }\n"],
          rule: .undefinedName, title: "Declare a builder `b`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nbuilder a { screen Home }\n\nbuilder b {\n  empty\n}\n\nroot { anyOf { a b } }\n"]),
    .init(name: "undefined-name: declare in a file with CRLF line breaks",
          files: ["App.routes": "screen Home\r\nroot { screen Home { screen Inbox } }\r\n"],
          rule: .undefinedName, title: "Declare a screen `Inbox`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\r\nscreen Inbox\r\nroot { screen Home { screen Inbox } }\r\n"]),
    .init(name: "undefined-name: the app's declaration moves into the library",
          files: ["App.routes": "dependency inboxStore: InboxStore from Inbox\n",
                  "Main.routes": "import \"App.routes\"\n/// The inbox.\nscreen Inbox\nscreen Home\nroot { screen Inbox { screen Home uses inboxStore } }\n"],
          rule: .undefinedName, title: "Move the declaration of `Inbox` from Main.routes into this file", applicability: .unsafe,
          expected: ["App.routes": "/// The inbox.\nscreen Inbox\ndependency inboxStore: InboxStore from Inbox\n",
                     "Main.routes": "import \"App.routes\"\nscreen Home\nroot { screen Inbox { screen Home uses inboxStore } }\n"]),
    // duplicate-declaration
    .init(name: "duplicate-declaration: the later one is renamed",
          files: ["App.routes": "screen Home\nscreen Home sheet\nroot { screen Home }\n"],
          rule: .duplicateDeclaration, title: "Rename the later `Home` to `Home2`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Home2 sheet\nroot { screen Home }\n"]),
    .init(name: "duplicate-declaration: the uses that mean the later one go with it",
          files: ["App.routes": "import \"A.routes\"\nimport \"B.routes\"\nroot { anyOf { a b } }\n",
                  "A.routes": "screen Home\nbuilder a { screen Home }\n",
                  "B.routes": "screen Home\nscreen Home2\nbuilder b { screen Home }\n"],
          rule: .duplicateDeclaration, title: "Rename the later `Home` to `Home3`", applicability: .unsafe,
          expected: ["App.routes": "import \"A.routes\"\nimport \"B.routes\"\nroot { anyOf { a b } }\n",
                     "A.routes": "screen Home\nbuilder a { screen Home }\n",
                     "B.routes": "screen Home3\nscreen Home2\nbuilder b { screen Home3 }\n"],
          file: "B.routes"),
    .init(name: "duplicate-declaration: a parameter label",
          files: ["App.routes": "screen Detail(id: String, id: Int)\nroot { screen Detail }\n"],
          rule: .duplicateDeclaration, title: "Rename the second parameter `id` to `id2`", applicability: .unsafe,
          expected: ["App.routes": "screen Detail(id: String, id2: Int)\nroot { screen Detail }\n"]),
    // import-error
    .init(name: "import-error: a file of the same name elsewhere in the workspace",
          files: ["App.routes": "import \"Payments.routes\"\nscreen Home\nroot { anyOf { screen Home pay } }\n",
                  "Shared/Payments.routes": "screen Pay\nbuilder pay { screen Pay }\n"],
          rule: .importError, title: "Import \"Shared/Payments.routes\"", applicability: .unsafe,
          expected: ["App.routes": "import \"Shared/Payments.routes\"\nscreen Home\nroot { anyOf { screen Home pay } }\n",
                     "Shared/Payments.routes": "screen Pay\nbuilder pay { screen Pay }\n"],
          preferred: true),
    // missing-dependency
    .init(name: "missing-dependency: an optional, wrapped in `if let` on lines of its own",
          files: ["App.routes": "screen Home\nscreen Detail\noptional store: Store\nroot {\n  screen Home {\n    screen Detail uses store {\n      empty // nothing\n    }\n  }\n}\n"],
          rule: .missingDependency, title: "Wrap `screen Detail` in `if let store { … }`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Detail\noptional store: Store\nroot {\n  screen Home {\n    if let store {\n      screen Detail uses store {\n        empty // nothing\n      }\n    }\n  }\n}\n"],
          preferred: true),
    .init(name: "missing-dependency: an optional, wrapped inside its line",
          files: ["App.routes": "screen Home\noptional store: Store\nroot { screen Home uses store }\n"],
          rule: .missingDependency, title: "Wrap `screen Home` in `if let store { … }`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\noptional store: Store\nroot { if let store { screen Home uses store } }\n"],
          preferred: true),
    .init(name: "missing-dependency: a provider, nested in its screen",
          files: ["App.routes": "screen Shop\nscreen Product\ndependency cart: Cart from Shop\nroot {\n  anyOf {\n    screen Product uses cart\n    screen Shop\n  }\n}\n"],
          rule: .missingDependency, title: "Nest `screen Product` in `screen Shop { … }`", applicability: .unsafe,
          expected: ["App.routes": "screen Shop\nscreen Product\ndependency cart: Cart from Shop\nroot {\n  anyOf {\n    screen Shop {\n      screen Product uses cart\n    }\n    screen Shop\n  }\n}\n"]),
    .init(name: "missing-dependency: a provider, removed from the declaration",
          files: ["App.routes": "screen Shop\nscreen Product\ndependency cart: Cart from Shop // the cart\nroot {\n  anyOf {\n    screen Product uses cart\n    screen Shop\n  }\n}\n"],
          rule: .missingDependency, title: "Give `cart` to the whole app", applicability: .unsafe,
          expected: ["App.routes": "screen Shop\nscreen Product\ndependency cart: Cart // the cart\nroot {\n  anyOf {\n    screen Product uses cart\n    screen Shop\n  }\n}\n"],
          preferred: true),
    // shadowed-branch
    .init(name: "shadowed-branch: moved before the branch that takes it, with its comment",
          files: ["App.routes": "screen Home\nscreen Detail\nscreen Settings\nroot {\n  anyOf {\n    screen Settings\n    wildcard Home { screen Home }\n    // A deep link.\n    screen Detail // deep\n  }\n}\n"],
          rule: .shadowedBranch, title: "Move `screen Detail` before `wildcard Home`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Detail\nscreen Settings\nroot {\n  anyOf {\n    screen Settings\n    // A deep link.\n    screen Detail // deep\n    wildcard Home { screen Home }\n  }\n}\n"]),
    .init(name: "shadowed-branch: moved inside a line",
          files: ["App.routes": "screen Home\nscreen Detail\nroot { anyOf { wildcard Home { screen Home } screen Detail } }\n"],
          rule: .shadowedBranch, title: "Move `screen Detail` before `wildcard Home`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Detail\nroot { anyOf { screen Detail wildcard Home { screen Home } } }\n"]),
    .init(name: "shadowed-branch: removed",
          files: ["App.routes": "screen Home\nscreen Detail\nroot {\n  anyOf {\n    wildcard Home { screen Home }\n    screen Detail // dead\n  }\n}\n"],
          rule: .shadowedBranch, title: "Remove the shadowed branch `screen Detail`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Detail\nroot {\n  anyOf {\n    wildcard Home { screen Home }\n    // dead\n  }\n}\n"]),
    // wildcard-mismatch
    .init(name: "wildcard-mismatch: the screen its builder builds",
          files: ["App.routes": "screen Shop\nscreen Browse\nroot { wildcard Browse { screen Shop } }\n"],
          rule: .wildcardMismatch, title: "Use `wildcard Shop`", applicability: .unsafe,
          expected: ["App.routes": "screen Shop\nscreen Browse\nroot { wildcard Shop { screen Shop } }\n"],
          preferred: true),
    // push-in-sheet
    .init(name: "push-in-sheet: the pushed screen becomes a sheet",
          files: ["App.routes": "screen Home\nscreen Picker sheet(allowsPush: false)\nscreen Detail(id: String)\nroot { screen Home { screen Picker { screen Detail } } }\n"],
          rule: .pushInSheet, title: "Present `Detail` as a sheet", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Picker sheet(allowsPush: false)\nscreen Detail(id: String) sheet\nroot { screen Home { screen Picker { screen Detail } } }\n"]),
    .init(name: "push-in-sheet: an explicit push becomes a sheet",
          files: ["App.routes": "screen Home\nscreen Picker sheet(allowsPush: false)\nscreen Detail push\nroot { screen Home { screen Picker { screen Detail } } }\n"],
          rule: .pushInSheet, title: "Present `Detail` as a sheet", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Picker sheet(allowsPush: false)\nscreen Detail sheet\nroot { screen Home { screen Picker { screen Detail } } }\n"]),
    .init(name: "push-in-sheet: the sheet allows pushes",
          files: ["App.routes": "screen Home\nscreen Picker sheet(allowsPush: false)\nscreen Detail\nroot { screen Home { screen Picker { screen Detail } } }\n"],
          rule: .pushInSheet, title: "Let `Picker` allow pushes", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Picker sheet\nscreen Detail\nroot { screen Home { screen Picker { screen Detail } } }\n"]),
    // unused-declaration
    .init(name: "unused-declaration: removed with its doc comment; the comment beside it stays",
          files: ["App.routes": "screen Home\n/// Black Friday.\n/// Two lines.\nflag isBlackFridayLive // until December\nroot { screen Home }\n"],
          rule: .unusedDeclaration, title: "Remove the unused flag `isBlackFridayLive`", applicability: .safe,
          expected: ["App.routes": "screen Home\n// until December\nroot { screen Home }\n"], preferred: true),
    .init(name: "unused-declaration: a blank line is not doubled",
          files: ["App.routes": "screen Home\n\nflag a\n\nroot { screen Home }\n"],
          rule: .unusedDeclaration, title: "Remove the unused flag `a`", applicability: .safe,
          expected: ["App.routes": "screen Home\n\nroot { screen Home }\n"], preferred: true),
    .init(name: "unused-declaration: a builder that builds itself",
          files: ["App.routes": "screen Home\nscreen D\nbuilder d {\n  screen D { d }\n}\nroot { screen Home }\n"],
          rule: .unusedDeclaration, title: "Remove the unused builder `d`", applicability: .safe,
          expected: ["App.routes": "screen Home\nscreen D\nroot { screen Home }\n"], preferred: true),
    .init(name: "unused-declaration: named only in text the parser skipped in a file of no program, unsafe",
          files: ["App.routes": "import \"Lib.routes\"\nscreen Home\nroot { screen Home }\n",
                  "Lib.routes": "flag f\n", "Other.routes": "import \"Lib.routes\"\nbuilder o { empty f }\n"],
          rule: .unusedDeclaration, title: "Remove the unused flag `f`", applicability: .unsafe,
          expected: ["Lib.routes": ""], preferred: true, file: "Lib.routes"),
    // unused-suppression
    .init(name: "unused-suppression: a comment alone on its line goes with its line",
          files: ["App.routes": "screen Home\n// routes:ignore shadowed-branch\nroot { screen Home }\n"],
          rule: .unusedSuppression, title: "Remove the suppression comment", applicability: .safe,
          expected: ["App.routes": "screen Home\nroot { screen Home }\n"], preferred: true),
    .init(name: "unused-suppression: one id of two",
          files: ["App.routes": "screen Home\nscreen Lyrics // routes:ignore unreachable-screen, shadowed-branch\nroot { screen Home }\n"],
          rule: .unusedSuppression, title: "Remove `shadowed-branch` from the suppression", applicability: .safe,
          expected: ["App.routes": "screen Home\nscreen Lyrics // routes:ignore unreachable-screen\nroot { screen Home }\n"],
          preferred: true),
    .init(name: "unused-suppression: the comment at the end of a line",
          files: ["App.routes": "screen Home\nroot { screen Home } // routes:ignore shadowed-branch\n"],
          rule: .unusedSuppression, title: "Remove the suppression comment", applicability: .safe,
          expected: ["App.routes": "screen Home\nroot { screen Home }\n"], preferred: true),
    .init(name: "unused-suppression: a misspelt id",
          files: ["App.routes": "screen Home\nscreen Lyrics // routes:ignore unreachable-screem\nroot { screen Home }\n"],
          rule: .unusedSuppression, title: "Replace `unreachable-screem` by `unreachable-screen`", applicability: .unsafe,
          expected: ["App.routes": "screen Home\nscreen Lyrics // routes:ignore unreachable-screen\nroot { screen Home }\n"],
          preferred: true),
]

@Suite struct FixTests {
    @Test(arguments: cases)
    func theFixGivesTheExpectedFiles(_ c: FixCase) throws {
        let ws = FixWorkspace(c.files)
        let d = try #require(ws.session.diagnostics.first { $0.rule == c.rule && $0.file == ws.id(c.file) },
                             "no \(c.rule) in \(ws.session.diagnostics.map(\.message))")
        let fixes = IDE.fixes(for: d, context: ws.context)
        let fix = try #require(fixes.first { $0.title.hasPrefix(c.title) }, "offered: \(fixes.map(\.title))")
        #expect(fix.applicability == c.applicability)
        #expect(fix.isPreferred == c.preferred)
        #expect(ws.applying(fix) == c.expected.merging(c.files.filter { c.expected[$0.key] == nil }) { a, _ in a })
        // It does what it says: its diagnostic is gone, and no error is new.
        let after = FixWorkspace(ws.applying(fix))
        #expect(!after.session.diagnostics.contains { $0.rule == d.rule && $0.range == fix.map(d.range, in: d.file) && after.name($0.file) == ws.name(d.file) },
                "\(after.session.diagnostics.map(\.message))")
        #expect(after.session.diagnostics.filter { $0.severity == .error }.count
                <= ws.session.diagnostics.filter { $0.severity == .error }.count - (d.severity == .error ? 1 : 0))
    }

    @Test func everyRuleThatDeclaresFixesHasThemAndNoOtherRuleDoes() {
        let declared = Set(Rules.all.filter { !$0.fixes.isEmpty }.map(\.id))
        var registered: [RuleID] = []
        for fixer in FixRegistry.all { registered.append(fixer.rule) }
        #expect(Set(registered) == declared)
        #expect(registered.count == declared.count)
    }

    @Test func aFixOfferedIsOfAnApplicabilityItsRuleDeclares() {
        for c in cases {
            let ws = FixWorkspace(c.files)
            for d in ws.session.diagnostics {
                let declared = Set(Rules.info(d.rule)?.fixes.map(\.applicability) ?? [])
                for fix in IDE.fixes(for: d, context: ws.context) {
                    #expect(declared.contains(fix.applicability), "\(c.name): \(fix.title)")
                    #expect(fix.diagnostic == d)
                }
            }
        }
    }

    @Test func noFixForARuleWithoutFixesOrASecondRoot() {
        let ws = FixWorkspace(["App.routes": "screen Home\nroot { anyOf { screen Home b } }\nroot { screen Home }\nbuilder b { b }\n"])
        #expect(Set(ws.session.diagnostics.map(\.rule)) == [.duplicateDeclaration, .builderCycle])
        for d in ws.session.diagnostics {
            #expect(IDE.fixes(for: d, context: ws.context).isEmpty, "\(d.rule): \(d.message)")
        }
    }

    @Test func anUnusedFlagThatAnUnusedBuilderNamesHasNoFix() {
        let ws = FixWorkspace(["App.routes": "screen Home\nflag f\nbuilder b { conditional f { screen Home } else { empty } }\nroot { screen Home }\n"])
        let flag = ws.session.diagnostics.first { $0.rule == .unusedDeclaration && $0.message.contains("flag") }
        #expect(flag != nil)
        #expect(flag.map { IDE.fixes(for: $0, context: ws.context) }?.isEmpty == true)
        let builder = ws.session.diagnostics.first { $0.rule == .unusedDeclaration && $0.message.contains("builder") }
        #expect(builder.map { IDE.fixes(for: $0, context: ws.context).map(\.applicability) } == [.safe])
    }

    @Test func aMoveThatWouldShadowTheBranchItPassesIsNotOffered() {
        // The two `screen Home` branches would shadow each other whichever comes first.
        let ws = FixWorkspace(["App.routes": "screen Home\nscreen Detail\nroot { anyOf { screen Home screen Home { screen Detail } } }\n"])
        let d = ws.session.diagnostics.first { $0.rule == .shadowedBranch }
        #expect(d.map { IDE.fixes(for: $0, context: ws.context).map(\.title) } == ["Remove the shadowed branch `screen Home`"])
    }

    @Test func aSuggestionThatWouldLeaveADependencyOutOfScopeIsNotOffered() {
        // `settingsStore` is provided by Settings, which no way passes before Home.
        let ws = FixWorkspace(["App.routes": "screen Home\nscreen Settings\ndependency settingsStore: S from Settings\nroot { screen Home uses settingsStor }\n"])
        let d = ws.session.diagnostics.first { $0.rule == .undefinedName }
        let titles = d.map { IDE.fixes(for: $0, context: ws.context).map(\.title) } ?? []
        #expect(!titles.contains { $0.hasPrefix("Use") }, "\(titles)")
        #expect(titles.contains { $0.hasPrefix("Declare a dependency `settingsStor`") })
    }

    @Test func aDeclarationNoFileCanTakeWithoutAClashIsNotOffered() {
        // Two apps import the library and each declares `Inbox`: neither can move, and a new
        // declaration would clash with both.
        let ws = FixWorkspace(["App.routes": "builder inbox { screen Inbox }\n",
                               "A.routes": "import \"App.routes\"\nscreen Inbox\nroot { inbox }\n",
                               "B.routes": "import \"App.routes\"\nscreen Inbox\nroot { inbox }\n"])
        let d = ws.session.diagnostics.first { $0.rule == .undefinedName && $0.file == ws.id("App.routes") }
        #expect(d != nil)
        #expect(d.map { IDE.fixes(for: $0, context: ws.context).map(\.title) } == [])
    }

    @Test func aFileThatIsNotValidUTF8GetsNoFix() {
        // Its text was read with a replacement character: an edit would write that back.
        let bytes = Array("screen Home\nflag x // caf".utf8) + [0xE9] + Array("\nroot { screen Home }\n".utf8)
        let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                              provider: MemoryProvider(bytes: ["/ws/App.routes": bytes]))
        let session = AnalysisSession.forEditor(project: project)
        let context = FixContext(session: session)
        let unused = session.diagnostics.first { $0.rule == .unusedDeclaration }
        #expect(unused != nil)
        #expect(unused.map { IDE.fixes(for: $0, context: context) } == [])
        #expect(IDE.fixAll(context: context, unsafe: true).isEmpty)
    }

    /// A fix after which a suppression suppresses nothing does not hold: a line put between a
    /// `routes:ignore` comment and the line it was written for would have the next round
    /// remove the comment, then fix what the person chose to keep.
    @Test func aFixThatLeavesASuppressionSuppressingNothingDoesNotHold() throws {
        let text = "screen Home\n// routes:ignore unused-declaration\nflag beta\nroot { screen Home { screen Inbox } }\n"
        let ws = FixWorkspace(["App.routes": text])
        let undefined = try #require(ws.session.diagnostics.first { $0.rule == .undefinedName })
        let line = Array(text.utf8).firstIndex(of: UInt8(ascii: "f"))!
        func declaring(at offset: Int) -> Fix {
            Fix(title: "Declare a screen `Inbox`", applicability: .unsafe, diagnostic: undefined,
                edits: [ws.file: [TextEdit(range: offset..<offset, newText: "screen Inbox\n")]])
        }
        #expect(!FixCheck.holds(declaring(at: line), ws.context), "between the suppression and its line")
        #expect(FixCheck.holds(declaring(at: 12), ws.context), "above the suppression")
    }

    /// The one edit between two texts replaces whole characters: a common start or end that
    /// would split a UTF-8 sequence is shortened to the character's start.
    @Test func aReplacementKeepsWholeCharacters() {
        func check(_ old: String, _ new: String) {
            let edit = IDE.replacement(of: Array(old.utf8), by: Array(new.utf8))
            #expect(String(decoding: IDE.apply([edit], to: Array(old.utf8)), as: UTF8.self) == new)
            #expect(edit.newText.utf8.count <= new.utf8.count)
            let o = Array(old.utf8)
            #expect(edit.range.lowerBound == o.count || o[edit.range.lowerBound] & 0xC0 != 0x80, "\(old) -> \(new)")
            #expect(edit.range.upperBound == o.count || o[edit.range.upperBound] & 0xC0 != 0x80, "\(old) -> \(new)")
        }
        check("café", "cafè")      // é (C3 A9) and è (C3 A8) share their first byte
        check("a€b", "a₤b")        // E2 82 AC and E2 82 A4
        check("x", "x")
        check("", "screen Home\n")
        check("flag a\nroot", "root")
        #expect(IDE.replacement(of: Array("café".utf8), by: Array("cafè".utf8)).newText == "è")
    }

    /// A safe fix that would delete a `//` comment is offered as unsafe (`lint --fix` applies
    /// safe fixes unseen); one that writes the comment again, or has none in its way, stays safe.
    @Test func aSafeFixThatDeletesACommentIsUnsafe() throws {
        let commented = FixWorkspace(["App.routes": "screen Home\nbuilder old {\n  screen Home // the old home\n}\nroot { screen Home }\n"])
        let builder = try #require(commented.session.diagnostics.first { $0.rule == .unusedDeclaration })
        #expect(IDE.fixes(for: builder, context: commented.context).map(\.applicability) == [.unsafe])
        let plain = FixWorkspace(["App.routes": "screen Home\nbuilder old {\n  screen Home\n} // gone soon\nroot { screen Home }\n"])
        let kept = try #require(plain.session.diagnostics.first { $0.rule == .unusedDeclaration })
        #expect(IDE.fixes(for: kept, context: plain.context).map(\.applicability) == [.safe])
        let flag = FixWorkspace(["App.routes": "screen Home\nflag isIn\nroot {\n  if let // signed in?\n    isIn { screen Home } else { empty }\n}\n"])
        let wrong = try #require(flag.session.diagnostics.first { $0.rule == .wrongKind })
        #expect(IDE.fixes(for: wrong, context: flag.context).map(\.applicability) == [.unsafe])
    }

    @Test func aSafeFixInAFileWithSyntaxErrorsIsOfferedOnlyWhenItHolds() {
        // The second builder in the block is a syntax error; removing the flag leaves it as it is.
        let fine = FixWorkspace(["App.routes": "screen Home\nflag x\nroot { screen Home screen Home }\n"])
        let flag = fine.session.diagnostics.first { $0.rule == .unusedDeclaration }
        #expect(flag.map { IDE.fixes(for: $0, context: fine.context).map(\.title) } == ["Remove the unused flag `x`"])
        // `screellowsPush: false)` is read as a dependency without its keyword: removing what
        // the recovery read would leave `)`, another syntax error (found by fuzz-analysis).
        // A declaration holding a syntax error is not reported unused, so it gets no fix that
        // deletes it. (One `root`: with two, nothing is reported as unused.)
        let broken = FixWorkspace(["App.routes": "screen Picker sheet(allowsPush: false)\nscreellowsPush: false)\nscreen Editor sheet\nscreen Detail\nroot {\n  screen Picker {\n n Editor sheet\n"])
        #expect(!broken.session.diagnostics.contains { $0.rule == .unusedDeclaration && $0.message.contains("screellowsPush") })
        #expect(broken.session.diagnostics.contains { $0.rule == .syntaxError })
    }

    @Test func fixAllTakesOneFixPerDiagnosticWithoutOverlaps() {
        let ws = FixWorkspace(["App.routes": "screen Home\nflag a\nflag b // routes:ignore shadowed-branch\nroot { screen Home }\n"])
        let safe = IDE.fixAll(context: ws.context, files: [ws.file], unsafe: false)
        // The flag `b` and the comment on its line: both edit that line, so one waits.
        #expect(safe.count == 2, "\(safe.map(\.title))")
        let text = String(decoding: IDE.apply(IDE.edits(of: safe, in: ws.file), to: Array(ws.text(ws.file).utf8)), as: UTF8.self)
        #expect(text == "screen Home\nflag b\nroot { screen Home }\n" || text == "screen Home\n// routes:ignore shadowed-branch\nroot { screen Home }\n",
                "\(text)")
    }

    /// The fixes of a round are checked together, with one analysis when they hold; one that
    /// does not hold (its diagnostic left where it was) is told apart with a few more, and
    /// the verdicts are those of the fixes checked one by one.
    @Test func aRoundsFixesAreCheckedTogether() throws {
        // Forty `;` in a file with syntax errors: every safe fix there needs a check.
        let text = "screen Home\n" + (0..<40).map { "screen S\($0);\n" }.joined()
            + "root { screen Home { anyOf {\n" + (0..<40).map { "  screen S\($0)\n" }.joined() + "} } }\n"
        let ws = FixWorkspace(["App.routes": text])
        let semicolons = ws.session.diagnostics.filter { $0.rule == .syntaxError }
        #expect(semicolons.count == 40)
        let fixes = try semicolons.map { try #require(IDE.fixes(for: $0, context: ws.context).first) }
        let together = FixCheck.holding(fixes, ws.context)
        #expect(together.verdicts == [Bool](repeating: true, count: 40))
        #expect(together.analyses == 1)
        // The 13th replaced by a fix that leaves its `;` (a blank inserted before it).
        var mixed = fixes
        let kept = fixes[12].diagnostic
        mixed[12] = Fix(title: "A blank", applicability: .safe, diagnostic: kept,
                        edits: [ws.file: [TextEdit(range: kept.range.lowerBound..<kept.range.lowerBound, newText: " ")]])
        let told = FixCheck.holding(mixed, ws.context)
        #expect(told.verdicts == (0..<40).map { $0 != 12 })
        #expect(told.verdicts == mixed.map { FixCheck.holds($0, ws.context) })
        #expect(told.analyses <= 3, "the group, the fix alone, the rest")
        // Fixes that each hold alone but not together (both declare `Inbox`: a duplicate)
        // are told apart by halving: each holds, as alone.
        let inbox = FixWorkspace(["App.routes": "screen Home\nroot {\n  screen Home {\n    anyOf {\n      screen Inbox\n      wildcard Inbox { screen Home }\n    }\n  }\n}\n"])
        let undefined = inbox.session.diagnostics.filter { $0.rule == .undefinedName }
        #expect(undefined.count == 2, "\(inbox.session.diagnostics)")
        let declarations = undefined.enumerated().map { i, d in
            Fix(title: "Declare a screen `Inbox`", applicability: .unsafe, diagnostic: d,
                edits: [inbox.file: [TextEdit(range: (i * 12)..<(i * 12), newText: "screen Inbox\n")]])
        }
        let apart = FixCheck.holding(declarations, inbox.context)
        #expect(apart.verdicts == [true, true])
        #expect(apart.analyses == 3)
        // And the round of `fixAll` applies them all: the file is left without an error.
        let all = IDE.fixAll(context: ws.context, files: [ws.file], unsafe: false)
        #expect(all.count == 40)
    }

    /// A round checks its fixes with the very fixes it applies: "Use `cartStore`" holds only
    /// with "Give `cartStore` to the whole app"; when a fix the round takes first (the
    /// suppression's removal, on that declaration's line) keeps the second out, the first is
    /// not taken either, and the round leaves no new error.
    @Test func aRoundAppliesNoFixCheckedWithAFixItLeavesOut() throws {
        let text = "screen Home\nscreen Cart\nscreen Other\ndependency cartStore: CartStore from Cart // routes:ignore shadowed-branch\nroot {\n  screen Home uses cartStor {\n    anyOf {\n      screen Cart\n      screen Other uses cartStore\n    }\n  }\n}\n"
        let ws = FixWorkspace(["App.routes": text])
        let round = IDE.fixAll(context: ws.context, files: [ws.file], unsafe: true)
        #expect(!round.isEmpty)
        let after = FixWorkspace(["App.routes": String(decoding: IDE.apply(IDE.edits(of: round, in: ws.file), to: Array(text.utf8)), as: UTF8.self)])
        let errorsBefore = Set(ws.session.diagnostics.filter { $0.severity == .error }.map { Diagnostic.withoutNumbers($0.message) })
        let newErrors = after.session.diagnostics.filter { $0.severity == .error && !errorsBefore.contains(Diagnostic.withoutNumbers($0.message)) }
        #expect(newErrors.isEmpty, "\(round.map(\.title)): \(newErrors.map(\.message))")
    }

    /// The binary search of `EditMap.Indexed` puts every offset where the walk of
    /// `EditMap.start`/`end` does.
    @Test func indexedEditMapAgreesWithTheWalk() {
        let edits = [
            TextEdit(range: 2..<2, newText: "ab"), TextEdit(range: 2..<5, newText: ""), TextEdit(range: 5..<5, newText: "xyz"),
            TextEdit(range: 7..<9, newText: "q"), TextEdit(range: 12..<12, newText: "long text"), TextEdit(range: 15..<20, newText: "r"),
        ]
        let indexed = EditMap.Indexed(edits)
        for offset in 0...25 {
            #expect(indexed.start(of: offset) == EditMap.start(of: offset, edits), "start of \(offset)")
            #expect(indexed.end(of: offset) == EditMap.end(of: offset, edits), "end of \(offset)")
        }
        for lo in 0...22 { for hi in lo...22 { #expect(indexed.map(lo..<hi) == EditMap.map(lo..<hi, edits)) } }
        #expect(EditMap.Indexed([]).map(3..<4) == 3..<4)
    }

    /// Fixes of one edit each (file, range), for `selectNonOverlapping`.
    private static func fixes(_ edits: [(FileID, Range<Int>)]) -> [Fix] {
        edits.enumerated().map { i, edit in
            let diagnostic = Diagnostic(rule: .unusedDeclaration, severity: .warning, file: edit.0, range: edit.1, message: "\(i)")
            return Fix(title: "\(i)", applicability: .safe, diagnostic: diagnostic, edits: [edit.0: [TextEdit(range: edit.1, newText: "")]])
        }
    }

    @Test func fixesThatMeetOneTakenBeforeAreLeftOut() {
        let chosen = IDE.selectNonOverlapping(Self.fixes([
            (0, 10..<20),
            (0, 20..<25),  // touches the first
            (0, 15..<15),  // an insertion inside the first
            (0, 0..<5),    // before it, in another order
            (0, 5..<5),    // an insertion at the end of that one
            (0, 7..<9),
            (1, 10..<20),  // another file
            (0, 30..<30), (0, 30..<30),  // two insertions at one offset
        ])).map(\.title)
        #expect(chosen == ["0", "3", "5", "6", "7"], "\(chosen)")
    }

    @Test func aFixWhoseEditsMeetEachOtherBlocksTheirWholeSpan() {
        // One fix of two edits that meet (the second inside the first): an edit between their
        // ends meets what that fix takes.
        let d = Diagnostic(rule: .unusedDeclaration, severity: .warning, file: 0, range: 0..<1, message: "")
        let wide = Fix(title: "wide", applicability: .safe, diagnostic: d,
                       edits: [0: [TextEdit(range: 0..<10, newText: ""), TextEdit(range: 2..<3, newText: "x")]])
        let chosen = IDE.selectNonOverlapping([wide] + Self.fixes([(0, 6..<7), (0, 11..<12)])).map(\.title)
        #expect(chosen == ["wide", "1"], "\(chosen)")
    }

    @Test func theSelectionAgreesWithComparingEveryPair() {
        // A brute-force reference on random edits, in random order and in offset order.
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var edits: [(FileID, Range<Int>)] = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                let start = Int.random(in: 0...60, using: &generator)
                return (Int.random(in: 0...1, using: &generator), start ..< start + Int.random(in: 0...6, using: &generator))
            }
            if round % 2 == 1 { edits.sort { ($0.0, $0.1.lowerBound) < ($1.0, $1.1.lowerBound) } }
            var taken: [(FileID, Range<Int>)] = []
            var expected: [String] = []
            for (i, edit) in edits.enumerated() where !taken.contains(where: { t in
                t.0 == edit.0 && t.1.lowerBound <= edit.1.upperBound && edit.1.lowerBound <= t.1.upperBound
            }) {
                taken.append(edit)
                expected.append("\(i)")
            }
            let chosen = IDE.selectNonOverlapping(Self.fixes(edits)).map(\.title)
            #expect(chosen == expected, "\(edits)")
        }
    }

    @Test func editsMapRangesAfterThem() {
        let edits = [TextEdit(range: 2..<4, newText: "xyz"), TextEdit(range: 10..<10, newText: "++")]
        #expect(EditMap.map(0..<2, edits) == 0..<2)
        #expect(EditMap.map(2..<4, edits) == 2..<5)
        #expect(EditMap.map(3..<6, edits) == 2..<7)
        #expect(EditMap.map(5..<10, edits) == 6..<11)
        #expect(EditMap.map(10..<12, edits) == 13..<15)
        #expect(EditMap.start(of: 10, edits) == 13 && EditMap.end(of: 10, edits) == 11)
    }
}

@Suite struct OrganizeImportsTests {
    @Test func importsAreSortedWithTheirCommentsAndDeduplicated() {
        let ws = FixWorkspace(["App.routes": "// The app.\nimport \"c.routes\" // third\n// b's comment\nimport \"b.routes\"\nimport \"a.routes\"\nimport \"b.routes\"\n\nimport \"a.routes\"\nroot { empty }\n",
                               "a.routes": "", "b.routes": "", "c.routes": ""])
        let text = String(decoding: IDE.apply(IDE.organizeImports(project: ws.project, file: ws.file), to: Array(ws.text(ws.file).utf8)), as: UTF8.self)
        #expect(text == "// The app.\nimport \"a.routes\"\n// b's comment\nimport \"b.routes\"\nimport \"c.routes\" // third\n\nroot { empty }\n", "\(text)")
    }

    @Test func sortedImportsAreLeftAlone() {
        let ws = FixWorkspace(["App.routes": "import \"a.routes\"\nimport \"b.routes\"\nroot { empty }\n", "a.routes": "", "b.routes": ""])
        #expect(IDE.organizeImports(project: ws.project, file: ws.file).isEmpty)
    }

    @Test func importsWhoseOrderDecidesANameAreOnlyDeduplicated() {
        let ws = FixWorkspace(["App.routes": "import \"b.routes\"\nimport \"a.routes\"\nimport \"b.routes\"\nroot { screen Home }\n",
                               "a.routes": "screen Home\n", "b.routes": "screen Home sheet\n"])
        let text = String(decoding: IDE.apply(IDE.organizeImports(project: ws.project, file: ws.file), to: Array(ws.text(ws.file).utf8)), as: UTF8.self)
        #expect(text == "import \"b.routes\"\nimport \"a.routes\"\nroot { screen Home }\n")
    }

    /// An import with its keyword misspelt reads as one only where a declaration may start:
    /// moved to right after a line of text the parser skips (`scre` and a comment), it would
    /// be skipped with it (found by fuzz-analysis). Such imports are left where they are.
    @Test func importsWithAMisspeltKeywordAreLeftAlone() {
        let ws = FixWorkspace(["App.routes": "scre// a note\nimport \"b.routes\"\nimporot \"a.routes\"\nroot { empty }\n", "a.routes": "", "b.routes": ""])
        #expect(ws.project.files[ws.file].model.imports.map(\.path) == ["b.routes", "a.routes"])
        #expect(IDE.organizeImports(project: ws.project, file: ws.file).isEmpty)
    }

    @Test func anImportSharingItsLineIsLeftAlone() {
        let ws = FixWorkspace(["App.routes": "import \"b.routes\" import \"a.routes\"\nroot { empty }\n", "a.routes": "", "b.routes": ""])
        #expect(IDE.organizeImports(project: ws.project, file: ws.file).isEmpty)
    }
}

/// Files in memory under `/ws`, each an entry (as a workspace is loaded), analysed.
struct FixWorkspace {
    let project: Project
    let session: AnalysisSession
    let files: [String: String]
    var context: FixContext { FixContext(session: session) }
    var file: FileID { id("App.routes") }

    init(_ files: [String: String]) {
        self.files = files
        let names = files.keys.sorted { ($0 == "App.routes" ? 0 : 1, $0) < ($1 == "App.routes" ? 0 : 1, $1) }
        var paths: [String: String] = [:]
        for (n, t) in files { paths["/ws/" + n] = t }
        project = Project(entries: names.enumerated().map { i, n in
            ProjectEntry(canonicalPath: "/ws/" + n, displayPath: n, group: i, workspaceRoot: "/ws")
        }, provider: MemoryProvider(files: paths))
        session = AnalysisSession.forEditor(project: project)
    }

    func id(_ name: String) -> FileID { project.file(atPath: "/ws/" + name)! }
    func name(_ id: FileID) -> String { String(project.files[id].path.dropFirst(4)) }
    func text(_ id: FileID) -> String { project.files[id].text.string }

    /// Every file's text with the fix applied.
    func applying(_ fix: Fix) -> [String: String] {
        var out = files
        for (f, edits) in fix.edits {
            out[name(f)] = String(decoding: IDE.apply(edits, to: project.files[f].text.bytes), as: UTF8.self)
        }
        return out
    }
}
