import Foundation
import RoutesJSON
import Testing

private func errorCode(_ response: JSONValue) -> Int64? {
    response["error"]?["code"]?.intValue
}

private func cancel(_ id: JSONValue) -> JSONValue {
    LSPTestClient.notificationMessage("$/cancelRequest", ["id": id])
}

private let hoverParams: JSONValue = [
    "textDocument": ["uri": "file:///nonexistent/App.routes"], "position": ["line": 0, "character": 0],
]

/// Whole sessions with the built `routes lsp` over real pipes (README.md, `routes lsp`):
/// lifecycle, error codes, framing recovery, cancellation, and a stdout that carries nothing
/// but framed JSON-RPC.
@Suite("Protocol: sessions with `routes lsp` over pipes", .serialized)
struct ProtocolTests {
    @Test func initializeInitializedShutdownExitEndsWithStatusZero() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        let response = try client.initialize()
        #expect(response["id"] == 1)
        #expect(response["result"]?["capabilities"]?.objectValue != nil)
        #expect(response["result"]?["serverInfo"]?["name"] == "routes")
        #expect(response["result"]?["serverInfo"]?["version"]?.stringValue?.isEmpty == false)
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    /// `initialize` params with a field of the wrong type get -32602, and the server waits
    /// for a good `initialize` (fields left out are read as their defaults).
    @Test func initializeWithAFieldOfTheWrongTypeGetsInvalidParams() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        let bad: [JSONValue] = [
            ["processId": nil, "rootUri": 5, "capabilities": [:]],
            ["processId": "42", "rootUri": nil, "capabilities": [:]],
            ["processId": nil, "rootUri": nil, "capabilities": 5],
            ["processId": nil, "rootUri": nil, "capabilities": [:], "workspaceFolders": "file:///ws"],
            ["processId": nil, "rootUri": nil, "capabilities": [:], "workspaceFolders": [["name": "ws"]]],
            ["processId": nil, "rootPath": 1, "capabilities": [:]],
        ]
        for params in bad {
            let response = try client.call("initialize", params)
            #expect(response["error"]?["code"] == -32602, "\(JSON.serialize(params)): \(response)")
        }
        let response = try client.initialize(["capabilities": [:]])
        #expect(response["result"]?["capabilities"]?.objectValue != nil, "\(response)")
        #expect(try client.shutdownAndExit() == 0)
    }

    @Test func theStdioFlagIsAccepted() throws {
        let client = try LSPTestClient(arguments: ["lsp", "--stdio"])
        defer { client.stop() }
        try client.initialize()
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func exitWithoutShutdownEndsWithStatusOne() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        client.notify("exit")
        #expect(client.waitForExit() == 1)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func exitBeforeInitializeEndsWithStatusOne() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        client.notify("exit")
        #expect(client.waitForExit() == 1)
        #expect(client.messages.isEmpty)
    }

    @Test func theEndOfTheInputWithoutExitEndsWithStatusOne() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        _ = try client.call("shutdown")
        client.closeInput()
        #expect(client.waitForExit() == 1)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func anEmptyInputEndsWithStatusOne() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        client.closeInput()
        #expect(client.waitForExit() == 1)
        #expect(client.messages.isEmpty && client.protocolViolations.isEmpty)
    }

    @Test func requestsBeforeInitializeGetServerNotInitialized() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        client.notify("textDocument/didOpen", ["textDocument": [
            "uri": "file:///x/App.routes", "languageId": "routes", "version": 1, "text": "root = empty\n",
        ]])
        client.notify("$/setTrace", ["value": "verbose"])
        for (method, params) in [("textDocument/hover", hoverParams), ("shutdown", nil), ("routes/unknown", nil)] {
            let response = try client.call(method, params)
            #expect(errorCode(response) == -32002, "\(method)")
        }
        #expect(client.messages.count == 3, "notifications before initialize are dropped")
        try client.initialize()
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func aSecondInitializeIsAnInvalidRequest() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        let second = try client.call("initialize", LSPTestClient.initializeParams)
        #expect(errorCode(second) == -32600)
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func requestsAfterShutdownAreInvalidRequests() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        #expect(try client.call("shutdown")["result"] == .null)
        for (method, params) in [("textDocument/hover", hoverParams), ("shutdown", nil),
                                 ("initialize", LSPTestClient.initializeParams), ("routes/unknown", nil)] {
            #expect(errorCode(try client.call(method, params)) == -32600, "\(method)")
        }
        client.notify("exit")
        #expect(client.waitForExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func unknownRequestsGetMethodNotFoundAndUnknownNotificationsNothing() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        #expect(errorCode(try client.call("routes/doesNotExist")) == -32601)
        #expect(errorCode(try client.call("$/unknownRequest", ["x": 1])) == -32601)
        client.notify("$/setTrace", ["value": "off"])
        client.notify("$/unknownNotification")
        client.notify("workspace/unknownNotification", ["x": 1])
        let id = client.request("shutdown")
        _ = try client.response(to: id)
        #expect(client.responses.map { $0["id"] } == [1, 2, 3, id])
        client.notify("exit")
        #expect(client.waitForExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func invalidJSONGetsParseErrorWithIdNullAndTheServerGoesOn() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        client.sendRaw(LSPTestClient.frame(body: #"{"jsonrpc":"2.0","id":2,"method":"#))
        let error = try client.waitFor("a parse error") { errorCode($0) == -32700 }
        #expect(error["id"] == .null)
        #expect(error.objectValue?.keys.contains("id") == true)
        // an invalid JSON-RPC message, then a request in the same write
        client.sendRaw(LSPTestClient.frame(body: #"{"jsonrpc":"2.0","id":"s","params":1,"method":"m"}"#)
                       + LSPTestClient.frame(client.requestMessage("routes/unknown", id: 3)))
        let invalid = try client.waitFor("an invalid request") { $0["id"] == "s" }
        #expect(errorCode(invalid) == -32600)
        #expect(errorCode(try client.response(to: 3)) == -32601)
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func badFramingIsLoggedAndReadingResyncsToTheNextHeader() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        let lost: JSONValue = ["jsonrpc": "2.0", "id": 99, "method": "shutdown"]
        let garbage: [[UInt8]] = [
            Array("this is not a header\r\n\r\n".utf8),
            Array("Content-Type: application/vscode-jsonrpc\r\n\r\n\(JSON.serialize(lost))".utf8),
            Array("Content-Length: 99999999999\r\n\r\n\(JSON.serialize(lost))".utf8),
            Array("Content-Length: 67108865\r\n\r\n".utf8),
            Array("Content-Length: abc\r\n\r\n".utf8),
            Array("Content-Length: -1\r\n\r\n".utf8),
            [0x00, 0xFF, 0xFE, 0x1B, 0x5B, 0x32, 0x4A, 0x0D, 0x0A, 0x0D, 0x0A, 0x80],
        ]
        var ids: [JSONValue] = []
        for (index, junk) in garbage.enumerated() {
            // the garbage and the next request in one write, then in two
            let first = client.requestMessage("routes/unknown", id: .int(Int64(100 + 2 * index)))
            client.sendRaw(junk + LSPTestClient.frame(first))
            _ = try client.response(to: first["id"]!)
            client.sendRaw(junk)
            let second = client.request("routes/unknown", id: .int(Int64(101 + 2 * index)))
            _ = try client.response(to: second)
            ids += [first["id"]!, second]
        }
        #expect(try client.shutdownAndExit() == 0)
        // initialize (1), every request once and in order, shutdown (2); never the lost 99
        let expected: [JSONValue?] = [1] + ids.map { $0 } + [2]
        #expect(client.responses.map { $0["id"] } == expected)
        #expect(!client.responses.contains { $0["id"] == 99 }, "a body without a usable header is not run")
        #expect(client.protocolViolations.isEmpty)
        let log = client.standardError
        #expect(log.contains("Content-Length"))
        #expect(log.contains("64 MiB"))
        #expect(log.contains("without Content-Length"))
    }

    @Test func aMessageMayArriveInPieces() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        let framed = LSPTestClient.frame(client.requestMessage("routes/unknown", id: "pieces"))
        for piece in stride(from: 0, to: framed.count, by: 7) {
            client.sendRaw(Array(framed[piece ..< min(piece + 7, framed.count)]))
            usleep(2000)
        }
        #expect(errorCode(try client.response(to: "pieces")) == -32601)
        // bare \n line endings and unknown headers are accepted
        let body = #"{"jsonrpc":"2.0","id":"bare","method":"$/unknown"}"#
        client.sendRaw("X-Client: test\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n"
                       + "content-length: \(body.utf8.count)\n\n" + body)
        #expect(errorCode(try client.response(to: "bare")) == -32601)
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func aRequestCancelledInTheSameWriteGetsRequestCancelled() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        for id in [JSONValue.int(42), "forty-three"] {
            let request = client.requestMessage("textDocument/hover", hoverParams, id: id)
            client.sendRaw(LSPTestClient.frame(request) + LSPTestClient.frame(cancel(id)))
            let response = try client.response(to: id)
            #expect(errorCode(response) == -32800, "\(id)")
            #expect(response["result"] == nil)
        }
        // A late cancellation changes nothing, and the server goes on.
        client.send(cancel(42))
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.responses.filter { $0["id"] == 42 }.count == 1)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func aBurstOfRequestsIsAnsweredExactlyOnceInOrder() throws {
        let client = try LSPTestClient()
        defer { client.stop() }
        try client.initialize()
        var burst: [UInt8] = []
        let ids = (1000 ..< 2000).map { JSONValue.int(Int64($0)) }
        for (index, id) in ids.enumerated() {
            let method = index % 3 == 0 ? "$/unknown" : "routes/unknown"
            burst += LSPTestClient.frame(client.requestMessage(method, ["n": .int(Int64(index))], id: id))
            if index % 10 == 0 { burst += LSPTestClient.frame(LSPTestClient.notificationMessage("$/setTrace", ["value": "off"])) }
        }
        client.sendRaw(burst)
        _ = try client.response(to: ids.last!)
        #expect(try client.shutdownAndExit() == 0)
        let answered = client.responses.map { $0["id"] ?? .null }.filter { ids.contains($0) }
        #expect(answered == ids)
        #expect(client.protocolViolations.isEmpty)
    }

    @Test func stdoutCarriesOnlyFramedJSONEvenWithDebugLogging() throws {
        let client = try LSPTestClient(environment: ["ROUTES_LSP_LOG": "debug"])
        defer { client.stop() }
        try client.initialize()
        _ = try client.call("routes/unknown")
        client.sendRaw("junk\r\n\r\n")
        client.sendRaw(LSPTestClient.frame(body: "not json"))
        _ = try client.call("textDocument/hover", hoverParams)
        #expect(try client.shutdownAndExit() == 0)
        #expect(client.protocolViolations.isEmpty)
        #expect(client.standardError.contains("debug"))
        #expect(client.messages.allSatisfy { $0.objectValue != nil })
    }
}
