import RoutesModel
import RoutesSyntax

/// A path literal (docs/language.md#path-literals):
/// `Home/Detail(id: "42", count: 3, flag: true)/Settings`.
///
/// Screen names are separated by `/`; each may carry named arguments (strings with the
/// language's escapes, numbers `-?[0-9]+(\.[0-9]+)?`, `true`/`false`). Whitespace may separate
/// tokens; comments are not allowed. `Detail()` means the same as `Detail`.
///
/// Parsing checks only the syntax; ``validate(in:program:)`` checks the names against a
/// program's declarations.
public struct PathLiteral: Sendable, Hashable {
    /// The value of an argument.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        /// The decoded string.
        case string(String)
        /// The number as written (`-3`, `1.50`).
        case number(String)
        case bool(Bool)

        /// The value as it would be written in a path literal.
        public var description: String {
            switch self {
            case .string(let string): return PathLiteral.quoted(string)
            case .number(let number): return number
            case .bool(let value): return value ? "true" : "false"
            }
        }

        /// "the string", "the number", "the boolean".
        public var kindDescription: String {
            switch self {
            case .string: return "the string"
            case .number: return "the number"
            case .bool: return "the boolean"
            }
        }

        /// Whether a Swift literal writes the values of a parameter of type `type`: the types
        /// `mismatch(type:)` checks (`String`, `Bool`, the integer types, `Double`, `Float`,
        /// `CGFloat`), Foundation's `Decimal` (which takes number literals but reads no text
        /// with `init?(_:)`), and their optionals. A value of any other type is the app's to
        /// make.
        public static func isWrittenLiterally(type: String) -> Bool {
            var trimmed = Substring(type.trimmingWhitespace)
            while true {
                while let last = trimmed.last, last == "?" || last == "!" { trimmed = trimmed.dropLast() }
                if trimmed.hasPrefix("Swift.") { trimmed = trimmed.dropFirst(6) }
                // `Optional<Int>` is `Int?`.
                guard trimmed.hasPrefix("Optional<"), trimmed.hasSuffix(">") else { break }
                trimmed = Substring(String(trimmed.dropFirst(9).dropLast()).trimmingWhitespace)
            }
            switch trimmed {
            case "String", "Bool", "Double", "Float", "CGFloat", "Int", "Int8", "Int16", "Int32", "Int64",
                 "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Decimal", "Foundation.Decimal":
                return true
            default:
                return false
            }
        }

