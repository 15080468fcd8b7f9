import RoutesLSP
import Testing

/// `Content-Length: N\r\n\r\n` + body.
private func framed(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Feeds `chunks` one after the other, pulling every event after each feed.
private func events(_ chunks: [[UInt8]]) -> [FramerEvent] {
    var framer = MessageFramer()
    var found: [FramerEvent] = []
    for chunk in chunks {
        framer.feed(chunk)
        while let event = framer.next() { found.append(event) }
    }
    return found
}

private func events(_ stream: [UInt8]) -> [FramerEvent] { events([stream]) }

/// The message bodies among `events`, as text.
private func bodies(_ events: [FramerEvent]) -> [String] {
    events.compactMap {
        if case .message(let body) = $0 { return String(decoding: body, as: UTF8.self) }
        return nil
    }
}

private func errors(_ events: [FramerEvent]) -> [String] {
    events.compactMap {
        if case .error(let message) = $0 { return message }
        return nil
    }
}

@Suite("Framing: the base protocol's header blocks and bodies")
struct FramingTests {
    @Test func aSingleMessageIsItsBody() {
        #expect(events(framed(#"{"a":1}"#)) == [.message(bytes(#"{"a":1}"#))])
    }

    @Test func headersComeInAnyOrderAndUnknownOnesAreIgnored() {
        let body = #"{"jsonrpc":"2.0"}"#
        let streams = [
            "Content-Length: 17\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body,
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 17\r\n\r\n" + body,
            "X-Trace: 1\r\nContent-Type: x\r\nContent-Length: 17\r\nX-Other: two words\r\n\r\n" + body,
        ]
        for stream in streams {
            #expect(events(bytes(stream)) == [.message(bytes(body))], "\(stream)")
        }
    }

    @Test func headerNamesAreCaseInsensitiveAndValuesMayBePadded() {
        for header in ["content-length: 2", "CONTENT-LENGTH:2", "Content-length:\t 2 \t", "Content-Length: 002"] {
            #expect(events(bytes(header + "\r\n\r\n{}")) == [.message(bytes("{}"))], "\(header)")
        }
    }

    @Test func bareNewlinesEndLinesToo() {
        for stream in ["Content-Length: 2\n\n{}", "Content-Length: 2\r\n\n{}", "Content-Length: 2\n\r\n{}",
                       "Content-Type: x\nContent-Length: 2\r\n\r\n{}"] {
            #expect(events(bytes(stream)) == [.message(bytes("{}"))], "\(stream)")
        }
    }

    @Test func aLoneCarriageReturnDoesNotEndALine() {
        // `Content-Length: 2\r\r\n` has the value "2\r": invalid.
        let found = events(bytes("Content-Length: 2\r\r\n\r\n{}") + framed("[]"))
        #expect(bodies(found) == ["[]"])
        #expect(errors(found).count == 1)
    }

    @Test func severalMessagesInOneFeed() {
        let stream = framed("[1]") + framed(#"{"b":"é"}"#) + framed("[3]")
        #expect(bodies(events(stream)) == ["[1]", #"{"b":"é"}"#, "[3]"])
        #expect(errors(events(stream)).isEmpty)
    }

    @Test func anEmptyBodyIsAMessage() {
        #expect(events(bytes("Content-Length: 0\r\n\r\n")) == [.message([])])
    }

    @Test func emptyLinesBetweenMessagesAreSkipped() {
        let stream = framed("[1]") + bytes("\r\n\n\r\n") + framed("[2]")
        #expect(events(stream) == [.message(bytes("[1]")), .message(bytes("[2]"))])
    }

    /// A stream with every kind of event: valid messages, recoverable problems, resyncs.
    private static let sample: [UInt8] =
        framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        + bytes("Content-Type: text/plain\r\n\r\n{\"no\":\"length\"}")
        + framed(#"{"text":"ünïcödé ✓"}"#)
        + bytes("Content-Length: many\r\n\r\n")
        + [0x00, 0xFF, 0xFE, 0x0D] + bytes("junk")
        + bytes("content-LENGTH: 4\n\n[42]")
        + bytes("\r\n")
        + framed("{}")

    private static let sampleBodies = [
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        #"{"text":"ünïcödé ✓"}"#, "[42]", "{}",
    ]

    @Test func theSampleStreamInOneFeed() {
        let found = events(Self.sample)
        #expect(bodies(found) == Self.sampleBodies)
        #expect(errors(found).count == 2)
    }

    @Test func splittingTheStreamAtAnyByteBoundaryChangesNothing() {
        let expected = events(Self.sample)
        for split in 0 ... Self.sample.count {
            let found = events([Array(Self.sample[..<split]), Array(Self.sample[split...])])
            #expect(found == expected, "split at \(split)")
        }
    }

    @Test func feedingOneByteAtATimeChangesNothing() {
        #expect(events(Self.sample.map { [$0] }) == events(Self.sample))
    }

    @Test func splittingAtTwoBoundariesChangesNothing() {
        let expected = events(Self.sample)
        let n = Self.sample.count
        for first in stride(from: 0, through: n, by: 7) {
            for second in stride(from: first, through: n, by: 5) {
                let chunks = [Array(Self.sample[..<first]), Array(Self.sample[first ..< second]),
                              Array(Self.sample[second...])]
                #expect(events(chunks) == expected, "splits at \(first), \(second)")
            }
        }
    }

    @Test func aBodyArrivesAcrossManyFeeds() {
        var framer = MessageFramer()
        framer.feed(bytes("Content-Length: 10\r\n\r\n01234"))
        #expect(framer.next() == nil)
        #expect(framer.isInsideMessage)
        framer.feed(bytes("567"))
        #expect(framer.next() == nil)
        framer.feed(bytes("89Content-Len"))
        #expect(framer.next() == .message(bytes("0123456789")))
        #expect(framer.next() == nil)
        #expect(framer.isInsideMessage)
        framer.feed(bytes("gth: 1\r\n\r\nx"))
        #expect(framer.next() == .message(bytes("x")))
        #expect(framer.next() == nil)
        #expect(!framer.isInsideMessage)
        #expect(framer.bufferedByteCount == 0)
    }

    // MARK: - Recovery

    @Test func aMissingContentLengthIsReportedAndTheBodyIsSkipped() {
        let stream = bytes("Content-Type: application/json\r\n\r\n{\"id\":1,\"method\":\"x\"}") + framed("[2]")
        let found = events(stream)
        #expect(bodies(found) == ["[2]"])
        #expect(errors(found).count == 1)
        #expect(errors(found)[0].contains("without Content-Length"))
    }

    @Test(arguments: ["abc", "-5", "+5", "", "1e3", "0x10", "5 5", "٣"])
    func anInvalidContentLengthIsReportedAndReadingResyncs(value: String) {
        let found = events(bytes("Content-Length: \(value)\r\n\r\n{\"lost\":true}") + framed("[2]"))
        #expect(bodies(found) == ["[2]"])
        #expect(errors(found).count == 1)
        #expect(errors(found)[0].contains("invalid Content-Length"))
    }

    @Test(arguments: ["67108865", "99999999999999999999999999999", "100000000"])
    func aContentLengthOver64MiBIsReportedAndReadingResyncs(value: String) {
        let found = events(bytes("Content-Length: \(value)\r\n\r\n") + framed("[2]"))
        #expect(bodies(found) == ["[2]"])
        #expect(errors(found).count == 1)
        #expect(errors(found)[0].contains("64 MiB"))
    }

    @Test func exactly64MiBIsAccepted() {
        var framer = MessageFramer()
        framer.feed(bytes("Content-Length: \(MessageFramer.maxContentLength)\r\n\r\n"))
        #expect(framer.next() == nil)
        #expect(framer.isInsideMessage)
        let body = [UInt8](repeating: UInt8(ascii: " "), count: MessageFramer.maxContentLength)
        var offset = 0
        while offset < body.count {
            let end = min(offset + (1 << 20), body.count)
            framer.feed(body[offset ..< end])
            if end < body.count { #expect(framer.next() == nil) }
            offset = end
        }
        let event = framer.next()
        let isTheBody = event == .message(body)  // not inside #expect: no 64 MiB failure message
        #expect(isTheBody)
        #expect(framer.next() == nil)
    }

    @Test func aHugeBodyInSmallFeeds() {
        let body = Array(String(repeating: #"{"k":"value"},"#, count: 300_000).utf8)  // 4.2 MB
        var framer = MessageFramer()
        framer.feed(bytes("Content-Length: \(body.count)\r\n\r\n"))
        var found: [FramerEvent] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + 4096, body.count)
            framer.feed(body[offset ..< end])
            while let event = framer.next() { found.append(event) }
            offset = end
        }
        let isTheBody = found == [.message(body)]
        #expect(isTheBody)
    }

    @Test func garbageBetweenMessagesIsSkipped() {
        let garbage: [UInt8] = [0x00, 0x01, 0xFF] + bytes("some garbage\r\nmore: \r\n") + [0xC3, 0x28, 0x0A, 0x0A]
        let found = events(framed("[1]") + garbage + framed("[2]") + garbage + garbage + framed("[3]"))
        #expect(bodies(found) == ["[1]", "[2]", "[3]"])
        #expect(!errors(found).isEmpty)
    }

    @Test func junkWithoutLineBreaksRightBeforeAHeader() {
        let found = events([0xFF, 0xFE, 0x00] + bytes("junk") + framed("[1]") + bytes("garbage") + framed("[2]"))
        #expect(bodies(found) == ["[1]", "[2]"])
        #expect(!errors(found).isEmpty)
    }

    @Test func aMalformedHeaderLineIsReportedAndIgnored() {
        let found = events(bytes("Content-Length: 2\r\nthis is not a header\r\n: no name\r\n\r\n{}"))
        #expect(bodies(found) == ["{}"])
        #expect(errors(found).count == 2)
        #expect(errors(found)[0].contains("malformed header line \"this is not a header\""))
    }

    @Test func conflictingContentLengthsUseTheLastAndSaySo() {
        let found = events(bytes("Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}") + framed("[]"))
        #expect(bodies(found) == ["{}", "[]"])
        #expect(errors(found).count == 1)
        let same = events(bytes("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"))
        #expect(same == [.message(bytes("{}"))])
    }

    @Test func anEndlessHeaderBlockIsCutAtTheLimit() {
        var framer = MessageFramer()
        let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        var found: [FramerEvent] = []
        for _ in 0 ..< 200 {  // 200 KB without a line break
            framer.feed(junk)
            while let event = framer.next() { found.append(event) }
        }
        #expect(errors(found).count == 1)
        #expect(framer.bufferedByteCount < MessageFramer.maxHeaderBlockLength + junk.count)
        framer.feed(framed("[1]"))
        while let event = framer.next() { found.append(event) }
        #expect(bodies(found) == ["[1]"])
    }

    @Test func headerLinesWithoutEndAreCutAtTheLimitToo() {
        // Many short unknown header lines, never an empty line.
        let line = bytes("X-Filler: 0123456789\r\n")
        var stream: [UInt8] = []
        for _ in 0 ..< 5000 { stream += line }  // 110 KB
        let found = events(stream + framed("[1]"))
        #expect(bodies(found) == ["[1]"])
        #expect(errors(found).count == 1)
    }

    @Test(.timeLimit(.minutes(2)))
    func junkFedByteByByteIsDiscardedInLinearTime() {
        var framer = MessageFramer()
        framer.feed(bytes("Content-Length: x\r\n"))
        #expect(framer.next() != nil)  // the error; now resyncing
        var junk: UInt8 = 0
        for _ in 0 ..< 1_000_000 {
            junk = junk &+ 37
            framer.feed(CollectionOfOne(junk == UInt8(ascii: "c") || junk == UInt8(ascii: "C") ? 0 : junk))
            #expect(framer.next() == nil)
        }
        #expect(framer.bufferedByteCount < 64)
        framer.feed(framed("[1]"))
        #expect(framer.next() == .message(bytes("[1]")))
    }

    @Test(.timeLimit(.minutes(2)))
    func manyMessagesFedByteByByteInLinearTime() {
        var stream: [UInt8] = []
        for index in 0 ..< 3000 { stream += framed(#"{"jsonrpc":"2.0","id":\#(index),"method":"m"}"#) }
        var framer = MessageFramer()
        var count = 0
        for byte in stream {
            framer.feed(CollectionOfOne(byte))
            while let event = framer.next() {
                if case .message = event { count += 1 }
            }
        }
        #expect(count == 3000)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func aPartialHeaderAtTheEndIsInsideAMessage() {
        var framer = MessageFramer()
        framer.feed(bytes("Content-Len"))
        #expect(framer.next() == nil)
        #expect(framer.isInsideMessage)
    }
}
