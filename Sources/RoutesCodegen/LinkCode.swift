import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The links of a program in Swift (docs/codegen.md, Links): a function from a URL to the
/// path it opens, `path(for:)`, that matches exactly as `routes link` does (the same
/// splitting, decoding, typed grammars and specificity), and `Links.NAME(...)`, each link's
/// URL made from its values. Target-independent: a path is an array of the target's
/// type-erased screen (`AnyScreen` for ComposableNavigator).
struct LinkCode {
    /// One link as the generated code matches it.
    struct Link {
        var name: String
        var doc: String?
        var pattern: LinkPattern
        /// The pattern as written (decoded).
        var patternText: String
        var specificity: Specificity
        /// Per placeholder: how its text parses, and the Swift type it gives (non-optional).
        var placeholders: [String: (type: PlaceholderType, swiftType: String)]
        /// Per element: the screen's type (inside the namespace) and its arguments, in
        /// declared order, as Swift expressions over the placeholders' locals.
        var elements: [(typeName: String, arguments: [(label: String, value: String)])]
        /// The literals of a type no Swift literal writes (the app's own), each parsed into a
        /// local before the screens are made: when one does not parse, the link does not match.
        var parsedLiterals: [(local: String, expression: String)] = []
    }

    let links: [Link]
    let namespace: String
    let modifier: String
    /// The array type of a path, and how a screen value goes into it.
    let pathType: String
    let erase: (String) -> String

    /// The links of the plan's program, most specific first (the first that matches a URL
    /// is its winner: a program with tied links is not generated).
    static func links(plan: ProgramPlan, project: Project, program: Program) -> [Link] {
        var links: [Link] = []
        let screenIndex = Dictionary(plan.screens.enumerated().map { ($1.symbol, $0) }, uniquingKeysWith: { a, _ in a })
        for file in program.files {
            for declaration in project.files[file].model.declarations where declaration.kind == .link {
                guard let link = declaration.link, let text = link.pattern, let pattern = link.parsedPattern else { continue }
                var placeholders: [String: (PlaceholderType, String)] = [:]
                var elements: [(String, [(String, String)])] = []
                var parsedLiterals: [(local: String, expression: String)] = []
                for element in link.path {
                    guard let s = project.resolve(element.screen, in: file), let index = screenIndex[s] else { continue }
                    let screen = plan.screens[index]
                    var arguments: [(String, String)] = []
                    for argument in element.arguments {
                        guard let parameter = screen.parameters.first(where: { $0.label == SwiftNames.escaped(argument.label.text) }) else { continue }
                        switch argument.value {
                        case .placeholder(let name):
                            if placeholders[name.text] == nil {
                                placeholders[name.text] = (PlaceholderType.of(swiftType: parameter.type), Self.baseType(parameter.type))
                            }
                            arguments.append((SwiftNames.label(argument.label.text), Self.local(name.text)))
                        case .string(let value) where !PathLiteral.Value.isWrittenLiterally(type: parameter.type),
                             .number(let value) where !PathLiteral.Value.isWrittenLiterally(type: parameter.type):
                            // `Detail(kind: "featured")` for `kind: Kind`: `Kind("featured")`.
                            let local = "__literal\(parsedLiterals.count)"
                            let type = Self.baseType(parameter.type)
                            parsedLiterals.append((local, Self.parse((.other(type), type), PathLiteral.quoted(value), parts: "")))
                            arguments.append((SwiftNames.label(argument.label.text), local))
                        case .bool(let value) where !PathLiteral.Value.isWrittenLiterally(type: parameter.type):
                            let local = "__literal\(parsedLiterals.count)"
                            let type = Self.baseType(parameter.type)
                            parsedLiterals.append((local, Self.parse((.other(type), type), value ? "\"true\"" : "\"false\"", parts: "")))
                            arguments.append((SwiftNames.label(argument.label.text), local))
                        case .string(let value):
                            arguments.append((SwiftNames.label(argument.label.text), PathLiteral.quoted(value)))
                        case .number(let value):
                            arguments.append((SwiftNames.label(argument.label.text), value))
                        case .bool(let value):
                            arguments.append((SwiftNames.label(argument.label.text), value ? "true" : "false"))
                        }
                    }
                    elements.append((screen.typeName, arguments))
                }
                let types = placeholders.mapValues(\.0)
                links.append(Link(name: declaration.name.text, doc: declaration.doc, pattern: pattern, patternText: text,
                                  specificity: TypedLink(name: declaration.name.text, pattern: pattern, types: types).specificity,
                                  placeholders: placeholders, elements: elements, parsedLiterals: parsedLiterals))
            }
        }
        // Most specific first; among equals (which never match one URL), by name.
        return links.sorted { $0.specificity != $1.specificity ? $1.specificity < $0.specificity : $0.name < $1.name }
    }

