/// The pattern of a `link` (docs/language.md#links): `/` and segments separated by `/`, each
/// literal text or a placeholder `{name}` filling the whole segment, then optionally `?` and
/// query items `key={name}` (required) or `key={name?}` (optional) separated by `&`.
/// `"/"` alone is the URL with no segments.
public struct LinkPattern: Sendable, Hashable {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        /// A placeholder, and where its name is in the pattern's text (an offset in bytes of
        /// the text between the quotes).
        case placeholder(String, at: Range<Int>)

        public var isLiteral: Bool {
            if case .literal = self { return true }
            return false
        }
    }

    public struct QueryItem: Sendable, Hashable {
        public var key: String
        public var placeholder: String
        /// Where the placeholder's name is in the pattern's text.
        public var at: Range<Int>
        /// `key={name?}`: the URL may leave it out.
        public var isOptional: Bool
    }

    public var segments: [Segment] { didSet { placeholders = Self.placeholders(segments, query) } }
    public var query: [QueryItem] { didSet { placeholders = Self.placeholders(segments, query) } }

    /// The placeholders, in the order they appear, each once.
    public private(set) var placeholders: [String]

    public init(segments: [Segment], query: [QueryItem]) {
        self.segments = segments
        self.query = query
        placeholders = Self.placeholders(segments, query)
    }

    /// A pattern whose placeholders, in order and each once, are `placeholders` (the parser
    /// has listed them).
    init(segments: [Segment], query: [QueryItem], placeholders: [String]) {
        self.segments = segments
        self.query = query
        self.placeholders = placeholders
    }

    private static func placeholders(_ segments: [Segment], _ query: [QueryItem]) -> [String] {
        var out: [String] = []
        // (A parsed pattern names each placeholder once; a few names: a scan.)
        for segment in segments {
            if case .placeholder(let name, _) = segment, !out.contains(name) { out.append(name) }
        }
        for item in query where !out.contains(item.placeholder) { out.append(item.placeholder) }
        return out
    }

    /// Where each placeholder is in the pattern's text.
    public var placeholderRanges: [(name: String, range: Range<Int>)] {
        var out: [(String, Range<Int>)] = []
        for segment in segments { if case .placeholder(let name, let at) = segment { out.append((name, at)) } }
        for item in query { out.append((item.placeholder, item.at)) }
        return out
    }

    /// Whether a query item of this placeholder is optional.
    public func isOptional(_ placeholder: String) -> Bool {
        query.contains { $0.placeholder == placeholder && $0.isOptional }
    }

    public var requiredQueryCount: Int { query.filter { !$0.isOptional }.count }

    /// Why a pattern is malformed: the words, and the part of the pattern's text (bytes of
    /// the text between the quotes) they are about.
    public struct Problem: Error, Sendable, Hashable {
        public var message: String
        public var range: Range<Int>
    }

    /// Parses the text of a pattern (the string's decoded text). One problem at most: a
    /// malformed pattern is one mistake.
    public static func parse(_ text: String) -> Result<LinkPattern, Problem> {
        // (Over the text's own bytes, not a copy of them.)
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Calls `body` with each segment of the pattern whose text is `bytes`, which parses (see
    /// `parse(_:)`), in order: a literal's bytes (its text), or nil for a placeholder. Read
    /// without making the pattern: segments are split at `/`, before the query's `?`.
    static func forEachSegment(utf8 bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        // `"/"` alone, or `"/?…"`: no segments.
        var start = 1
        guard start < bytes.count, bytes[start] != UInt8(ascii: "?") else { return }
        var position = start
        while true {
            let byte = position < bytes.count ? bytes[position] : UInt8(ascii: "?")
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") {
                body(bytes[start] == UInt8(ascii: "{") ? nil : UnsafeBufferPointer(rebasing: bytes[start..<position]))
                if byte == UInt8(ascii: "?") { return }
                start = position + 1
            }
            position += 1
        }
    }

    /// The placeholders of the pattern whose text is `bytes`, in the order of `placeholders`,
    /// as the ranges of their names in `bytes` and whether each is optional (`{name?}`), read
    /// without making the pattern, when the text is ASCII and parses; nil otherwise (then
    /// parse it to say why). What `parse(_:)` accepts of such a text, this accepts: the same
    /// rules, byte for byte (`LinkLineTests` checks both over every link it reads).
    /// The ranges are moved by `offset` (where the text is in a file).
    static func placeholderNames(utf8 bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) -> [(name: Range<Int>, isOptional: Bool)]? {
        var found: [(name: Range<Int>, isOptional: Bool)] = []
        func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && !zip(a, b).contains { bytes[$0] != bytes[$1] }
        }
        // A literal byte: printable ASCII but `# { } \ %`, and in a query key `= & ? /`.
        func literal(_ byte: UInt8, inQuery: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\\"), UInt8(ascii: "%"): return false
            case UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "?"), UInt8(ascii: "/"): return !inQuery
            default: return byte > 0x20 && byte < 0x7F
            }
        }
        var position = 0
        // `{name}` or `{name?}` at `position`; false when it is not one.
        func placeholder(optionalAllowed: Bool) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return false }
            position += 1
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                let letter = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
                guard letter || (position > start && byte >= 0x30 && byte <= 0x39) else { break }
                position += 1
            }
            let name = start..<position
            var optional = false
            if position < bytes.count && bytes[position] == UInt8(ascii: "?") {
                optional = true
                position += 1
            }
            guard !name.isEmpty, position < bytes.count, bytes[position] == UInt8(ascii: "}"), !optional || optionalAllowed,
                  !found.contains(where: { same($0.name.lowerBound - offset..<$0.name.upperBound - offset, name) }) else { return false }
            position += 1
            found.append((name.lowerBound + offset..<name.upperBound + offset, optional))
            return true
        }
        guard !bytes.isEmpty, bytes[0] == UInt8(ascii: "/") else { return nil }
        position = 1
        if position < bytes.count && bytes[position] != UInt8(ascii: "?") {
            while true {
                if position < bytes.count && bytes[position] == UInt8(ascii: "{") {
                    guard placeholder(optionalAllowed: false) else { return nil }
                } else {
                    let start = position
                    while position < bytes.count && bytes[position] != UInt8(ascii: "/") && bytes[position] != UInt8(ascii: "?") {
                        guard literal(bytes[position], inQuery: false) else { return nil }
                        position += 1
                    }
                    guard position > start else { return nil }
                }
                if position == bytes.count || bytes[position] == UInt8(ascii: "?") { break }
                guard bytes[position] == UInt8(ascii: "/") else { return nil }
                position += 1
                guard position < bytes.count else { return nil }
            }
        }
        if position < bytes.count {
            // `?` and query items `key={name}` separated by `&`, each key once.
            position += 1
            guard position < bytes.count else { return nil }
            var keys: [Range<Int>] = []
            while true {
                let start = position
                while position < bytes.count && bytes[position] != UInt8(ascii: "=") && bytes[position] != UInt8(ascii: "&") {
                    guard literal(bytes[position], inQuery: true) else { return nil }
                    position += 1
                }
                let key = start..<position
                guard !key.isEmpty, position < bytes.count, bytes[position] == UInt8(ascii: "="),
                      !keys.contains(where: { same($0, key) }) else { return nil }
                keys.append(key)
                position += 1
                guard placeholder(optionalAllowed: true), position == bytes.count || bytes[position] == UInt8(ascii: "&") else { return nil }
                if position == bytes.count { break }
                position += 1
            }
        }
        return found
    }

    /// Parses the text of a pattern given as its UTF-8 bytes.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<LinkPattern, Problem> {
        var parser = LinkPatternParser(bytes: bytes)
        do throws(Problem) {
            return .success(try parser.pattern())
        } catch {
            return .failure(error)
        }
    }
}

