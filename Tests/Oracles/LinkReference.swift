import RoutesAnalysis
import RoutesModel

/// The brute-force reference for `shadowed-link` and `ambiguous-link`: the winners of every
/// URL of a finite alphabet of segments and query values, which holds a member of every
/// class a link's condition on a value can tell apart (see `LinkOverlap`) once it holds the
/// links' own literals. The reference of the overlap tests (`LinkOverlapTests`) and of the
/// fuzz target `fuzz-analysis` (its link oracle).
public enum LinkReference {
    /// One value of each class the placeholder types tell apart, and literals.
    public static let segmentAlphabet = ["a", "b", "0", "7", "-1", "9223372036854775808", "1.5", "2.5", "true", "false", "x"]
    /// Absent, and one value of each class.
    public static let queryAlphabet: [String?] = [nil, "0", "1.5", "true", "false", "x", "9223372036854775808"]

    /// Every URL with `length` segments of `alphabet`, and each of `keys` absent or with a
    /// value of the query alphabet.
    public static func urls(length: Int, keys: [String], alphabet: [String] = segmentAlphabet) -> [LinkURL] {
        var paths: [[String]] = [[]]
        for _ in 0..<length { paths = paths.flatMap { p in alphabet.map { p + [$0] } } }
        var queries: [[String: String]] = [[:]]
        for key in keys {
            queries = queries.flatMap { q in queryAlphabet.map { value in
                var next = q
                if let value { next[key] = value }
                return next
            } }
        }
        return paths.flatMap { p in queries.map { LinkURL(segments: p, query: $0) } }
    }

    /// The links no URL has among its winners, and the pairs (by index, increasing) some
    /// URL has both among them: by enumeration of every URL of the alphabet with the links'
    /// literals added. Nil when that is more than `limit` URLs.
    public static func overlaps(_ links: [TypedLink], limit: Int = 50_000) -> (shadowed: Set<Int>, ties: Set<[Int]>)? {
        var alphabet = segmentAlphabet
        var keys: [String] = []
        for link in links {
            for case .literal(let literal) in link.pattern.segments where !alphabet.contains(literal) { alphabet.append(literal) }
            for item in link.pattern.query where !keys.contains(item.key) { keys.append(item.key) }
        }
        let lengths = Set(links.map(\.pattern.segments.count))
        var count = 0
        for length in lengths {
            var urls = 1
            for _ in 0..<length { urls = urls.multipliedReportingOverflow(by: alphabet.count).partialValue }
            for _ in keys { urls = urls.multipliedReportingOverflow(by: queryAlphabet.count).partialValue }
            count += urls
            if urls <= 0 || count > limit { return nil }
        }
        var everWinning = Set<Int>()
        var ties = Set<[Int]>()
        for length in lengths {
            for url in urls(length: length, keys: keys, alphabet: alphabet) {
                let winners = LinkMatcher.winners(links, url)
                everWinning.formUnion(winners)
                for (i, a) in winners.enumerated() { for b in winners[(i + 1)...] { ties.insert([a, b]) } }
            }
        }
        return (Set(links.indices.filter { !everWinning.contains($0) }), ties)
    }
}
