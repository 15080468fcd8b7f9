import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel

/// Link patterns, URLs and matching, as the language guide states them (docs/language.md#links).
@Suite struct LinkPatternTests {
    func problem(_ text: String) -> String? {
        if case .failure(let problem) = LinkPattern.parse(text) { return problem.message }
        return nil
    }

    @Test func segmentsPlaceholdersAndQueryItems() throws {
        let pattern = try LinkPattern.parse("/items/{id}/settings?tab={tab}&ref={ref?}").get()
        #expect(pattern.segments.count == 3)
        #expect(pattern.segments[0] == .literal("items"))
        if case .placeholder(let name, let at) = pattern.segments[1] {
            #expect(name == "id")
            #expect(at == 8..<10)
        } else {
            Issue.record("not a placeholder")
        }
        #expect(pattern.query.map(\.key) == ["tab", "ref"])
        #expect(pattern.query.map(\.isOptional) == [false, true])
        #expect(pattern.placeholders == ["id", "tab", "ref"])
        #expect(pattern.requiredQueryCount == 1)
        #expect(try LinkPattern.parse("/").get().segments.isEmpty)
        #expect(try LinkPattern.parse("/café/.././x").get().segments == [.literal("café"), .literal(".."), .literal("."), .literal("x")])
    }

    @Test(arguments: [
        ("items", "starts with `/`"),
        ("", "starts with `/`"),
        ("/items//x", "empty segment"),
        ("/items/", "does not end with `/`"),
        ("/items?", "no query item"),
        ("/items?a={a}&", "empty"),
        ("/items?a={a}&a={b}", "given twice"),
        ("/items?ref=home", "literal value"),
        ("/items/%20", "no `%`"),
        ("/items/{id", "not closed"),
        ("/items/{id}/{id}", "named twice"),
        ("/items?a={x}&b={x}", "named twice"),
        ("/items/{id?}", "query item's"),
        ("/items/a{id}", "braces are not literal text"),
        ("/items/{id}x", "whole segment"),
        ("/it ems", "whitespace"),
        ("/items/{}", "has a name"),
        ("/a#b", "`#`"),
    ])
    func aMalformedPatternIsOneProblem(_ text: String, _ words: String) {
        let message = problem(text)
        #expect(message?.contains(words) == true, "\(text): \(message ?? "no problem")")
    }
}

@Suite struct LinkURLTests {
    func parts(_ text: String) -> ([String], [String: String])? {
        guard case .success(let url) = LinkURL.parse(text) else { return nil }
        return (url.segments, url.query)
    }

    @Test func schemesHostsAndPaths() {
        #expect(parts("myapp://items/3")?.0 == ["items", "3"])
        #expect(parts("MyApp://Items/3")?.0 == ["items", "3"])
        #expect(parts("https://example.com/items/3")?.0 == ["items", "3"])
        #expect(parts("HTTPS://EXAMPLE.com/Items/3")?.0 == ["Items", "3"])
        #expect(parts("/items/3")?.0 == ["items", "3"])
        #expect(parts("/items//3/")?.0 == ["items", "3"])
        #expect(parts("myapp://")?.0 == [])
        #expect(parts("https://example.com")?.0 == [])
        #expect(parts("/items/a%2Fb")?.0 == ["items", "a/b"])
        #expect(parts("/items/a+b")?.0 == ["items", "a+b"])
        #expect(parts("/caf%C3%A9#top")?.0 == ["café"])
    }

    @Test func queries() {
        #expect(parts("/s?q=a%20b&page=2")?.1 == ["q": "a b", "page": "2"])
        #expect(parts("/s?q=first&q=second")?.1 == ["q": "first"])
        #expect(parts("/s?q=&q=second")?.1 == [:])
        #expect(parts("/s?flag")?.1 == [:])
        #expect(parts("/s?a=1#frag=2")?.1 == ["a": "1"])
    }

    @Test(arguments: ["/items/%2", "/items/%zz", "/items/%FF", "/s?q=%C3"])
    func aBrokenEscapeMatchesNothing(_ text: String) {
        #expect(parts(text) == nil)
    }
}

@Suite struct LinkMatcherTests {
    func link(_ name: String, _ pattern: String, _ types: [String: PlaceholderType] = [:]) throws -> TypedLink {
        TypedLink(name: name, pattern: try LinkPattern.parse(pattern).get(), types: types)
    }

    func url(_ text: String) throws -> LinkURL { try LinkURL.parse(text).get() }

    @Test func typedPlaceholdersParseExactlyTheirGrammar() {
        #expect(PlaceholderType.int.accepts("-42"))
        #expect(!PlaceholderType.int.accepts("+5"))
        #expect(!PlaceholderType.int.accepts("9223372036854775808"))
        #expect(PlaceholderType.int.accepts("9223372036854775807"))
        #expect(PlaceholderType.double.accepts("3") && PlaceholderType.double.accepts("-3.25"))
        #expect(!PlaceholderType.double.accepts("1e5") && !PlaceholderType.double.accepts(".5") && !PlaceholderType.double.accepts("5."))
        #expect(PlaceholderType.bool.accepts("true") && !PlaceholderType.bool.accepts("TRUE"))
        #expect(PlaceholderType.of(swiftType: "Int?") == .int)
        #expect(PlaceholderType.of(swiftType: "Product.ID") == .other("Product.ID"))
    }

