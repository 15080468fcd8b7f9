import Foundation
import RoutesJSON
import RoutesLSP
import Testing

/// A ``Server`` driven without I/O: messages go in through ``Server/handle(messageBody:)`` (or
/// ``Server/enqueue(messageBody:)`` and ``Server/processQueued()``), and what it writes is
/// collected and checked to be well-framed JSON-RPC.
final class LifecycleHarness {
    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [[UInt8]] = []
        func append(_ frame: [UInt8]) { lock.withLock { frames.append(frame) } }
        func take() -> [[UInt8]] {
            lock.withLock {
                defer { frames = [] }
                return frames
            }
        }
    }

    let server: Server
    private let output = Output()

    init(version: String = "9.9.9", configure: (Server) -> Void = { _ in }) {
        let output = self.output
        server = Server(output: MessageWriter(sink: { output.append($0) }), version: version)
        configure(server)
    }

    /// Handles `message` now; returns the exit status once `exit` has been handled.
    @discardableResult
    func send(_ message: JSONValue) -> Int32? {
        server.handle(messageBody: Array(JSON.serialize(message).utf8))
    }

    /// Handles a raw body (not necessarily JSON).
    @discardableResult
    func sendRaw(_ body: String) -> Int32? {
        server.handle(messageBody: Array(body.utf8))
    }

    /// Queues `message` without handling it.
    func enqueue(_ message: JSONValue) {
        server.enqueue(messageBody: Array(JSON.serialize(message).utf8))
    }

    /// Everything written since the last call, each frame checked and parsed.
    func takeOutput() -> [JSONValue] {
        output.take().map { frame in
            let text = String(decoding: frame, as: UTF8.self)
            guard let separator = text.range(of: "\r\n\r\n") else {
                Issue.record("no header block in \(text)")
                return .null
            }
            let header = text[..<separator.lowerBound]
            let body = Array(frame[(header.utf8.count + 4)...])
            #expect(header == "Content-Length: \(body.count)", "the only header is Content-Length")
            do {
                let message = try JSON.parse(bytes: body)
                #expect(message["jsonrpc"] == "2.0")
                return message
            } catch {
                Issue.record("not JSON: \(text)")
                return .null
            }
        }
    }

    /// Sends a request and returns the one message written in answer (recording an issue if
    /// there is not exactly one, or it does not echo `id`).
    func request(_ id: JSONValue, _ method: String, _ params: JSONValue? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
        var message: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = params }
        send(.object(message))
        let output = takeOutput()
        #expect(output.count == 1, "one answer to \(method)", sourceLocation: sourceLocation)
        guard let response = output.first else { return .null }
        #expect(response["id"] == id, "the id is echoed", sourceLocation: sourceLocation)
        return response
    }

    func notify(_ method: String, _ params: JSONValue? = nil) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        send(.object(message))
    }

    /// The error code of a response, if it is an error.
    static func errorCode(_ response: JSONValue) -> Int64? {
        response["error"]?["code"]?.intValue
    }

    /// `initialize` (checked to succeed) and `initialized`.
    func initialize() {
        let response = request(0, "initialize", ["processId": nil, "rootUri": nil, "capabilities": [:]])
        #expect(response["result"]?["capabilities"] != nil)
        notify("initialized", [:])
        #expect(takeOutput().isEmpty)
    }
}

/// The error code of a response, if it is an error.
private func errorCode(_ response: JSONValue) -> Int64? {
    LifecycleHarness.errorCode(response)
}

@Suite("Lifecycle: initialize, shutdown and exit")
struct LifecycleTests {
    @Test func requestsBeforeInitializeGetServerNotInitialized() {
        let harness = LifecycleHarness { $0.onRequest("textDocument/hover") { _ throws(ResponseError) in "hover" } }
        for (id, method) in [(JSONValue.int(1), "textDocument/hover"), ("two", "shutdown"), (3, "unknown/method")] {
            let response = harness.request(id, method)
            #expect(errorCode(response) == -32002)
            #expect(response["result"] == nil)
        }
    }

    @Test func notificationsBeforeInitializeAreDropped() {
        var calls = 0
        var initializedCalls = 0
        let harness = LifecycleHarness {
            $0.onNotification("textDocument/didOpen") { _ in calls += 1 }
            $0.onInitialized = { initializedCalls += 1 }
        }
        harness.notify("textDocument/didOpen", ["textDocument": [:]])
        harness.notify("initialized", [:])
        harness.notify("$/cancelRequest", ["id": 1])
        #expect(harness.takeOutput().isEmpty)
        #expect(calls == 0 && initializedCalls == 0)
        harness.initialize()
        harness.notify("textDocument/didOpen", ["textDocument": [:]])
        #expect(calls == 1 && initializedCalls == 1)
    }

