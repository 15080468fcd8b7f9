import RoutesModel
import RoutesSyntax

/// `invalid-link`: a link whose pattern is malformed, or whose path does not say how to make
/// its screens from the URL: a placeholder never used, an argument missing, unknown, given
/// twice or out of order, a placeholder that fills parameters of different types, `{name?}` filling a
/// parameter that is not optional, a literal that does not fit its parameter. Checked for
/// every link of the project, once per analysis (`ProjectLinks`), with its names: a name in
/// the path that is no placeholder of the pattern is `undefined-name`.
public enum InvalidLink: RuleDefinition {
    public static let id = RuleID("invalid-link")
    public static let severity = Severity.error
    public static let category = RuleCategory.links
    public static let summary = "A link's pattern is malformed, or its path does not make its screens from the URL."
    public static let documentation = RuleDocumentation(
        what: """
            A link's pattern that does not parse (an empty segment, a trailing `/`, a `%`, a \
            placeholder left open or named twice, a literal query value), or a path that does \
            not say how to make each of its screens from the URL: every parameter of each \
            screen is named once, in declared order, by a literal that fits it or by a \
            placeholder of the pattern; each placeholder is used, fills parameters of one type, and \
            `{name?}` fills only an optional one. One diagnostic per offending part; a \
            malformed pattern is one diagnostic.
            """,
        why: """
            A URL that matches the pattern could not be turned into the screens of the path: \
            the link would open nothing, or a screen without the values it needs.
            """,
        example: """
            screen Home
            screen Detail(id: Int)
            link item "/items/{id}" -> Home/Detail(identifier: id)
            root { screen Home { screen Detail } }
            """,
        fix: """
            Name each parameter of each screen, in the order the screen declares them, with a \
            placeholder of the pattern or a literal of the parameter's type (here \
            `Detail(id: id)`); fix the pattern where the message points.
            """)

    /// What the check found, for messages and fixes.
    public enum Finding: Sendable, Hashable {
        case malformedPattern(String)
        case unusedPlaceholder(String)
        case unknownLabel(screen: String, label: String, labels: [String])
        case missingArguments(screen: String, labels: [String])
        case outOfOrder(screen: String, label: String, after: String)
        case givenTwice(screen: String, label: String)
        case typeConflict(placeholder: String, types: [String])
        case optionalPlaceholder(placeholder: String, parameter: String, type: String)
        case literalMismatch(label: String, value: String, expected: String)
    }

    public static func message(_ finding: Finding) -> String {
        switch finding {
        case .malformedPattern(let problem):
            return problem
        case .unusedPlaceholder(let name):
            return "the placeholder `{\(name)}` is not used in the link's path: give it to a screen's parameter, or take it out of the pattern"
        case .unknownLabel(let screen, let label, let labels):
            let known = labels.isEmpty ? "`\(screen)` has no parameters" : "its parameters are \(labels.map { "`\($0)`" }.joined(separator: ", "))"
            return "`\(screen)` has no parameter `\(label)`: \(known)"
        case .missingArguments(let screen, let labels):
            return "`\(screen)` needs \(labels.map { "`\($0)`" }.joined(separator: ", ")): a link makes each screen of its path, so it names every parameter"
        case .outOfOrder(let screen, let label, let after):
            return "`\(label)` comes before `\(after)` in `\(screen)`: arguments follow the declared order"
        case .givenTwice(let screen, let label):
            return "argument `\(label)` of `\(screen)` is given twice: a parameter takes one value"
        case .typeConflict(let placeholder, let types):
            return "the placeholder `{\(placeholder)}` fills parameters of different types (\(types.map { "`\($0)`" }.joined(separator: ", "))): one value cannot parse as each"
        case .optionalPlaceholder(let placeholder, let parameter, let type):
            return "`{\(placeholder)?}` may be left out of the URL, but `\(parameter)` is \(type.first.map { "AEIOU".contains($0) } == true ? "an" : "a") `\(type)`, not optional: write `{\(placeholder)}`, or make the parameter optional"
        case .literalMismatch(let label, let value, let expected):
            return "`\(label)` takes \(expected), not \(value)"
        }
    }

