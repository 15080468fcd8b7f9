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
        var p = TypeTextParser(text)
        guard let t = p.type(), p.atEnd else { return nil }
        self = t
    }

    /// The type itself, without parentheses around a single element.
    var unparenthesized: SwiftType {
        if case .tuple(let es) = self, es.count == 1, es[0].label == nil, es[0].specifier == nil {
            return es[0].type.unparenthesized
        }
        return self
    }

    /// A function type, possibly with attributes or in parentheses (not an optional one).
    var isFunction: Bool {
        switch unparenthesized {
        case .function: return true
        case .attributed(_, let t): return t.isFunction
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
        case .named(let cs):
            if cs.count > 1, let last = cs.last?.name, last == "Type" || last == "Protocol" { return "a metatype" }
            for c in cs {
                for a in c.arguments { if let p = a.hashabilityProblem { return p } }
            }
            return nil
        case .optional(let t), .array(let t): return t.hashabilityProblem
        case .dictionary(let k, let v): return k.hashabilityProblem ?? v.hashabilityProblem
        case .tuple: return "a tuple"
        case .function: return "a function type"
        case .prefixed(let word, _): return word == "some" ? "an opaque type (`some`)" : "an existential (`any`)"
        case .composition: return "a protocol composition"
        case .attributed(_, let t): return t.hashabilityProblem
        }
    }

    /// Whether `some` appears anywhere (an opaque type cannot be the type of a property
    /// requirement, nor of a value the generated code stores).
    var containsOpaque: Bool {
        switch self {
        case .named(let cs): return cs.contains { $0.arguments.contains(where: \.containsOpaque) }
        case .optional(let t), .array(let t), .attributed(_, let t): return t.containsOpaque
        case .dictionary(let k, let v): return k.containsOpaque || v.containsOpaque
        case .tuple(let es): return es.contains { $0.type.containsOpaque }
        case .function(let ps, _, let r): return ps.contains { $0.type.containsOpaque } || r.containsOpaque
        case .prefixed(let word, let t): return word == "some" || t.containsOpaque
        case .composition(let ts): return ts.contains(where: \.containsOpaque)
        }
    }

    /// The attributes written before the type itself (`@Sendable` of `@Sendable () -> Void`).
    var outerAttributes: [String] {
        if case .attributed(let a, let t) = self { return a + t.outerAttributes }
        return []
    }

    /// The type with the first component of its type names renamed (`Home.Store` ->
    /// `AppRoutesHome.Store` for `["Home": "AppRoutesHome"]`).
    func renaming(_ names: [String: String]) -> SwiftType {
        func element(_ e: TupleElement) -> TupleElement {
            TupleElement(label: e.label, specifier: e.specifier, type: e.type.renaming(names))
        }
        switch self {
        case .named(let cs):
            var out = cs.map { NameComponent(name: $0.name, arguments: $0.arguments.map { $0.renaming(names) }) }
            if let first = out.first?.name, let renamed = names[first] { out[0].name = renamed }
            return .named(out)
        case .optional(let t): return .optional(t.renaming(names))
        case .array(let t): return .array(t.renaming(names))
        case .dictionary(let k, let v): return .dictionary(k.renaming(names), v.renaming(names))
        case .tuple(let es): return .tuple(es.map(element))
        case .function(let ps, let effects, let r):
            var e = effects
            if let open = e.firstRange(of: "throws("), e.hasSuffix(")"),
               let thrown = SwiftType(parsing: String(e[open.upperBound..<e.index(before: e.endIndex)])) {
                e = e[..<open.upperBound] + thrown.renaming(names).text + ")"
            }
            return .function(parameters: ps.map(element), effects: e, result: r.renaming(names))
        case .prefixed(let w, let t): return .prefixed(w, t.renaming(names))
        case .composition(let ts): return .composition(ts.map { $0.renaming(names) })
        case .attributed(let a, let t): return .attributed(a, t.renaming(names))
        }
    }

    /// The first component of every type name the type mentions (`Foo` and `Bar` of
    /// `Foo.Baz<Bar>`): the names a generated type of the same spelling would hide.
    var typeNames: [String] {
        var out: [String] = []
        func walk(_ t: SwiftType) {
            switch t {
            case .named(let cs):
                if let first = cs.first { out.append(first.name) }
                for c in cs { c.arguments.forEach(walk) }
            case .optional(let t), .array(let t), .prefixed(_, let t), .attributed(_, let t): walk(t)
            case .dictionary(let k, let v):
                walk(k)
                walk(v)
            case .tuple(let es): es.forEach { walk($0.type) }
            case .function(let ps, _, let r):
                ps.forEach { walk($0.type) }
                walk(r)
            case .composition(let ts): ts.forEach(walk)
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
        let s = Array(text.unicodeScalars)
        var k = 0
        func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }
        while k < s.count {
            let c = s[k]
            if c == " " {
                k += 1
            } else if c == "@" || isWord(c) {
                var j = k + 1
                while j < s.count && isWord(s[j]) { j += 1 }
                let w = String(String.UnicodeScalarView(s[k..<j]))
                tokens.append(c == "@" ? .attribute(w) : .word(w))
                k = j
            } else if c == "-" && k + 1 < s.count && s[k + 1] == ">" {
                tokens.append(.punct("->"))
                k += 2
            } else {
                tokens.append(.punct(String(c)))
                k += 1
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
        while case .attribute(let a)? = current {
            attributes.append(a)
            i += 1
        }
        guard let t = bareType() else { return nil }
        return attributes.isEmpty ? t : .attributed(attributes, t)
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
                        guard let e = type(), expect(")") else { return nil }
                        effects.append("throws(\(e.text))")
                    } else {
                        effects.append("throws")
                    }
                }
                guard expect("->"), let result = type() else { return nil }
                return .function(parameters: elements, effects: effects.joined(separator: " "), result: result)
            }
            guard let t = postfix(.tuple(elements)) else { return nil }
            return composition(t)
        }
        if case .word(let w)? = current, w == "any" || w == "some", startsType(peek()) {
            i += 1
            guard let first = postfixType(), let t = composition(first) else { return nil }
            return .prefixed(w, t)
        }
        guard let first = postfixType() else { return nil }
        return composition(first)
    }

    mutating func composition(_ first: SwiftType) -> SwiftType? {
        var parts = [first]
        while expect("&") {
            guard let t = postfixType() else { return nil }
            parts.append(t)
        }
        return parts.count == 1 ? first : .composition(parts)
    }

    mutating func postfixType() -> SwiftType? {
        let base: SwiftType
        switch current {
        case .word(let w)?:
            i += 1
            guard let args = genericArguments() else { return nil }
            base = .named([.init(name: w, arguments: args)])
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
            guard let es = tupleElements() else { return nil }
            base = .tuple(es)
        default:
            return nil
        }
        return postfix(base)
    }

    mutating func postfix(_ base: SwiftType) -> SwiftType? {
        var t = base
        while true {
            if expect("?") {
                t = .optional(t)
            } else if at("."), case .word(let w)? = peek() {
                i += 2
                guard let args = genericArguments() else { return nil }
                if case .named(var cs) = t {
                    cs.append(.init(name: w, arguments: args))
                    t = .named(cs)
                } else {
                    // `[Int].Type`: a member of a non-name type, kept as a name whose first
                    // component is the type's text.
                    t = .named([.init(name: t.text, arguments: []), .init(name: w, arguments: args)])
                }
            } else {
                return t
            }
        }
    }

    mutating func genericArguments() -> [SwiftType]? {
        guard expect("<") else { return [] }
        var args: [SwiftType] = []
        repeat {
            guard let t = type() else { return nil }
            args.append(t)
        } while expect(",")
        return expect(">") ? args : nil
    }

    mutating func tupleElements() -> [SwiftType.TupleElement]? {
        guard expect("(") else { return nil }
        var elements: [SwiftType.TupleElement] = []
        if expect(")") { return elements }
        repeat {
            var label: String? = nil
            if case .word(let a)? = current, peek() == .punct(":") {
                label = a
                i += 2
            } else if case .word(let a)? = current, case .word(let b)? = peek(), peek(2) == .punct(":") {
                label = a + " " + b
                i += 3
            }
            var specifier: String? = nil
            if case .word(let w)? = current, ["inout", "borrowing", "consuming", "sending"].contains(w), startsType(peek()) {
                specifier = w
                i += 1
            }
            guard let t = type() else { return nil }
            elements.append(.init(label: label, specifier: specifier, type: t))
        } while expect(",")
        return expect(")") ? elements : nil
    }
}

extension SwiftType {
    /// The type as Swift text (normalized as the model writes it).
    var text: String {
        switch self {
        case .named(let cs):
            return cs.map { c in c.arguments.isEmpty ? c.name : c.name + "<" + c.arguments.map(\.text).joined(separator: ", ") + ">" }
                .joined(separator: ".")
        case .optional(let t): return (t.needsParenthesesForOptional ? "(\(t.text))" : t.text) + "?"
        case .array(let t): return "[\(t.text)]"
        case .dictionary(let k, let v): return "[\(k.text): \(v.text)]"
        case .tuple(let es): return "(" + es.map(\.text).joined(separator: ", ") + ")"
        case .function(let ps, let effects, let r):
            return "(" + ps.map(\.text).joined(separator: ", ") + ")" + (effects.isEmpty ? "" : " " + effects) + " -> " + r.text
        case .prefixed(let w, let t): return "\(w) \(t.text)"
        case .composition(let ts): return ts.map(\.text).joined(separator: " & ")
        case .attributed(let a, let t): return (a + [t.text]).joined(separator: " ")
        }
    }
}

extension SwiftType.TupleElement {
    var text: String {
        (label.map { "\($0): " } ?? "") + (specifier.map { "\($0) " } ?? "") + type.text
    }
}
