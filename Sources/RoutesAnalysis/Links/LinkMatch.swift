import RoutesModel
import RoutesSyntax

/// What a URL opens among a program's links (`routes link`, a preview by URL): its winners,
/// the path of the one that wins with the values the URL gives, or the links that came
/// closest and why each failed.
public struct LinkMatch: Sendable {
    /// The winners, by position in `ProgramLinks.links`: one for a match, several for an
    /// ambiguous URL, none when nothing matches.
    public var winners: [Int] = []
    /// The placeholders' values (as the URL gives them, decoded) of the single winner.
    public var values: [String: String] = [:]
    /// When nothing matches: the links that came closest (at most three), with why each
    /// does not match.
    public var candidates: [(link: Int, reason: String)] = []

    /// The single winner, if there is one.
    public var link: Int? { winners.count == 1 ? winners[0] : nil }
}

/// A value of a path's argument as a link gives it.
public enum LinkPathValue: Sendable, Hashable {
    case string(String)
    /// An `Int` (the text, within 64 bits).
    case integer(Int)
    case decimal(Double)
    case bool(Bool)
    /// An optional query item the URL leaves out.
    case absent

    /// As a literal of a path: `"x"`, `3`, `true`, `nil`.
    public var literal: String {
        switch self {
        case .string(let text): return PathLiteral.quoted(text)
        case .integer(let value): return String(value)
        case .decimal(let value): return PathLiteral.decimal(value)
        case .bool(let value): return value ? "true" : "false"
        case .absent: return "nil"
        }
    }
}

extension ProgramLinks {
    /// What `url` opens.
    public func match(_ url: LinkURL) -> LinkMatch {
        let (typed, positions) = matching
        var result = LinkMatch()
        let winners = LinkMatcher.winners(typed, url)
        result.winners = winners.map { positions[$0] }
        if winners.count == 1, case .match(let values) = LinkMatcher.match(typed[winners[0]], url) {
            result.values = values
        }
        if winners.isEmpty {
            // Closest: the same number of segments first, then the later the failure.
            var scored: [(score: Int, link: Int, reason: String)] = []
            for (index, link) in typed.enumerated() {
                guard case .noMatch(let reason) = LinkMatcher.match(link, url) else { continue }
                let segments = link.pattern.segments.count
                let agreeing = zip(link.pattern.segments, url.segments).prefix { segment, value in
                    if case .literal(let literal) = segment { return literal == value }
                    return true
                }.count
                let score = segments == url.segments.count ? 1000 + agreeing : agreeing - abs(segments - url.segments.count) * 10
                scored.append((score, positions[index], reason))
            }
            // A link with an error takes no part in matching; one whose pattern would take the
            // URL (its literal segments and required query keys there, whatever the types) is
            // the closest of all, and says why it did not match.
            for (position, link) in links.enumerated() where link.typed == nil {
                guard let text = link.declaration.pattern, case .success(let pattern) = LinkPattern.parse(text),
                      pattern.segments.count == url.segments.count,
                      zip(pattern.segments, url.segments).allSatisfy({ segment, value in
                          if case .literal(let literal) = segment { return literal == value }
                          return true
                      }),
                      pattern.query.allSatisfy({ $0.isOptional || url.query[$0.key] != nil }) else { continue }
                scored.append((2000, position, "its pattern takes the URL, but the link has an error (see `routes lint`): a link with an error takes no part in matching"))
            }
            scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.link < $1.link }
            result.candidates = scored.prefix(3).map { ($0.link, $0.reason) }
        }
        return result
    }

    /// The path of link `position` with the placeholders' `values`: per element, its screen
    /// and each argument's label and value.
    public func path(of position: Int, values: [String: String]) -> [(screen: String, arguments: [(label: String, value: LinkPathValue)])] {
        let link = links[position]
        return link.declaration.path.map { element in
            (element.screen.text, element.arguments.map { argument in
                let value: LinkPathValue
                switch argument.value {
                case .string(let text): value = .string(text)
                case .number(let text): value = Int(text).map { .integer($0) } ?? Double(text).map { .decimal($0) } ?? .string(text)
                case .bool(let flag): value = .bool(flag)
                case .placeholder(let name):
                    if let given = values[name.text] {
                        switch link.typed?.type(of: name.text) ?? .string {
                        case .int: value = Int(given).map { .integer($0) } ?? .string(given)
                        case .double: value = Double(given).map { .decimal($0) } ?? .string(given)
                        case .bool: value = .bool(given == "true")
                        case .string, .other: value = .string(given)
                        }
                    } else {
                        value = .absent
                    }
                }
                return (argument.label.text, value)
            })
        }
    }

    /// The path of link `position`, with the placeholders' `values`, resolved under
    /// `environment`; nil when a screen of it does not resolve.
    public func resolve(_ position: Int, values: [String: String], program: Program, project: Project,
                        environment: ProgramEnvironment) -> PathResolution? {
        guard let screens = links[position].screens else { return nil }
        return Resolution.resolve(screens: screens, texts: Self.texts(path(of: position, values: values)), program: program,
                                  project: project, environment: environment)
    }

    /// Each element as a path literal writes it: `Detail(id: 3)`. An optional query item
    /// the URL leaves out is left out (a path literal has no `nil`, and may give any subset
    /// of a screen's arguments).
    public static func texts(_ path: [(screen: String, arguments: [(label: String, value: LinkPathValue)])]) -> [String] {
        path.map { element in
            let given = element.arguments.filter { $0.value != .absent }
            return given.isEmpty ? element.screen
                : element.screen + "(" + given.map { "\($0.label): \($0.value.literal)" }.joined(separator: ", ") + ")"
        }
    }
}

extension LinkDeclaration {
    /// The path as a path literal writes it: `Home/Detail(id: id, tab: "info")`.
    public var pathText: String { elementTexts.joined(separator: "/") }

    /// Each element of the path as written: `Home`, `Detail(id: id, tab: "info")`.
    public var elementTexts: [String] {
        path.map { element in
            guard !element.arguments.isEmpty else { return element.screen.text }
            return element.screen.text + "(" + element.arguments.map { argument in
                let value: String
                switch argument.value {
                case .string(let text): value = PathLiteral.quoted(text)
                case .number(let text): value = text
                case .bool(let flag): value = flag ? "true" : "false"
                case .placeholder(let name): value = name.text
                }
                return "\(argument.label.text): \(value)"
            }.joined(separator: ", ") + ")"
        }
    }
}