    @Test func initializeAnswersCapabilitiesAndServerInfo() {
        var seenParams: JSONValue?
        let harness = LifecycleHarness(version: "1.2.3") {
            $0.onInitialize = { params throws(ResponseError) in
                seenParams = params
                return ["hoverProvider": true, "positionEncoding": "utf-16"]
            }
        }
        let params: JSONValue = ["processId": 42, "capabilities": ["general": ["positionEncodings": ["utf-8"]]]]
        let response = harness.request(1, "initialize", params)
        #expect(seenParams == params)
        #expect(response == [
            "jsonrpc": "2.0", "id": 1,
            "result": ["capabilities": ["hoverProvider": true, "positionEncoding": "utf-16"],
                       "serverInfo": ["name": "routes", "version": "1.2.3"]],
        ])
        #expect(harness.server.lifecycle == .running)
    }

    @Test func withoutAnInitializeHookTheCapabilitiesAreEmpty() {
        let harness = LifecycleHarness()
        let response = harness.request("init", "initialize")
        #expect(response["result"]?["capabilities"] == [:])
        #expect(response["result"]?["serverInfo"]?["name"] == "routes")
    }

    @Test func aFailedInitializeLeavesTheServerUninitialized() {
        var attempts = 0
        let harness = LifecycleHarness {
            $0.onInitialize = { params throws(ResponseError) in
                attempts += 1
                guard params?["capabilities"] != nil else { throw .invalidParams("capabilities are required") }
                return [:]
            }
        }
        let failed = harness.request(1, "initialize", [:])
        #expect(errorCode(failed) == -32602)
        #expect(failed["error"]?["message"] == "capabilities are required")
        #expect(errorCode(harness.request(2, "textDocument/hover")) == -32002)
        #expect(harness.request(3, "initialize", ["capabilities": [:]])["result"] != nil)
        #expect(attempts == 2)
    }

    @Test func aSecondInitializeIsAnInvalidRequest() {
        var attempts = 0
        let harness = LifecycleHarness { $0.onInitialize = { _ throws(ResponseError) in attempts += 1; return [:] } }
        harness.initialize()
        let second = harness.request(7, "initialize", ["capabilities": [:]])
        #expect(errorCode(second) == -32600)
        #expect(attempts == 1)
        #expect(harness.server.lifecycle == .running)
    }

    @Test func initializedCallsItsHookOnce() {
        var calls = 0
        let harness = LifecycleHarness { $0.onInitialized = { calls += 1 } }
        harness.initialize()
        harness.notify("initialized", [:])
        #expect(calls == 1)
    }

    @Test func shutdownAnswersNullThenRequestsAreInvalid() {
        var shutdowns = 0
        var hovers = 0
        var opens = 0
        let harness = LifecycleHarness {
            $0.onShutdown = { shutdowns += 1 }
            $0.onRequest("textDocument/hover") { _ throws(ResponseError) in hovers += 1; return nil }
            $0.onNotification("textDocument/didOpen") { _ in opens += 1 }
        }
        harness.initialize()
        let response = harness.request(5, "shutdown")
        #expect(response == ["jsonrpc": "2.0", "id": 5, "result": nil])
        #expect(shutdowns == 1)
        #expect(harness.server.lifecycle == .shutDown)
        for method in ["textDocument/hover", "shutdown", "initialize", "unknown"] {
            #expect(errorCode(harness.request(6, method)) == -32600, "\(method)")
        }
        harness.notify("textDocument/didOpen", [:])
        #expect(harness.takeOutput().isEmpty)
        #expect(hovers == 0 && opens == 0 && shutdowns == 1)
    }

    @Test func exitAfterShutdownIsZero() {
        let harness = LifecycleHarness()
        harness.initialize()
        _ = harness.request(1, "shutdown")
        #expect(harness.send(["jsonrpc": "2.0", "method": "exit"]) == 0)
        #expect(harness.server.exitCode == 0)
        #expect(harness.takeOutput().isEmpty)
    }

    @Test func exitWithoutShutdownIsOne() {
        let harness = LifecycleHarness()
        harness.initialize()
        #expect(harness.send(["jsonrpc": "2.0", "method": "exit"]) == 1)
        #expect(harness.server.lifecycle == .exited(1))
    }

    @Test func exitBeforeInitializeIsOne() {
        let harness = LifecycleHarness()
        #expect(harness.send(["jsonrpc": "2.0", "method": "exit"]) == 1)
    }

    @Test func theEndOfTheInputWithoutExitIsOne() {
        let harness = LifecycleHarness()
        harness.initialize()
        _ = harness.request(1, "shutdown")
        harness.server.enqueueEndOfInput()
        #expect(harness.server.processQueued() == 1)
    }

    @Test func nothingIsHandledAfterExit() {
        var calls = 0
        let harness = LifecycleHarness { $0.onRequest("m") { _ throws(ResponseError) in calls += 1; return nil } }
        harness.initialize()
        harness.enqueue(["jsonrpc": "2.0", "method": "exit"])
        harness.enqueue(["jsonrpc": "2.0", "id": 1, "method": "m"])
        #expect(harness.server.processQueued() == 1)
        #expect(harness.send(["jsonrpc": "2.0", "id": 2, "method": "m"]) == 1)
        #expect(harness.takeOutput().isEmpty)
        #expect(calls == 0)
    }

    @Test func exitRightBehindShutdownSeesIt() {
        let harness = LifecycleHarness()
        harness.initialize()
        harness.enqueue(["jsonrpc": "2.0", "id": 1, "method": "shutdown"])
        harness.enqueue(["jsonrpc": "2.0", "method": "exit"])
        #expect(harness.server.processQueued() == 0)
        #expect(harness.takeOutput() == [["jsonrpc": "2.0", "id": 1, "result": nil]])
    }
}