    /// `T` of `T?` (and of `T!`, `Optional<T>`).
    static func baseType(_ type: String) -> String {
        var base = Substring(type.trimmingSpaces)
        while true {
            while let last = base.last, last == "?" || last == "!" { base = base.dropLast() }
            let unqualified = base.hasPrefix("Swift.") ? base.dropFirst(6) : base
            guard unqualified.hasPrefix("Optional<"), unqualified.hasSuffix(">") else { break }
            base = Substring(String(unqualified.dropFirst(9).dropLast()).trimmingSpaces)
        }
        return String(base).trimmingSpaces
    }

    /// The local that holds a placeholder's value.
    static func local(_ name: String) -> String { SwiftNames.escaped(name) }

    var parts: String { "\(namespace)LinkParts" }

    // MARK: The code

    func lines() -> [String] {
        guard !links.isEmpty else { return [] }
        var out: [String] = ["// MARK: - Links", "", "extension \(namespace) {"]
        out.append("    /// The path a URL opens: the screens of the most specific link that matches it, made")
        out.append("    /// from the URL's values; nil when no link matches. Connect it where the app receives")
        out.append("    /// URLs:")
        out.append("    ///")
        out.append("    ///     .onOpenURL { url in \(namespace).path(for: url).map { navigator.replace(path: $0) } }")
        out.append("    \(modifier)static func path(for url: URL) -> \(pathType)? {")
        out.append("        path(for: url.absoluteString)")
        out.append("    }")
        out.append("")
        out.append("    /// The path a URL's text opens (as `routes link` matches it: Foundation's `URL` may")
        out.append("    /// have changed the text it was made from, escaping a broken `%` or a host's letters).")
        out.append("    \(modifier)static func path(for text: String) -> \(pathType)? {")
        out.append("        guard let parts = \(parts)(text) else { return nil }")
        for link in links {
            out.append("        if let path = Links.\(matcherName(link))(parts) { return path }")
        }
        out.append("        return nil")
        out.append("    }")
        out.append("")
        out.append("    /// The URL of each link, made from its values (a path: resolve it against the app's")
        out.append("    /// scheme and host, `URL(string: path.relativeString, relativeTo: base)`).")
        out.append("    \(modifier)enum Links {")
        for (index, link) in links.sorted(by: { $0.name < $1.name }).enumerated() {
            if index > 0 { out.append("") }
            out += constructor(link)
        }
        for link in links {
            out.append("")
            out += matcher(link)
        }
        out.append("    }")
        out.append("}")
        out.append("")
        out += partsType()
        return out
    }

    func matcherName(_ link: Link) -> String { "match_\(link.name)" }