        /// What a parameter of Swift type `type` takes, when this value does not fit it; nil
        /// when it fits. The types a path literal can write are checked as Swift checks a
        /// literal: `String` takes a string; `Int`, `Int8`…`Int64`, `UInt`…`UInt64` a whole
        /// number in their range; `Double`, `Float`, `CGFloat` any number; `Bool` `true` or
        /// `false`; `Character` a string of one character; Foundation's `UUID` the text
        /// its `uuidString` initializer reads (8-4-4-4-12 hexadecimal digits); an optional (`Int?`)
        /// what its wrapped type takes. Any other type (an `enum`, `Product.ID`, `[String]`)
        /// is the app's to convert, and takes any value.
        public func mismatch(type: String) -> String? {
            // The commonest fits first, without trimming the type: a string for a `String`,
            // a whole number for an `Int`, a boolean for a `Bool`.
            switch self {
            case .string: if type == "String" { return nil }
            case .number(let number): if type == "Int", Int(number) != nil { return nil }
            case .bool: if type == "Bool" { return nil }
            }
            var trimmed = Substring(type.trimmingWhitespace)
            while let last = trimmed.last, last == "?" || last == "!" { trimmed = trimmed.dropLast() }
            if trimmed.hasPrefix("Swift.") { trimmed = trimmed.dropFirst(6) }
            // (Compared as a `String`: a type's name is short, and kept inline.)
            let typeName = String(trimmed)
            switch (typeName, self) {
            case ("String", .string), ("Bool", .bool), ("Double", .number), ("Float", .number), ("CGFloat", .number):
                return nil
            case ("String", _): return "a string"
            case ("Bool", _): return "`true` or `false`"
            case ("Double", _), ("Float", _), ("CGFloat", _): return "a number"
            case ("Character", .string(let text)) where text.count == 1: return nil
            case ("Character", _): return "a string of one character"
            case ("UUID", .string(let text)) where PathLiteral.isUUID(text): return nil
            case ("Foundation.UUID", .string(let text)) where PathLiteral.isUUID(text): return nil
            case ("UUID", _), ("Foundation.UUID", _): return "a UUID's text, such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
            default:
                break
            }
            let integer: (String) -> Bool
            switch typeName {
            case "Int": integer = { Int($0) != nil }
            case "Int8": integer = { Int8($0) != nil }
            case "Int16": integer = { Int16($0) != nil }
            case "Int32": integer = { Int32($0) != nil }
            case "Int64": integer = { Int64($0) != nil }
            case "UInt": integer = { UInt($0) != nil }
            case "UInt8": integer = { UInt8($0) != nil }
            case "UInt16": integer = { UInt16($0) != nil }
            case "UInt32": integer = { UInt32($0) != nil }
            case "UInt64": integer = { UInt64($0) != nil }
            default: return nil
            }
            guard case .number(let number) = self else { return "a whole number" }
            if number.contains(".") { return "a whole number" }
            return integer(number) ? nil : "a whole number that fits in \(typeName)"
        }
    }

    /// Whether `text` is a UUID as Foundation's `uuidString` initializer reads one: 36
    /// characters, hexadecimal digits in groups of 8, 4, 4, 4 and 12 separated by `-`, in
    /// either case.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !((0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)) {
                return false
            }
        }
        return true
    }

    /// `label: value`.
    public struct Argument: Sendable, Hashable {
        public var label: String
        public var value: Value
        /// The label's byte range in the literal.
        public var labelRange: Range<Int>
        /// The value's byte range in the literal.
        public var valueRange: Range<Int>
        /// The whole argument (label through value).
        public var range: Range<Int>
    }

    /// One element: a screen name and its arguments.
    public struct Element: Sendable, Hashable {
        public var screen: String
        public var arguments: [Argument]
        /// The screen name's byte range in the literal.
        public var nameRange: Range<Int>
        /// The element's range (the name through the closing parenthesis, if any).
        public var range: Range<Int>
        /// The element as written (without surrounding whitespace).
        public var text: String
    }

    /// The text the literal was parsed from.
    public var source: String
    /// At least one element.
    public var elements: [Element]

    /// Parses a path literal. Throws a ``PathLiteralError`` that names the offending part.
    public static func parse(_ text: String) throws(PathLiteralError) -> PathLiteral {
        var parser = PathLiteralParser(text)
        return try parser.parse()
    }

    /// Checks every element against the screens visible from `program`'s root file: the
    /// screen must be declared (as a screen), and the labels must be parameters of it, each
    /// given at most once, in declared order (any subset is fine: a path names a screen's
    /// type, and the arguments it leaves out are not needed to resolve it), each value of a
    /// kind its parameter's type accepts (see ``Value/mismatch(type:)``). Returns the screen
    /// declaration of each element.
    public func validate(in project: Project, program: Program) throws(PathLiteralError) -> [Symbol] {
        let scope = project.scopes[program.root.file]
        var symbols: [Symbol] = []
        for element in elements {
            guard let symbol = scope[element.screen] else {
                let screens = scope.compactMap { project.declaration($0.value).kind == .screen ? $0.key : nil }
                var message = "unknown screen `\(element.screen)`"
                if let suggestion = Suggestion.closest(to: element.screen, among: screens) {
                    message += "; did you mean `\(suggestion)`?"
                } else if screens.isEmpty {
                    message += " (the program declares no screens)"
                }
                throw PathLiteralError(message, element.nameRange)
            }
            let declaration = project.declaration(symbol)
            guard declaration.kind == .screen else {
                throw PathLiteralError("`\(element.screen)` is \(declaration.kind.withArticle), not a screen", element.nameRange)
            }
            let labels = declaration.parameters.map(\.label.text)
            // The screen as declared, `Detail(id: String, count: Int)`, for the messages.
            let signature = "\(element.screen)(\(declaration.parameters.map { "\($0.label.text): \($0.type)" }.joined(separator: ", ")))"
            var seen: [String: Int] = [:]  // label -> declared index
            var previous: (label: String, index: Int)? = nil
            for argument in element.arguments {
                guard let index = labels.firstIndex(of: argument.label) else {
                    let message = labels.isEmpty
                        ? "screen `\(element.screen)` has no parameters, so it takes no argument `\(argument.label)`"
                        : "screen `\(element.screen)` has no parameter `\(argument.label)`: it is declared `\(signature)`"
                    throw PathLiteralError(message, argument.labelRange)
                }
                if seen[argument.label] != nil {
                    throw PathLiteralError("argument `\(argument.label)` of `\(element.screen)` is given twice", argument.labelRange)
                }
                if let previous, index < previous.index {
                    throw PathLiteralError(
                        "argument `\(argument.label)` must come before `\(previous.label)`: arguments follow the declared order, `\(signature)`",
                        argument.labelRange)
                }
                if let expected = argument.value.mismatch(type: declaration.parameters[index].type) {
                    throw PathLiteralError(
                        "argument `\(argument.label)` of `\(element.screen)` must be \(expected), not \(argument.value.kindDescription) `\(argument.value)`: it is declared `\(signature)`",
                        argument.valueRange)
                }
                seen[argument.label] = index
                previous = (argument.label, index)
            }
            symbols.append(symbol)
        }
        return symbols
    }

    /// A finite number as a literal of a path: decimal digits, never an exponent (Swift
    /// writes 1e-07 for 0.0000001, which a path cannot hold). The shortest digits that give
    /// the number back, as Swift's own description has them.
    public static func decimal(_ value: Double) -> String {
        let text = String(value)
        guard value.isFinite, let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else {
            return text
        }
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let point = mantissa.firstIndex(of: ".")
        let whole = point.map { mantissa[..<$0] } ?? mantissa
        var digits = String(whole) + (point.map { String(mantissa[mantissa.index(after: $0)...]) } ?? "")
        var pointAt = whole.count + exponent
        // (No leading zeros: the point moves past them.)
        while digits.count > 1 && digits.hasPrefix("0") { digits.removeFirst(); pointAt -= 1 }
        while digits.count > 1 && digits.hasSuffix("0") && pointAt < digits.count { digits.removeLast() }
        let body: String
        if pointAt <= 0 {
            body = "0." + String(repeating: "0", count: -pointAt) + digits
        } else if pointAt >= digits.count {
            body = digits + String(repeating: "0", count: pointAt - digits.count)
        } else {
            body = String(digits.prefix(pointAt)) + "." + String(digits.dropFirst(pointAt))
        }
        return (negative ? "-" : "") + body
    }

    /// A string as a quoted literal, with the language's escapes.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// A malformed or invalid path literal: a message and the offending part.
