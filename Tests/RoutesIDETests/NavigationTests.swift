import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

@Suite struct DefinitionTests {
    @Test func aUseGoesToItsDeclarationAcrossFiles() {
        let w = Workspace("import \"Lib.routes\"\nroot { screen Sha|red }",
                          others: ["Lib.routes": "screen ‹Shared›"])
        let locations = IDE.definition(project: w.project, file: w.file, offset: w.cursor)
        #expect(locations == [Location(file: w.id("Lib.routes"), range: w.ranges["Lib.routes"]![0])])
    }

    @Test func everyKindOfUse() {
        let source = """
            screen ‹Home›
            screen ‹Detail›(id: String)
            dependency ‹store›: Store from Home
            optional ‹draft›: Draft
            flag ‹on›
            builder ‹b› { screen Detail }
            root { conditional on { if let draft { screen Home uses store { b } } else { wildcard Home { if screen Home { b } } } } else { empty } }
            """
        let w = Workspace(source)
        let decl = Dictionary(uniqueKeysWithValues: w.ranges["App.routes"]!.map { (w.text(w.file).utf8Slice($0), $0) })
        // Every mention of every name goes to its declaration, at its start, middle and end.
        let text = w.text(w.file)
        let tree = w.project.files[w.file].syntax
        for token in tree.tokens where token.kind == .identifier {
            let name = text.utf8Slice(token.range)
            guard let target = decl[name] else { continue }
            for offset in [token.start, (token.start + token.end) / 2, token.end] {
                #expect(IDE.definition(project: w.project, file: w.file, offset: offset) == [Location(file: w.file, range: target)],
                        "\(name) at \(offset)")
            }
        }
    }

    @Test func aDeclarationIsItsOwnDefinition() {
        let w = Workspace("screen ‹Ho|me›")
        #expect(IDE.definition(project: w.project, file: w.file, offset: w.cursor) == [Location(file: w.file, range: w.ranges["App.routes"]![0])])
    }

    @Test func anImportGoesToTheImportedFile() {
        let w = Workspace("import \"sub/Li|b.routes\"", others: ["sub/Lib.routes": "screen X"])
        #expect(IDE.definition(project: w.project, file: w.file, offset: w.cursor) == [Location(file: w.id("sub/Lib.routes"), range: 0..<0)])
        let missing = Workspace("import \"No|ne.routes\"")
        #expect(IDE.definition(project: missing.project, file: missing.file, offset: missing.cursor).isEmpty)
    }

    @Test func nothingForUndeclaredNamesKeywordsAndPunctuation() {
        let w = Workspace("root { screen Nope }")
        for needle in ["Nope", "screen", "{", "root"] {
            let offset = w.offset(of: needle, delta: 1)
            let result = IDE.definition(project: w.project, file: w.file, offset: offset)
            if needle == "root" {
                #expect(result.count == 1)  // `root` is a declaration: itself
            } else {
                #expect(result.isEmpty, "\(needle)")
            }
        }
    }
}

@Suite struct ReferencesTests {
    @Test func everyUseAcrossFilesAndTheDeclarationWhenAsked() {
        let w = Workspace("""
            import "Lib.routes"
            root { anyOf { screen ‹Shared› screen ‹Sha|red› uses d wildcard ‹Shared› { if screen ‹Shared› { empty } } } }
            """, others: ["Lib.routes": "screen ‹Shared›\ndependency d: D from ‹Shared›\nbuilder b { screen ‹Shared› }"])
        let app = w.ranges["App.routes"]!.map { Location(file: w.file, range: $0) }
        let lib = w.ranges["Lib.routes"]!.map { Location(file: w.id("Lib.routes"), range: $0) }
        let withDeclaration = IDE.references(project: w.project, file: w.file, offset: w.cursor, includeDeclaration: true)
        #expect(withDeclaration.first == lib[0])
        #expect(Set(withDeclaration) == Set(app + lib))
        #expect(withDeclaration.count == app.count + lib.count)
        let without = IDE.references(project: w.project, file: w.file, offset: w.cursor, includeDeclaration: false)
        #expect(Set(without) == Set(app + lib).subtracting([lib[0]]))
        #expect(without.count == app.count + lib.count - 1)
    }

    @Test func theSameNameInAnotherClosureIsAnotherSymbol() {
        // A.routes and B.routes each declare their own `on`; C imports B only.
        let w = Workspace("flag ‹o|n›\nroot { conditional ‹on› { empty } else { empty } }",
                          name: "A.routes",
                          others: ["B.routes": "flag on\nbuilder x { conditional on { empty } else { empty } }",
                                   "C.routes": "import \"B.routes\"\nroot { conditional on { x } else { empty } }"])
        let refs = IDE.references(project: w.project, file: w.file, offset: w.cursor, includeDeclaration: true)
        #expect(refs == w.ranges["A.routes"]!.map { Location(file: w.file, range: $0) })
        let fromC = IDE.references(project: w.project, file: w.id("C.routes"), offset: w.offset(of: "on {", in: "C.routes"), includeDeclaration: true)
        #expect(fromC.map(\.file).allSatisfy { $0 != w.file })
        #expect(fromC.count == 3)
    }

    @Test func aWrongKindUseStillRefersToTheDeclaration() {
        let w = Workspace("screen ‹Ho|me›\nroot { conditional ‹Home› { empty } else { empty } }")
        let refs = IDE.references(project: w.project, file: w.file, offset: w.cursor, includeDeclaration: true)
        #expect(refs == w.ranges["App.routes"]!.map { Location(file: w.file, range: $0) })
    }
}

@Suite struct DocumentSymbolTests {
    @Test func kindsDetailsAndRanges() {
        let w = Workspace("""
            ‹/// Doc is not part of the range.
            ›‹screen Home›
            ‹screen Detail(id: String) sheet(allowsPush: false)›
            ‹dependency store: App.Store from Home›
            ‹optional draft: [String: Int]?›
            ‹flag on›
            ‹builder b { empty }›
            ‹root { b }›
            """)
        let symbols = IDE.documentSymbols(project: w.project, file: w.file)
        #expect(symbols.map(\.name) == ["Home", "Detail", "store", "draft", "on", "b", "root"])
        #expect(symbols.map(\.kind) == [.struct, .struct, .variable, .variable, .boolean, .function, .function])
        #expect(symbols.map(\.detail) == ["push", "sheet(allowsPush: false)", "App.Store", "[String: Int]?", nil, nil, nil])
        #expect(symbols.map(\.range) == Array(w.ranges["App.routes"]!.dropFirst()))
        let text = w.text(w.file)
        #expect(symbols.map { text.utf8Slice($0.selectionRange) } == ["Home", "Detail", "store", "draft", "on", "b", "root"])
        #expect(symbols.allSatisfy { $0.range.contains($0.selectionRange.lowerBound) })
    }

    @Test func halfWrittenDeclarationsAreStillListed() {
        let w = Workspace("screen Home\nbuilder b {\n  anyOf {\n    screen\nflag f\ndependency")
        let symbols = IDE.documentSymbols(project: w.project, file: w.file)
        #expect(symbols.map(\.name) == ["Home", "b", "f"])
        #expect(IDE.documentSymbols(project: w.project, file: 42).isEmpty)
    }
}

extension String {
    /// The text of a byte range.
    func utf8Slice(_ r: Range<Int>) -> String {
        String(decoding: Array(utf8)[r], as: UTF8.self)
    }
}