    /// `static func item(id: Int) -> URL`.
    func constructor(_ link: Link) -> [String] {
        var out: [String] = []
        if let doc = link.doc, !doc.isEmpty {
            out += doc.split(separator: "\n", omittingEmptySubsequences: false).map { "        ///" + ($0.isEmpty ? "" : " \($0)") }
        }
        out.append("        /// `\(link.patternText)`.")
        var parameters: [String] = []
        for name in link.pattern.placeholders {
            guard let placeholder = link.placeholders[name] else { continue }
            let optional = link.pattern.isOptional(name)
            parameters.append("\(SwiftNames.label(name)): \(placeholder.swiftType)\(optional ? "? = nil" : "")")
        }
        out.append("        \(modifier)static func \(SwiftNames.escaped(link.name))(\(parameters.joined(separator: ", "))) -> URL {")
        // (Locals start with `__`, which no placeholder's name does in practice.)
        var path: [String] = []
        for segment in link.pattern.segments {
            switch segment {
            case .literal(let text): path.append("\(parts).encode(\(PathLiteral.quoted(text)))")
            case .placeholder(let name, _): path.append("\(parts).encode(\(written(name, Self.local(name), in: link)))")
            }
        }
        let joined = path.isEmpty ? "\"/\"" : "\"/\" + [\(path.joined(separator: ", "))].joined(separator: \"/\")"
        if link.pattern.query.isEmpty {
            out.append("            return URL(string: \(joined))!")
        } else {
            out.append("            var __items: [String] = []")
            for item in link.pattern.query {
                let key = "\(parts).encode(\(PathLiteral.quoted(item.key)))"
                if item.isOptional {
                    out.append("            if let __value = \(Self.local(item.placeholder)) { __items.append(\(key) + \"=\" + \(parts).encode(\(written(item.placeholder, "__value", in: link)))) }")
                } else {
                    out.append("            __items.append(\(key) + \"=\" + \(parts).encode(\(written(item.placeholder, Self.local(item.placeholder), in: link))))")
                }
            }
            out.append("            let __path = \(joined)")
            out.append("            return URL(string: __items.isEmpty ? __path : __path + \"?\" + __items.joined(separator: \"&\"))!")
        }
        out.append("        }")
        return out
    }

    /// The Swift expression that writes the value `expression` of placeholder `name` as the
    /// link's grammar reads it: a `Double` in decimal digits (the generated parts type's
    /// `text`; Swift's own description may use an exponent, `1e-06`, which the grammar does
    /// not read), any other value as it describes itself.
    func written(_ name: String, _ expression: String, in link: Link) -> String {
        link.placeholders[name]?.type == .double ? "\(parts).text(\(expression))" : "String(describing: \(expression))"
    }

    /// The screens of `link` for a URL, or nil when it does not match.
    func matcher(_ link: Link) -> [String] {
        var out = ["        /// `\(link.name)`: `\(link.patternText)`.",
                   "        static func \(matcherName(link))(_ __parts: \(parts)) -> \(pathType)? {",
                   "            guard __parts.segments.count == \(link.pattern.segments.count) else { return nil }"]
        for (index, segment) in link.pattern.segments.enumerated() {
            switch segment {
            case .literal(let text):
                out.append("            guard \(parts).same(__parts.segments[\(index)], \(PathLiteral.quoted(text))) else { return nil }")
            case .placeholder(let name, _):
                guard let placeholder = link.placeholders[name] else { continue }
                if case .string = placeholder.type {
                    out.append("            let \(Self.local(name)) = __parts.segments[\(index)]")
                } else {
                    out.append("            guard let \(Self.local(name)) = \(parse(placeholder, "__parts.segments[\(index)]")) else { return nil }")
                }
            }
        }
        for item in link.pattern.query {
            guard let placeholder = link.placeholders[item.placeholder] else { continue }
            let name = Self.local(item.placeholder)
            let given = "__parts.query[\(PathLiteral.quoted(item.key))]"
            let parsed: String
            if case .string = placeholder.type { parsed = given } else { parsed = "\(given).map({ \(parse(placeholder, "$0")) })" }
            if item.isOptional, case .string = placeholder.type {
                out.append("            let \(name) = \(given)")
            } else if item.isOptional {
                // Left out: nil; given but not parsing: no match.
                out.append("            let \(name): \(placeholder.swiftType)?")
                out.append("            switch \(parsed) {")
                out.append("            case .some(.none): return nil")
                out.append("            case .some(.some(let __value)): \(name) = __value")
                out.append("            case .none: \(name) = nil")
                out.append("            }")
            } else {
                out.append("            guard let \(name) = \(parsed)\(placeholder.type == .string ? "" : " ?? nil") else { return nil }")
            }
        }
        for literal in link.parsedLiterals {
            out.append("            guard let \(literal.local) = \(literal.expression) else { return nil }")
        }
        let screens = link.elements.map { element -> String in
            let arguments = element.arguments.map { "\($0.label): \($0.value)" }.joined(separator: ", ")
            return erase("\(namespace).\(element.typeName)(\(arguments))")
        }
        out.append("            return [\(screens.joined(separator: ", "))]")
        out.append("        }")
        return out
    }

