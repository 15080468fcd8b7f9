/// A glob of `exclude` in `routes.json`, matched against paths relative to the workspace
/// root (`/` separated): `*` matches within one path segment, `**` any number of segments,
/// `?` one character, `[abc]` one of a set (`[!abc]` none of it). A pattern without `/`
/// matches a file or folder of that name at any depth (`Generated`, `*.draft.routes`); with
/// one it is anchored at the root (`Apps/Legacy/**`, `/Vendor`). A folder that matches
/// excludes everything under it.
public struct Glob: Sendable, Hashable {
    public let pattern: String
    private let segments: [String]
    private let anchored: Bool

    public init(_ pattern: String) {
        self.pattern = pattern
        var p = pattern
        if p.hasSuffix("/") { p.removeLast() }
        anchored = p.contains("/")
        if p.hasPrefix("/") { p.removeFirst() }
        segments = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// Whether `relativePath` (a file, relative to the root) or a folder above it matches.
    public func matches(_ relativePath: String) -> Bool {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if segments.isEmpty { return false }
        if !anchored {
            return parts.contains { Self.match(segment: segments[0], $0) }
        }
        // Anchored: the pattern matches the path or one of its folders.
        for end in stride(from: parts.count, through: 1, by: -1) where Self.match(segments[...], parts[..<end]) {
            return true
        }
        return false
    }

    private static func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return parts.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            var p = parts
            while true {
                if match(rest, p) { return true }
                guard !p.isEmpty else { return false }
                p = p.dropFirst()
            }
        }
        guard let part = parts.first, match(segment: first, part) else { return false }
        return match(pattern.dropFirst(), parts.dropFirst())
    }

    /// One segment against one name: `*`, `?` and `[…]`.
    static func match(segment: String, _ name: String) -> Bool {
        let p = Array(segment.unicodeScalars), s = Array(name.unicodeScalars)
        var memo: [Int: Bool] = [:]
        func go(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let m = memo[key] { return m }
            var r: Bool
            if i == p.count {
                r = j == s.count
            } else if p[i] == "*" {
                r = go(i + 1, j) || (j < s.count && go(i, j + 1))
            } else if j == s.count {
                r = false
            } else if p[i] == "?" {
                r = go(i + 1, j + 1)
            } else if p[i] == "[", let close = p[(i + 1)...].firstIndex(of: "]"), close > i + 1 {
                var set = p[(i + 1)..<close]
                let negated = set.first == "!" || set.first == "^"
                if negated { set = set.dropFirst() }
                var inSet = false
                var k = set.startIndex
                while k < set.endIndex {
                    if k + 2 < set.endIndex, set[k + 1] == "-" {
                        if (set[k].value...set[k + 2].value).contains(s[j].value) { inSet = true }
                        k += 3
                    } else {
                        if set[k] == s[j] { inSet = true }
                        k += 1
                    }
                }
                r = inSet != negated && go(close + 1, j + 1)
            } else {
                r = p[i] == s[j] && go(i + 1, j + 1)
            }
            memo[key] = r
            return r
        }
        return go(0, 0)
    }
}
