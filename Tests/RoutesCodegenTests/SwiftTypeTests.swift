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
