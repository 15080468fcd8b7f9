/// A parameter or dependency type as the model keeps it (the normalized text of a type the
/// parser accepted, see RoutesSyntax/TypeParser.swift), parsed into the structure the
/// generator asks about: whether it is a function type (a stored function is escaping, a
/// function parameter is not), whether a screen can store it in a `Hashable` value, which
/// type names it mentions.
indirect enum SwiftType: Sendable, Hashable {
    /// `Foo<Bar>.Baz`: a name, each component with its generic arguments.
    case named([NameComponent])
    case optional(SwiftType)
    case array(SwiftType)
    case dictionary(SwiftType, SwiftType)
    /// `(x: Int, String)`, `()`; a type in parentheses is a tuple of one unlabelled element.
    case tuple([TupleElement])
    /// `(Int) async throws -> Void`; `effects` as written (`async throws(E)`), or empty.
    case function(parameters: [TupleElement], effects: String, result: SwiftType)
    /// `any P`, `some P`.
    case prefixed(String, SwiftType)
    /// `P & Q`.
    case composition([SwiftType])
    /// `@Sendable @MainActor T`.
    case attributed([String], SwiftType)

    struct NameComponent: Sendable, Hashable {
        var name: String
        var arguments: [SwiftType]
    }

    struct TupleElement: Sendable, Hashable {
        /// `x` or `_ x` (a function type's parameter), nil when unlabelled.
        var label: String?
        /// `inout`, `borrowing`, ...
        var specifier: String?
        var type: SwiftType
    }

    /// Parses normalized type text; nil for text that is not a type (an empty type left by a
    /// syntax error).
    init?(parsing text: String) {
        var parser = TypeTextParser(text)
        guard let parsed = parser.type(), parser.atEnd else { return nil }
        self = parsed
    }

    /// The type itself, without parentheses around a single element.
    var unparenthesized: SwiftType {
        if case .tuple(let elements) = self, elements.count == 1, elements[0].label == nil, elements[0].specifier == nil {
            return elements[0].type.unparenthesized
        }
        return self
    }

    /// Whether a link can make a value of this type from a URL's text: a named type (the
    /// generated code parses the app's own types with their `init?(_ description:)`), or an
    /// optional one; not an array, dictionary, tuple, function or existential.
    var hasTextForm: Bool {
        switch unparenthesized {
        case .named(let components):
            // `Optional<Kind>` is `Kind?`; any other generic (`Set<Int>`, `Array<String>`) is a
            // collection or a container, which no text gives.
            if let wrapped = optionalWrapped(components) { return wrapped.hasTextForm }
            return components.allSatisfy { $0.arguments.isEmpty }
        case .optional(let wrapped): return wrapped.hasTextForm
        default: return false
        }
    }

    /// `X` of the spelled-out `Optional<X>` (or `Swift.Optional<X>`).
    private func optionalWrapped(_ components: [NameComponent]) -> SwiftType? {
        let names = components.map(\.name)
        guard names == ["Optional"] || names == ["Swift", "Optional"], let last = components.last, last.arguments.count == 1 else { return nil }
        return last.arguments[0]
    }

    /// A function type, possibly with attributes or in parentheses (not an optional one).
    var isFunction: Bool {
        switch unparenthesized {
        case .function: return true
        case .attributed(_, let inner): return inner.isFunction
        default: return false
        }
    }

    /// Whether `T?` must be written `(T)?`: `?` would bind to a part of it.
    var needsParenthesesForOptional: Bool {
        switch self {
        case .function, .attributed, .prefixed, .composition: return true
        default: return false
        }
    }

    /// Why a value of this type cannot be a stored property of a `Hashable` struct whose
    /// conformance the compiler synthesizes, if it cannot; nil when it may (a named type is
    /// taken to be `Hashable`: only the compiler can tell).
    var hashabilityProblem: String? {
        switch unparenthesized {
        case .named(let components):
            if components.count > 1, let last = components.last?.name, last == "Type" || last == "Protocol" { return "a metatype" }
            for component in components {
                for argument in component.arguments { if let problem = argument.hashabilityProblem { return problem } }
            }
            return nil
        case .optional(let inner), .array(let inner): return inner.hashabilityProblem
        case .dictionary(let key, let value): return key.hashabilityProblem ?? value.hashabilityProblem
        case .tuple: return "a tuple"
        case .function: return "a function type"
        case .prefixed(let word, _): return word == "some" ? "an opaque type (`some`)" : "an existential (`any`)"
        case .composition: return "a protocol composition"
        case .attributed(_, let inner): return inner.hashabilityProblem
        }
    }

    /// Whether `some` appears anywhere (an opaque type cannot be the type of a property
    /// requirement, nor of a value the generated code stores).
    var containsOpaque: Bool {
        switch self {
        case .named(let components): return components.contains { $0.arguments.contains(where: \.containsOpaque) }
        case .optional(let inner), .array(let inner), .attributed(_, let inner): return inner.containsOpaque
        case .dictionary(let key, let value): return key.containsOpaque || value.containsOpaque
        case .tuple(let elements): return elements.contains { $0.type.containsOpaque }
        case .function(let parameters, _, let result): return parameters.contains { $0.type.containsOpaque } || result.containsOpaque
        case .prefixed(let word, let inner): return word == "some" || inner.containsOpaque
        case .composition(let parts): return parts.contains(where: \.containsOpaque)
        }
    }

    /// The attributes written before the type itself (`@Sendable` of `@Sendable () -> Void`).
    var outerAttributes: [String] {
        if case .attributed(let attributes, let inner) = self { return attributes + inner.outerAttributes }
        return []
    }

    /// The type with the first component of its type names renamed (`Home.Store` ->
    /// `AppRoutesHome.Store` for `["Home": "AppRoutesHome"]`).
    func renaming(_ names: [String: String]) -> SwiftType {
        func element(_ e: TupleElement) -> TupleElement {
            TupleElement(label: e.label, specifier: e.specifier, type: e.type.renaming(names))
        }
        switch self {
        case .named(let components):
            var out = components.map { NameComponent(name: $0.name, arguments: $0.arguments.map { $0.renaming(names) }) }
            if let first = out.first?.name, let renamed = names[first] { out[0].name = renamed }
            return .named(out)
        case .optional(let inner): return .optional(inner.renaming(names))
        case .array(let inner): return .array(inner.renaming(names))
        case .dictionary(let key, let value): return .dictionary(key.renaming(names), value.renaming(names))
        case .tuple(let elements): return .tuple(elements.map(element))
        case .function(let parameters, let effects, let result):
            var renamedEffects = effects
            if let open = renamedEffects.firstRange(of: "throws("), renamedEffects.hasSuffix(")"),
               let thrown = SwiftType(parsing: String(renamedEffects[open.upperBound..<renamedEffects.index(before: renamedEffects.endIndex)])) {
                renamedEffects = renamedEffects[..<open.upperBound] + thrown.renaming(names).text + ")"
            }
            return .function(parameters: parameters.map(element), effects: renamedEffects, result: result.renaming(names))
        case .prefixed(let word, let inner): return .prefixed(word, inner.renaming(names))
        case .composition(let parts): return .composition(parts.map { $0.renaming(names) })
        case .attributed(let attributes, let inner): return .attributed(attributes, inner.renaming(names))
        }
    }

    /// The first component of every type name the type mentions (`Foo` and `Bar` of
    /// `Foo.Baz<Bar>`): the names a generated type of the same spelling would hide.
    var typeNames: [String] {
        var out: [String] = []
        func walk(_ t: SwiftType) {
            switch t {
            case .named(let components):
                if let first = components.first { out.append(first.name) }
                for component in components { component.arguments.forEach(walk) }
            case .optional(let inner), .array(let inner), .prefixed(_, let inner), .attributed(_, let inner): walk(inner)
            case .dictionary(let key, let value):
                walk(key)
                walk(value)
            case .tuple(let elements): elements.forEach { walk($0.type) }
            case .function(let parameters, _, let result):
                parameters.forEach { walk($0.type) }
                walk(result)
            case .composition(let parts): parts.forEach(walk)
            }
        }
        walk(self)
        return out
    }
}