public struct PathLiteralError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Byte range (UTF-8) in the literal; empty where something is missing.
    public var range: Range<Int>

    public init(_ message: String, _ range: Range<Int>) {
        self.message = message
        self.range = range
    }

    public var description: String { message }

    /// The message, then the literal and a caret line under the offending part:
    ///
    ///     unknown screen `Setings`; did you mean `Settings`?
    ///       Home/Setings
    ///            ^~~~~~~
    public func rendered(literal: String, indent: String = "  ") -> String {
        let source = SourceText(literal)
        // A literal spread over lines: show the line of the offending part.
        let line = source.line(containing: range.lowerBound)
        let lineRange = source.lineRange(line)
        let start = max(lineRange.lowerBound, min(range.lowerBound, lineRange.upperBound))
        let end = max(start, min(range.upperBound, lineRange.upperBound))
        var pad = ""
        for ch in source.text(lineRange.lowerBound..<start).unicodeScalars { pad += ch == "\t" ? "\t" : " " }
        let width = source.columnWidth(from: start, to: end, encoding: .scalars)
        let underline = "^" + String(repeating: "~", count: max(0, width - 1))
        return message + "\n" + indent + source.text(lineRange) + "\n" + indent + pad + underline
    }
}

/// A small recursive-descent parser over the language's tokens.
struct PathLiteralParser {
    let source: SourceText
    let text: String
    var tokens: [Token] = []
    var lexicalError: PathLiteralError?
    var position = 0

    init(_ text: String) {
        self.text = text
        source = SourceText(text)
        let (all, diagnostics) = Lexer.tokenize(source)
        if let first = diagnostics.min(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            lexicalError = PathLiteralError(first.message, first.range)
        }
        for token in all {
            switch token.kind {
            case .whitespace, .byteOrderMark:
                continue
            case .lineComment, .docComment:
                if lexicalError == nil || lexicalError!.range.lowerBound > token.start {
                    lexicalError = PathLiteralError(
                        "`//` starts a comment, and a path cannot contain comments (is a screen name missing between two `/`?)",
                        token.start..<(token.start + 2))
                }
            default:
                tokens.append(token)
            }
        }
    }

