import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import Oracles

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

    /// A delimiter followed by a combining mark still delimits: the URL is read scalar by
    /// scalar, not by `Character` (which holds `/` and the mark as one).
    @Test func delimitersBeforeCombiningMarks() {
        #expect(parts("myapp://s/\u{301}x")?.0 == ["s", "\u{301}x"])
        #expect(parts("/s/x#\u{301}")?.0 == ["s", "x"])
        #expect(parts("/s/x?\u{301}")?.0 == ["s", "x"])
        #expect(parts("/s/x?\u{301}")?.1 == [:])
        #expect(parts("/s?k=x&\u{301}=1")?.1 == ["k": "x", "\u{301}": "1"])
        #expect(parts("/s?k=\u{301}")?.1 == ["k": "\u{301}"])
        #expect(parts("myapp://\u{600}/x")?.0 == ["\u{600}", "x"])
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
        // Within a Double's range: a number of 400 digits would be infinite.
        #expect(!PlaceholderType.double.accepts("1" + String(repeating: "0", count: 400)))
        #expect(PlaceholderType.double.accepts("1" + String(repeating: "0", count: 300)))
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
        guard let (shadowed, tied) = LinkReference.overlaps(links) else {
            Issue.record("too many URLs to enumerate")
            return
        }
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

/// Patterns and URLs of any bytes get a clear error or no match, never a crash or a hang.
@Suite struct LinkBadInputTests {
    /// Text of random bytes, control characters, `%`, `{`, `/`, `?` and bytes that are no
    /// UTF-8 among them (as the lexer hands a pattern over: repaired).
    static func randomText(_ random: inout SplitMix64, length: Int) -> String {
        let alphabet: [UInt8] = Array("/{}?&=%#:._-aZ09".utf8) + [0x00, 0x09, 0x0A, 0x7F, 0xC3, 0xA9, 0xFF, 0x80]
        let bytes = (0..<length).map { _ in random.below(4) == 0 ? UInt8(truncatingIfNeeded: random.next()) : alphabet[random.below(alphabet.count)] }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func patternsOfAnyBytesParseOrSayWhereTheyAreWrong() {
        var random = SplitMix64(seed: 20261202)
        var failures = 0
        for round in 0..<5_000 {
            let text = Self.randomText(&random, length: 1 + random.below(40))
            switch LinkPattern.parse(text) {
            case .success(let pattern):
                #expect(!pattern.segments.contains { if case .literal(let s) = $0 { return s.isEmpty } else { return false } }, "round \(round)")
            case .failure(let problem):
                failures += 1
                #expect(!problem.message.isEmpty)
                #expect(problem.range.lowerBound >= 0 && problem.range.upperBound <= max(text.utf8.count, 1), "round \(round): \(problem)")
            }
        }
        #expect(failures > 1_000)
    }

    @Test func urlsOfAnyBytesMatchOrSayWhyNot() throws {
        var random = SplitMix64(seed: 7)
        let links = [
            TypedLink(name: "item", pattern: try LinkPattern.parse("/items/{id}").get(), types: ["id": .int]),
            TypedLink(name: "any", pattern: try LinkPattern.parse("/{a}/{b}?q={q?}").get(), types: [:]),
        ]
        var broken = 0, matched = 0
        for _ in 0..<5_000 {
            let text = Self.randomText(&random, length: random.below(40))
            switch LinkURL.parse(text) {
            case .success(let url):
                if !LinkMatcher.winners(links, url).isEmpty { matched += 1 }
            case .failure(let problem):
                broken += 1
                #expect(!problem.message.isEmpty)
            }
        }
        #expect(broken > 100 && matched > 10, "\(broken) broken, \(matched) matched")
    }

    /// 64 KiB of segments, in a URL and in patterns: no match, or a pattern judged (overlaps
    /// included) like any other.
    @Test func sixtyFourKiBOfSegments() throws {
        let many = String(repeating: "/a", count: 32_768)
        let url = try LinkURL.parse(many).get()
        #expect(url.segments.count == 32_768)
        let item = TypedLink(name: "item", pattern: try LinkPattern.parse("/items/{id}").get(), types: ["id": .int])
        #expect(LinkMatcher.winners([item], url).isEmpty)
        #expect(LinkURL.parse(String(repeating: "/%", count: 32_768)).isFailure)
        let long = TypedLink(name: "long", pattern: try LinkPattern.parse(many).get(), types: [:])
        let wide = TypedLink(name: "wide", pattern: try LinkPattern.parse(String(repeating: "/{p}", count: 1) + String(many.dropFirst(2))).get(), types: [:])
        #expect(LinkMatcher.winners([long, wide], url) == [0])
        let overlap = LinkOverlap.analyse([wide, long])
        #expect(overlap.shadowed.isEmpty && overlap.ties.isEmpty)
        #expect(LinkOverlap.analyse([long, long]).ties.count == 1)
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
