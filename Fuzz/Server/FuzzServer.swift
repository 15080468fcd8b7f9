import FuzzSupport
import RoutesJSON
import RoutesLSP

#if canImport(Glibc)
import Glibc
#endif

/// Target 2: bytes → the server's framing → JSON-RPC dispatch → every handler, in process.
///
/// Each input is a session: a scripted `initialize` and `didOpen` of the seed app, then the
/// fuzz bytes fed to the framer in chunks (as a pipe would deliver them), each framed body
/// handled; then scripted requests and `shutdown`/`exit`. Invariants: everything the server
/// writes is a well-framed JSON-RPC message; each scripted request is answered exactly once
/// (unless the fuzz bytes already ended the session); the exit status follows the lifecycle.
final class Collector: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var bytes: [UInt8] = []
    init() { pthread_mutex_init(&lock, nil) }
    func append(_ b: [UInt8]) { pthread_mutex_lock(&lock); bytes += b; pthread_mutex_unlock(&lock) }
    func take() -> [UInt8] { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return bytes }
}

let seedDocument = """
    screen Home
    screen Detail(id: String) sheet
    dependency store: Store from Home
    optional detailStore: DetailStore
    flag isLoggedIn
    builder detail {
      screen Detail uses detailStore { detail }
    }
    root {
      conditional isLoggedIn {
        screen Home uses store {
          if let detailStore { detail }
        }
      } else { empty }
    }
    """

func message(_ value: JSONValue) -> [UInt8] { Array(JSON.serialize(value).utf8) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    Log.level = .error  // the fuzz bytes make warnings by the thousand
    let collector = Collector()
    let server = Server(output: MessageWriter(sink: { collector.append($0) }))
    let features = LanguageFeatures(server: server)
    // The fuzz bytes may add workspace folders (`/` even): look at a handful of entries only.
    features.workspaceScanLimit = 64
    let uri = "file:///routes-fuzz-nonexistent/App.routes"
    // The first input byte picks the position encoding, so both are fuzzed.
    let utf8 = (input.first ?? 0) & 1 == 1
    var ended: Int32? = nil
    func send(_ value: JSONValue) {
        if ended == nil { ended = server.handle(messageBody: message(value)) }
    }
    send(["jsonrpc": "2.0", "id": 0, "method": "initialize", "params": [
        "capabilities": ["general": ["positionEncodings": utf8 ? ["utf-8", "utf-16"] : ["utf-16"]]],
    ]])
    send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
    send(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": [
        "textDocument": ["uri": .string(uri), "languageId": "routes", "version": 1, "text": .string(seedDocument)],
    ]])

    // The fuzz bytes, framed as the reader thread would, in chunks of varying size.
    var framer = MessageFramer()
    var offset = 0
    var chunk = 1
    while offset < input.count && ended == nil {
        let end = min(input.count, offset + chunk)
        framer.feed(input[offset..<end])
        offset = end
        chunk = chunk * 3 + 1
        while ended == nil, let event = framer.next() {
            if case .message(let body) = event { ended = server.handle(messageBody: body) }
        }
    }

    // Scripted requests after whatever the fuzz bytes did to the document.
    let scripted: [(Int64, String, JSONValue)] = [
        (9001, "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": ["line": 6, "character": 10]]),
        (9002, "textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": ["line": 10, "character": 25]]),
        (9003, "textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]]),
        (9004, "textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]]),
        (9005, "routes/preview", ["textDocument": ["uri": .string(uri)]]),
        (9007, "textDocument/documentHighlight", ["textDocument": ["uri": .string(uri)], "position": ["line": 6, "character": 10]]),
        (9008, "textDocument/selectionRange", ["textDocument": ["uri": .string(uri)], "positions": [["line": 6, "character": 10]]]),
        (9009, "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)],
                                          "range": ["start": ["line": 0, "character": 0], "end": ["line": 100, "character": 0]]]),
        (9010, "textDocument/codeLens", ["textDocument": ["uri": .string(uri)]]),
        (9011, "textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]]),
        (9012, "workspace/diagnostic", ["previousResultIds": []]),
        (9013, "workspace/symbol", ["query": "e"]),
        (9014, "textDocument/codeAction", ["textDocument": ["uri": .string(uri)],
                                           "range": ["start": ["line": 0, "character": 0], "end": ["line": 99, "character": 0]],
                                           "context": ["diagnostics": []]]),
        (9006, "shutdown", .null),
    ]
    let reachedScript = ended == nil
    for (id, method, params) in scripted {
        send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
    }
    send(["jsonrpc": "2.0", "method": "exit"])
    if ended == nil { ended = server.processQueued() }
    withExtendedLifetime(features) {}

    // Check the output stream: framed, JSON, JSON-RPC.
    var out = MessageFramer()
    out.feed(collector.take())
    var answers: [Int64: Int] = [:]
    let parser = JSONParser()
    while let event = out.next() {
        guard case .message(let body) = event else { invariant(false, "the server wrote a malformed frame: \(event)"); continue }
        guard let value = try? parser.parse(bytes: body) else { invariant(false, "the server wrote a body that is not JSON"); continue }
        invariant(value["jsonrpc"]?.stringValue == "2.0", "a message without jsonrpc 2.0")
        if let id = value["id"]?.intValue, value["method"] == nil { answers[id, default: 0] += 1 }
    }
    invariant(out.bufferedByteCount == 0, "the server's output ends inside a message")
    if reachedScript {
        for (id, _, _) in scripted {
            invariant(answers[id] == 1, "request \(id) answered \(answers[id] ?? 0) times")
        }
        invariant(ended == 0, "exit after shutdown ended with \(String(describing: ended))")
    }
    return 0
}
