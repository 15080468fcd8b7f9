import RoutesJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One item of input, as the reader thread hands it to the server's loop.
enum Incoming: Sendable {
    /// A message body that parsed as JSON (not yet checked to be JSON-RPC).
    case message(JSONValue)
    /// A message body that is not JSON.
    case invalidJSON(JSONError)
    /// A message body not parsed yet: the loop parses it when it gets there. Raw bytes take a
    /// fraction of the memory of a parsed value, so a client that sends a long burst faster
    /// than it is handled costs little while the burst waits in the queue.
    case body([UInt8])
    /// The input ended.
    case endOfInput

    private static let cancelWord = Array("cancelRequest".utf8)
    private static let unicodeEscape = Array("\\u".utf8)

    /// Parses a message body.
    static func decode(_ body: [UInt8], with parser: JSONParser) -> Incoming {
        do {
            return .message(try parser.parse(bytes: body))
        } catch {
            return .invalidJSON(error)
        }
    }

    /// What the reader thread queues for a body: parsed at once if it may be a
    /// `$/cancelRequest` (which must be recorded the moment it arrives), else the raw bytes.
    static func queued(_ body: [UInt8], with parser: JSONParser) -> Incoming {
        mentionsCancel(body) ? decode(body, with: parser) : .body(body)
    }

    /// Whether the body may spell the method `$/cancelRequest`: it contains `cancelRequest`
    /// (JSON may write the slash as `\/`), or a `\u` escape (which could spell any of it).
    static func mentionsCancel(_ body: [UInt8]) -> Bool {
        contains(body, cancelWord, anchor: 6) || contains(body, unicodeEscape, anchor: 0)
    }

    /// Whether `pattern` occurs in `body`: `memchr` finds each occurrence of the pattern's
    /// byte at `anchor` (a rare one: `R`, `\`), then the rest is compared (a document's text
    /// is hundreds of kilobytes, scanned here before anything else).
    static func contains(_ body: [UInt8], _ pattern: [UInt8], anchor: Int) -> Bool {
        guard body.count >= pattern.count, pattern.indices.contains(anchor) else { return false }
        return body.withUnsafeBufferPointer { b in
            pattern.withUnsafeBufferPointer { p in
                guard let base = b.baseAddress else { return false }
                var from = anchor
                let end = b.count - (p.count - anchor)
                while from <= end, let hit = memchr(base + from, Int32(p[anchor]), end + 1 - from) {
                    let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - anchor
                    if memcmp(base + index, p.baseAddress!, p.count) == 0 { return true }
                    from = index + anchor + 1
                }
                return false
            }
        }
    }
}

/// The queue between the reader thread and the server's loop, and the record of cancellations.
///
/// When a batch of messages is pushed, every `$/cancelRequest` in it is recorded at once, before
/// the loop can see any of the batch; so when the loop takes a request it can tell whether a
/// cancellation of it has arrived — even one queued behind it, or one that arrived while its
/// handler ran. A recorded cancellation is forgotten when the loop reaches the `$/cancelRequest`
/// itself (every request before it has been answered by then).
final class Inbox: @unchecked Sendable {
    private let lock = ConditionLock()
    // All guarded by `lock`.
    private var items: [Incoming] = []
    private var head = 0
    /// Request id → number of `$/cancelRequest`s for it queued and not yet reached by the loop.
    private var pendingCancels: [JSONValue: Int] = [:]

    /// Appends a batch (all the messages of one read, say) atomically.
    func push(_ batch: [Incoming]) {
        guard !batch.isEmpty else { return }
        lock.withLock {
            for item in batch {
                if case .message(let message) = item, let id = Self.cancelledID(in: message) {
                    pendingCancels[id, default: 0] += 1
                }
            }
            items.append(contentsOf: batch)
            lock.broadcast()
        }
    }

    /// The next item, waiting for one if `waiting`; `nil` if there is none and not `waiting`.
    func next(waiting: Bool) -> Incoming? {
        lock.withLock {
            while head == items.count {
                guard waiting else { return nil }
                lock.wait()
            }
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: items.count <= 4096)
                head = 0
            } else if head >= 1024 && head * 2 >= items.count {
                items.removeSubrange(0 ..< head)
                head = 0
            }
            return item
        }
    }

    /// Whether a `$/cancelRequest` for `id` has arrived and the loop has not reached it yet.
    func isCancelled(_ id: JSONValue) -> Bool {
        lock.withLock { pendingCancels[id] != nil }
    }

    /// The loop reached a `$/cancelRequest` for `id`.
    func cancellationReached(_ id: JSONValue) {
        lock.withLock {
            guard let count = pendingCancels[id] else { return }
            pendingCancels[id] = count > 1 ? count - 1 : nil
        }
    }

    /// The request id a message cancels, if it is a well-formed `$/cancelRequest` notification.
    static func cancelledID(in message: JSONValue) -> JSONValue? {
        guard case .object(let object) = message,
              object["jsonrpc"] == .string("2.0"),
              object["method"] == .string("$/cancelRequest"),
              object["id"] == nil,
              case .object(let params) = object["params"],
              let id = params["id"], Server.isValidID(id) else { return nil }
        return id
    }
}