/// A recursive-descent parser over normalized type text (the grammar of TypeParser.swift).
private struct TypeTextParser {
    enum Token: Equatable {
        case word(String)
        case attribute(String)
        case punct(String)
    }

    var tokens: [Token] = []
    var i = 0

    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var cursor = 0
        func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }
        while cursor < scalars.count {
            let scalar = scalars[cursor]
            if scalar == " " {
                cursor += 1
            } else if scalar == "@" || isWord(scalar) {
                var end = cursor + 1
                while end < scalars.count && isWord(scalars[end]) { end += 1 }
                let word = String(String.UnicodeScalarView(scalars[cursor..<end]))
                tokens.append(scalar == "@" ? .attribute(word) : .word(word))
                cursor = end
            } else if scalar == "-" && cursor + 1 < scalars.count && scalars[cursor + 1] == ">" {
                tokens.append(.punct("->"))
                cursor += 2
            } else {
                tokens.append(.punct(String(scalar)))
                cursor += 1
            }
        }
    }

    var atEnd: Bool { i == tokens.count }
    var current: Token? { i < tokens.count ? tokens[i] : nil }
    func peek(_ n: Int = 1) -> Token? { i + n < tokens.count ? tokens[i + n] : nil }
    func at(_ p: String) -> Bool { current == .punct(p) }
    func atWord(_ w: String) -> Bool { current == .word(w) }

    mutating func expect(_ p: String) -> Bool {
        guard at(p) else { return false }
        i += 1
        return true
    }

    func startsType(_ t: Token?) -> Bool {
        switch t {
        case .word?, .attribute?, .punct("(")?, .punct("[")?: return true
        default: return false
        }
    }

    mutating func type() -> SwiftType? {
        var attributes: [String] = []
        while case .attribute(let attribute)? = current {
            attributes.append(attribute)
            i += 1
        }
        guard let bare = bareType() else { return nil }
        return attributes.isEmpty ? bare : .attributed(attributes, bare)
    }

    mutating func bareType() -> SwiftType? {
        if at("(") {
            guard let elements = tupleElements() else { return nil }
            if atWord("async") || atWord("throws") || at("->") {
                var effects: [String] = []
                if atWord("async") {
                    effects.append("async")
                    i += 1
                }
                if atWord("throws") {
                    i += 1
                    if at("(") {
                        i += 1
                        guard let thrown = type(), expect(")") else { return nil }
                        effects.append("throws(\(thrown.text))")
                    } else {
                        effects.append("throws")
                    }
                }
                guard expect("->"), let result = type() else { return nil }
                return .function(parameters: elements, effects: effects.joined(separator: " "), result: result)
            }
            guard let tuple = postfix(.tuple(elements)) else { return nil }
            return composition(tuple)
        }
        if case .word(let word)? = current, word == "any" || word == "some", startsType(peek()) {
            i += 1
            guard let first = postfixType(), let composed = composition(first) else { return nil }
            return .prefixed(word, composed)
        }
        guard let first = postfixType() else { return nil }
        return composition(first)
    }

    mutating func composition(_ first: SwiftType) -> SwiftType? {
        var parts = [first]
        while expect("&") {
            guard let part = postfixType() else { return nil }
            parts.append(part)
        }
        return parts.count == 1 ? first : .composition(parts)
    }

    mutating func postfixType() -> SwiftType? {
        let base: SwiftType
        switch current {
        case .word(let name)?:
            i += 1
            guard let args = genericArguments() else { return nil }
            base = .named([.init(name: name, arguments: args)])
        case .punct("[")?:
            i += 1
            guard let key = type() else { return nil }
            if expect(":") {
                guard let value = type(), expect("]") else { return nil }
                base = .dictionary(key, value)
            } else {
                guard expect("]") else { return nil }
                base = .array(key)
            }
        case .punct("(")?:
            guard let elements = tupleElements() else { return nil }
            base = .tuple(elements)
        default:
            return nil
        }
        return postfix(base)
    }

    mutating func postfix(_ base: SwiftType) -> SwiftType? {
        var postfixed = base
        while true {
            if expect("?") {
                postfixed = .optional(postfixed)
            } else if at("."), case .word(let member)? = peek() {
                i += 2
                guard let args = genericArguments() else { return nil }
                if case .named(var components) = postfixed {
                    components.append(.init(name: member, arguments: args))
                    postfixed = .named(components)
                } else {
                    // `[Int].Type`: a member of a non-name type, kept as a name whose first
                    // component is the type's text.
                    postfixed = .named([.init(name: postfixed.text, arguments: []), .init(name: member, arguments: args)])
                }
            } else {
                return postfixed
            }
        }
    }

    mutating func genericArguments() -> [SwiftType]? {
        guard expect("<") else { return [] }
        var args: [SwiftType] = []
        repeat {
            guard let argument = type() else { return nil }
            args.append(argument)
        } while expect(",")
        return expect(">") ? args : nil
    }

    mutating func tupleElements() -> [SwiftType.TupleElement]? {
        guard expect("(") else { return nil }
        var elements: [SwiftType.TupleElement] = []
        if expect(")") { return elements }
        repeat {
            var label: String? = nil
            if case .word(let name)? = current, peek() == .punct(":") {
                label = name
                i += 2
            } else if case .word(let firstWord)? = current, case .word(let secondWord)? = peek(), peek(2) == .punct(":") {
                label = firstWord + " " + secondWord
                i += 3
            }
            var specifier: String? = nil
            if case .word(let word)? = current, ["inout", "borrowing", "consuming", "sending"].contains(word), startsType(peek()) {
                specifier = word
                i += 1
            }
            guard let elementType = type() else { return nil }
            elements.append(.init(label: label, specifier: specifier, type: elementType))
        } while expect(",")
        return expect(")") ? elements : nil
    }
}

