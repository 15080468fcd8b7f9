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
        var trimmed = pattern
        if trimmed.hasSuffix("/") { trimmed.removeLast() }
        anchored = trimmed.contains("/")
        if trimmed.hasPrefix("/") { trimmed.removeFirst() }
        segments = trimmed.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
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
            var remaining = parts
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
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
            if let cached = memo[key] { return cached }
            var result: Bool
            if i == p.count {
                result = j == s.count
            } else if p[i] == "*" {
                result = go(i + 1, j) || (j < s.count && go(i, j + 1))
            } else if j == s.count {
                result = false
            } else if p[i] == "?" {
                result = go(i + 1, j + 1)
            } else if p[i] == "[", let close = p[(i + 1)...].firstIndex(of: "]"), close > i + 1 {
                var set = p[(i + 1)..<close]
                let negated = set.first == "!" || set.first == "^"
                if negated { set = set.dropFirst() }
                var inSet = false
                var index = set.startIndex
                while index < set.endIndex {
                    if index + 2 < set.endIndex, set[index + 1] == "-" {
                        if (set[index].value...set[index + 2].value).contains(s[j].value) { inSet = true }
                        index += 3
                    } else {
                        if set[index] == s[j] { inSet = true }
                        index += 1
                    }
                }
                result = inSet != negated && go(close + 1, j + 1)
            } else {
                result = p[i] == s[j] && go(i + 1, j + 1)
            }
            memo[key] = result
            return result
        }
        return go(0, 0)
    }
}
