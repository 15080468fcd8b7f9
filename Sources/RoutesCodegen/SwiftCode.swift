/// Swift expressions as a tree, printed on one line when they fit and broken one argument a
/// line when they do not, so that generated code reads as hand-written code does.
indirect enum SwiftCode: Sendable {
    /// Text that is never broken.
    case atom(String)
    /// `callee(label: argument, ...)`.
    case call(String, [(label: String?, value: SwiftCode)])
    /// `{ head in statements; return result }` (`head` may be empty; `return` only after
    /// statements).
    case closure(head: String, statements: [String], result: SwiftCode)
    /// `callee { closure }`: a call whose one argument is a trailing closure.
    case trailing(String, SwiftCode)
    /// `code` followed by text (`.eraseCircularNavigationPath()`).
    case suffix(SwiftCode, String)
    /// `/* note */ code`.
    case note(String, SwiftCode)

    static let width = 110

    /// The code on one line, if it can be (a closure with statements cannot).
    var flat: String? {
        switch self {
        case .atom(let s): return s
        case .call(let callee, let args):
            var parts: [String] = []
            for a in args {
                guard let v = a.value.flat else { return nil }
                parts.append(a.label.map { "\($0): \(v)" } ?? v)
            }
            return callee + "(" + parts.joined(separator: ", ") + ")"
        case .closure(let head, let statements, let result):
            guard statements.isEmpty, let r = result.flat else { return nil }
            return head.isEmpty ? "{ \(r) }" : "{ \(head) in \(r) }"
        case .trailing(let callee, let closure): return closure.flat.map { "\(callee) \($0)" }
        case .suffix(let c, let s): return c.flat.map { $0 + s }
        case .note(let n, let c): return c.flat.map { "/* \(n) */ \($0)" }
        }
    }

    /// The code's lines: the first is to follow `column` characters already on its line; the
    /// others carry their own indentation (`indent` spaces for the closing bracket).
    func lines(indent: Int, column: Int) -> [String] {
        if let f = flat, column + f.count <= SwiftCode.width { return [f] }
        let pad = String(repeating: " ", count: indent + 4)
        let closing = String(repeating: " ", count: indent)
        switch self {
        case .atom(let s):
            return [s]
        case .call(let callee, let args):
            if args.isEmpty { return [callee + "()"] }
            var out = [callee + "("]
            for (k, a) in args.enumerated() {
                let prefix = pad + (a.label.map { "\($0): " } ?? "")
                var sub = a.value.lines(indent: indent + 4, column: prefix.count)
                sub[0] = prefix + sub[0]
                if k < args.count - 1 { sub[sub.count - 1] += "," }
                out += sub
            }
            out.append(closing + ")")
            return out
        case .closure(let head, let statements, let result):
            var out = [head.isEmpty ? "{" : "{ \(head) in"]
            for s in statements { out.append(pad + s) }
            let lead = statements.isEmpty ? "" : "return "
            var sub = result.lines(indent: indent + 4, column: pad.count + lead.count)
            sub[0] = pad + lead + sub[0]
            out += sub
            out.append(closing + "}")
            return out
        case .trailing(let callee, let closure):
            var sub = closure.lines(indent: indent, column: column + callee.count + 1)
            sub[0] = callee + " " + sub[0]
            return sub
        case .suffix(let c, let s):
            var sub = c.lines(indent: indent, column: column)
            sub[sub.count - 1] += s
            return sub
        case .note(let n, let c):
            let text = "/* \(n) */ "
            var sub = c.lines(indent: indent, column: column + text.count)
            sub[0] = text + sub[0]
            return sub
        }
    }
}
