import TestSupport
import Foundation
import Testing
@testable import RoutesSyntax

private func parse(_ text: String) -> SyntaxTree { SyntaxTree.parse(SourceText(text)) }
private func errors(_ text: String) -> [String] { parse(text).diagnostics.map(\.message) }

private let fixtureFiles: [URL] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    let examples = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")
    var result: [URL] = []
    for dir in [root, examples] {
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            if url.pathExtension == "routes" { result.append(url) }
        }
    }
    return result.sorted { $0.path < $1.path }
}()

@Suite struct LosslessTreeTests {
    @Test func everyFixtureRoundTripsByteForByte() throws {
        #expect(fixtureFiles.count > 20)
        for url in fixtureFiles {
            let bytes = [UInt8](try Data(contentsOf: url))
            let tree = SyntaxTree.parse(SourceText(bytes: bytes))
            #expect(tree.reconstructedBytes() == tree.source.bytes, "\(url.lastPathComponent)")
            // Every token lies in exactly one node's range, and child ranges nest.
            checkNesting(tree)
        }
    }

    @Test func randomBytesRoundTripAndNeverCrash() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("screen root builder anyOf { } ( ) , : . ? / \" \\ // /// \n\t x Y _ 1 -2 @ é 😀 if let else".utf8)
            + [0xFF, 0xC3, 0x80, 0xE2]
        for _ in 0..<500 {
            let length = Int(rng.next() % 300)
            let bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let tree = SyntaxTree.parse(SourceText(bytes: bytes))
            #expect(tree.reconstructedBytes() == tree.source.bytes)
            checkNesting(tree)
        }
    }

    @Test func commentsAndWhitespaceAreTokensInTheTree() {
        let tree = parse("/// doc\nscreen Home // trailing\n")
        let kinds = tree.tokens.map(\.kind)
        #expect(kinds.contains(.docComment))
        #expect(kinds.contains(.lineComment))
        #expect(kinds.last == .eof)
        #expect(tree.root.childNodes.map(\.kind) == [.screenDecl])
    }

    @Test func treeShapeOfABuilder() {
        let tree = parse("root { anyOf { screen A uses d, e { empty } x } }")
        let dump = tree.debugDump()
        #expect(dump.contains("rootDecl"))
        #expect(dump.contains("anyOfBuilder"))
        #expect(dump.contains("usesClause"))
        #expect(dump.contains("referenceBuilder"))
        #expect(tree.diagnostics.isEmpty)
    }

    func checkNesting(_ tree: SyntaxTree) {
        var owner = Array(repeating: 0, count: tree.tokens.count)
        for (index, node) in tree.nodes.enumerated() {
            #expect(node.tokenStart <= node.tokenEnd)
            for token in Int(node.tokenStart)..<Int(node.tokenEnd) { owner[token] = index }
            var descendant = index + 1
            while descendant < Int(node.subtreeEnd) {
                let inner = tree.nodes[descendant]
                #expect(inner.tokenStart >= node.tokenStart && inner.tokenEnd <= node.tokenEnd)
                descendant += 1
            }
        }
        #expect(tree.nodes.first?.tokenEnd == Int32(tree.tokens.count))
    }
}

@Suite struct ParserRecoveryTests {
    @Test func validProgramHasNoErrors() {
        let text = """
            import "Other.routes"
            screen Home
            screen Detail(id: String, tags: [String], map: [String: Int]?, from: Account) sheet
            screen Modal sheet(allowsPush: false)
            screen Plain()
            dependency appStore: App.Store
            dependency settingsStore: SettingsStore from Home
            optional detailStore: DetailStore
            flag isLoggedIn
            builder detail { screen Detail uses detailStore { detail } }
            root {
              conditional isLoggedIn {
                wildcard Home { screen Home uses appStore, settingsStore { anyOf { detail if let detailStore { empty } else { empty } if screen Home { empty } } } }
              } else { empty }
            }
            """
        #expect(errors(text) == [])
    }

    @Test func missingClosingBraceIsOneErrorAndLaterDeclarationsSurvive() {
        let tree = parse("builder a {\n  screen A {\n    empty\n\nflag f\nscreen B\n")
        #expect(tree.diagnostics.count == 1)
        #expect(tree.diagnostics[0].message.hasPrefix("expected `}`"))
        #expect(tree.diagnostics[0].range.isEmpty)
        #expect(tree.diagnostics[0].related.count == 1)
        let kinds = tree.root.childNodes.map(\.kind)
        #expect(kinds == [.builderDecl, .flagDecl, .screenDecl])
    }

