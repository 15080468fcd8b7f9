import RoutesJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The reader thread: reads the input, frames it, parses each body, and pushes what it finds.
enum InputReader {
    /// Starts the reader thread on `descriptor`. Returns false if no thread could be started.
    static func start(reading descriptor: Int32, into inbox: Inbox) -> Bool {
        startDetachedThread { readLoop(descriptor, inbox) }
    }

    private static func readLoop(_ descriptor: Int32, _ inbox: Inbox) {
        var framer = MessageFramer()
        let parser = JSONParser()  // owned by this thread
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                Log.error("cannot read the input (errno \(errno)); treating it as ended")
                break
            }
            if count == 0 { break }
            framer.feed(chunk[0 ..< count])
            var batch: [Incoming] = []
            while let event = framer.next() {
                switch event {
                case .message(let body):
                    batch.append(Incoming.queued(body, with: parser))
                case .error(let problem):
                    Log.warning("input: \(problem)")
                }
            }
            inbox.push(batch)
        }
        if framer.isInsideMessage {
            Log.warning("input: the input ended inside a message (\(framer.bufferedByteCount) bytes dropped)")
        }
        inbox.push([.endOfInput])
    }
}
