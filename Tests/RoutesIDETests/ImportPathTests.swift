import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// Folders in memory: absolute path → entries (a name ending in `/` is a folder).
struct MemoryDirectories: DirectoryLister {
    var folders: [String: [String]]
    func entries(of directory: String) -> [DirectoryEntry]? {
        folders[directory].map { names in
            names.map { $0.hasSuffix("/") ? DirectoryEntry(name: String($0.dropLast()), isDirectory: true)
                                          : DirectoryEntry(name: $0, isDirectory: false) }
        }
    }
}

/// One completion inside an import string: the importing file's name and text (with `|`),
/// and the labels expected, in order.
struct ImportPathCase: CustomTestStringConvertible, Sendable {
    var name: String
    var file: String = "App.routes"
    var source: String
    var expected: [String]
    var testDescription: String { name }
}

/// The workspace root is `/ws` (see `Workspace`).
private let disk = MemoryDirectories(folders: [
    "/": ["ws/", "etc/", "Top.routes"],
    "/ws": ["App.routes", "Other.routes", "notes.txt", "Lib/", "Sub/", ".hidden/", ".Secret.routes", "README.md"],
    "/ws/Lib": ["Extra.routes", "Deep/", "image.png"],
    "/ws/Lib/Deep": ["Bottom.routes"],
    "/ws/Sub": ["File.routes", "Near.routes"],
])

private let importCases: [ImportPathCase] = [
    .init(name: "the importing file's folder: .routes files, then folders; itself, hidden entries and other files left out",
          source: "import \"|\"", expected: ["Other.routes", "Lib/", "Sub/"]),
    .init(name: "a typed prefix filters", source: "import \"O|\"", expected: ["Other.routes"]),
    .init(name: "a folder typed: its entries, and the folder above (inside the root)",
          source: "import \"Lib/|\"", expected: ["Extra.routes", "Deep/", "../"]),
    .init(name: "two folders down", source: "import \"Lib/Deep/B|\"", expected: ["Bottom.routes"]),
    .init(name: "from a file in a subfolder: its folder, and the folder above",
          file: "Sub/File.routes", source: "import \"|\"", expected: ["Near.routes", "../"]),
    .init(name: "from a subfolder, up one: the root's entries", file: "Sub/File.routes", source: "import \"../|\"",
          expected: ["App.routes", "Other.routes", "Lib/", "Sub/", "../"]),
    .init(name: "at the root, nothing above it is offered", source: "import \"L|\"", expected: ["Lib/"]),
    .init(name: "typing `..` out of the root lists what is there", source: "import \"../|\"",
          expected: ["Top.routes", "etc/", "ws/"]),
    .init(name: "a folder that does not exist", source: "import \"Nowhere/|\"", expected: ["../"]),
    .init(name: "an unterminated string", source: "import \"Lib/E|", expected: ["Extra.routes"]),
    .init(name: "a string with an escape: nothing", source: "import \"Li\\\\b/|\"", expected: []),
    .init(name: "before the opening quote: not in the string", source: "import |\"Lib/\"", expected: []),
    .init(name: "after the closing quote: not in the string", source: "import \"Lib/\"|",
          expected: ["import", "screen", "dependency", "optional", "flag", "builder", "root", "link"]),
]

@Suite struct ImportPathTests {
    @Test(arguments: importCases)
    func filesAndFoldersOfTheTypedFolder(_ c: ImportPathCase) {
        let w = Workspace(c.source, name: c.file)
        let items = IDE.completions(session: w.session, file: w.file, offset: w.cursor, snippets: false, directories: disk)
        #expect(items.map(\.label) == c.expected)
    }

    @Test func kindsAndTheRangesReplaced() {
        let w = Workspace("import \"Lib/Ex|tra.routes\"")
        let items = IDE.completions(session: w.session, file: w.file, offset: w.cursor, snippets: false, directories: disk)
        #expect(items.map(\.label) == ["Extra.routes"])
        #expect(items.first?.kind == .file)
        let start = w.offset(of: "Extra")
        // The typed part of the segment is replaced, or the whole segment when the client can.
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: w.cursor) == start..<(start + 2))
        #expect(IDE.replaceRange(project: w.project, file: w.file, offset: w.cursor) == start..<(start + 12))
        let all = IDE.completions(session: w.session, file: w.file, offset: start, snippets: false, directories: disk)
        #expect(all.map(\.label) == ["Extra.routes", "Deep/", "../"])
        #expect(all.map(\.kind) == [.file, .folder, .folder])
        #expect(IDE.wordRange(project: w.project, file: w.file, offset: start) == start..<start)
        #expect(IDE.replaceRange(project: w.project, file: w.file, offset: start) == start..<(start + 12))
    }

    @Test func filesOfTheProjectNotOnDiskYetAreListed() {
        // `New.routes` is open in the editor and not saved: it is a file of the project only.
        let w = Workspace("import \"N|\"", others: ["New.routes": "screen Fresh"])
        let items = IDE.completions(session: w.session, file: w.file, offset: w.cursor, snippets: false, directories: disk)
        #expect(items.map(\.label) == ["New.routes"])
        // Without a lister, only those.
        let alone = IDE.completions(session: w.session, file: w.file, offset: w.cursor, snippets: false)
        #expect(alone.map(\.label) == ["New.routes"])
    }

    @Test func elsewhereTheUsualCompletions() {
        let w = Workspace("import \"Lib.routes\"\n|")
        let items = IDE.completions(session: w.session, file: w.file, offset: w.cursor, snippets: false, directories: disk)
        #expect(items.map(\.label).contains("root"))
    }
}