    static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding), detail: DiagnosticDetail(finding))
    }

    /// Each use of a placeholder in a link's path: the type of the parameter it fills, in
    /// order (a link has a few: a list, kept from link to link by the caller).
    typealias Uses = [(name: String, type: String, at: Range<Int>)]

    /// For a link read from its line (a lint's thousands are mostly plain): the type of the
    /// first parameter each placeholder of its pattern fills, when `check` would find nothing
    /// in it, judged from the line's parts without parsing its pattern or making its path
    /// (`PartsCheck`); nil when that cannot vouch for it (then parse it and `check` it).
    static func vouch(_ link: LinkDeclaration, parameters: [[Parameter]?]) -> [String?]? {
        guard let placeholders = link.placeholderNamesInLine else { return nil }
        return link.withLineParts { PartsCheck.types(bytes: $0, parts: &$1, parameters: parameters, placeholders: placeholders) } ?? nil
    }

    /// The `invalid-link` and `undefined-name` diagnostics of link `s`, whose pattern parsed
    /// is `parsed` (nil without a pattern), and the parameters of the screen of each element
    /// of whose path (by position) `parameters` gives (nil for a name that is not a screen:
    /// the project reports it). `filledTypes` gets, per placeholder of the pattern (in order),
    /// the Swift type of the first parameter it fills (nil for one that fills none); `filled`
    /// is room for the uses of the placeholders (emptied first).
    static func check(_ link: LinkDeclaration, parsed: Result<LinkPattern, LinkPattern.Problem>?, file: FileID,
                      parameters: [[Parameter]?], filledTypes: inout [String?], filled: inout Uses) -> [Diagnostic] {
        filledTypes.removeAll(keepingCapacity: true)
        filled.removeAll(keepingCapacity: true)
        guard let parsed else { return [] }
        let pattern: LinkPattern
        switch parsed {
        case .failure(let problem):
            return [diagnostic(.malformedPattern(problem.message), file: file, range: link.sourceRange(ofPatternBytes: problem.range))]
        case .success(let parsed):
            pattern = parsed
        }
        var namesUndefinedPlaceholder = false
        var found: [Diagnostic] = []
        let placeholders = pattern.placeholders
        for (position, element) in link.path.enumerated() {
            guard let declared = parameters[position] else { continue }
            // Most paths name each parameter once, in the declared order: then the parameter
            // of each argument is the one in its place, and the labels are all right.
            let arguments = element.arguments
            var inPlace = arguments.count == declared.count
            if inPlace {
                for index in arguments.indices where declared[index].label.text != arguments[index].label.text
                    || declared[..<index].contains(where: { $0.label.text == arguments[index].label.text }) {
                    inPlace = false
                    break
                }
            }
            if !inPlace { checkArguments(of: element, declared: declared, file: file, into: &found) }
            for (index, argument) in arguments.enumerated() {
                let parameter: Parameter
                if inPlace {
                    parameter = declared[index]
                } else {
                    guard let named = declared.first(where: { $0.label.text == argument.label.text }) else { continue }
                    parameter = named
                }
                switch argument.value {
                case .placeholder(let name):
                    guard placeholders.contains(name.text) else {
                        // The closest placeholder, or else the one placeholder the path does
                        // not use (`{id}` renamed in the path only: `orderId`).
                        let unused = pattern.placeholders.filter { placeholder in !link.placeholderUses.contains { $0.text == placeholder } }
                        let suggestion = Suggestion.closest(to: name.text, among: pattern.placeholders) ?? (unused.count == 1 ? unused[0] : nil)
                        found.append(UndefinedName.diagnostic(
                            UndefinedName.Finding(name: name.text, expected: [], suggestion: suggestion, placeholder: true),
                            file: file, range: name.range))
                        namesUndefinedPlaceholder = true
                        continue
                    }
                    filled.append((name.text, parameter.type, argument.valueRange))
                    if pattern.isOptional(name.text) && !parameter.type.trimmingWhitespace.hasSuffix("?") {
                        found.append(diagnostic(.optionalPlaceholder(placeholder: name.text, parameter: parameter.label.text, type: parameter.type),
                                                file: file, range: argument.valueRange))
                    }
                case .string(let value):
                    if let expected = PathLiteral.Value.string(value).mismatch(type: parameter.type) {
                        found.append(diagnostic(.literalMismatch(label: argument.label.text, value: PathLiteral.Value.string(value).description, expected: expected),
                                                file: file, range: argument.valueRange))
                    }
                case .number(let value):
                    if let expected = PathLiteral.Value.number(value).mismatch(type: parameter.type) {
                        found.append(diagnostic(.literalMismatch(label: argument.label.text, value: value, expected: expected),
                                                file: file, range: argument.valueRange))
                    }
                case .bool(let value):
                    if let expected = PathLiteral.Value.bool(value).mismatch(type: parameter.type) {
                        found.append(diagnostic(.literalMismatch(label: argument.label.text, value: value ? "true" : "false", expected: expected),
                                                file: file, range: argument.valueRange))
                    }
                }
            }
        }
        for name in placeholders { filledTypes.append(filled.first { $0.name == name }?.type) }
        // (Not when a value names no placeholder: the one not used is the one it misspells,
        // and its error says so.)
        if !namesUndefinedPlaceholder && placeholders.contains(where: { name in !filled.contains { $0.name == name } }) {
            for (name, range) in pattern.placeholderRanges
            where !filled.contains(where: { $0.name == name }) && !link.placeholderUses.contains(where: { $0.text == name }) {
                found.append(diagnostic(.unusedPlaceholder(name), file: file, range: link.sourceRange(ofPatternBytes: range)))
            }
        }
        for name in placeholders {
            // (One use, or uses of one written type, cannot conflict.)
            guard let first = filled.first(where: { $0.name == name }),
                  filled.contains(where: { $0.name == name && $0.type != first.type }) else { continue }
            let uses = filled.filter { $0.name == name }
            let types = uses.map { PlaceholderType.of(swiftType: $0.type) }
            if types.contains(where: { $0 != types[0] }) {
                var names: [String] = []
                for type in types.map(\.name) where !names.contains(type) { names.append(type) }
                found.append(diagnostic(.typeConflict(placeholder: name, types: names), file: file, range: uses[1].at))
            }
        }
        return found
    }

    /// The labels of one element against its screen's parameters: each unknown label, each
    /// label given again, the first out of order, and the missing ones (one diagnostic for all
    /// of them).
    private static func checkArguments(of element: LinkPathElement, declared: [Parameter], file: FileID,
                                       into found: inout [Diagnostic]) {
        var lastPosition = -1
        var lastLabel = ""
        var reportedOrder = false
        var given = Set<String>()
        for argument in element.arguments {
            guard let position = declared.firstIndex(where: { $0.label.text == argument.label.text }) else {
                found.append(diagnostic(.unknownLabel(screen: element.screen.text, label: argument.label.text, labels: declared.map(\.label.text)),
                                        file: file, range: argument.label.range))
                continue
            }
            // (The later value would be dropped: `routes tree --path` refuses such a path.)
            guard given.insert(argument.label.text).inserted else {
                found.append(diagnostic(.givenTwice(screen: element.screen.text, label: argument.label.text), file: file, range: argument.label.range))
                continue
            }
            if position < lastPosition && !reportedOrder {
                found.append(diagnostic(.outOfOrder(screen: element.screen.text, label: argument.label.text, after: lastLabel),
                                        file: file, range: argument.label.range))
                reportedOrder = true
            }
            if position > lastPosition {
                lastPosition = position
                lastLabel = argument.label.text
            }
        }
        let isGiven = { (label: String) in element.arguments.contains { $0.label.text == label } }
        if !declared.allSatisfy({ isGiven($0.label.text) }) {
            let missing = declared.map(\.label.text).filter { !isGiven($0) }
            found.append(diagnostic(.missingArguments(screen: element.screen.text, labels: missing), file: file, range: element.range))
        }
    }
}