extension SwiftType {
    /// The type as Swift text (normalized as the model writes it).
    var text: String {
        switch self {
        case .named(let components):
            return components.map { c in c.arguments.isEmpty ? c.name : c.name + "<" + c.arguments.map(\.text).joined(separator: ", ") + ">" }
                .joined(separator: ".")
        case .optional(let inner): return (inner.needsParenthesesForOptional ? "(\(inner.text))" : inner.text) + "?"
        case .array(let inner): return "[\(inner.text)]"
        case .dictionary(let key, let value): return "[\(key.text): \(value.text)]"
        case .tuple(let elements): return "(" + elements.map(\.text).joined(separator: ", ") + ")"
        case .function(let parameters, let effects, let result):
            return "(" + parameters.map(\.text).joined(separator: ", ") + ")" + (effects.isEmpty ? "" : " " + effects) + " -> " + result.text
        case .prefixed(let word, let inner): return "\(word) \(inner.text)"
        case .composition(let parts): return parts.map(\.text).joined(separator: " & ")
        case .attributed(let attributes, let inner): return (attributes + [inner.text]).joined(separator: " ")
        }
    }
}

extension SwiftType.TupleElement {
    var text: String {
        (label.map { "\($0): " } ?? "") + (specifier.map { "\($0) " } ?? "") + type.text
    }
}
