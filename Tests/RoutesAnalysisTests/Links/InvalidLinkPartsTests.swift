@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing
import TestSupport

/// `InvalidLink.check` judges a link read from its line (a lint's) from the line's parts first
/// (`PartsCheck`), and the rest as a link that holds its path. Over random plain lines, with
/// every kind of mistake the rule finds, the two ways must find the same diagnostics and the
/// same placeholder types.
@Suite struct InvalidLinkPartsTests {
    static let screens = """
        screen A(id: Int, tab: String)
        screen B
        screen C(q: String?, n: Double, on: Bool)
        screen D(id: Int?, page: Int)
        screen E(x: Product.ID, small: UInt8)
        screen F(id: String)

        """

    /// Judges each link of `text` both ways (read from its line, and as the parse token by
    /// token lowers it); returns how many the parts vouched for and how many they left.
    static func judge(_ text: String, name: String) -> (vouched: Int, left: Int) {
        let bytes = Array(text.utf8)
        let full = Lowering.lower(SyntaxTree.parse(SourceText(bytes: bytes)))
        let lined = Lowering.lower(SyntaxTree.parse(SourceText(bytes: bytes), readingLinkLines: true))
        var counts = (vouched: 0, left: 0)
        for (x, y) in zip(full.declarations, lined.declarations) {
            guard let written = x.link, let read = y.link else { continue }
            let parameters: [[Parameter]?] = written.path.map { element in
                full.declarations.first { $0.kind == .screen && $0.name.text == element.screen.text }?.parameters
            }
            var typesWritten: [String?] = [], typesRead: [String?] = []
            var uses: InvalidLink.Uses = []
            let fromFields = InvalidLink.check(written, parsed: written.parsed, file: 0, parameters: parameters,
                                               filledTypes: &typesWritten, filled: &uses)
            let fromParts = InvalidLink.check(read, parsed: read.parsed, file: 0, parameters: parameters,
                                              filledTypes: &typesRead, filled: &uses)
            #expect(fromFields == fromParts, "\(name): \(x.name.text)'s diagnostics")
            #expect(typesWritten == typesRead, "\(name): \(x.name.text)'s placeholder types")
            #expect(InvalidLink.vouch(written, parameters: parameters) == nil && written.withLineParts { _, _ in true } == nil)
            guard read.isReadFromLine else { continue }
            Self.checkPlaceholders(read, name: "\(name): \(x.name.text)")
            // Whether the parts vouch for it: then the whole check finds nothing, and the same
            // types.
            guard case .success(let pattern)? = read.parsed else { continue }
            Self.checkSegments(read, pattern: pattern, name: "\(name): \(x.name.text)")
            if let vouched = InvalidLink.vouch(read, parameters: parameters) {
                counts.vouched += 1
                #expect(fromFields.isEmpty && vouched == typesWritten, "\(name): \(x.name.text) vouched for")
            } else {
                counts.left += 1
            }
        }
        return counts
    }