/// A link read from its line, judged from the line's parts (`LinkDeclaration.withLineParts`)
/// and its pattern's placeholders read from the line (`LinkDeclaration.placeholderNamesInLine`):
/// whether `InvalidLink.check` would find nothing in it, and the type of the first parameter
/// each placeholder of the pattern fills. It vouches only for the plain case (each element's
/// arguments in their declared places, each value a placeholder of the pattern or a literal
/// that fits, no `{name?}` filling a parameter that is not optional, each placeholder filling
/// parameters of one written type, none left unused) and leaves every other link to the
/// whole check, which finds nothing in a plain one (`InvalidLinkPartsTests` checks both ways
/// agree).
struct PartsCheck {
    let bytes: UnsafeBufferPointer<UInt8>
    let parameters: [[Parameter]?]
    /// The pattern's placeholders in order: where each name is in `bytes`, and whether it is
    /// optional.
    let placeholders: [(name: Range<Int>, isOptional: Bool)]
    /// Per placeholder of the pattern, in order, the type of the first parameter it fills.
    private(set) var types: [String?]
    /// False once something is not plain.
    private(set) var passes = true
    private var element = -1
    private var argument = 0

    /// The types when the link whose path's parts are `parts` is plain, else nil.
    static func types(bytes: UnsafeBufferPointer<UInt8>, parts: inout LinkLine.PathParts, parameters: [[Parameter]?],
                      placeholders: [(name: Range<Int>, isOptional: Bool)]) -> [String?]? {
        var check = PartsCheck(bytes: bytes, parameters: parameters, placeholders: placeholders)
        while check.passes, let part = parts.next() {
            switch part {
            case .element: check.startElement()
            case .argument(let label, let value, let kind): check.argument(label: label, value: value, kind: kind)
            case .endElement: check.endElement()
            }
        }
        return check.passes && !check.types.contains(nil) ? check.types : nil
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, parameters: [[Parameter]?], placeholders: [(name: Range<Int>, isOptional: Bool)]) {
        self.bytes = bytes
        self.parameters = parameters
        self.placeholders = placeholders
        types = Array(repeating: nil, count: placeholders.count)
    }

