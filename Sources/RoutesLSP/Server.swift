import CMalloc
import RoutesJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON-RPC 2.0 server core: the dispatch table and the LSP lifecycle (README.md,
/// `routes lsp`).
///
/// Features register handlers with ``onRequest(_:_:)`` and ``onNotification(_:_:)`` (and the
/// lifecycle hooks ``onInitialize``, ``onInitialized``, ``onShutdown``) before ``run(input:)``.
///
/// **Threading.** ``run(input:)`` starts one reader thread that reads the input, frames it,
/// parses each body and queues the result; the calling thread is the server's loop, which takes
/// the messages in order and runs every handler — one at a time, so handlers need no locking.
/// Because the reader keeps reading while a handler works, a `$/cancelRequest` is seen even
/// while its request waits in the queue or runs. `Server` itself is not thread-safe: register
/// handlers and call its methods on the loop's thread (typically from handlers). To send from
/// another thread, use ``output`` (a thread-safe ``MessageWriter``).
///
/// **Lifecycle.** Before a successful `initialize`, requests get -32002 and notifications are
/// dropped (`exit` excepted). A second `initialize` gets -32600. After `shutdown`, requests get
/// -32600 and notifications are dropped. `exit` ends the loop: status 0 after `shutdown`, else 1;
/// the end of the input without `exit` ends it with 1. Messages are handled in order, so an
/// `exit` right behind a `shutdown` sees it.
///
/// **Errors.** Unknown requests (`$/…` ones too) get -32601; unknown notifications are ignored.
/// A body that is not JSON gets -32700 with id null. JSON that is not a JSON-RPC message — not
/// an object, `jsonrpc` not `"2.0"`, a `method` that is not a string, an `id` that is neither an
/// integer nor a string, `params` neither object nor array (`null` is taken as absent), neither
/// a `method` nor a response — gets -32600, with its id if that is an integer or a string, else
/// null. Responses from the client (to ``sendRequest(_:_:)``) are accepted and ignored.
///
/// **Cancellation.** A request for which a `$/cancelRequest` has arrived before its answer is
/// sent gets -32800 (once initialized): without running its handler if the cancellation was
/// there first, and instead of its result if it arrived while the handler ran. Handlers that
/// work long may poll ``isCurrentRequestCancelled`` and throw ``ResponseError/requestCancelled(_:)``.
///
/// Every request is answered exactly once: each goes through a reply guard that answers -32603
/// if no answer was given and drops (and logs) a second one.
public final class Server {
    public typealias RequestHandler = (JSONValue?) throws(ResponseError) -> JSONValue
    public typealias NotificationHandler = (JSONValue?) -> Void

    /// Where the server is in the LSP lifecycle.
    public enum Lifecycle: Sendable, Equatable {
        /// No successful `initialize` yet.
        case uninitialized
        /// `initialize` answered.
        case running
        /// `shutdown` answered.
        case shutDown
        /// `exit` received (or the input ended), with the exit status.
        case exited(Int32)
    }

    /// The version reported in `serverInfo` unless another is given.
    public static let defaultVersion = "0.1.0"

    /// Where messages to the client go. Thread-safe.
    public let output: MessageWriter
    /// `serverInfo.version` in the `initialize` result.
    public let version: String

    /// Called for `initialize` with its params; returns the `capabilities` object. The server
    /// answers `{"capabilities": …, "serverInfo": {"name": "routes", "version": …}}`. Throwing
    /// answers with the error and leaves the server uninitialized. `nil`: no capabilities.
    public var onInitialize: ((JSONValue?) throws(ResponseError) -> JSONObject)?
    /// Called for the first `initialized` notification.
    public var onInitialized: (() -> Void)?
    /// Called for `shutdown`, before it is answered.
    public var onShutdown: (() -> Void)?
    /// Called before a request is handled and when no message is left in the queue (before
    /// the loop waits for the next one, and at the end of ``processQueued()``): what
    /// notifications put off, done, so that a run of queued notifications does it once
    /// (diagnostics published after a run of edits), and a request is answered after it.
    public var onCatchUp: (() -> Void)?

    /// Where the server is in the lifecycle.
    public private(set) var lifecycle: Lifecycle = .uninitialized

    /// The exit status, once `exit` arrived or the input ended.
    public var exitCode: Int32? {
        if case .exited(let code) = lifecycle { return code }
        return nil
    }

    /// The id of the request whose handler is running, if any.
    public private(set) var currentRequestID: JSONValue?

    /// Whether the client has cancelled the request whose handler is running. Handlers may poll
    /// this and throw ``ResponseError/requestCancelled(_:)`` (the server would send -32800 instead
    /// of their result anyway).
    public var isCurrentRequestCancelled: Bool {
        guard let currentRequestID else { return false }
        return inbox.isCancelled(currentRequestID)
    }

    private var requestHandlers: [String: RequestHandler] = [:]
    private var notificationHandlers: [String: NotificationHandler] = [:]
    private let inbox = Inbox()
    /// Parses bodies given to ``enqueue(messageBody:)`` (the reader thread has its own).
    private lazy var parser = JSONParser()
    private var nextRequestID: Int64 = 1
    private var sawInitialized = false

    private static let lifecycleMethods: Set<String> = ["initialize", "shutdown", "exit", "$/cancelRequest"]

    public init(output: MessageWriter, version: String = Server.defaultVersion) {
        self.output = output
        self.version = version
    }

    // MARK: - Registration

    /// Handles requests for `method`: return the result, or throw a ``ResponseError`` (use
    /// ``ResponseError/invalidParams(_:data:)`` for unusable params). Registering a method again
    /// replaces its handler. The lifecycle methods (`initialize`, `shutdown`) cannot be handled
    /// here: use ``onInitialize`` and ``onShutdown``.
    public func onRequest(_ method: String, _ handler: @escaping RequestHandler) {
        precondition(!Self.lifecycleMethods.contains(method), "\(method) is handled by the server itself")
        requestHandlers[method] = handler
    }

    /// Handles notifications for `method` (called only while initialized and not shut down).
    /// `initialized` may be handled here too (after ``onInitialized``); `exit` and
    /// `$/cancelRequest` cannot.
    public func onNotification(_ method: String, _ handler: @escaping NotificationHandler) {
        precondition(method != "exit" && method != "$/cancelRequest", "\(method) is handled by the server itself")
        notificationHandlers[method] = handler
    }

    // MARK: - Sending

    /// Sends a notification to the client.
    public func sendNotification(_ method: String, _ params: JSONValue) {
        output.send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// Sends a request to the client (e.g. `client/registerCapability`) and returns its id.
    /// The client's response is accepted and ignored. The ids are strings (`"routes-1"`, …), so
    /// that a client matching responses by id alone cannot mistake them for its own integers.
    @discardableResult
    public func sendRequest(_ method: String, _ params: JSONValue) -> JSONValue {
        let id = JSONValue.string("routes-\(nextRequestID)")
        nextRequestID += 1
        output.send(["jsonrpc": "2.0", "id": id, "method": .string(method), "params": params])
        return id
    }

    // MARK: - Running

    /// Serves the input on `descriptor` until `exit` or the end of the input; returns the exit
    /// status (0 after `shutdown` and `exit`; 1 for `exit` without `shutdown`, or when the input
    /// ends without `exit`). Ignores `SIGPIPE`, so that a client that went away cannot kill the
    /// process. The reader thread stays blocked on the input after `exit`: callers normally end
    /// the process with the status returned.
    public func run(input descriptor: Int32) -> Int32 {
        if let exitCode { return exitCode }
        signal(SIGPIPE, SIG_IGN)
        Log.info("routes language server \(version) started (pid \(getpid()))")
        guard InputReader.start(reading: descriptor, into: inbox) else {
            Log.error("cannot start the reader thread")
            return finish(1)
        }
        var sinceTrim = 0
        while true {
            var item = inbox.next(waiting: false)
            if item == nil, let onCatchUp, lifecycle == .running {
                onCatchUp()
                item = inbox.next(waiting: false)
            }
            if item == nil {
                // Idle after a burst (a client that sent thousands of edits at once, say): give
                // the memory the queue and the old snapshots took back to the system, so that
                // the resident size follows what the server holds, not its busiest moment.
                if sinceTrim >= 256 {
                    sinceTrim = 0
                    _ = routes_malloc_trim()
                }
                item = inbox.next(waiting: true)
            }
            guard let item else { continue }
            sinceTrim += 1
            if let code = process(item) { return code }
        }
    }

    /// Handles one message body (the bytes after the header block) now, as if it had just been
    /// read, after anything still queued. Returns the exit status once `exit` has been handled.
    /// For tests and in-process clients; do not mix with ``run(input:)``.
    @discardableResult
    public func handle(messageBody: [UInt8]) -> Int32? {
        enqueue(messageBody: messageBody)
        return processQueued()
    }

    /// Queues one message body as the reader thread would (a `$/cancelRequest` among them is
    /// recorded at once), without handling it. See ``processQueued()``.
    public func enqueue(messageBody: [UInt8]) {
        inbox.push([Incoming.queued(messageBody, with: parser)])
    }

    /// Queues the end of the input, as the reader thread does when the input ends.
    public func enqueueEndOfInput() {
        inbox.push([.endOfInput])
    }

    /// Handles everything queued, in order. Returns the exit status once `exit` (or the end of
    /// the input) has been handled; what is queued after it is dropped.
    @discardableResult
    public func processQueued() -> Int32? {
        while true {
            guard let item = inbox.next(waiting: false) else {
                guard let onCatchUp, lifecycle == .running else { break }
                onCatchUp()
                guard let next = inbox.next(waiting: false) else { break }
                if let code = process(next) { return code }
                continue
            }
            if let code = process(item) { return code }
        }
        return exitCode
    }

    // MARK: - Dispatch

    /// Handles one item; returns the exit status if the loop must end.
    private func process(_ item: Incoming) -> Int32? {
        if let exitCode { return exitCode }
        switch item {
        case .body(let bytes):
            return process(Incoming.decode(bytes, with: parser))
        case .endOfInput:
            Log.warning("the input ended without an exit notification")
            return finish(1)
        case .invalidJSON(let error):
            Log.warning("a message that is not JSON: \(error)")
            output.send(Self.response(id: .null, .failure(.parseError("Parse error: \(error)"))))
            return nil
        case .message(let message):
            if let cancelled = Inbox.cancelledID(in: message) {
                inbox.cancellationReached(cancelled)
            }
            switch Self.classify(message) {
            case .response(let id):
                Log.debug("ignoring the client's response to request \(id)")
                return nil
            case .invalid(let id, let reason):
                Log.warning("an invalid JSON-RPC message: \(reason)")
                output.send(Self.response(id: id, .failure(.invalidRequest("Invalid request: \(reason)"))))
                return nil
            case .notification(let method, let params):
                return notification(method, params)
            case .request(let id, let method, let params):
                request(id, method, params)
                return nil
            }
        }
    }

    private func request(_ id: JSONValue, _ method: String, _ params: JSONValue?) {
        if lifecycle == .running { onCatchUp?() }
        let reply = Reply(id: id, method: method, output: output)
        switch lifecycle {
        case .uninitialized:
            guard method == "initialize" else {
                reply(.failure(.serverNotInitialized("\(method): the server is not initialized")))
                return
            }
            initialize(params, reply)
        case .running:
            if inbox.isCancelled(id) {
                reply(.failure(.requestCancelled()))
                return
            }
            switch method {
            case "initialize":
                reply(.failure(.invalidRequest("initialize: the server is already initialized")))
            case "shutdown":
                lifecycle = .shutDown
                onShutdown?()
                reply(.success(.null))
            default:
                guard let handler = requestHandlers[method] else {
                    reply(.failure(.methodNotFound(method)))
                    return
                }
                let started = ContinuousClock.now
                currentRequestID = id
                defer { currentRequestID = nil }
                var result: Result<JSONValue, ResponseError>
                do {
                    result = .success(try handler(params))
                } catch {
                    result = .failure(error)
                }
                if inbox.isCancelled(id) { result = .failure(.requestCancelled()) }
                Log.debug("\(method) (id \(id)) took \(ContinuousClock.now - started)")
                reply(result)
            }
        case .shutDown:
            reply(.failure(.invalidRequest("\(method): the server is shut down")))
        case .exited:
            reply(.failure(.invalidRequest("\(method): the server has exited")))
        }
    }

    private func initialize(_ params: JSONValue?, _ reply: Reply) {
        let capabilities: JSONObject
        do {
            capabilities = try onInitialize?(params) ?? [:]
        } catch {
            reply(.failure(error))
            return
        }
        lifecycle = .running
        reply(.success([
            "capabilities": .object(capabilities),
            "serverInfo": ["name": "routes", "version": .string(version)],
        ]))
    }

    /// Handles a notification; returns the exit status for `exit`.
    private func notification(_ method: String, _ params: JSONValue?) -> Int32? {
        switch method {
        case "exit":
            return finish(lifecycle == .shutDown ? 0 : 1)
        case "$/cancelRequest":
            return nil  // recorded by the inbox when it arrived
        default:
            break
        }
        switch lifecycle {
        case .uninitialized:
            Log.debug("dropping the notification \(method): the server is not initialized")
        case .shutDown, .exited:
            Log.debug("dropping the notification \(method): the server is shut down")
        case .running:
            if method == "initialized" && !sawInitialized {
                sawInitialized = true
                onInitialized?()
            }
            if let handler = notificationHandlers[method] {
                let started = ContinuousClock.now
                handler(params)
                Log.debug("\(method) took \(ContinuousClock.now - started)")
            } else if method != "initialized" {
                Log.debug("ignoring the notification \(method)")
            }
        }
        return nil
    }

    private func finish(_ code: Int32) -> Int32 {
        lifecycle = .exited(code)
        Log.info("exiting with status \(code)")
        return code
    }

    // MARK: - Messages

    /// Whether `id` may identify a request: an integer or a string.
    static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .int, .string: true
        default: false
        }
    }

    enum Classified: Equatable {
        case request(id: JSONValue, method: String, params: JSONValue?)
        case notification(method: String, params: JSONValue?)
        case response(id: JSONValue)
        /// Not a valid JSON-RPC message; answered with -32600 and `id` (null if unusable).
        case invalid(id: JSONValue, reason: String)
    }

    static func classify(_ message: JSONValue) -> Classified {
        guard case .object(let object) = message else {
            return .invalid(id: .null, reason: "a message must be a JSON object")
        }
        let rawID = object["id"]
        let id = rawID.flatMap { isValidID($0) ? $0 : nil } ?? .null
        guard let method = object["method"] else {
            if rawID != nil && (object["result"] != nil || object["error"] != nil) {
                return .response(id: rawID!)
            }
            return .invalid(id: id, reason: "a message needs a method (or, for a response, a result or an error)")
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .invalid(id: id, reason: "jsonrpc must be \"2.0\"")
        }
        guard case .string(let name) = method else {
            return .invalid(id: id, reason: "method must be a string")
        }
        if let rawID, !isValidID(rawID) {
            return .invalid(id: .null, reason: "id must be an integer or a string")
        }
        let params: JSONValue?
        switch object["params"] {
        case nil, .some(.null): params = nil
        case .some(.object), .some(.array): params = object["params"]
        case .some: return .invalid(id: id, reason: "params must be an object or an array")
        }
        if let rawID { return .request(id: rawID, method: name, params: params) }
        return .notification(method: name, params: params)
    }

    /// `{"jsonrpc": "2.0", "id": …, "result": …}` or `{…, "error": {"code", "message", "data"?}}`.
    static func response(id: JSONValue, _ result: Result<JSONValue, ResponseError>) -> JSONValue {
        var object: JSONObject = ["jsonrpc": "2.0", "id": id]
        switch result {
        case .success(let value): object["result"] = value
        case .failure(let error): object["error"] = error.json
        }
        return .object(object)
    }
}
