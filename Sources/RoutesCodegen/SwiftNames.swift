/// Spelling Routes names as Swift identifiers.
public enum SwiftNames {
    /// Words that Swift reserves somewhere a generated name may stand (declarations,
    /// statements, expressions, types), and contextual ones that misread in some places:
    /// such a name is written in backticks. Backticks are always allowed, so the list errs
    /// on the side of escaping.
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_", "Type", "Protocol", "some", "any", "async", "package",
        "consume", "copy", "discard", "each", "borrowing", "consuming", "sending",
    ]

    /// Names that no backticks make usable where the generated code puts them: `self` as a
    /// member (`x.self` is the value itself), `_` as a label (it means none).
    static let unusable: Set<String> = ["self", "_"]

    /// The name as an argument label: keywords need no backticks there, except these.
    public static func label(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// The name as a Swift identifier: in backticks when Swift reserves it.
    public static func escaped(_ name: String) -> String {
        reserved.contains(name) ? "`\(name)`" : name
    }

    /// `detail` -> `Detail`: a type name in Swift's style.
    static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// `Detail` -> `detail`, `URLPage` -> `urlPage`, `HTTP` -> `http`: a method name in
    /// Swift's style (a leading acronym lowercased as a whole).
    static func lowerCamel(_ name: String) -> String {
        let chars = Array(name)
        var upper = 0
        while upper < chars.count && chars[upper].isUppercase { upper += 1 }
        if upper == 0 { return name }
        // `URLPage`: the `P` begins the next word.
        let cut = upper < chars.count && upper > 1 && chars[upper].isLetter ? upper - 1 : upper
        return String(chars[..<cut]).lowercased() + String(chars[cut...])
    }

    /// The namespace of a program, from its root file's name: `App.routes` -> `AppRoutes`,
    /// `my-app.routes` -> `MyAppRoutes`, `2fa.routes` -> `_2faRoutes`.
    static func namespace(forFile path: String) -> String {
        var base = Substring(path.split(separator: "/").last ?? Substring(path))
        if base.hasSuffix(".routes") { base = base.dropLast(7) }
        var out = ""
        var upperNext = true
        for scalar in base.unicodeScalars {
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isDigit = ("0"..."9").contains(scalar)
            if isLetter || isDigit || scalar == "_" {
                out += upperNext ? String(scalar).uppercased() : String(scalar)
                upperNext = false
            } else {
                upperNext = true
            }
        }
        if out.isEmpty { out = "App" }
        if let first = out.unicodeScalars.first, ("0"..."9").contains(first) { out = "_" + out }
        return out.hasSuffix("Routes") ? out : out + "Routes"
    }
}
