import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

private let builderKeywords = ["screen", "anyOf", "conditional", "if let", "if screen", "wildcard", "empty"]
private let declarationKeywords = ["import", "screen", "dependency", "optional", "flag", "builder", "root", "link"]
private let screens = ["Detail", "Home", "Login", "Settings"]

/// One completion request: the source after `seedDeclarations`, with `|` at the cursor, and
/// the labels expected, in order.
struct CompletionCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var expected: [String]
    var testDescription: String { name }
}

private let cases: [CompletionCase] = [
    // Builder positions.
    .init(name: "first builder of a block", source: "root { | }", expected: builderKeywords + ["detail"]),
    .init(name: "next branch of an anyOf, on a new line",
          source: "root {\n  anyOf {\n    screen Home\n    |\n  }\n}", expected: builderKeywords + ["detail", "uses"]),
    .init(name: "after a screen's name in an anyOf, same line: uses first",
          source: "root {\n  anyOf {\n    screen Home |\n  }\n}", expected: ["uses", "as"] + builderKeywords + ["detail"]),
    .init(name: "after a screen's name in a block, same line: uses and as",
          source: "root { screen Home | }", expected: ["uses", "as"]),
    .init(name: "after as: the presentations", source: "root { screen Home as | }",
          expected: ["push", "sheet", "cover", "popover"]),
    .init(name: "after as, a presentation being typed", source: "root { screen Home as co| }", expected: ["cover"]),
    .init(name: "after a presentation at a placement: uses",
          source: "root { screen Home as sheet | }", expected: ["uses"]),
    .init(name: "after a presentation's options at a placement: uses",
          source: "root { anyOf { screen Home as cover(allowsPush: false) | } }", expected: ["uses"] + builderKeywords + ["detail"]),
    .init(name: "after a complete branch", source: "root { anyOf { screen Home uses appStore | } }",
          expected: builderKeywords + ["detail"]),
    .init(name: "after an if let block in an anyOf: else, then builders",
          source: "root { anyOf { if let detailStore { empty } | } }", expected: ["else"] + builderKeywords + ["detail"]),
    .init(name: "a conditional needs its else", source: "root { conditional isLoggedIn { empty } | }", expected: ["else"]),
    .init(name: "after the one builder of a block: only uses", source: "root { screen Home\n  | }", expected: ["uses"]),
    .init(name: "a block's builder ends: nothing", source: "root { screen Home uses appStore | }", expected: []),
    .init(name: "a declaration at the start of a line closes the blocks before it",
          source: "root {\n  anyOf {\n    screen Home\n    |\ndependency later: Later", expected: builderKeywords + ["detail", "uses"]),
    .init(name: "after else", source: "root { conditional isLoggedIn { empty } else { | } }", expected: builderKeywords + ["detail"]),
    .init(name: "a screen's nesting", source: "root { screen Home uses appStore { | } }", expected: builderKeywords + ["detail"]),
    .init(name: "before a block's `{`: nothing", source: "root { anyOf | }", expected: []),
    .init(name: "unclosed block at the end of the file", source: "builder b {\n  |", expected: builderKeywords + ["b", "detail"]),
    .init(name: "a word is completed from its start", source: "root { scr|een Home }", expected: ["screen"]),
    .init(name: "a typed prefix filters", source: "root { an| }", expected: ["anyOf"]),
    .init(name: "a typed prefix filters named builders too", source: "root { de| }", expected: ["detail"]),

    // Names after keywords.
    .init(name: "screens after screen", source: "root { screen | }", expected: screens),
    .init(name: "screens after screen, filtered", source: "root { screen Ho| }", expected: ["Home"]),
    .init(name: "half-written screen line between branches",
          source: "root {\n  anyOf {\n    screen Home uses appStore\n    screen |\n    screen Settings\n  }\n}", expected: screens),
    .init(name: "wildcard: screens without parameters first", source: "root { wildcard | { empty } }",
          expected: ["Home", "Login", "Settings", "Detail"]),
    .init(name: "if screen: screens", source: "root { if screen | { empty } }", expected: screens),
    .init(name: "conditional: flags", source: "root { conditional | { empty } else { empty } }", expected: ["isLoggedIn"]),
    .init(name: "if let: optionals", source: "root { if let | { empty } }", expected: ["detailStore"]),
    .init(name: "if: let or screen", source: "root { if | }", expected: ["let", "screen"]),
    .init(name: "from: screens", source: "dependency x: X from |", expected: screens),

    // Top level.
    .init(name: "after the last declaration", source: "|", expected: declarationKeywords),
    .init(name: "after a closed root", source: "root { empty }\n|", expected: declarationKeywords),
    .init(name: "same line after a screen declaration: presentation first", source: "screen Foo |",
          expected: ["push", "sheet", "cover", "popover"] + declarationKeywords),
    .init(name: "same line after a dependency: from first", source: "dependency x: X |",
          expected: ["from"] + declarationKeywords),
    .init(name: "a top-level keyword being typed", source: "depe|", expected: ["dependency"]),

    // Nothing.
    .init(name: "a new screen's name", source: "screen |", expected: []),
    .init(name: "a new flag's name", source: "flag |", expected: []),
    .init(name: "inside a parameter list", source: "screen X(|)", expected: []),
    .init(name: "a type", source: "dependency x: |", expected: []),
    .init(name: "inside a comment", source: "// root { scr|", expected: []),
    .init(name: "at the end of a comment", source: "root { empty } // screen |", expected: []),
    .init(name: "inside a doc comment", source: "/// screen |\nscreen Y", expected: []),
    .init(name: "inside a string", source: "import \"Ap|p.routes\"", expected: []),
    .init(name: "after an unterminated string", source: "import \"App|", expected: []),
    .init(name: "between a then block and its else", source: "root { conditional isLoggedIn { empty } | else { empty } }", expected: []),
]

