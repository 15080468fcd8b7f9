import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// One rename: files with `|` at the name, the new name, and the files expected after.
struct RenameCase: CustomTestStringConvertible, Sendable {
    var name: String
    var files: [String: String]
    var newName: String
    var expected: [String: String]
    var testDescription: String { name }
}

private let cases: [RenameCase] = [
    .init(name: "a screen, from a use, across files",
          files: ["App.routes": "import \"Lib.routes\"\nroot { wildcard Ho|me { screen Home uses s { if screen Home { b } } } }",
                  "Lib.routes": "screen Home\ndependency s: S from Home\nbuilder b { screen Home }"],
          newName: "Start",
          expected: ["App.routes": "import \"Lib.routes\"\nroot { wildcard Start { screen Start uses s { if screen Start { b } } } }",
                     "Lib.routes": "screen Start\ndependency s: S from Start\nbuilder b { screen Start }"]),
    .init(name: "a screen, from its declaration, in an importing file too",
          files: ["App.routes": "import \"Lib.routes\"\nroot { screen Home }",
                  "Lib.routes": "screen Ho|me"],
          newName: "Start",
          expected: ["App.routes": "import \"Lib.routes\"\nroot { screen Start }", "Lib.routes": "screen Start"]),
    .init(name: "a dependency, from a use",
          files: ["App.routes": "screen Home\ndependency store: Store\nroot { screen Home uses st|ore, store }"],
          newName: "appStore",
          expected: ["App.routes": "screen Home\ndependency appStore: Store\nroot { screen Home uses appStore, appStore }"]),
    .init(name: "an optional",
          files: ["App.routes": "screen Home\noptional draft: D\nroot { if let draft { screen Home uses dr|aft } }"],
          newName: "draftValue",
          expected: ["App.routes": "screen Home\noptional draftValue: D\nroot { if let draftValue { screen Home uses draftValue } }"]),
    .init(name: "a flag; comments and strings keep the old name",
          files: ["App.routes": "/// on or off\nflag o|n // on\nroot { conditional on { empty } else { empty } }"],
          newName: "enabled",
          expected: ["App.routes": "/// on or off\nflag enabled // on\nroot { conditional enabled { empty } else { empty } }"]),
    .init(name: "a builder, recursion included",
          files: ["App.routes": "screen D\nbuilder det|ail { screen D { detail } }\nroot { detail }"],
          newName: "details",
          expected: ["App.routes": "screen D\nbuilder details { screen D { details } }\nroot { details }"]),
    .init(name: "a name shadowed elsewhere is left alone",
          files: ["App.routes": "flag o|n\nroot { conditional on { empty } else { empty } }",
                  "Other.routes": "flag on\nroot { conditional on { empty } else { empty } }"],
          newName: "off",
          expected: ["App.routes": "flag off\nroot { conditional off { empty } else { empty } }",
                     "Other.routes": "flag on\nroot { conditional on { empty } else { empty } }"]),
    .init(name: "non-ASCII text before the name",
          files: ["App.routes": "// café ☕️\nscreen Ho|me\nroot { screen Home }"],
          newName: "Start",
          expected: ["App.routes": "// café ☕️\nscreen Start\nroot { screen Start }"]),
    .init(name: "the same name is a no-op",
          files: ["App.routes": "screen Ho|me\nroot { screen Home }"],
          newName: "Home",
          expected: ["App.routes": "screen Home\nroot { screen Home }"]),
]

@Suite struct RenameTests {
    static func workspace(_ files: [String: String]) -> Workspace {
        // The file with the cursor is the one under test.
        let name = files.first { $0.value.contains("|") }?.key ?? "App.routes"
        var others = files
        let main = others.removeValue(forKey: name)!
        return Workspace(main, name: name, others: others)
    }

    @Test(arguments: cases)
    func editsGiveTheExpectedText(_ c: RenameCase) throws {
        let w = Self.workspace(c.files)
        let prepared = IDE.prepareRename(project: w.project, file: w.file, offset: w.cursor)
        #expect(prepared != nil)
        if let prepared {
            #expect(w.text(w.file).utf8Slice(prepared.range) == prepared.placeholder)
            #expect(prepared.range.contains(w.cursor) || prepared.range.upperBound == w.cursor)
        }
        let edits = try IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: c.newName)
        for (name, expected) in c.expected {
            let id = w.id(name)
            #expect(apply(edits[id] ?? [], to: w.text(id)) == expected, "\(name)")
        }
        // Every edit replaces exactly one name token.
        for (f, list) in edits {
            let tree = w.project.files[f].syntax
            for e in list {
                let t = tree.tokens[tree.tokenIndex(at: e.range.lowerBound)]
                #expect(t.range == e.range && t.kind == .identifier)
            }
        }
    }

    @Test(arguments: [
        ("1abc", "not a valid name"), ("a-b", "not a valid name"), ("", "not a valid name"), ("é", "not a valid name"),
        ("screen", "keyword"), ("uses", "keyword"), ("true", "keyword"),
        ("Settings", "already declared as a screen"), ("store", "already declared as a dependency"),
        ("Shared", "already declared"),
        // Words that are keywords in one place: a builder renamed `as` would be read as a
        // presentation after a screen node (`screen A as`).
        ("as", "read as a keyword in some places"), ("cover", "read as a keyword"), ("popover", "read as a keyword"),
        ("link", "read as a keyword"),
    ])
    func refusals(_ newName: String, _ message: String) {
        let w = Workspace("import \"Lib.routes\"\nscreen Ho|me\nscreen Settings\ndependency store: S\nroot { screen Home }",
                          others: ["Lib.routes": "screen Shared"])
        #expect {
            try IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: newName)
        } throws: { error in
            (error as? RenameError)?.message.contains(message) == true
        }
    }

    @Test func aClashInAFileThatImportsTheDeclarationIsRefused() {
        let w = Workspace("screen Ba|se", name: "Lib.routes",
                          others: ["App.routes": "import \"Lib.routes\"\nscreen Start\nroot { screen Base }"])
        #expect(throws: RenameError.self) {
            try IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: "Start")
        }
        // Without the importer seeing it, the same name is fine elsewhere.
        let ok = Workspace("screen Ba|se", name: "Lib.routes", others: ["Other.routes": "screen Start"])
        #expect((try? IDE.rename(project: ok.project, file: ok.file, offset: ok.cursor, newName: "Start")) != nil)
    }

    @Test(arguments: [
        "scr|een Home\nroot { screen Home }",  // a keyword
        "screen Home\nro|ot { screen Home }",  // root
        "import \"Li|b.routes\"",  // an import string
        "screen Transfer(fr|om: Account)",  // a parameter label
        "root { screen No|pe }",  // undeclared
        "screen Home |\nroot { screen Home }",  // whitespace
        "// Ho|me\nscreen Home",  // a comment
    ])
    func notRenameable(_ source: String) {
        let w = Workspace(source, others: ["Lib.routes": "screen X"])
        #expect(IDE.prepareRename(project: w.project, file: w.file, offset: w.cursor) == nil)
        #expect(throws: RenameError.self) {
            try IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: "Fine")
        }
    }
}
