import Testing
@testable import RoutesCodegen

@Suite struct SwiftTypeTests {
    /// Types as the model keeps them (normalized text) parse and print back unchanged.
    static let written = [
        "String", "Set<String>", "Result<A, B>?", "@Sendable (Int) async throws -> Void",
        "(_ x: inout Int, y: String) throws(E) -> [K: V]", "any Store & Sendable", "some View", "(() -> Void)?",
        "Foo.Bar<Baz>.Type", "()", "Set<Set<Int>>", "(any Store)?", "(x: Int, y: Int)", "(Int) -> (Int) -> Int",
        "[String: [Int]]", "@MainActor @Sendable () -> Void",
    ]

    @Test(arguments: written) func normalizedTypesRoundTrip(_ text: String) throws {
        let t = try #require(SwiftType(parsing: text))
        #expect(t.text == text)
    }

    @Test func functionsAreFoundThroughAttributesAndParentheses() {
        #expect(SwiftType(parsing: "(Int) -> Void")!.isFunction)
        #expect(SwiftType(parsing: "@Sendable () async -> Void")!.isFunction)
        #expect(SwiftType(parsing: "((Int) -> Void)")!.isFunction)
        #expect(!SwiftType(parsing: "((Int) -> Void)?")!.isFunction, "an optional function is escaping already")
        #expect(!SwiftType(parsing: "[() -> Void]")!.isFunction)
        #expect(!SwiftType(parsing: "Handler")!.isFunction)
    }

    @Test func screenParametersMustBeHashable() {
        #expect(SwiftType(parsing: "[String: Set<Int>]?")!.hashabilityProblem == nil)
        #expect(SwiftType(parsing: "Result<Int, Failure>")!.hashabilityProblem == nil)
        #expect(SwiftType(parsing: "(Int) -> Void")!.hashabilityProblem == "a function type")
        #expect(SwiftType(parsing: "[() -> Void]")!.hashabilityProblem == "a function type")
        #expect(SwiftType(parsing: "(a: Int, b: Int)")!.hashabilityProblem == "a tuple")
        #expect(SwiftType(parsing: "(Int)")!.hashabilityProblem == nil, "a type in parentheses is that type")
        #expect(SwiftType(parsing: "any Hashable")!.hashabilityProblem == "an existential (`any`)")
        #expect(SwiftType(parsing: "Kind.Type")!.hashabilityProblem == "a metatype")
        #expect(SwiftType(parsing: "Set<Kind.Type>")!.hashabilityProblem == "a metatype")
    }

    @Test func opaqueTypesAndTypeNamesAreFoundAnywhere() {
        #expect(SwiftType(parsing: "[some View]")!.containsOpaque)
        #expect(!SwiftType(parsing: "any View")!.containsOpaque)
        #expect(SwiftType(parsing: "Foo.Bar<Baz, [Qux: (Int) -> Zed]>")!.typeNames == ["Foo", "Baz", "Qux", "Int", "Zed"])
        #expect(SwiftType(parsing: "Home.Store")!.renaming(["Home": "AppHome"]).text == "AppHome.Store")
        #expect(SwiftType(parsing: "() throws(Home) -> Home?")!.renaming(["Home": "H"]).text == "() throws(H) -> H?")
    }

    @Test func optionalsOfCompositeTypesAreParenthesized() {
        for (text, optional) in [("any P", "(any P)?"), ("P & Q", "(P & Q)?"), ("() -> Void", "(() -> Void)?"), ("[Int]", "[Int]?")] {
            let t = SwiftType(parsing: text)!
            #expect(SwiftType.optional(t).text == optional)
        }
    }

    @Test func namesBecomeSwiftIdentifiers() {
        #expect(SwiftNames.escaped("default") == "`default`")
        #expect(SwiftNames.escaped("appStore") == "appStore")
        #expect(SwiftNames.label("default") == "default", "a keyword needs no backticks as a label")
        #expect(SwiftNames.label("inout") == "`inout`")
        #expect(SwiftNames.lowerCamel("URLPage") == "urlPage")
        #expect(SwiftNames.lowerCamel("HTTP") == "http")
        #expect(SwiftNames.lowerCamel("Home") == "home")
        #expect(SwiftNames.upperFirst("detail") == "Detail")
        #expect(SwiftNames.namespace(forFile: "Sources/App.routes") == "AppRoutes")
        #expect(SwiftNames.namespace(forFile: "my-app.routes") == "MyAppRoutes")
        #expect(SwiftNames.namespace(forFile: "2fa.routes") == "_2faRoutes")
        #expect(SwiftNames.namespace(forFile: "ShopRoutes.routes") == "ShopRoutes")
    }
}

import RoutesModel
import RoutesSyntax
import TestSupport

@Suite struct SwiftTypeAgreementTests {
    /// The parser (RoutesSyntax/TypeParser.swift) and the generator's reading of the type
    /// text it keeps agree: every type the parser accepts, the generator parses, and prints
    /// back as the model has it. Random token sequences, most of them malformed.
    @Test func everyTypeTheParserAcceptsTheGeneratorReads() {
        let pieces = ["Int", "Foo", ".", "Bar", "<", ">", ",", "(", ")", "[", "]", ":", "?", "->", "&", "@Sendable",
                      "any", "some", "async", "throws", "inout", "_", "x", " "]
        var rng = SplitMix64(seed: 21)
        var accepted = 0
        for _ in 0..<20_000 {
            let text = (0..<rng.int(1...9)).map { _ in rng.pick(pieces) }.joined(separator: " ")
            let source = "dependency d: \(text)\n"
            let tree = SyntaxTree.parse(SourceText(source))
            guard tree.diagnostics.isEmpty, let type = Lowering.lower(tree).declarations.first?.type else { continue }
            accepted += 1
            let parsed = SwiftType(parsing: type)
            #expect(parsed != nil, "the generator cannot read `\(type)` (from `\(text)`)")
            #expect(parsed?.text == type, "`\(type)` prints back as `\(parsed?.text ?? "-")`")
        }
        #expect(accepted > 1_000, "only \(accepted) of the random types parse")
    }
}