@Suite struct CompletionTests {
    @Test(arguments: cases)
    func labelsInOrder(_ c: CompletionCase) {
        let w = Workspace(seedDeclarations + c.source)
        #expect(w.labels() == c.expected, "\(c.source)")
    }

    /// The seed program, with the cursor in a `uses` list somewhere.
    static func seed(_ uses: String, settings: String = "screen Settings uses settingsStore") -> Workspace {
        Workspace(seedDeclarations + seedRoot.replacingOccurrences(of: "screen Home uses appStore", with: "screen Home uses \(uses)")
            .replacingOccurrences(of: "screen Settings uses settingsStore", with: settings))
    }

    @Test func usesListsInScopeNamesFirstThenTheOthersWithTheReason() {
        let w = Self.seed("appStore", settings: "screen Settings uses |")
        let items = w.completions()
        #expect(items.map(\.label) == ["appStore", "loginStore", "settingsStore", "detailStore"])
        let detail = items.first { $0.label == "detailStore" }
        #expect(detail?.detail?.hasPrefix("not in scope: ") == true)
        #expect(detail?.detail?.contains("if let detailStore") == true)
        #expect(detail?.sortText.map { s in items.compactMap(\.sortText).allSatisfy { $0 <= s } } == true)
        #expect(items.first { $0.label == "appStore" }?.detail == "dependency: AppStore")
        #expect(items.first { $0.label == "appStore" }?.documentation == "The app's state.")
        #expect(items.first { $0.label == "settingsStore" }?.detail == "dependency: SettingsStore from Home")
    }

    @Test func aProviderDoesNotProvideToItself() {
        let w = Self.seed("|")
        let items = w.completions()
        #expect(items.map(\.label) == ["appStore", "loginStore", "detailStore", "settingsStore"])
        let settings = items.first { $0.label == "settingsStore" }
        #expect(settings?.detail?.contains("provided by `Home`") == true)
    }

    @Test func namesAlreadyListedAreLeftOut() {
        let w = Self.seed("appStore", settings: "screen Settings uses appStore, |")
        #expect(w.labels() == ["loginStore", "settingsStore", "detailStore"])
        // The word being completed is not "already listed".
        let w2 = Self.seed("appStore", settings: "screen Settings uses appStore, sett|")
        #expect(w2.labels() == ["settingsStore"])
    }