    @Test func theMostSpecificLinksWin() throws {
        let links = [
            try link("item", "/items/{id}", ["id": .int]),
            try link("slug", "/items/{slug}", ["slug": .string]),
            try link("new", "/items/new"),
            try link("search", "/search?q={q}&page={page?}", ["q": .string, "page": .int]),
            try link("searchAll", "/search"),
        ]
        #expect(LinkMatcher.winners(links, try url("/items/3")) == [0])
        #expect(LinkMatcher.winners(links, try url("/items/new")) == [2])
        #expect(LinkMatcher.winners(links, try url("myapp://items/shoes")) == [1])
        #expect(LinkMatcher.winners(links, try url("/search?q=a")) == [3])
        #expect(LinkMatcher.winners(links, try url("/search?q=a&page=x")) == [4])
        #expect(LinkMatcher.winners(links, try url("/search")) == [4])
        guard case .match(let values) = LinkMatcher.match(links[3], try url("/search?page=2&q=a%20b")) else {
            Issue.record("no match")
            return
        }
        #expect(values == ["q": "a b", "page": "2"])
    }

    @Test func aLinkThatDoesNotMatchSaysWhy() throws {
        let item = try link("item", "/items/{id}/settings?tab={tab}", ["id": .int, "tab": .string])
        func reason(_ text: String) throws -> String? {
            if case .noMatch(let why) = LinkMatcher.match(item, try url(text)) { return why }
            return nil
        }
        #expect(try reason("/items/3")?.contains("3 segments, the URL 2") == true)
        #expect(try reason("/items/x/settings?tab=a")?.contains("segment 2, `x`, is not an `Int`") == true)
        #expect(try reason("/items/3/prefs?tab=a")?.contains("segment 3 is `prefs`, not `settings`") == true)
        #expect(try reason("/items/3/settings")?.contains("`tab` is missing") == true)
        #expect(try reason("/items/3/settings?tab=a") == nil)
    }
}

/// `ambiguous-link` and `shadowed-link` decide over every URL: checked against every URL of
/// a finite alphabet of segments and query values that holds a member of every class.
@Suite struct LinkOverlapTests {
    static let segmentAlphabet = ["a", "b", "0", "7", "-1", "9223372036854775808", "1.5", "2.5", "true", "false", "x"]
    static let queryAlphabet: [String?] = [nil, "0", "1.5", "true", "false", "x", "9223372036854775808"]

    /// Every URL of the alphabet with `length` segments and the given query keys.
    static func urls(length: Int, keys: [String]) -> [LinkURL] {
        var paths: [[String]] = [[]]
        for _ in 0..<length { paths = paths.flatMap { p in segmentAlphabet.map { p + [$0] } } }
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

    static func randomLinks(_ random: inout SplitMix64) -> [TypedLink] {
        let types: [PlaceholderType] = [.int, .double, .bool, .string, .other("Item.ID")]
        let literals = ["a", "b", "0", "true", "1.5"]
        let length = 1 + random.below(2)
        return (0..<(2 + random.below(4))).map { index in
            var text = ""
            var placeholderTypes: [String: PlaceholderType] = [:]
            for position in 0..<length {
                if random.below(2) == 0 {
                    text += "/" + literals[random.below(literals.count)]
                } else {
                    text += "/{p\(position)}"
                    placeholderTypes["p\(position)"] = types[random.below(types.count)]
                }
            }
            var items: [String] = []
            for key in ["k", "m"] where random.below(3) == 0 {
                let optional = random.below(2) == 0
                items.append("\(key)={q\(key)\(optional ? "?" : "")}")
                placeholderTypes["q\(key)"] = types[random.below(types.count)]
            }
            if !items.isEmpty { text += "?" + items.joined(separator: "&") }
            return TypedLink(name: "l\(index)", pattern: try! LinkPattern.parse(text).get(), types: placeholderTypes)
        }
    }

    @Test(arguments: UInt64(0)..<300)
    func theSearchAgreesWithEveryURLOfAFiniteAlphabet(_ seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let links = Self.randomLinks(&random)
        let found = LinkOverlap.analyse(links)
        var everWinning = Set<Int>()
        var tied = Set<[Int]>()
        for length in Set(links.map(\.pattern.segments.count)) {
            for url in Self.urls(length: length, keys: ["k", "m"]) {
                let winners = LinkMatcher.winners(links, url)
                everWinning.formUnion(winners)
                for (i, a) in winners.enumerated() { for b in winners[(i + 1)...] { tied.insert([a, b]) } }
            }
        }
        let shadowed = Set(links.indices.filter { !everWinning.contains($0) })
        #expect(Set(found.shadowed.keys) == shadowed, "\(links.map { $0.pattern })")
        #expect(Set(found.ties.map { [$0.first, $0.second] }) == tied, "\(links.map { $0.pattern })")
        // Each tie's URL has both links among its winners.
        for tie in found.ties {
            let url = try! LinkURL.parse(tie.url).get()
            let winners = LinkMatcher.winners(links, url)
            #expect(winners.contains(tie.first) && winners.contains(tie.second), "\(tie.url)")
        }
    }
}
