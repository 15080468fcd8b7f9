import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// One search: the names declared (each a screen in its own line), the query, and the names
/// expected, best first.
struct SymbolSearchCase: CustomTestStringConvertible, Sendable {
    var query: String
    var names: [String]
    var expected: [String]
    var testDescription: String { "\(query.debugDescription) in \(names)" }
}

private let searches: [SymbolSearchCase] = [
    // The name itself, then prefixes, then word starts, then any subsequence.
    .init(query: "home", names: ["showHome", "homeStore", "Home", "HomeDetail", "home", "whatever", "h_o_m_e"],
          expected: ["home", "Home", "homeStore", "HomeDetail", "h_o_m_e", "showHome"]),
    .init(query: "home", names: ["hoMe", "Home"], expected: ["Home", "hoMe"]),
    .init(query: "Home", names: ["home", "Home", "HomeDetail"], expected: ["Home", "home", "HomeDetail"]),
    // Each run of matched letters starts a word: `s` + `S`.
    .init(query: "sS", names: ["Settings", "settingsStore", "sessionStore", "ss"], expected: ["ss", "sessionStore", "settingsStore", "Settings"]),
    .init(query: "detSt", names: ["detailStore", "destination", "DetailStoreX", "detStack"],
          expected: ["detStack", "detailStore", "DetailStoreX"]),
    // Upper-case runs: the last capital before lower case starts a word (`URLSession`).
    .init(query: "ses", names: ["URLSession", "houses", "sessions"], expected: ["sessions", "URLSession", "houses"]),
    .init(query: "xyz", names: ["Home", "Detail"], expected: []),
    .init(query: "", names: ["b", "a", "Ab"], expected: ["Ab", "a", "b"]),
    // Whitespace in the query is ignored.
    .init(query: " de tail ", names: ["detail", "Home"], expected: ["detail"]),
]

@Suite struct WorkspaceSymbolTests {
    @Test(arguments: searches)
    func rankedFuzzyMatches(_ c: SymbolSearchCase) {
        let w = Workspace(c.names.map { "screen \($0)" }.joined(separator: "\n"))
        #expect(IDE.workspaceSymbols(project: w.project, query: c.query).map(\.name) == c.expected)
    }

    @Test func everyFileOfTheProjectWithKindsLocationsAndContainers() {
        let w = Workspace("import \"Lib/Shared.routes\"\nscreen ‹HomeScreen›\nroot { screen HomeScreen }",
                          others: ["Lib/Shared.routes": "dependency ‹homeStore›: Store\nflag ‹homeFlag›\nbuilder ‹homeBuilder› { empty }",
                                   "Other.routes": "optional ‹homeDraft›: Draft"])
        let found = IDE.workspaceSymbols(project: w.project, query: "home")
        #expect(found.map(\.name) == ["homeFlag", "homeDraft", "homeStore", "homeBuilder", "HomeScreen"])
        func symbol(_ name: String) -> WorkspaceSymbol? { found.first { $0.name == name } }
        #expect(symbol("HomeScreen")?.kind == .struct)
        #expect(symbol("HomeScreen")?.location == Location(file: w.file, range: w.ranges["App.routes"]![0]))
        #expect(symbol("HomeScreen")?.containerName == "App.routes")
        #expect(symbol("homeStore")?.kind == .variable)
        #expect(symbol("homeStore")?.containerName == "Lib/Shared.routes")
        #expect(symbol("homeStore")?.location == Location(file: w.id("Lib/Shared.routes"), range: w.ranges["Lib/Shared.routes"]![0]))
        #expect(symbol("homeFlag")?.kind == .boolean)
        #expect(symbol("homeBuilder")?.kind == .function)
        #expect(symbol("homeDraft")?.kind == .variable)
        #expect(symbol("homeDraft")?.containerName == "Other.routes")
        // `root` is a symbol too.
        #expect(IDE.workspaceSymbols(project: w.project, query: "root").map(\.kind) == [.function])
    }

    @Test func theSameNameInTwoFilesIsListedTwiceByFile() {
        let w = Workspace("screen Twin", others: ["B.routes": "screen Twin"])
        let found = IDE.workspaceSymbols(project: w.project, query: "twin")
        #expect(found.map(\.containerName) == ["App.routes", "B.routes"])
    }

    @Test func theBestOnesAreKeptUpToTheLimit() {
        let names = (0..<150).map { "screen item\($0)" } + ["screen Item"]
        let w = Workspace(names.joined(separator: "\n"))
        let found = IDE.workspaceSymbols(project: w.project, query: "item")
        #expect(found.count == IDE.maxWorkspaceSymbols)
        #expect(found.prefix(3).map(\.name) == ["Item", "item0", "item1"])
        #expect(IDE.workspaceSymbols(project: w.project, query: "item", limit: 2).map(\.name) == ["Item", "item0"])
        #expect(IDE.workspaceSymbols(project: w.project, query: "item", limit: -1).isEmpty)
    }

    @Test func halfWrittenFilesAndOddQueries() {
        let w = Workspace("screen Home\nroot { screen ", others: ["Bad.routes": "dependency : \nflag ok"])
        #expect(IDE.workspaceSymbols(project: w.project, query: "o").map(\.name).contains("ok"))
        for query in ["é", "\u{0}", "((", String(repeating: "a", count: 500), "Home🙂"] {
            #expect(IDE.workspaceSymbols(project: w.project, query: query).isEmpty, "\(query)")
        }
    }
}
