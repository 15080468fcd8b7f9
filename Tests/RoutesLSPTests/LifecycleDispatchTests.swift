import RoutesJSON
@testable import RoutesLSP
import Testing
import TestSupport

private func errorCode(_ response: JSONValue) -> Int64? {
    LifecycleHarness.errorCode(response)
}

private func cancel(_ id: JSONValue) -> JSONValue {
    ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": id]]
}

@Suite("Lifecycle: dispatch, protocol errors, ids, cancellation")
struct LifecycleDispatchTests {
    // MARK: Unknown methods

    @Test(arguments: ["textDocument/unknown", "$/unknownRequest", "$/setTrace", "routes/nothing"])
    func unknownRequestsGetMethodNotFound(method: String) {
        let harness = LifecycleHarness()
        harness.initialize()
        let response = harness.request(1, method)
        #expect(errorCode(response) == -32601)
        #expect(response["error"]?["message"]?.stringValue?.contains(method) == true)
    }

    @Test func unknownNotificationsAreIgnored() {
        let harness = LifecycleHarness()
        harness.initialize()
        for method in ["$/setTrace", "$/progress", "workspace/somethingNew", "textDocument/didOpen"] {
            harness.notify(method, ["value": "x"])
        }
        #expect(harness.takeOutput().isEmpty)
        #expect(harness.request(1, "shutdown")["result"] == .null)
    }

    // MARK: Malformed messages

    @Test(arguments: ["{", "", "   ", "Content-Length: 5", "{\"id\":1,}", "[1,2", "nul", "{\"a\":1} {}"])
    func invalidJSONGetsParseErrorWithIdNull(body: String) {
        let harness = LifecycleHarness()
        harness.initialize()
        harness.sendRaw(body)
        let output = harness.takeOutput()
        #expect(output.count == 1)
        #expect(output.first?["id"] == .null)
        #expect(output.first.flatMap(errorCode) == -32700)
        // and the server keeps working
        #expect(harness.request(2, "shutdown")["result"] == .null)
    }

    @Test func invalidJSONBeforeInitializeGetsParseErrorToo() {
        let harness = LifecycleHarness()
        harness.sendRaw("{oops")
        let output = harness.takeOutput()
        #expect(output.count == 1 && output.first.flatMap(errorCode) == -32700)
    }

