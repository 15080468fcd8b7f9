/// A URL as links match it (docs/language.md#links): its path's segments and its query items,
/// percent-decoded.
///
/// - For a scheme other than `http` and `https`, the host (lowercased) is the first segment
///   (`myapp://items/3` and `https://example.com/items/3` both give `items`, `3`); any host of
///   `http` and `https` is accepted. A URL without a scheme (`/items/3`) is a path.
/// - The path is split at `/` before it is decoded (`%2F` stays inside its segment); empty
///   segments, a trailing `/` among them, are left out; `+` is a plus sign.
/// - The fragment is ignored. A query key given twice counts the first time; an empty value
///   counts as absent.
/// - A broken escape, or bytes that are not UTF-8 once decoded, make the URL match nothing
///   (`parse` says why).
public struct LinkURL: Sendable, Hashable {
    public var segments: [String]
    /// Each key's first value, decoded; keys whose value is empty are left out.
    public var query: [String: String]

    public init(segments: [String], query: [String: String]) {
        self.segments = segments
        self.query = query
    }

    /// Why a URL matches nothing.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A URL's text as its parts are found: scalar by scalar, so that a delimiter followed by
    /// a combining mark (`/\u{301}`) still delimits (a `Character` would hold both).
    typealias Scalars = Substring.UnicodeScalarView

    public static func parse(_ text: String) -> Result<LinkURL, Problem> {
        var rest = Substring(text).unicodeScalars
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var queryText: Scalars? = nil
        if let question = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        var host: Scalars? = nil
        var path = rest
        if let (scheme, afterScheme) = Self.scheme(of: rest) {
            path = afterScheme
            if path.starts(with: "//".unicodeScalars) {
                let authority = path.dropFirst(2)
                let end = authority.firstIndex(of: "/") ?? authority.endIndex
                path = authority[end...]
                let web = scheme.lowercased() == "http" || scheme.lowercased() == "https"
                if !web { host = Self.host(of: authority[..<end]) }
            }
        }
        var segments: [String] = []
        if let host, !host.isEmpty {
            switch decode(host) {
            case .success(let value): segments.append(value.lowercased())
            case .failure(let problem): return .failure(problem)
            }
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch decode(segment) {
            case .success(let value): segments.append(value)
            case .failure(let problem): return .failure(problem)
            }
        }
        var query: [String: String] = [:]
        var seen = Set<String>()
        for item in (queryText ?? Scalars()).split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key: String, value: String
            switch (decode(parts[0]), decode(parts.count > 1 ? parts[1] : Scalars())) {
            case (.success(let k), .success(let v)): (key, value) = (k, v)
            case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
            }
            // The first time a key is given counts, even when its value is empty (absent).
            guard seen.insert(key).inserted else { continue }
            if !value.isEmpty { query[key] = value }
        }
        return .success(LinkURL(segments: segments, query: query))
    }

    /// The host of an authority (`user@host:port`): without the user and the port.
    private static func host(of authority: Scalars) -> Scalars {
        var host = authority
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if let colon = host.lastIndex(of: ":"), host[host.index(after: colon)...].allSatisfy({ ("0"..."9").contains($0) }) {
            host = host[..<colon]
        }
        return host
    }

    /// The scheme (`[A-Za-z][A-Za-z0-9+.-]*`) and what follows its `:`, if the text has one.
    static func scheme(of text: Scalars) -> (String, Scalars)? {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCIILetter,
              scheme.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "." || $0 == "-" })
        else { return nil }
        return (String(Substring(scheme)), text[text.index(after: colon)...])
    }

    /// Percent-decodes a part of a URL: `%XX` is the byte XX; the bytes must be UTF-8.
    static func decode(_ scalars: Scalars) -> Result<String, Problem> {
        let part = Substring(scalars)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.utf8.count)
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return .failure(Problem(message: "`\(part)` has a broken escape (`%` is followed by two hexadecimal digits)"))
            }
            bytes.append(high << 4 | low)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Problem(message: "`\(part)` is not UTF-8 once decoded"))
        }
        return .success(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
