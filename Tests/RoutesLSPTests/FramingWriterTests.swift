import Foundation
import RoutesJSON
import RoutesLSP
import Testing

/// Framed messages collected by a ``MessageWriter`` sink.
private final class FrameCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [[UInt8]] = []

    func append(_ frame: [UInt8]) { lock.withLock { frames.append(frame) } }
    var all: [[UInt8]] { lock.withLock { frames } }
}

/// Reads everything from `descriptor` until end of file.
private func readAll(_ descriptor: Int32) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return result }
        result += chunk[0 ..< count]
    }
}

@Suite("Framing: writing messages")
struct FramingWriterTests {
    @Test func aFrameIsContentLengthThenTheBody() {
        #expect(MessageWriter.frame(Array("{}".utf8)) == Array("Content-Length: 2\r\n\r\n{}".utf8))
        #expect(MessageWriter.frame(Array("\"é\"".utf8)) == Array("Content-Length: 4\r\n\r\n\"é\"".utf8))
    }

    @Test func sendSerializesCompactJSON() {
        let collector = FrameCollector()
        let writer = MessageWriter(sink: { collector.append($0) })
        writer.send(["jsonrpc": "2.0", "id": 1, "result": nil])
        let expected = #"{"jsonrpc":"2.0","id":1,"result":null}"#
        #expect(collector.all == [Array("Content-Length: \(expected.utf8.count)\r\n\r\n\(expected)".utf8)])
    }

    @Test func messagesFromManyThreadsStayWhole() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let writer = MessageWriter(fileDescriptor: descriptors[1])
        let readerDone = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received: [UInt8] = []
        let readEnd = descriptors[0]
        Thread.detachNewThread {
            received = readAll(readEnd)
            readerDone.signal()
        }
        let padding = String(repeating: "x", count: 5000)  // over PIPE_BUF: writes may be partial
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0 ..< 100 {
                writer.send(["thread": .int(Int64(thread)), "index": .int(Int64(index)), "pad": .string(padding)])
            }
        }
        close(descriptors[1])
        readerDone.wait()
        close(readEnd)

        var framer = MessageFramer()
        framer.feed(received)
        var seen: [Int64: [Int64]] = [:]
        while let event = framer.next() {
            guard case .message(let body) = event else {
                Issue.record("framing error: \(event)")
                continue
            }
            let message = try JSON.parse(bytes: body)
            seen[message["thread"]!.intValue!, default: []].append(message["index"]!.intValue!)
        }
        #expect(seen.count == 8)
        for (_, indices) in seen { #expect(indices == Array(0 ..< 100)) }
    }

    @Test func aClientThatWentAwayDoesNotCrashTheWriter() {
        signal(SIGPIPE, SIG_IGN)
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        close(descriptors[0])
        let writer = MessageWriter(fileDescriptor: descriptors[1])
        #expect(!writer.isClientGone)
        #expect(!writer.send(["jsonrpc": "2.0", "method": "x"]))
        #expect(writer.isClientGone)
        #expect(!writer.send(["jsonrpc": "2.0", "method": "y"]))
        close(descriptors[1])
    }
}