    /// The Swift expression that parses `text` as a placeholder's type (nil when it does not).
    func parse(_ placeholder: (type: PlaceholderType, swiftType: String), _ text: String) -> String {
        Self.parse(placeholder, text, parts: parts)
    }

    /// The same, with the generated parts type named `parts` (for the typed grammars).
    static func parse(_ placeholder: (type: PlaceholderType, swiftType: String), _ text: String, parts: String) -> String {
        switch placeholder.type {
        case .int: return "\(parts).int(\(text))"
        case .double: return "\(parts).double(\(text))"
        case .bool: return "\(parts).bool(\(text))"
        case .string: return "Optional(\(text))"
        case .other:
            // Foundation's `UUID` and `URL` are not `LosslessStringConvertible`: each has an
            // initializer of its own, which reads what `String(describing:)` writes. A
            // `Character` is made from text of one character only (its initializer stops the
            // app on any other), a `Substring` from any.
            switch placeholder.swiftType {
            case "UUID", "Foundation.UUID": return "\(placeholder.swiftType)(uuidString: \(text))"
            case "URL", "Foundation.URL": return "\(placeholder.swiftType)(string: \(text))"
            case "Character", "Swift.Character": return "{ (__text: String) -> Character? in __text.count == 1 ? Character(__text) : nil }(\(text))"
            case "Substring", "Swift.Substring": return "Optional(Substring(\(text)))"
            default: return "\(placeholder.swiftType)(\(text))"
            }
        }
    }