    /// A line-read link's segments read from its bytes are its pattern's, and a typed link
    /// that holds no pattern answers as one that holds it.
    static func checkSegments(_ link: LinkDeclaration, pattern: LinkPattern, name: String) {
        var fromBytes: [String?] = []
        #expect(link.forEachPatternSegment { fromBytes.append($0.map { String(decoding: $0, as: UTF8.self) }) })
        let parsed: [String?] = pattern.segments.map { if case .literal(let text) = $0 { return text } else { return nil } }
        #expect(fromBytes == parsed, "\(name): segments")
        let types: [PlaceholderType] = pattern.placeholders.indices.map { [.int, .string, .double, .bool][$0 % 4] }
        let held = TypedLink(name: "l", pattern: pattern, typesInOrder: types)
        let lazy = TypedLink(name: "l", line: link, typesInOrder: types)
        #expect(held == lazy && lazy == held && held.hashValue == lazy.hashValue && lazy.pattern == pattern, "\(name): typed")
        #expect(held.specificity == lazy.specificity, "\(name): specificity")
        func segments(_ link: TypedLink) -> [String] {
            var out: [String] = []
            link.forEachSegment { literal, placeholder in
                out.append(literal.map { "literal " + String(decoding: $0, as: UTF8.self) } ?? "placeholder \(placeholder) \(link.type(at: placeholder))")
            }
            return out
        }
        #expect(segments(held) == segments(lazy), "\(name): typed segments")
        for placeholder in pattern.placeholders { #expect(held.type(of: placeholder) == lazy.type(of: placeholder)) }
    }

    /// The placeholders read from a line-read link's pattern without parsing it are the parsed
    /// pattern's, in order, with their optionality; none are read from a pattern that does
    /// not parse.
    static func checkPlaceholders(_ link: LinkDeclaration, name: String) {
        let read = link.placeholderNamesInLine
        guard case .success(let pattern)? = link.parsed else {
            #expect(read == nil, "\(name): placeholders read from a pattern that does not parse")
            return
        }
        guard let read else {
            Issue.record("\(name): the placeholders of \(pattern) were not read")
            return
        }
        let text = link.sourceRange(ofPatternBytes: 0..<0).lowerBound
        #expect(read.map { $0.name.lowerBound - text } == pattern.placeholderRanges.sorted { $0.range.lowerBound < $1.range.lowerBound }.map(\.range.lowerBound)
                && read.map(\.name.count) == pattern.placeholders.map(\.utf8.count)
                && read.map(\.isOptional) == pattern.placeholders.map { pattern.isOptional($0) }, "\(name): placeholders")
    }

    /// Patterns of random pieces, each read from its line: the placeholders read without
    /// parsing agree with the parse, for the patterns that parse and those that do not.
    @Test func placeholdersReadFromTheLineAgreeWithTheParse() {
        var generator = SplitMix64(seed: 0x7061_7474)
        let pieces = ["/", "/", "a", "b1", "{", "}", "{id}", "{id?}", "{q}", "{q?}", "?", "=", "&", "k", "-", ".", "%", "#", "~",
                      "{id", "}", "{9}", "{}", "x=", "&k={q}", "?k={id}", "?a={q?}&b={id}", "{_x}", "!", "(", ")", "'"]
        var parsed = 0, malformed = 0
        for round in 0..<3_000 {
            var pattern = generator.below(4) == 0 ? "" : "/"
            for _ in 0..<(generator.below(8)) { pattern += pieces[generator.below(pieces.count)] }
            let text = Self.screens + "link a \"\(pattern)\" -> B\nroot { screen B }\n"
            let model = Lowering.lower(SyntaxTree.parse(SourceText(bytes: Array(text.utf8)), readingLinkLines: true))
            guard let link = model.declarations.first(where: { $0.kind == .link })?.link, link.isReadFromLine else { continue }
            Self.checkPlaceholders(link, name: "round \(round): \(pattern)")
            if case .success? = link.parsed { parsed += 1 } else { malformed += 1 }
        }
        #expect(parsed > 300 && malformed > 300, "\(parsed) parsed, \(malformed) malformed")
    }