    @Test(arguments: [
        // (message, the id the error must carry)
        (#"[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]"#, "null"),  // a batch: not in LSP
        ("42", "null"),
        (#""text""#, "null"),
        (#"{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}"#, "1"),
        (#"{"jsonrpc":"2.0","id":"a","method":"m","params":3}"#, #""a""#),
        (#"{"jsonrpc":"2.0","id":2,"method":"m","params":true}"#, "2"),
        (#"{"jsonrpc":"1.0","id":3,"method":"m"}"#, "3"),
        (#"{"id":4,"method":"m"}"#, "4"),
        (#"{"jsonrpc":2.0,"id":5,"method":"m"}"#, "5"),
        (#"{"jsonrpc":"2.0","id":6,"method":7}"#, "6"),
        (#"{"jsonrpc":"2.0","id":7}"#, "7"),
        (#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, "null"),
        (#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, "null"),
        (#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, "null"),
        (#"{"jsonrpc":"2.0","id":{"n":1},"method":"m"}"#, "null"),
        (#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#, "null"),
        (#"{"jsonrpc":"2.0","method":"m","params":1}"#, "null"),  // a notification: no id to give
        (#"{"jsonrpc":"2.0","method":null}"#, "null"),
        ("{}", "null"),
    ])
    func invalidMessagesGetInvalidRequest(message: String, id: String) throws {
        let harness = LifecycleHarness { $0.onRequest("m") { _ throws(ResponseError) in "ran" } }
        harness.initialize()
        harness.sendRaw(message)
        let output = harness.takeOutput()
        #expect(output.count == 1)
        #expect(output.first.flatMap(errorCode) == -32600)
        #expect(output.first?["id"] == (try JSON.parse(id)))
        #expect(output.first?["result"] == nil)
    }

    @Test func invalidMessagesBeforeInitializeAreInvalidRequestsToo() {
        let harness = LifecycleHarness()
        harness.sendRaw(#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":"x"}"#)
        let output = harness.takeOutput()
        #expect(output.first.flatMap(errorCode) == -32600 && output.first?["id"] == 9)
        #expect(harness.server.lifecycle == .uninitialized)
    }

    @Test func nullParamsAreTakenAsAbsent() {
        var seen: [JSONValue?] = []
        let harness = LifecycleHarness { $0.onRequest("m") { params throws(ResponseError) in seen.append(params); return nil } }
        harness.initialize()
        harness.sendRaw(#"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#)
        harness.sendRaw(#"{"jsonrpc":"2.0","id":2,"method":"m"}"#)
        harness.sendRaw(#"{"jsonrpc":"2.0","id":3,"method":"m","params":[1,"two"]}"#)
        harness.sendRaw(#"{"jsonrpc":"2.0","id":4,"method":"m","params":{"k":[]}}"#)
        #expect(harness.takeOutput().map { $0["result"] } == [.null, .null, .null, .null])
        #expect(seen == [nil, nil, .some([1, "two"]), .some(["k": []])])
    }

    @Test func responsesFromTheClientAreAcceptedAndIgnored() {
        let harness = LifecycleHarness()
        harness.initialize()
        let id = harness.server.sendRequest("client/registerCapability", ["registrations": []])
        #expect(id.stringValue != nil, "ids of the server's requests are strings")
        #expect(harness.takeOutput() == [[
            "jsonrpc": "2.0", "id": id, "method": "client/registerCapability", "params": ["registrations": []],
        ]])
        harness.send(["jsonrpc": "2.0", "id": id, "result": nil])
        harness.send(["jsonrpc": "2.0", "id": 99, "error": ["code": -32601, "message": "no"]])
        harness.send(["id": "x", "result": 1])
        #expect(harness.takeOutput().isEmpty)
        #expect(harness.server.sendRequest("window/workDoneProgress/create", [:]) != id)
    }

    @Test func notificationsAreSent() {
        let harness = LifecycleHarness()
        harness.server.sendNotification("textDocument/publishDiagnostics", ["uri": "file:///a.routes", "diagnostics": []])
        #expect(harness.takeOutput() == [[
            "jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
            "params": ["uri": "file:///a.routes", "diagnostics": []],
        ]])
    }

    // MARK: Handlers and their errors

    @Test func handlersGetTheirParamsAndAnswerWithTheirResult() {
        let harness = LifecycleHarness {
            $0.onRequest("echo") { params throws(ResponseError) in ["echo": params ?? "none"] }
        }
        harness.initialize()
        let response = harness.request(1, "echo", ["a": [1, 2.5, "é", nil, true]])
        #expect(response == ["jsonrpc": "2.0", "id": 1, "result": ["echo": ["a": [1, 2.5, "é", nil, true]]]])
    }

    @Test func invalidParamsFromAHandler() {
        let harness = LifecycleHarness {
            $0.onRequest("needsURI") { params throws(ResponseError) in
                guard let uri = params?["textDocument"]?["uri"]?.stringValue else {
                    throw .invalidParams("expected textDocument.uri", data: ["got": params ?? nil])
                }
                return .string(uri)
            }
        }
        harness.initialize()
        let bad = harness.request(1, "needsURI", ["textDocument": [:]])
        #expect(bad["error"] == ["code": -32602, "message": "expected textDocument.uri", "data": ["got": ["textDocument": [:]]]])
        #expect(harness.request(2, "needsURI", ["textDocument": ["uri": "file:///x"]])["result"] == "file:///x")
    }

    @Test func anyResponseErrorIsPassedThrough() {
        let harness = LifecycleHarness {
            $0.onRequest("fails") { _ throws(ResponseError) in throw .requestFailed("no program") }
            $0.onRequest("custom") { _ throws(ResponseError) in throw ResponseError(code: 4711, message: "custom") }
        }
        harness.initialize()
        #expect(harness.request(1, "fails")["error"] == ["code": -32803, "message": "no program"])
        #expect(harness.request(2, "custom")["error"] == ["code": 4711, "message": "custom"])
    }

    @Test func otherErrorsBecomeInternalErrors() {
        struct Broken: Error {}
        let harness = LifecycleHarness {
            $0.onRequest("broken") { _ throws(ResponseError) in try ResponseError.catching { throw Broken() } }
            $0.onRequest("bad") { _ throws(ResponseError) in
                try ResponseError.catching { () throws -> JSONValue in throw ResponseError.invalidParams("bad") }
            }
        }
        harness.initialize()
        #expect(errorCode(harness.request(1, "broken")) == -32603)
        #expect(errorCode(harness.request(2, "bad")) == -32602)
    }

    @Test func theReplyGuardAnswersAForgottenRequestWithInternalError() {
        let harness = LifecycleHarness()
        do {
            _ = Reply(id: 17, method: "forgotten", output: harness.server.output)
        }
        let output = harness.takeOutput()
        #expect(output.count == 1)
        #expect(output.first?["id"] == 17 && output.first.flatMap(errorCode) == -32603)
    }

    @Test func theReplyGuardDropsASecondAnswer() {
        let harness = LifecycleHarness()
        do {
            let reply = Reply(id: "r", method: "twice", output: harness.server.output)
            reply(.success(1))
            reply(.success(2))
            reply(.failure(.internalError("three")))
        }
        #expect(harness.takeOutput() == [["jsonrpc": "2.0", "id": "r", "result": 1]])
    }

    @Test(arguments: [
        JSONValue.int(0), .int(-1), .int(Int64.max), .int(Int64.min), .string(""), .string("1"),
        .string("ünïcødé ✓ \u{0}"), .string("{\"not\":\"json\"}"),
    ])
    func idsAreEchoedExactly(id: JSONValue) {
        let harness = LifecycleHarness { $0.onRequest("m") { _ throws(ResponseError) in "ok" } }
        harness.initialize()
        let response = harness.request(id, "m")
        #expect(response == ["jsonrpc": "2.0", "id": id, "result": "ok"])
        // errors echo it too
        #expect(harness.request(id, "unknown")["id"] == id)
    }

    @Test func everyRequestIsAnsweredExactlyOnce() throws {
        let harness = LifecycleHarness {
            $0.onRequest("ok") { _ throws(ResponseError) in nil }
            $0.onRequest("bad") { _ throws(ResponseError) in throw .invalidParams("bad") }
        }
        harness.initialize()
        let methods = ["ok", "bad", "unknown", "$/x", "initialize"]
        for index in 0 ..< 500 {
            harness.enqueue(["jsonrpc": "2.0", "id": .int(Int64(index)), "method": .string(methods[index % methods.count])])
            if index % 7 == 0 { harness.enqueue(["jsonrpc": "2.0", "method": "textDocument/didChange"]) }
            if index % 11 == 0 { harness.enqueue(["jsonrpc": "2.0", "id": .int(Int64(index)), "result": nil]) }
        }
        #expect(harness.server.processQueued() == nil)
        let output = harness.takeOutput()
        #expect(output.map { $0["id"] ?? .null } == (0 ..< 500).map { JSONValue.int(Int64($0)) })
        #expect(output.allSatisfy { ($0["result"] == nil) != ($0["error"] == nil) })
    }

    // MARK: Cancellation

    @Test func aRequestCancelledBeforeItIsHandledGetsRequestCancelled() {
        var runs = 0
        let harness = LifecycleHarness { $0.onRequest("slow") { _ throws(ResponseError) in runs += 1; return "done" } }
        harness.initialize()
        harness.enqueue(["jsonrpc": "2.0", "id": 1, "method": "slow"])
        harness.enqueue(["jsonrpc": "2.0", "id": "two", "method": "slow"])
        harness.enqueue(["jsonrpc": "2.0", "id": 3, "method": "slow"])
        harness.enqueue(cancel("two"))
        harness.enqueue(cancel(1))
        harness.enqueue(cancel(99))  // no such request: nothing happens
        #expect(harness.server.processQueued() == nil)
        let output = harness.takeOutput()
        #expect(output.count == 3)
        #expect(output[0]["id"] == 1 && errorCode(output[0]) == -32800)
        #expect(output[1]["id"] == "two" && errorCode(output[1]) == -32800)
        #expect(output[2] == ["jsonrpc": "2.0", "id": 3, "result": "done"])
        #expect(runs == 1)
    }

    @Test func evenAnUnknownOrInvalidRequestIsCancelled() {
        let harness = LifecycleHarness()
        harness.initialize()
        harness.enqueue(["jsonrpc": "2.0", "id": 5, "method": "textDocument/unknown"])
        harness.enqueue(cancel(5))
        harness.server.processQueued()
        #expect(harness.takeOutput().map(errorCode) == [-32800])
    }

    @Test func aCancellationArrivingWhileTheHandlerRunsReplacesTheResult() {
        var sawCancellation = false
        var server: Server?
        let harness = LifecycleHarness { created in
            server = created
            created.onRequest("long") { _ throws(ResponseError) in
                #expect(server?.currentRequestID == 8)
                #expect(server?.isCurrentRequestCancelled == false)
                // The reader thread records a cancellation as soon as it arrives:
                server?.enqueue(messageBody: Array(JSON.serialize(cancel(8)).utf8))
                sawCancellation = server?.isCurrentRequestCancelled == true
                return "too late"
            }
        }
        harness.initialize()
        harness.send(["jsonrpc": "2.0", "id": 8, "method": "long"])
        #expect(sawCancellation)
        #expect(harness.takeOutput().map(errorCode) == [-32800])
        #expect(harness.server.currentRequestID == nil)
    }

    @Test func aCancellationIsForgottenOnceReached() {
        var runs = 0
        let harness = LifecycleHarness { $0.onRequest("m") { _ throws(ResponseError) in runs += 1; return nil } }
        harness.initialize()
        harness.send(["jsonrpc": "2.0", "id": 1, "method": "m"])
        harness.send(cancel(1))  // too late: already answered
        // The client reuses the id: the stale cancellation does not touch the new request.
        harness.send(["jsonrpc": "2.0", "id": 1, "method": "m"])
        #expect(harness.takeOutput().map { $0["result"] } == [.null, .null])
        #expect(runs == 2)
    }

    @Test func cancellationsBeforeInitializeAreDropped() {
        let harness = LifecycleHarness()
        harness.enqueue(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [:]])
        harness.enqueue(cancel(1))
        harness.server.processQueued()
        #expect(harness.takeOutput().first?["result"]?["capabilities"] == [:])
    }

    @Test func malformedCancellationsCancelNothing() {
        let harness = LifecycleHarness { $0.onRequest("m") { _ throws(ResponseError) in "ran" } }
        harness.initialize()
        harness.enqueue(["jsonrpc": "2.0", "id": 1, "method": "m"])
        harness.enqueue(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1.0]])
        harness.enqueue(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": "1"]])
        harness.enqueue(["jsonrpc": "2.0", "method": "$/cancelRequest"])
        harness.enqueue(["jsonrpc": "2.0", "id": 2, "method": "$/cancelRequest", "params": ["id": 1]])
        harness.server.processQueued()
        let output = harness.takeOutput()
        #expect(output.count == 2)
        #expect(output.first == ["jsonrpc": "2.0", "id": 1, "result": "ran"])
        #expect(output.last.flatMap(errorCode) == -32601)  // $/cancelRequest as a request
    }

    @Test func aCancelledShutdownDoesNotShutDown() {
        let harness = LifecycleHarness()
        harness.initialize()
        harness.enqueue(["jsonrpc": "2.0", "id": 1, "method": "shutdown"])
        harness.enqueue(cancel(1))
        harness.server.processQueued()
        #expect(harness.takeOutput().map(errorCode) == [-32800])
        #expect(harness.server.lifecycle == .running)
    }
}

/// The reader thread queues raw bodies (parsed by the loop when it gets there), except those
/// that may cancel a request: those are parsed at once, so that the cancellation is recorded
/// before the loop reaches the request.
@Suite("Inbox: what is parsed when")
struct InboxQueueingTests {
    @Test func onlyBodiesMentioningCancelRequestAreParsedAtOnce() {
        let parser = JSONParser()
        let cancel = Array(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#.utf8)
        let change = Array(#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{}}"#.utf8)
        guard case .message(let parsed) = Incoming.queued(cancel, with: parser) else {
            Issue.record("a $/cancelRequest must be parsed when it arrives")
            return
        }
        #expect(Inbox.cancelledID(in: parsed) == .int(7))
        guard case .body(let raw) = Incoming.queued(change, with: parser) else {
            Issue.record("other bodies wait as bytes")
            return
        }
        #expect(raw == change)
        #expect(Incoming.mentionsCancel(Array("$/cancelReques".utf8)) == false)
        // JSON may escape the slash, or spell any letter as \u…: parsed at once too.
        #expect(Incoming.mentionsCancel(Array(#"{"method":"$\/cancelRequest"}"#.utf8)))
        #expect(Incoming.mentionsCancel(Array(#"{"method":"$/\u0063ancelRequest"}"#.utf8)))
        let escaped = Array(#"{"jsonrpc":"2.0","method":"$\/cancelRequest","params":{"id":7}}"#.utf8)
        guard case .message(let parsedEscaped) = Incoming.queued(escaped, with: parser) else {
            Issue.record("an escaped $/cancelRequest must be parsed when it arrives")
            return
        }
        #expect(Inbox.cancelledID(in: parsedEscaped) == .int(7))
        #expect(Incoming.mentionsCancel(Array("xx$$/cancelRequest".utf8)) == true)
        #expect(Incoming.mentionsCancel([]) == false)
    }

    /// The search finds a pattern wherever a plain scan does: at either end, after partial
    /// matches and anchor bytes that lead nowhere, in random bodies over a small alphabet.
    @Test func theSearchAgreesWithAPlainScan() {
        var random = SplitMix64(seed: 5)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let alphabet = Array("abR\\u".utf8)
        for _ in 0..<3000 {
            let body = (0..<next(40)).map { _ in alphabet[next(alphabet.count)] }
            let pattern = (0..<(1 + next(4))).map { _ in alphabet[next(alphabet.count)] }
            let anchor = next(pattern.count)
            let plain = body.count >= pattern.count
                && (0...(body.count - pattern.count)).contains { Array(body[$0..<($0 + pattern.count)]) == pattern }
            #expect(Incoming.contains(body, pattern, anchor: anchor) == plain, "\(body) \(pattern) \(anchor)")
        }
    }
}