    /// The URL's parts as links read them, and the typed grammars: the same rules as the
    /// tools' (`LinkURL`, `PlaceholderType`).
    func partsType() -> [String] {
        """
        /// A URL as the links of `\(namespace)` read it: the path's segments (for a scheme other
        /// than http and https, the host first), and each query key's first value, percent-decoded
        /// after splitting; empty segments and empty values left out. Nil for a broken escape or
        /// bytes that are not UTF-8 once decoded.
        \(modifier)struct \(parts) {
            \(modifier)var segments: [String] = []
            \(modifier)var query: [String: String] = [:]

            \(modifier)init?(_ text: String) {
                // Scalar by scalar: a delimiter followed by a combining mark (`/\\u{301}`) still
                // delimits, where a `Character` would hold both.
                var rest = Substring(text).unicodeScalars
                if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
                var queryText = Substring.UnicodeScalarView()
                if let question = rest.firstIndex(of: "?") {
                    queryText = rest[rest.index(after: question)...]
                    rest = rest[..<question]
                }
                var path = rest
                if let colon = rest.firstIndex(of: ":"), colon > rest.startIndex, Self.isScheme(rest[..<colon]) {
                    let scheme = String(Substring(rest[..<colon])).lowercased()
                    path = rest[rest.index(after: colon)...]
                    if path.starts(with: "//".unicodeScalars) {
                        let authority = path.dropFirst(2)
                        let end = authority.firstIndex(of: "/") ?? authority.endIndex
                        path = authority[end...]
                        if scheme != "http" && scheme != "https" {
                            var host = authority[..<end]
                            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
                            if let port = host.lastIndex(of: ":"), host[host.index(after: port)...].allSatisfy({ ("0"..."9").contains($0) }) {
                                host = host[..<port]
                            }
                            if !host.isEmpty {
                                guard let decoded = Self.decode(host) else { return nil }
                                segments.append(decoded.lowercased())
                            }
                        }
                    }
                }
                for segment in path.split(separator: "/") {
                    guard let decoded = Self.decode(segment) else { return nil }
                    segments.append(decoded)
                }
                var seen = Set<String>()
                for item in queryText.split(separator: "&") {
                    let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let key = Self.decode(pair[0]), let value = Self.decode(pair.count > 1 ? pair[1] : Substring.UnicodeScalarView()) else { return nil }
                    guard seen.insert(key).inserted else { continue }
                    if !value.isEmpty { query[key] = value }
                }
            }

            static func isScheme(_ text: Substring.UnicodeScalarView) -> Bool {
                guard let first = text.first, Self.isLetter(first) else { return false }
                return text.allSatisfy { Self.isLetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "." || $0 == "-" }
            }

            static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

            /// `%XX` is the byte XX; the bytes must be UTF-8.
            static func decode(_ part: Substring.UnicodeScalarView) -> String? {
                var bytes: [UInt8] = []
                var iterator = Substring(part).utf8.makeIterator()
                while let byte = iterator.next() {
                    guard byte == UInt8(ascii: "%") else {
                        bytes.append(byte)
                        continue
                    }
                    guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                    bytes.append(high << 4 | low)
                }
                // (Decoded, then compared with the bytes: the validating initializer needs iOS 18.)
                let text = String(decoding: bytes, as: UTF8.self)
                return text.utf8.elementsEqual(bytes) ? text : nil
            }

            static func hexValue(_ byte: UInt8) -> UInt8? {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
                default: return nil
                }
            }

            /// Scalar by scalar: no Unicode normalization (Swift's `==` on strings would apply it).
            \(modifier)static func same(_ value: String, _ literal: String) -> Bool {
                value.unicodeScalars.elementsEqual(literal.unicodeScalars)
            }

            /// `-?[0-9]+`, within 64 bits (not `+5`).
            \(modifier)static func int(_ text: String) -> Int? {
                guard isInteger(Substring(text)) else { return nil }
                return Int(text)
            }

            /// `-?[0-9]+(.[0-9]+)?` (not `1e5`, `.5`), that a `Double` holds (not 400 digits).
            \(modifier)static func double(_ text: String) -> Double? {
                let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
                guard isInteger(pieces[0]) else { return nil }
                if pieces.count == 2 && (pieces[1].isEmpty || !pieces[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })) { return nil }
                guard let value = Double(text), value.isFinite else { return nil }
                return value
            }

            /// `value` as `double(_:)` reads it: Swift's shortest digits for it, written out
            /// without an exponent (`1e-06` is `0.000001`, `1e+20` is `100000000000000000000.0`).
            /// An infinite value or not-a-number stops the program: no link can carry it.
            \(modifier)static func text(_ value: Double) -> String {
                precondition(value.isFinite, "a link's number must be finite, not \\(value)")
                let described = value.description
                guard let e = described.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return described }
                var mantissa = described[..<e]
                let exponent = Int(described[described.index(after: e)...])!
                let negative = mantissa.first == "-"
                if negative { mantissa = mantissa.dropFirst() }
                let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
                var digits = String(pieces[0]) + (pieces.count == 2 ? String(pieces[1]) : "")
                // The decimal point goes after `point` digits.
                var point = pieces[0].count + exponent
                if point <= 0 {
                    digits = String(repeating: "0", count: 1 - point) + digits
                    point = 1
                }
                if point > digits.count { digits += String(repeating: "0", count: point - digits.count) }
                var whole = digits.prefix(point)
                var fraction = digits.dropFirst(point)
                while whole.count > 1 && whole.first == "0" { whole = whole.dropFirst() }
                while fraction.last == "0" { fraction = fraction.dropLast() }
                return (negative ? "-" : "") + whole + "." + (fraction.isEmpty ? "0" : fraction)
            }

            /// `true` or `false`.
            \(modifier)static func bool(_ text: String) -> Bool? {
                text == "true" ? true : text == "false" ? false : nil
            }

            static func isInteger(_ text: Substring) -> Bool {
                let digits = text.first == "-" ? text.dropFirst() : text
                return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            }

            /// A segment, key or value percent-encoded: every byte but `A-Z a-z 0-9 - . _ ~`.
            \(modifier)static func encode(_ text: String) -> String {
                var out = ""
                for byte in text.utf8 {
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                         UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                        out.unicodeScalars.append(Unicode.Scalar(byte))
                    default:
                        let digits = Array("0123456789ABCDEF".unicodeScalars)
                        out.unicodeScalars.append("%")
                        out.unicodeScalars.append(digits[Int(byte >> 4)])
                        out.unicodeScalars.append(digits[Int(byte & 15)])
                    }
                }
                return out
            }
        }
        """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

extension String {
    /// Without the spaces and tabs at either end.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