/// Reads a pattern byte by byte (see `LinkPattern`), over bytes valid while it reads.
struct LinkPatternParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func problem(_ message: String, _ range: Range<Int>) -> LinkPattern.Problem {
        LinkPattern.Problem(message: message, range: range.clamped(to: 0..<max(bytes.count, 1)))
    }

    private var atEnd: Bool { position >= bytes.count }
    private var current: UInt8 { bytes[position] }

    mutating func pattern() throws(LinkPattern.Problem) -> LinkPattern {
        if let percent = bytes.firstIndex(of: UInt8(ascii: "%")) {
            throw problem("a pattern holds no `%`: write a segment as its text (`/café`), and its placeholders as `{name}`", percent..<(percent + 1))
        }
        guard !bytes.isEmpty else { throw problem("a pattern starts with `/` (`\"/\"` alone is the URL with no segments)", 0..<0) }
        guard current == UInt8(ascii: "/") else {
            // (The suggestion without empty segments, which would be a mistake of their own.)
            let text = String(decoding: bytes, as: UTF8.self)
            let colon = bytes.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }
            if let colon, bytes[colon] == UInt8(ascii: ":"), colon + 2 < bytes.count,
               bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
                // A whole URL: the pattern is its path. A web URL's host is not matched (any
                // host opens the app); a custom scheme's host is the path's first segment.
                let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
                var rest = Substring(String(decoding: bytes[(colon + 3)...], as: UTF8.self))
                if scheme == "http" || scheme == "https" { rest = rest.drop { $0 != "/" && $0 != "?" } }
                let path = rest.prefix { $0 != "?" }.split(separator: "/").joined(separator: "/")
                throw problem("a pattern is the path of the URLs it matches, without a scheme\(scheme == "http" || scheme == "https" ? " and host" : ""): `\"/\(path)\(rest.drop { $0 != "?" })\"`", 0..<bytes.count)
            }
            let path = text.prefix { $0 != "?" }.split(separator: "/").joined(separator: "/")
            throw problem("a pattern starts with `/`: `\"/\(path)\(text.drop { $0 != "?" })\"`", 0..<1)
        }
        position = 1
        var segments: [LinkPattern.Segment] = []
        // Room for one segment per `/` before the query (a pattern is short: counted, so that
        // thousands of patterns do not each hold room for twice their segments).
        var slashes = 0
        for byte in bytes {
            if byte == UInt8(ascii: "?") { break }
            if byte == UInt8(ascii: "/") { slashes += 1 }
        }
        segments.reserveCapacity(slashes)
        // The placeholders named so far (a pattern has a few: a list).
        var names: [String] = []
        // `"/"` alone, or `"/?…"`: no segments.
        if !atEnd && current != UInt8(ascii: "?") {
            while true {
                let segment = try self.segment()
                if case .placeholder(let name, let at) = segment { try note(name, at, in: &names) }
                segments.append(segment)
                if atEnd || current == UInt8(ascii: "?") { break }
                position += 1  // the `/`
                if atEnd { throw problem("a pattern does not end with `/`: URLs are matched without their trailing `/`", (position - 1)..<position) }
            }
        }
        var query: [LinkPattern.QueryItem] = []
        if !atEnd && current == UInt8(ascii: "?") {
            position += 1
            guard !atEnd else { throw problem("`?` is followed by no query item: write `?key={name}`, or leave the `?` out", (position - 1)..<position) }
            while true {
                let item = try queryItem()
                guard !query.contains(where: { $0.key == item.key }) else {
                    throw problem("the query key `\(item.key)` is given twice", (item.at.lowerBound - item.key.utf8.count - 2)..<item.at.upperBound)
                }
                try note(item.placeholder, item.at, in: &names)
                query.append(item)
                if atEnd { break }
                position += 1  // the `&`
            }
        }
        return LinkPattern(segments: segments, query: query, placeholders: names)
    }

    private func note(_ name: String, _ at: Range<Int>, in names: inout [String]) throws(LinkPattern.Problem) {
        if names.contains(name) {
            throw problem("the placeholder `\(name)` is named twice in the pattern: give each value a name of its own", at)
        }
        names.append(name)
    }

    /// A segment, up to the next `/` or `?` or the end.
    private mutating func segment() throws(LinkPattern.Problem) -> LinkPattern.Segment {
        let start = position
        if !atEnd && current == UInt8(ascii: "{") {
            let (name, at, optional) = try placeholder()
            if optional {
                throw problem("`{\(name)?}` is a query item's: a segment's placeholder is required", (at.lowerBound - 1)..<(at.upperBound + 2))
            }
            if !atEnd && current != UInt8(ascii: "/") && current != UInt8(ascii: "?") {
                throw problem("a placeholder fills its whole segment: `{\(name)}` cannot be followed by text before the next `/`", start..<position)
            }
            return .placeholder(name, at: at)
        }
        while !atEnd && current != UInt8(ascii: "/") && current != UInt8(ascii: "?") {
            try literalByte(inQuery: false)
        }
        guard position > start else {
            throw problem("a pattern has no empty segment (`//`): remove one `/`", max(start - 1, 0)..<(start + 1))
        }
        return .literal(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
    }

    /// `{name}` or `{name?}`: the name, where it is, and whether it is optional.
    private mutating func placeholder() throws(LinkPattern.Problem) -> (String, Range<Int>, Bool) {
        let open = position
        position += 1
        let nameStart = position
        while !atEnd && isNameByte(current, first: position == nameStart) { position += 1 }
        let nameEnd = position
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
        var optional = false
        if !atEnd && current == UInt8(ascii: "?") {
            optional = true
            position += 1
        }
        guard !atEnd && current == UInt8(ascii: "}") else {
            if atEnd || [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "&")].contains(current) {
                throw problem("the placeholder `{\(name)` is not closed: write `{\(name)}`", open..<position)
            }
            // The placeholder as written, to its `}` when it has one in its segment.
            var end = position
            while end < bytes.count && ![UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "&")].contains(bytes[end]) { end += 1 }
            let closed = end < bytes.count && bytes[end] == UInt8(ascii: "}")
            let written = String(decoding: UnsafeBufferPointer(rebasing: bytes[open..<(closed ? end + 1 : end)]), as: UTF8.self)
            throw problem("a placeholder's name is an identifier (a letter or `_`, then letters, digits or `_`), not `\(written)\(closed ? "" : "…")`",
                          open..<(position + 1))
        }
        guard nameEnd > nameStart else { throw problem("a placeholder has a name: `{id}`", open..<(position + 1)) }
        position += 1
        return (name, nameStart..<nameEnd, optional)
    }

    /// The scalar whose UTF-8 starts at `offset` of valid UTF-8, and its length in bytes.
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[offset])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        var value = length == 1 ? lead : lead & (0xFF >> UInt32(length + 1))
        for i in 1..<max(length, 1) where offset + i < bytes.count { value = value << 6 | UInt32(bytes[offset + i] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", min(length, bytes.count - offset))
    }

    private func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || (!first && byte >= 0x30 && byte <= 0x39)
    }

    /// One byte of literal text: anything but whitespace, control characters and
    /// `/ ? # { } % \` (and, in a query key, `= &`). A character beyond ASCII is read whole:
    /// Unicode's whitespace (U+00A0, U+2028, U+3000, …) and controls (U+0080 to U+009F) are
    /// refused as ASCII's are.
    @inline(__always) private mutating func literalByte(inQuery: Bool) throws(LinkPattern.Problem) {
        let byte = current
        if byte >= 0x80 {
            let (scalar, length) = Self.scalar(in: bytes, at: position)
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                let code = String(scalar.value, radix: 16, uppercase: true)
                throw problem("a literal segment holds no whitespace or control character, and U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) is one",
                              position..<(position + length))
            }
            position += length
            return
        }
        let forbidden: Bool
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\\"): forbidden = true
        case UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "?"), UInt8(ascii: "/"): forbidden = inQuery
        default: forbidden = byte <= 0x20 || byte == 0x7F
        }
        if forbidden {
            let what = byte <= 0x20 || byte == 0x7F ? "whitespace or a control character" : "`\(Character(Unicode.Scalar(byte)))`"
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") {
                throw problem("a placeholder fills a whole segment (`/{id}`), and braces are not literal text", position..<(position + 1))
            }
            throw problem("a literal segment holds no \(what)", position..<(position + 1))
        }
        position += 1
    }

    /// `key={name}` or `key={name?}`.
    private mutating func queryItem() throws(LinkPattern.Problem) -> LinkPattern.QueryItem {
        let start = position
        while !atEnd && current != UInt8(ascii: "=") && current != UInt8(ascii: "&") { try literalByte(inQuery: true) }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard position > start else {
            // `?={q}`: a value without its key; `?&a={a}`, `?a={a}&`: nothing between the
            // separators.
            if !atEnd && current == UInt8(ascii: "=") {
                var end = position
                while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
                throw problem("a query item is `key={name}`: this one has no key", start..<end)
            }
            throw problem("a query item is `key={name}`: this one is empty", max(start - 1, 0)..<(start + 1))
        }
        guard !atEnd && current == UInt8(ascii: "=") else {
            throw problem("the query item `\(key)` has no value: write `\(key)={\(key)}`", start..<position)
        }
        position += 1
        guard !atEnd && current == UInt8(ascii: "{") else {
            var end = position
            while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
            throw problem("a query item's value is a placeholder (`\(key)={\(key)}`): a literal value does not choose a link", start..<end)
        }
        let (name, at, optional) = try placeholder()
        guard atEnd || current == UInt8(ascii: "&") else {
            throw problem("a query item's placeholder fills its whole value", start..<position)
        }
        return LinkPattern.QueryItem(key: key, placeholder: name, at: at, isOptional: optional)
    }
}