    /// The name the cursor is at the start of, in the middle of or at the end of is being
    /// edited: it is offered like any other, also when it is already written in a `uses` list.
    static let editedNames: [(uses: String, settings: String, expected: [String])] = [
        ("appStore", "screen Settings uses |settingsStore", ["appStore", "loginStore", "settingsStore", "detailStore"]),
        ("appStore", "screen Settings uses appStore, |settingsStore", ["loginStore", "settingsStore", "detailStore"]),
        ("appStore", "screen Settings uses |settingsStore, appStore", ["loginStore", "settingsStore", "detailStore"]),
        ("appStore", "screen Settings uses sett|ingsStore", ["settingsStore"]),
        ("appStore", "screen Settings uses settingsStore|", ["settingsStore"]),
        ("appStore", "screen Settings uses settingsStore,|appStore", ["appStore", "loginStore", "detailStore"]),
        ("|appStore", "screen Settings uses settingsStore", ["appStore", "loginStore", "detailStore", "settingsStore"]),
        ("appStore, |loginStore", "screen Settings uses settingsStore", ["loginStore", "detailStore", "settingsStore"]),
        ("appStore", "screen |Settings uses settingsStore", ["Detail", "Home", "Login", "Settings"]),
        ("appStore", "screen Se|ttings uses settingsStore", ["Settings"]),
    ]

    @Test(arguments: editedNames.indices)
    func theNameBeingEditedIsOffered(_ i: Int) {
        let c = Self.editedNames[i]
        let w = Self.seed(c.uses, settings: c.settings)
        #expect(w.labels() == c.expected, "\(c.uses) / \(c.settings)")
    }

    @Test func atTheStartOfANameInOtherPlacesItIsOfferedToo() {
        let cases: [(String, String)] = [
            ("root { conditional |isLoggedIn { empty } else { empty } }", "isLoggedIn"),
            ("root { screen Home { if let |detailStore { empty } } }", "detailStore"),
            ("root { wildcard |Home { empty } }", "Home"),
            ("root { anyOf { screen Home |detail } }", "detail"),
            ("root { if screen |Detail { empty } }", "Detail"),
            ("dependency late: Late from |Home", "Home"),
        ]
        for (source, name) in cases {
            let w = Workspace(seedDeclarations + source)
            #expect(w.labels().contains(name), "\(source): \(w.labels())")
        }
    }