    private mutating func startElement() {
        element += 1
        argument = 0
        if element >= parameters.count { passes = false }
    }

    private mutating func argument(label: Range<Int>, value: Range<Int>, kind: TokenKind) {
        // (The parameters of a name that is no screen are not checked: the project reports it.)
        guard let declared = parameters[element] else { return }
        let labelBytes = bytes[label]
        guard argument < declared.count, Self.equal(declared[argument].label.text, labelBytes),
              !declared[..<argument].contains(where: { Self.equal($0.label.text, labelBytes) }) else {
            passes = false
            return
        }
        let type = declared[argument].type
        argument += 1
        let literal: PathLiteral.Value
        switch kind {
        case .string: literal = .string(text(value.lowerBound + 1..<value.upperBound - 1))
        case .number: literal = .number(text(value))
        case .kwTrue: literal = .bool(true)
        case .kwFalse: literal = .bool(false)
        default:
            guard let index = placeholders.firstIndex(where: { sameBytes($0.name, value) }),
                  !placeholders[index].isOptional || type.trimmingWhitespace.hasSuffix("?") else {
                passes = false
                return
            }
            if let first = types[index] {
                if first != type { passes = false }
            } else {
                types[index] = type
            }
            return
        }
        if literal.mismatch(type: type) != nil { passes = false }
    }

    private mutating func endElement() {
        if let declared = parameters[element], argument != declared.count { passes = false }
    }

    /// Whether bytes `a` and `b` are the same.
    private func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
        return true
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func equal(_ text: String, _ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == bytes.count else { return false }
        // (Byte by byte: the generic `elementsEqual` costs several times more.)
        let same = utf8.withContiguousStorageIfAvailable { text in
            var at = bytes.startIndex
            for byte in text {
                if byte != bytes[at] { return false }
                at += 1
            }
            return true
        }
        return same ?? utf8.elementsEqual(bytes)
    }
}

extension String {
    /// The text without whitespace (a Swift type as written, `Int ?` is `Int?`): ASCII text,
    /// as types mostly are, byte by byte.
    var trimmingWhitespace: String {
        let isASCII = utf8.allSatisfy { $0 < 0x80 }
        guard isASCII else { return filter { !$0.isWhitespace } }
        guard utf8.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) }) else { return self }
        return String(decoding: utf8.filter { $0 != 0x20 && !(0x09...0x0D).contains($0) }, as: UTF8.self)
    }
}

extension Project {
    /// The screen a name in file f stands for; nil when it stands for no screen (the
    /// project reports it).
    func screen(_ name: Name, in f: FileID) -> Symbol? { screen(at: name.range.lowerBound, in: f) }

    /// The screen the name at `offset` of file f stands for (see `screen(_:in:)`).
    func screen(at offset: Int, in f: FileID) -> Symbol? {
        guard let s = resolutions[f][offset], kind(of: s) == .screen else { return nil }
        return s
    }
}
