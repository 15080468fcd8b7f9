import RoutesModel

/// What a placeholder's value must be to match, by the Swift type of the parameter it fills
/// (`T` and `T?` alike): exactly these grammars, in the tools and in generated code.
public enum PlaceholderType: Sendable, Hashable {
    /// `-?[0-9]+`, within 64 bits.
    case int
    /// `-?[0-9]+(\.[0-9]+)?`.
    case double
    /// `true` or `false`.
    case bool
    /// Any non-empty segment.
    case string
    /// Any non-empty segment: a type the tools cannot parse statically (the generated code
    /// parses it, through `LosslessStringConvertible`; failing there means no match).
    case other(String)

    /// The type of a parameter declared with this Swift type.
    public static func of(swiftType: String) -> PlaceholderType {
        var type = Substring(swiftType.trimmingWhitespace)
        while let last = type.last, last == "?" || last == "!" { type = type.dropLast() }
        if type.hasPrefix("Swift.") { type = type.dropFirst(6) }
        switch type {
        case "Int": return .int
        case "Double": return .double
        case "Bool": return .bool
        case "String": return .string
        default: return .other(String(type))
        }
    }

    /// Whether it ranks as a typed placeholder (above `String` and the others).
    public var isTyped: Bool {
        switch self {
        case .int, .double, .bool: return true
        case .string, .other: return false
        }
    }

    /// The type as the messages name it.
    public var name: String {
        switch self {
        case .int: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .string: return "String"
        case .other(let name): return name
        }
    }

    /// Whether a (decoded, non-empty) value parses as this type.
    public func accepts(_ value: String) -> Bool {
        switch self {
        case .int: return Self.isInteger(value) && Int64(value) != nil
        case .double: return Self.isDecimal(value) && Double(value)?.isFinite == true
        case .bool: return value == "true" || value == "false"
        case .string, .other: return !value.isEmpty
        }
    }

    /// `-?[0-9]+`.
    static func isInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `-?[0-9]+(\.[0-9]+)?`.
    static func isDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard isInteger(String(parts[0])) else { return false }
        guard parts.count == 2 else { return true }
        return !parts[1].isEmpty && parts[1].utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}

/// A link ready to match: its pattern, and the type of each placeholder (by the parameter it
/// fills; see `PlaceholderType`).
public struct TypedLink: Sendable, Hashable {
    /// The fields, held by reference: typed links are copied into each program's tables and
    /// into the overlap search, and a copy is then one retain. Never written once made.
    private final class Storage: Sendable {
        let name: String
        /// The pattern; nil for a link read from its line (`line`), whose pattern is parsed
        /// from the line's bytes when asked (a lint's thousands of links are asked for their
        /// segments only, which `forEachSegment` reads from the bytes).
        let parsed: LinkPattern?
        let line: LinkDeclaration?
        /// By placeholder, in the order of `pattern.placeholders`.
        let types: [PlaceholderType]

        init(name: String, parsed: LinkPattern?, line: LinkDeclaration?, types: [PlaceholderType]) {
            self.name = name
            self.parsed = parsed
            self.line = line
            self.types = types
        }
    }
    private let storage: Storage

    public var name: String { storage.name }
    /// The pattern (parsed again at each call for a link read from its line).
    public var pattern: LinkPattern { storage.parsed ?? storage.line!.parsedPattern! }

    /// A link whose placeholders are of `types` (`.string` for one it does not name).
    public init(name: String, pattern: LinkPattern, types: [String: PlaceholderType]) {
        storage = Storage(name: name, parsed: pattern, line: nil, types: pattern.placeholders.map { types[$0] ?? .string })
    }

    /// A link whose placeholders, in the order of `pattern.placeholders`, are of `types`.
    init(name: String, pattern: LinkPattern, typesInOrder types: [PlaceholderType]) {
        precondition(types.count == pattern.placeholders.count, "a type per placeholder")
        storage = Storage(name: name, parsed: pattern, line: nil, types: types)
    }

    /// The link read from its line (`LinkDeclaration.isReadFromLine`), whose pattern parses,
    /// with its placeholders (in the order of `pattern.placeholders`) of `types`: it holds no
    /// pattern.
    init(name: String, line: LinkDeclaration, typesInOrder types: [PlaceholderType]) {
        precondition(line.isReadFromLine, "a line-read link")
        storage = Storage(name: name, parsed: nil, line: line, types: types)
    }

    public static func == (a: TypedLink, b: TypedLink) -> Bool {
        a.storage === b.storage || (a.name == b.name && a.pattern == b.pattern && a.storage.types == b.storage.types)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(pattern)
        hasher.combine(storage.types)
    }

    public func type(of placeholder: String) -> PlaceholderType { Read(self).type(of: placeholder) }

    /// The type of the placeholder at `index` of `pattern.placeholders`.
    func type(at index: Int) -> PlaceholderType { storage.types[index] }