    @Test func atTheStartOfANameAnItemMayReplaceIt() {
        let w = Self.seed("appStore", settings: "screen Settings uses |settingsStore")
        let start = w.cursor
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: start) == start..<start)
        #expect(IDE.replaceRange(project: w.project, file: w.file, offset: start) == start..<(start + 13))
        // In the middle of a name, inserting and replacing take the same range; in
        // whitespace, nothing is replaced either.
        #expect(IDE.replaceRange(project: w.project, file: w.file, offset: start + 4) == start..<(start + 13))
        #expect(IDE.replaceRange(project: w.project, file: w.file, offset: start + 14) == (start + 14)..<(start + 14))
        #expect(IDE.replaceRange(project: w.project, file: 99, offset: start) == 0..<0)
    }

    @Test func usesAtTheEndOfAHalfWrittenFile() {
        let w = Workspace(seedDeclarations + "root {\n  anyOf {\n    screen Home uses |")
        #expect(w.labels() == ["appStore", "loginStore", "detailStore", "settingsStore"])
    }

    @Test func usesBeforeTheNextBranch() {
        // `dangling-uses`: the next line starts the next builder.
        let w = Workspace(seedDeclarations + "root {\n  wildcard Home {\n    screen Home {\n      anyOf {\n        screen Settings uses |\n        screen Login uses appStore\n      }\n    }\n  }\n}")
        #expect(w.labels() == ["appStore", "loginStore", "settingsStore", "detailStore"])
    }

    @Test func usesInALibraryFileListsEverythingAlphabetically() {
        let w = Workspace(seedDeclarations + "builder lib { screen Home uses | }")
        let items = w.completions()
        #expect(items.map(\.label) == ["appStore", "detailStore", "loginStore", "settingsStore"])
        #expect(items.allSatisfy { $0.detail?.hasPrefix("not in scope") != true })
    }

    @Test func namesComeFromImportedFilesToo() {
        let w = Workspace("import \"Lib.routes\"\nscreen Own\nroot { screen | }",
                          others: ["Lib.routes": "/// Imported.\nscreen Shared sheet(allowsPush: false)\nbuilder libBuilder { empty }"])
        let items = w.completions()
        #expect(items.map(\.label) == ["Own", "Shared"])
        #expect(items[1].detail == "screen (sheet, no push)")
        #expect(items[1].documentation == "Imported.")
        #expect(items[1].kind == .screen)
    }

    @Test func itemsCarryKindsDetailsAndDocs() {
        let w = Workspace(seedDeclarations + "root { screen | }")
        let detail = w.completions().first { $0.label == "Detail" }
        #expect(detail?.detail == "screen (sheet)")
        #expect(detail?.documentation == "One item, modally.")
        #expect(detail?.kind == .screen)
        let home = w.completions().first { $0.label == "Home" }
        #expect(home?.detail == "screen")
        let flags = Workspace(seedDeclarations + "root { conditional | { empty } else { empty } }").completions()
        #expect(flags.first?.kind == .flag)
        #expect(flags.first?.documentation == "Signed in?")
        let builders = Workspace(seedDeclarations + "root { | }").completions()
        #expect(builders.first { $0.label == "detail" }?.kind == .builder)
        #expect(builders.first { $0.label == "detail" }?.documentation == "Detail after Detail.")
    }

    @Test func snippetsOnlyWhenAsked() {
        let plain = Workspace(seedDeclarations + "root { | }").completions(snippets: false)
        #expect(plain.allSatisfy { !$0.isSnippet && $0.insertText == nil })
        let rich = Workspace(seedDeclarations + "root { | }").completions(snippets: true)
        let anyOf = rich.first { $0.label == "anyOf" }
        #expect(anyOf?.isSnippet == true)
        #expect(anyOf?.insertText == "anyOf {\n\t$0\n}")
        #expect(rich.first { $0.label == "conditional" }?.insertText == "conditional ${1:flag} {\n\t$2\n} else {\n\t$0\n}")
        #expect(rich.first { $0.label == "if let" }?.insertText == "if let ${1:optional} {\n\t$0\n}")
        #expect(rich.first { $0.label == "empty" }?.isSnippet == false)
        let top = Workspace("|").completions(snippets: true)
        #expect(top.first { $0.label == "root" }?.insertText == "root {\n\t$0\n}")
        #expect(top.first { $0.label == "builder" }?.insertText == "builder ${1:name} {\n\t$0\n}")
    }

    @Test func theWordRangeIsTheWholeWordAtTheCursor() {
        let w = Workspace("root { scr|een Home }")
        let start = w.offset(of: "screen")
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: w.cursor) == start..<(start + 6))
        // Right after a word: the word.
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: start + 6) == start..<(start + 6))
        // After a space: empty at the cursor.
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: start + 7) == (start + 7)..<(start + 7))
        // At the start of a word: empty (the word is not replaced).
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: start) == start..<start)
        // Clamped.
        let end = w.text(w.file).utf8.count
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: 10_000) == end..<end)
    }

    @Test func anEmptyFileOffersTheDeclarationKeywords() {
        let w = Workspace("")
        #expect(w.labels() == declarationKeywords)
        #expect(IDE.completions(session: w.session, file: w.file, offset: -5, snippets: false).map(\.label) == declarationKeywords)
    }

    @Test func anUnknownFileOffersNothing() {
        let w = Workspace("root { | }")
        #expect(IDE.completions(session: w.session, file: 99, offset: 0, snippets: true).isEmpty)
    }
}
