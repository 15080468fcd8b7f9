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
        case .atom(let text): return text
        case .call(let callee, let args):
            var parts: [String] = []
            for argument in args {
                guard let flatValue = argument.value.flat else { return nil }
                parts.append(argument.label.map { "\($0): \(flatValue)" } ?? flatValue)
            }
            return callee + "(" + parts.joined(separator: ", ") + ")"
        case .closure(let head, let statements, let result):
            guard statements.isEmpty, let flatResult = result.flat else { return nil }
            return head.isEmpty ? "{ \(flatResult) }" : "{ \(head) in \(flatResult) }"
        case .trailing(let callee, let closure): return closure.flat.map { "\(callee) \($0)" }
        case .suffix(let code, let text): return code.flat.map { $0 + text }
        case .note(let note, let code): return code.flat.map { "/* \(note) */ \($0)" }
        }
    }

    /// The code's lines: the first is to follow `column` characters already on its line; the
    /// others carry their own indentation (`indent` spaces for the closing bracket).
    func lines(indent: Int, column: Int) -> [String] {
        if let line = flat, column + line.count <= SwiftCode.width { return [line] }
        let pad = String(repeating: " ", count: indent + 4)
        let closing = String(repeating: " ", count: indent)
        switch self {
        case .atom(let text):
            return [text]
        case .call(let callee, let args):
            if args.isEmpty { return [callee + "()"] }
            var out = [callee + "("]
            for (index, argument) in args.enumerated() {
                let prefix = pad + (argument.label.map { "\($0): " } ?? "")
                var sub = argument.value.lines(indent: indent + 4, column: prefix.count)
                sub[0] = prefix + sub[0]
                if index < args.count - 1 { sub[sub.count - 1] += "," }
                out += sub
            }
            out.append(closing + ")")
            return out
        case .closure(let head, let statements, let result):
            var out = [head.isEmpty ? "{" : "{ \(head) in"]
            for statement in statements { out.append(pad + statement) }
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
        case .suffix(let code, let text):
            var sub = code.lines(indent: indent, column: column)
            sub[sub.count - 1] += text
            return sub
        case .note(let note, let code):
            let text = "/* \(note) */ "
            var sub = code.lines(indent: indent, column: column + text.count)
            sub[0] = text + sub[0]
            return sub
        }
    }
}
