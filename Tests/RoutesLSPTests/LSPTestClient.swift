import Foundation
import RoutesJSON
import RoutesModel
import Testing

/// A language-server client for tests: runs the built `routes lsp` with pipes for stdin, stdout
/// and stderr, writes framed messages, and reads framed messages back with timeouts.
///
/// stdout is read strictly, as a check that the server writes nothing but protocol messages:
/// every frame must be exactly `Content-Length: N\r\n\r\n` and N bytes of JSON — a JSON-RPC
/// object with `"jsonrpc": "2.0"`. Anything else is recorded in ``protocolViolations`` (and
/// reading stdout stops there). Messages that are not the response a test waits for
/// (notifications, requests from the server) are kept in ``messages``.
final class LSPTestClient: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case timedOut(String)
        var description: String {
            switch self {
            case .timedOut(let what): "timed out waiting for \(what)"
            }
        }
    }

    /// The built `routes` executable: `ROUTES_BIN`, or the one beside the test bundle
    /// (as in `RoutesCLITests/Support.swift`).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["ROUTES_BIN"] {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        }
        // On Linux the tests run from `.build/<config>/routesPackageTests.xctest`.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("routes").path)
                && directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("routes")
    }()

    /// How long to wait for anything, in seconds (the machine may be busy).
    static let defaultTimeout: Double = 60

    let process = Process()
    private let input: Int32
    private let condition = NSCondition()
    private let exited = DispatchSemaphore(value: 0)

    // Guarded by `condition`.
    private var stdoutBytes: [UInt8] = []
    private var stdoutOffset = 0
    private var stdoutEnded = false
    private var stdoutBroken = false
    private var received: [JSONValue] = []
    private var taken = 0
    private var violations: [String] = []
    private var stderrBytes: [UInt8] = []
    private var stderrEnded = false
    private var inputClosed = false
    private var nextID: Int64 = 1

    /// Starts `routes` with `arguments` (default: `lsp`).
    init(arguments: [String] = ["lsp"], environment: [String: String] = [:]) throws {
        signal(SIGPIPE, SIG_IGN)  // writing to a server that exited must not kill the tests
        process.executableURL = Self.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Our copies of the child's ends must go, or we would never see end of file.
        try? stdinPipe.fileHandleForReading.close()
        try? stdoutPipe.fileHandleForWriting.close()
        try? stderrPipe.fileHandleForWriting.close()
        // Own copies, close-on-exec so that no other test's child process inherits them (a
        // child holding our end of its stdin would keep it from ever seeing end of file).
        input = fcntl(stdinPipe.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        try? stdinPipe.fileHandleForWriting.close()
        let stdoutDescriptor = fcntl(stdoutPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        let stderrDescriptor = fcntl(stderrPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        try? stdoutPipe.fileHandleForReading.close()
        try? stderrPipe.fileHandleForReading.close()
        Thread.detachNewThread { [self] in readLoop(stdoutDescriptor, isStdout: true) }
        Thread.detachNewThread { [self] in readLoop(stderrDescriptor, isStdout: false) }
    }

    /// Ends the session whatever its state: closes stdin and terminates the process if it
    /// still runs. (Call it in a `defer`: the reader threads keep the client alive until then.)
    func stop() {
        closeInput()
        if process.isRunning { process.terminate() }
    }

    // MARK: - Writing

    /// `Content-Length: N\r\n\r\n` + the compact JSON of `message`.
    static func frame(_ message: JSONValue) -> [UInt8] {
        frame(body: Array(JSON.serialize(message).utf8))
    }

    static func frame(body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    static func frame(body: String) -> [UInt8] { frame(body: Array(body.utf8)) }

    /// Writes raw bytes to the server's stdin, in one `write` where the pipe allows. Returns false
    /// if the server is gone.
    @discardableResult
    func sendRaw(_ bytes: [UInt8]) -> Bool {
        condition.withLock {
            guard !inputClosed else { return false }
            return FileDescriptor.writeAll(bytes, to: input)
        }
    }

    @discardableResult
    func sendRaw(_ text: String) -> Bool { sendRaw(Array(text.utf8)) }

    /// Writes one framed message.
    @discardableResult
    func send(_ message: JSONValue) -> Bool { sendRaw(Self.frame(message)) }

    /// A request message with a fresh integer id (or `id`).
    func requestMessage(_ method: String, _ params: JSONValue? = nil, id: JSONValue? = nil) -> JSONValue {
        let id = id ?? condition.withLock {
            defer { nextID += 1 }
            return JSONValue.int(nextID)
        }
        var message: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = params }
        return .object(message)
    }

    static func notificationMessage(_ method: String, _ params: JSONValue? = nil) -> JSONValue {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        return .object(message)
    }

    /// Sends a request; returns its id.
    @discardableResult
    func request(_ method: String, _ params: JSONValue? = nil, id: JSONValue? = nil) -> JSONValue {
        let message = requestMessage(method, params, id: id)
        send(message)
        return message["id"]!
    }

    func notify(_ method: String, _ params: JSONValue? = nil) {
        send(Self.notificationMessage(method, params))
    }

    /// Sends a request and waits for its response.
    func call(_ method: String, _ params: JSONValue? = nil, id: JSONValue? = nil,
              timeout: Double = LSPTestClient.defaultTimeout) throws -> JSONValue {
        try response(to: request(method, params, id: id), timeout: timeout)
    }

    /// Closes the server's stdin (end of input).
    func closeInput() {
        condition.withLock {
            if !inputClosed { close(input) }
            inputClosed = true
        }
    }

    // MARK: - Reading

    /// Waits for the response with `id` (a message with that id and no `method`). Messages
    /// before it stay available in ``messages``.
    func response(to id: JSONValue, timeout: Double = LSPTestClient.defaultTimeout) throws -> JSONValue {
        try waitFor("the response to \(id)", timeout: timeout) { message in
            message["method"] == nil && message["id"] == id
        }
    }

    /// Waits for the next message, in order, not yet taken by ``nextMessage(timeout:)``.
    func nextMessage(timeout: Double = LSPTestClient.defaultTimeout) throws -> JSONValue {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return try condition.withLock {
            while taken == received.count {
                if stdoutEnded || stdoutBroken { throw Failure.timedOut("a message: stdout ended") }
                if !condition.wait(until: deadline) { throw Failure.timedOut("a message") }
            }
            taken += 1
            return received[taken - 1]
        }
    }

    /// Waits for a message (any received so far, or a later one) for which `matches` holds.
    func waitFor(_ what: String, timeout: Double = LSPTestClient.defaultTimeout,
                 _ matches: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var checked = 0
        return try condition.withLock {
            while true {
                while checked < received.count {
                    if matches(received[checked]) { return received[checked] }
                    checked += 1
                }
                if stdoutEnded || stdoutBroken { throw Failure.timedOut("\(what): stdout ended") }
                if !condition.wait(until: deadline) { throw Failure.timedOut(what) }
            }
        }
    }

    /// Waits until `count` messages have been received in all.
    func waitForMessages(count: Int, timeout: Double = LSPTestClient.defaultTimeout) throws -> [JSONValue] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return try condition.withLock {
            while received.count < count {
                if stdoutEnded || stdoutBroken { throw Failure.timedOut("\(count) messages: stdout ended") }
                if !condition.wait(until: deadline) { throw Failure.timedOut("\(count) messages (have \(received.count))") }
            }
            return received
        }
    }

    /// Every message received so far, in order.
    var messages: [JSONValue] { condition.withLock { received } }

    /// Responses received so far (messages with an id and no method).
    var responses: [JSONValue] { messages.filter { $0["method"] == nil } }

    /// Everything on stdout that was not a well-framed JSON-RPC message.
    var protocolViolations: [String] { condition.withLock { violations } }

    /// What the server wrote on stderr so far.
    var standardError: String { condition.withLock { String(decoding: stderrBytes, as: UTF8.self) } }

    /// Waits for stdout and stderr to end (after the process exits).
    func waitForOutputToEnd(timeout: Double = LSPTestClient.defaultTimeout) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.withLock {
            while !(stdoutEnded && stderrEnded) && condition.wait(until: deadline) {}
        }
    }

    /// Waits for the process to exit; its status, or `nil` on timeout (the process is then
    /// terminated). Also waits for its output to be read completely.
    func waitForExit(timeout: Double = LSPTestClient.defaultTimeout) -> Int32? {
        guard exited.wait(timeout: .now() + timeout) == .success else {
            process.terminate()
            return nil
        }
        exited.signal()  // for later calls
        waitForOutputToEnd()
        return process.terminationStatus
    }

    // MARK: - Conveniences

    static let initializeParams: JSONValue = [
        "processId": nil, "rootUri": nil, "capabilities": [:], "clientInfo": ["name": "LSPTestClient"],
    ]

    /// `initialize` then `initialized`; returns the `initialize` response.
    @discardableResult
    func initialize(_ params: JSONValue = LSPTestClient.initializeParams) throws -> JSONValue {
        let response = try call("initialize", params)
        notify("initialized", [:])
        return response
    }

    /// `shutdown`, `exit`; returns the exit status.
    func shutdownAndExit() throws -> Int32? {
        let response = try call("shutdown")
        #expect(response["result"] == .null && response["error"] == nil)
        notify("exit")
        return waitForExit()
    }

    // MARK: - Reader threads

    private func readLoop(_ descriptor: Int32, isStdout: Bool) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            condition.withLock {
                if isStdout {
                    stdoutBytes += chunk[0 ..< count]
                    parseStdout()
                } else {
                    stderrBytes += chunk[0 ..< count]
                }
                condition.broadcast()
            }
        }
        close(descriptor)
        condition.withLock {
            if isStdout {
                stdoutEnded = true
                if !stdoutBroken && stdoutOffset < stdoutBytes.count {
                    violations.append("stdout ended inside a message: \(preview(stdoutOffset))")
                }
            } else {
                stderrEnded = true
            }
            condition.broadcast()
        }
    }

    /// Parses the complete frames in `stdoutBytes` (called with the lock held).
    private func parseStdout() {
        let prefix = Array("Content-Length: ".utf8)
        let separator = Array("\r\n\r\n".utf8)
        while !stdoutBroken {
            let available = stdoutBytes.count - stdoutOffset
            let checked = min(available, prefix.count)
            guard stdoutBytes[stdoutOffset ..< stdoutOffset + checked].elementsEqual(prefix[..<checked]) else {
                return violation("stdout is not a Content-Length header: \(preview(stdoutOffset))")
            }
            var end = stdoutOffset + prefix.count
            while end < stdoutBytes.count,
                  stdoutBytes[end] >= UInt8(ascii: "0") && stdoutBytes[end] <= UInt8(ascii: "9") {
                end += 1
            }
            guard end + separator.count <= stdoutBytes.count else {
                if end - stdoutOffset > 40 { violation("an overlong header: \(preview(stdoutOffset))") }
                return
            }
            guard stdoutBytes[end ..< end + separator.count].elementsEqual(separator),
                  let length = Int(String(decoding: stdoutBytes[(stdoutOffset + prefix.count) ..< end], as: UTF8.self))
            else {
                return violation("a header other than `Content-Length: N\\r\\n\\r\\n`: \(preview(stdoutOffset))")
            }
            let bodyStart = end + separator.count
            guard stdoutBytes.count - bodyStart >= length else { return }
            let body = Array(stdoutBytes[bodyStart ..< bodyStart + length])
            stdoutOffset = bodyStart + length
            do {
                let message = try JSON.parse(bytes: body)
                guard message["jsonrpc"] == "2.0" else {
                    return violation("not a JSON-RPC 2.0 message: \(String(decoding: body, as: UTF8.self))")
                }
                received.append(message)
            } catch {
                return violation("a body that is not JSON (\(error)): \(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    private func violation(_ text: String) {
        violations.append(text)
        stdoutBroken = true
    }

    private func preview(_ offset: Int) -> String {
        String(decoding: stdoutBytes[offset...].prefix(80), as: UTF8.self).debugDescription
    }
}