    var current: Token { tokens[position] }

    func describe(_ token: Token) -> String {
        switch token.kind {
        case .eof: return "the end of the path"
        case .identifier, .number, .string: return "`\(source.text(token.range))`"
        default: return token.kind.display
        }
    }

    mutating func expect(_ kind: TokenKind, _ what: String, after: String) throws(PathLiteralError) -> Token {
        let token = current
        guard token.kind == kind else {
            throw PathLiteralError("expected \(what) after \(after), found \(describe(token))", current.kind == .eof ? token.start..<token.start : token.range)
        }
        position += 1
        return token
    }

    mutating func parse() throws(PathLiteralError) -> PathLiteral {
        if let lexicalError { throw lexicalError }
        if current.kind == .eof {
            throw PathLiteralError("the path is empty: write screen names separated by `/`, e.g. `Home/Detail(id: \"42\")`", 0..<0)
        }
        var elements: [PathLiteral.Element] = []
        while true {
            elements.append(try element(after: elements.isEmpty ? nil : "`/`"))
            let token = current
            if token.kind == .eof { break }
            guard token.kind == .slash else {
                let hint = token.kind == .lParen ? " (arguments go right after the screen name)" : ""
                throw PathLiteralError("expected `/` or the end of the path after `\(elements.last!.text)`, found \(describe(token))\(hint)", token.range)
            }
            position += 1
        }
        return PathLiteral(source: text, elements: elements)
    }

    mutating func element(after: String?) throws(PathLiteralError) -> PathLiteral.Element {
        let nameToken = current
        guard nameToken.kind == .identifier else {
            let place = after.map { " after \($0)" } ?? ""
            var message = "expected a screen name\(place), found \(describe(nameToken))"
            if nameToken.kind.isKeyword { message = "`\(source.text(nameToken.range))` is a keyword, not a screen name" }
            throw PathLiteralError(message, nameToken.kind == .eof ? nameToken.start..<nameToken.start : nameToken.range)
        }
        position += 1
        let name = source.text(nameToken.range)
        var arguments: [PathLiteral.Argument] = []
        var end = nameToken.end
        if current.kind == .lParen {
            position += 1
            if current.kind != .rParen {
                while true {
                    arguments.append(try argument(of: name))
                    if current.kind == .comma {
                        position += 1
                        if current.kind == .rParen {
                            throw PathLiteralError("unexpected `,` before `)`: no trailing comma", tokens[position - 1].range)
                        }
                        continue
                    }
                    break
                }
            }
            let close = try expect(.rParen, "`,` or `)`", after: arguments.isEmpty ? "`(`" : "the argument `\(arguments.last!.label)`")
            end = close.end
        }
        return PathLiteral.Element(screen: name, arguments: arguments, nameRange: nameToken.range, range: nameToken.start..<end,
                                   text: source.text(nameToken.start..<end))
    }

    mutating func argument(of screen: String) throws(PathLiteralError) -> PathLiteral.Argument {
        let labelToken = current
        guard labelToken.kind.isLabel else {
            throw PathLiteralError("expected an argument label (`label: value`) in `\(screen)(...)`, found \(describe(labelToken))",
                                   labelToken.kind == .eof ? labelToken.start..<labelToken.start : labelToken.range)
        }
        position += 1
        let label = source.text(labelToken.range)
        _ = try expect(.colon, "`:`", after: "the label `\(label)`")
        let valueToken = current
        let value: PathLiteral.Value
        switch valueToken.kind {
        case .string:
            value = .string(Lexer.stringValue(source.text(valueToken.range)[...].utf8))
        case .number:
            value = .number(source.text(valueToken.range))
        case .kwTrue:
            value = .bool(true)
        case .kwFalse:
            value = .bool(false)
        default:
            throw PathLiteralError("expected a value (a string, a number, `true` or `false`) after `\(label):`, found \(describe(valueToken))",
                                   valueToken.kind == .eof ? valueToken.start..<valueToken.start : valueToken.range)
        }
        position += 1
        return PathLiteral.Argument(label: label, value: value, labelRange: labelToken.range, valueRange: valueToken.range,
                                    range: labelToken.start..<valueToken.end)
    }
}