    @Test func emptyBlockIsAnErrorAtTheClosingBrace() {
        let tree = parse("root {\n}")
        #expect(tree.diagnostics.count == 1)
        #expect(tree.source.text(tree.diagnostics[0].range) == "}")
    }

    @Test func deeplyNestedAnyOfGivesADiagnosticNotACrash() {
        let depth = 100_000
        let text = String(repeating: "anyOf {\n", count: depth)
        let tree = parse("root {\n" + text + "screen A\n" + String(repeating: "}\n", count: depth) + "}\nflag after\n")
        #expect(tree.diagnostics.count == 1)
        #expect(tree.diagnostics[0].message.contains("too deep"))
        #expect(tree.root.childNodes.map(\.kind) == [.rootDecl, .flagDecl])
        #expect(tree.reconstructedBytes() == tree.source.bytes)
    }

    @Test func deeplyNestedUnclosedBlocksGiveTwoErrorsAtMost() {
        let tree = parse("root {\n" + String(repeating: "anyOf {\n", count: 50_000))
        #expect(tree.diagnostics.count == 2)
    }

    @Test func deeplyNestedTypesAreBounded() {
        let tree = parse("dependency d: " + String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000))
        #expect(tree.diagnostics.count >= 1)
        #expect(tree.diagnostics.contains { $0.message.contains("too deep") })
    }

    @Test func danglingUsesBeforeNextBuilderIsOneError() {
        let errs = errors("screen A\nscreen B\nroot { anyOf {\n  screen A uses\n  screen B\n} }")
        #expect(errs.count == 1)
        #expect(errs[0].contains("dependency or optional name"))
    }

    @Test func keywordsMayBeParameterLabels() {
        #expect(errors("screen Transfer(from: Account, to: Account, if: Bool, screen: Int)") == [])
    }

    @Test func nameAfterUsesListWithoutCommaIsTheNextBuilder() {
        let tree = parse("root { anyOf { screen A uses d  other } }")
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.debugDump().contains("referenceBuilder"))
    }

    @Test func unindentedAnyOfBranchesAreBranches() {
        #expect(errors("root {\nanyOf {\nscreen A\nscreen B\n}\n}\n") == [])
    }

    @Test func dedentedScreenClosesAnIndentedAnyOf() {
        let tree = parse("root {\n  anyOf {\n    screen A\nscreen B\n")
        #expect(tree.diagnostics.count == 1)
        #expect(tree.root.childNodes.map(\.kind) == [.rootDecl, .screenDecl])
    }

    @Test func garbageRunIsOneError() {
        #expect(errors("screen A\n1 2 3 { x y } \"s\"\nscreen B").count == 1)
    }

    @Test func invalidUTF8IsOneErrorPerRun() {
        let tree = SyntaxTree.parse(SourceText(bytes: Array("screen A // ".utf8) + [0xFF, 0xFE, 0x41, 0xC0] + Array("\nscreen B".utf8)))
        #expect(tree.diagnostics.count == 2)
        #expect(tree.diagnostics.allSatisfy { $0.message.contains("UTF-8") })
        #expect(tree.root.childNodes.map(\.kind) == [.screenDecl, .screenDecl])
    }

    @Test func elseIfIsOneErrorAndStillParses() {
        let tree = parse("root { if let a { empty } else if let b { empty } }")
        #expect(tree.diagnostics.count == 1)
        #expect(tree.diagnostics[0].message.contains("else if"))
    }
}


@Suite struct LayoutTests {
    @Test func oddlyIndentedValidCodeIsValid() {
        let tree = SyntaxTree.parse(SourceText("root {\n  anyOf {\nscreen A\n  }\n}\n"))
        #expect(tree.diagnostics.isEmpty)
        let wildcard = SyntaxTree.parse(SourceText("root {\n    wildcard A {\nscreen A\n    }\n}\n"))
        #expect(wildcard.diagnostics.isEmpty)
    }

    @Test func verticalTabIsNotWhitespace() {
        #expect(SyntaxTree.parse(SourceText("screen A\u{0B}screen B")).diagnostics.count == 1)
    }
}