    @Test func thePartsJudgeRandomLinksAsTheWholeCheck() {
        var generator = SplitMix64(seed: 0x7061_7274)
        let patterns = ["/p/{id}", "/p/{id}/{tab}", "/p?q={q?}", "/p/{id}?q={q?}&t={tab}", "/p/{id}/x/{n}", "/p/{x}/{small}",
                        "/p", "/p/{id}/{id}", "/p//x", "/p/{on}?page={page}", "/"]
        let labels = ["id", "tab", "q", "n", "on", "page", "x", "small", "other"]
        let values = ["id", "tab", "q", "n", "on", "page", "x", "small", "zz", "1", "-2", "2.5", "300", "true", "false", "\"s\"", "\"\""]
        let declared: [String: [String]] = ["A": ["id", "tab"], "B": [], "C": ["q", "n", "on"], "D": ["id", "page"],
                                            "E": ["x", "small"], "F": ["id"], "Z": []]
        var total = (vouched: 0, left: 0)
        for round in 0..<1_500 {
            var text = Self.screens
            for index in 0..<(1 + generator.below(4)) {
                var elements: [String] = []
                var used: [String] = []
                for _ in 0..<(1 + generator.below(3)) {
                    let screen = ["A", "B", "C", "D", "E", "F", "Z"][generator.below(7)]
                    // Mostly the declared labels in order, each given a placeholder of the
                    // same name; now and then one changed, dropped, added or swapped.
                    var arguments = declared[screen]!.map { ($0, $0) }
                    switch generator.below(8) {
                    case 0 where !arguments.isEmpty:
                        arguments[generator.below(arguments.count)].1 = values[generator.below(values.count)]
                    case 1 where !arguments.isEmpty:
                        arguments.remove(at: generator.below(arguments.count))
                    case 2:
                        arguments.append((labels[generator.below(labels.count)], values[generator.below(values.count)]))
                    case 3 where arguments.count > 1:
                        arguments.swapAt(0, 1)
                    case 4 where !arguments.isEmpty:
                        arguments[generator.below(arguments.count)].0 = labels[generator.below(labels.count)]
                    default:
                        break
                    }
                    for (_, value) in arguments where value.first!.isLetter && !["true", "false"].contains(value) && !used.contains(value) {
                        used.append(value)
                    }
                    let written = arguments.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
                    elements.append(arguments.isEmpty && generator.below(2) == 0 ? screen : "\(screen)(\(written))")
                }
                // Mostly a pattern of the placeholders the path uses (the last, now and then,
                // an optional query item), else one of the list.
                var pattern = patterns[generator.below(patterns.count)]
                if generator.below(3) != 0 {
                    let optional = !used.isEmpty && generator.below(3) == 0 ? used.removeLast() : nil
                    pattern = "/p" + used.map { "/{\($0)}" }.joined() + (optional.map { "?k={\($0)?}" } ?? "")
                }
                text += "link l\(index) \"\(pattern)\" -> \(elements.joined(separator: "/"))\n"
            }
            text += "root { screen B }\n"
            let counts = Self.judge(text, name: "random \(round): \(text)")
            total.vouched += counts.vouched
            total.left += counts.left
        }
        // Not vacuous: many links are vouched for by their parts, many are left to the
        // whole check.
        #expect(total.vouched > 500)
        #expect(total.left > 500)
    }

    /// Each way out of the plain case, once.
    @Test func eachMistakeIsLeftToTheWholeCheck() {
        let links = [
            "link a \"/p/{id}\" -> A(id: id, tab: \"t\")",
            "link a \"/p/{id}\" -> A(tab: \"t\", id: id)",
            "link a \"/p/{id}\" -> A(id: id)",
            "link a \"/p/{id}\" -> A(id: id, tab: \"t\", more: 1)",
            "link a \"/p/{id}\" -> A(id: id, tab: 1)",
            "link a \"/p/{id}\" -> A(id: zz, tab: \"t\")",
            "link a \"/p/{id}/{tab}\" -> A(id: id, tab: \"t\")",
            "link a \"/p/{id}\" -> A(id: id, tab: id)",
            "link a \"/p?q={q?}\" -> A(id: 1, tab: q)",
            "link a \"/p?q={q?}\" -> C(q: q, n: 1, on: true)",
            "link a \"/p/{id}\" -> E(x: id, small: 300)",
            "link a \"/p/{id}\" -> E(x: id, small: 3)",
            "link a \"/p/{id}\" -> A(id: id, tab: \"t\")/F(id: id)",
            "link a \"/p/{id}\" -> Z(id: id)",
        ]
        var vouched = 0
        for line in links {
            let counts = Self.judge(Self.screens + line + "\nroot { screen B }\n", name: line)
            #expect(counts.vouched + counts.left == 1, "\(line) was not read from its line")
            vouched += counts.vouched
        }
        // The first, `C(q: q, …)`, `E(…, small: 3)`: plain; the rest are not.
        #expect(vouched == 3)
    }
}
