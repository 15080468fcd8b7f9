import Foundation
import RoutesJSON
import Testing

/// Semantic tokens and folding ranges over real pipes.
@Suite struct HighlightingProtocolTests {
    @Test func semanticTokensUseTheLegendAndRelativePositions() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        let result = try client.initialize()["result"]
        let legend = result?["capabilities"]?["semanticTokensProvider"]?["legend"]?["tokenTypes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for name in ["screen", "builder", "dependency", "optional", "flag"] { #expect(legend.contains(name)) }
        let uri = "file:///tmp/routes-highlight-\(UUID().uuidString).routes"
        client.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(uri), "languageId": "routes", "version": 1,
            "text": "screen Home\nflag isOn\nroot { conditional isOn { screen Home } else { empty } }\n",
        ]])
        let response = try client.call("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])
        let data = response["result"]?["data"]?.arrayValue?.compactMap(\.intValue) ?? []
        #expect(data.count % 5 == 0 && !data.isEmpty)
        // Decode absolute (line, start, length, type) and find `Home` on line 2 as a screen.
        var line = 0, start = 0
        var decoded: [(Int, Int, Int, String)] = []
        for i in stride(from: 0, to: data.count, by: 5) {
            line += Int(data[i])
            start = data[i] == 0 ? start + Int(data[i + 1]) : Int(data[i + 1])
            decoded.append((line, start, Int(data[i + 2]), legend[Int(data[i + 3])]))
        }
        #expect(decoded.contains { $0 == (0, 7, 4, "screen") })      // the declaration
        #expect(decoded.contains { $0 == (1, 5, 4, "flag") })
        #expect(decoded.contains { $0.0 == 2 && $0.2 == 4 && $0.3 == "flag" })     // `isOn` in root
        #expect(decoded.contains { $0.0 == 2 && $0.2 == 4 && $0.3 == "screen" })   // `Home` in root
        #expect(try client.shutdownAndExit() == 0)
    }

    @Test func foldingRangesCoverMultiLineBlocks() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        let uri = "file:///tmp/routes-fold-\(UUID().uuidString).routes"
        client.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(uri), "languageId": "routes", "version": 1,
            "text": "screen Home\nroot {\n  screen Home {\n    empty\n  }\n}\n",
        ]])
        let ranges = try client.call("textDocument/foldingRange", ["textDocument": ["uri": .string(uri)]])["result"]?.arrayValue ?? []
        let pairs = ranges.compactMap { r -> [Int64]? in
            guard let s = r["startLine"]?.intValue, let e = r["endLine"]?.intValue else { return nil }
            return [s, e]
        }
        #expect(pairs.contains([1, 4]))
        #expect(pairs.contains([2, 3]))
        #expect(try client.shutdownAndExit() == 0)
    }
}