    /// Calls `body` with each segment of the pattern, in order: a literal's bytes, or nil and
    /// the position of a placeholder in `pattern.placeholders` (without parsing the pattern of
    /// a link read from its line).
    func forEachSegment(_ body: (UnsafeBufferPointer<UInt8>?, Int) -> Void) {
        if let line = storage.line {
            var placeholder = 0
            let read = line.forEachPatternSegment { literal in
                if let literal {
                    body(literal, -1)
                } else {
                    body(nil, placeholder)
                    placeholder += 1
                }
            }
            precondition(read, "a line-read link")
            return
        }
        let pattern = storage.parsed!
        for segment in pattern.segments {
            switch segment {
            case .literal(var text):
                text.withUTF8 { body($0, -1) }
            case .placeholder(let name, _):
                body(nil, pattern.placeholders.firstIndex(of: name) ?? -1)
            }
        }
    }

    /// The pattern and the placeholders' types, read once (parsed, for a link read from its
    /// line): what a search over a few links asks many times.
    struct Read {
        let pattern: LinkPattern
        let types: [PlaceholderType]

        init(_ link: TypedLink) {
            pattern = link.pattern
            types = link.storage.types
        }

        func type(of placeholder: String) -> PlaceholderType {
            // (A pattern has a few placeholders: a scan.)
            let placeholders = pattern.placeholders
            for index in placeholders.indices where placeholders[index] == placeholder { return types[index] }
            return .string
        }
    }

    /// How specific the link is: segment by segment from the left, a literal (2) beats a
    /// typed placeholder (1), which beats any other placeholder (0); then more required query
    /// items beat fewer. Links of different lengths never match one URL.
    public var specificity: Specificity {
        let read = Read(self)
        return Specificity(ranks: read.pattern.segments.map { segment in
            switch segment {
            case .literal: return 2
            case .placeholder(let name, _): return read.type(of: name).isTyped ? 1 : 0
            }
        }, requiredQueryItems: read.pattern.requiredQueryCount)
    }
}

/// A link's specificity (see `TypedLink.specificity`): compared only between links of one
/// length.
public struct Specificity: Sendable, Hashable, Comparable {
    public var ranks: [Int]
    public var requiredQueryItems: Int

    public static func < (a: Specificity, b: Specificity) -> Bool {
        for index in 0..<min(a.ranks.count, b.ranks.count) where a.ranks[index] != b.ranks[index] { return a.ranks[index] < b.ranks[index] }
        if a.ranks.count != b.ranks.count { return a.ranks.count < b.ranks.count }
        return a.requiredQueryItems < b.requiredQueryItems
    }
}

/// Matching URLs against links (docs/language.md#links), as `routes link`, hover, the link
/// rules and the tests of the generated matcher do: the one implementation.
public enum LinkMatcher {
    /// What matching a URL against one link gives.
    public enum Outcome: Sendable, Hashable {
        /// The value of each placeholder the URL gives (an optional one it leaves out is not
        /// there).
        case match([String: String])
        /// Why it does not match, in words for a person.
        case noMatch(String)
    }

    public static func match(_ link: TypedLink, _ url: LinkURL) -> Outcome {
        // (The pattern read once: a lint's link parses it when asked.)
        let link = TypedLink.Read(link)
        let segments = link.pattern.segments
        guard segments.count == url.segments.count else {
            return .noMatch("it has \(count(segments.count, "segment")), the URL \(url.segments.count)")
        }
        var values: [String: String] = [:]
        for (index, (segment, value)) in zip(segments, url.segments).enumerated() {
            switch segment {
            case .literal(let literal):
                // Scalar by scalar: no Unicode normalization.
                guard Array(literal.unicodeScalars) == Array(value.unicodeScalars) else {
                    return .noMatch("segment \(index + 1) is `\(value)`, not `\(literal)`")
                }
            case .placeholder(let name, _):
                let type = link.type(of: name)
                guard type.accepts(value) else {
                    return .noMatch("segment \(index + 1), `\(value)`, is not \(article(type)) for `{\(name)}`")
                }
                values[name] = value
            }
        }
        for item in link.pattern.query {
            guard let value = url.query[item.key] else {
                if item.isOptional { continue }
                return .noMatch("the query item `\(item.key)` is missing")
            }
            let type = link.type(of: item.placeholder)
            guard type.accepts(value) else {
                return .noMatch("the query item `\(item.key)`, `\(value)`, is not \(article(type)) for `{\(item.placeholder)\(item.isOptional ? "?" : "")}`")
            }
            values[item.placeholder] = value
        }
        return .match(values)
    }

    /// The winners of a URL among `links`: the matching links of greatest specificity (by
    /// index, in order). Two or more: the URL is ambiguous.
    public static func winners(_ links: [TypedLink], _ url: LinkURL) -> [Int] {
        var best: Specificity? = nil
        var winners: [Int] = []
        for (index, link) in links.enumerated() {
            guard case .match = match(link, url) else { continue }
            let specificity = link.specificity
            if best == nil || best! < specificity {
                best = specificity
                winners = [index]
            } else if specificity == best! {
                winners.append(index)
            }
        }
        return winners
    }

    private static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    private static func article(_ type: PlaceholderType) -> String {
        switch type {
        case .int: return "an `Int`"
        case .double: return "a `Double`"
        case .bool: return "a `Bool` (`true` or `false`)"
        case .string: return "a `String`"
        case .other(let name): return "a `\(name)`"
        }
    }
}
