import RoutesJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes framed messages (`Content-Length: N\r\n\r\n` and the JSON body) to the client.
///
/// Thread-safe: a lock keeps each message whole, whichever thread sends it. Writes are complete
/// (partial writes and `EINTR` are retried). When the client has gone away (`EPIPE`, or any other
/// write error) the writer logs it once and drops everything after; it never crashes the process
/// (the server ignores `SIGPIPE` when it starts running).
public final class MessageWriter: @unchecked Sendable {
    private enum Destination {
        case fileDescriptor(Int32)
        case sink(@Sendable ([UInt8]) -> Void)
    }

    private let destination: Destination
    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var failed = false

    /// Writes to `fileDescriptor` (which stays open: the caller owns it).
    public init(fileDescriptor: Int32) {
        destination = .fileDescriptor(fileDescriptor)
    }

    /// Hands each framed message, whole, to `sink` (under the writer's lock, so messages arrive
    /// one at a time). For tests and in-process clients.
    public init(sink: @escaping @Sendable ([UInt8]) -> Void) {
        destination = .sink(sink)
    }

    /// A writer to the process's real stdout that also protects the protocol stream from stray
    /// output: stdout's file descriptor is duplicated for the writer, then descriptor 1 is
    /// pointed at stderr, so that a `print` anywhere in the process lands on stderr instead of
    /// corrupting the stream. Call once, before anything else writes to stdout.
    public static func protectingStandardOutput() -> MessageWriter {
        let protocolOutput = dup(1)
        guard protocolOutput >= 0 else {
            Log.warning("could not duplicate stdout (errno \(errno)); stray output is not redirected")
            return MessageWriter(fileDescriptor: 1)
        }
        _ = fcntl(protocolOutput, F_SETFD, FD_CLOEXEC)
        if dup2(2, 1) < 0 {
            Log.warning("could not redirect stdout to stderr (errno \(errno))")
        }
        return MessageWriter(fileDescriptor: protocolOutput)
    }

    /// `Content-Length: N\r\n\r\n` followed by `body`.
    public static func frame(_ body: some Collection<UInt8>) -> [UInt8] {
        var framed = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        framed.reserveCapacity(framed.count + body.count)
        framed.append(contentsOf: body)
        return framed
    }

    /// Serializes `message` (compact JSON, through json-c) and writes it framed.
    /// Returns false if the client is gone.
    @discardableResult
    public func send(_ message: JSONValue) -> Bool {
        write(body: Array(JSON.serialize(message).utf8))
    }

    /// Writes `body`, framed. Returns false if the client is gone (nothing is written then).
    @discardableResult
    public func write(body: [UInt8]) -> Bool {
        let framed = Self.frame(body)
        return lock.withLock {
            guard !failed else { return false }
            switch destination {
            case .sink(let sink):
                sink(framed)
            case .fileDescriptor(let descriptor):
                if let problem = Self.writeAll(framed, to: descriptor) {
                    failed = true
                    Log.error("cannot write to the client (\(problem)); dropping all further output")
                }
            }
            return !failed
        }
    }

    /// Whether a write has failed (the client went away): later messages are dropped.
    public var isClientGone: Bool {
        lock.withLock { failed }
    }

    /// Writes all of `bytes`, or returns why it could not.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                if written < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN || code == EWOULDBLOCK {
                        // A non-blocking descriptor: wait until it can take more.
                        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&poller, 1, -1)
                        continue
                    }
                    return code == EPIPE ? "the client closed its input (EPIPE)" : "errno \(code)"
                }
                return "write returned 0"
            }
            return nil
        }
    }
}

/// `write(2)`, under a name that members called `write` do not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
