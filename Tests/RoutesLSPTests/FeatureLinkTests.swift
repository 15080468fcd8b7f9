import Foundation
import RoutesJSON
import Testing

/// Links in the language server, over real pipes: diagnostics, symbols, code lenses, and
/// `routes/preview` by URL.
@Suite("Feature: links")
struct FeatureLinkTests {
    static let app = """
        screen Home
        screen Detail(id: Int)
        screen A(x: String)
        screen B(y: String)
        flag isLoggedIn

        link item "/items/{id}" -> Home/Detail(id: id)
        link a "/{x}" -> Home/A(x: x)
        link b "/{y}" -> Home/B(y: y)

        root {
          screen Home {
            anyOf {
              conditional isLoggedIn { screen Detail } else { empty }
              screen A
              screen B
            }
          }
        }

        """

    static func session() throws -> FeatureSession {
        let session = try FeatureSession(try FeatureWorkspace(["App.routes": app]))
        try session.open("App.routes")
        return session
    }

    @Test func aTieIsReportedAndALinkIsAConstantSymbol() throws {
        let session = try Self.session()
        defer { session.stop() }
        _ = try session.sync()
        let diagnostics = try #require(try session.diagnostics("App.routes"))
        #expect(diagnostics.map { $0["code"]?.stringValue } == ["ambiguous-link"])
        #expect(diagnostics.first?["range"]?["start"]?["line"] == 8)
        let symbols = try #require(try session.result("textDocument/documentSymbol", session.document("App.routes")).arrayValue)
        let item = try #require(symbols.first { $0["name"] == "item" })
        #expect(item["kind"] == 14)
        #expect(item["detail"] == "/items/{id}")
        try session.finish()
    }

    @Test func previewByURLResolvesTheLinksPath() throws {
        let session = try Self.session()
        defer { session.stop() }
        let preview = try session.result("routes/preview", session.document("App.routes", ["url": "myapp://items/7", "flags": ["isLoggedIn": false]]))
        #expect(preview["link"] == "item")
        let elements = try #require(preview["tree"]?["elements"]?.arrayValue)
        #expect(elements.map { $0["screen"] } == ["Home", "Detail"])
        #expect(elements.map { $0["built"] } == [true, false])
        #expect(preview["text"]?.stringValue?.contains("Detail(id: 7)") == true)
        // No link, and a tie: invalid params, and the server goes on.
        #expect(try session.errorCode("routes/preview", session.document("App.routes", ["url": "/items/x/y/z"])) == -32602)
        #expect(try session.errorCode("routes/preview", session.document("App.routes", ["url": "/hello"])) == -32602)
        #expect(try session.errorCode("routes/preview", session.document("App.routes", ["url": 3])) == -32602)
        // A URL in place of a path, not beside one.
        #expect(try session.errorCode("routes/preview", session.document("App.routes", ["url": "myapp://items/7", "path": "Home"])) == -32602)
        #expect(try session.result("routes/preview", session.document("App.routes", ["url": "myapp://items/7", "path": nil]))["text"] != nil)
        try session.finish()
    }

    @Test func aLinksLensSaysWhenItsPathIsBuilt() throws {
        let session = try Self.session()
        defer { session.stop() }
        let lenses = try #require(try session.result("textDocument/codeLens", session.document("App.routes")).arrayValue)
        let item = try #require(lenses.first { $0["range"]?["start"]?["line"] == 6 })
        let resolved = try session.result("codeLens/resolve", item)
        #expect(resolved["command"]?["title"] == "opens Home/Detail when isLoggedIn")
        let argument = try #require(resolved["command"]?["arguments"]?[0])
        #expect(argument["flags"] == ["isLoggedIn": true])
        let preview = try session.result("routes/preview", argument)
        #expect(preview["tree"]?["elements"]?.arrayValue?.allSatisfy { $0["built"] == true } == true)
        try session.finish()
    }
}
