@testable import RoutesCodegen
import RoutesModel

/// Declarations for the types a program's declarations name (`AppStore`, `Product.ID`,
/// `Result<Int, LoadError>`, `any Draft & Sendable`), so that the generated code compiles on
/// its own: a name used after `any` or `some` or in a composition is an empty protocol, any
/// other an empty `Hashable` struct (also an `Error`, for `Result` and typed throws, and
/// `LosslessStringConvertible`, for a link's placeholder) with its
/// members and generic parameters as used.
struct Stubs: Sendable {
    /// Names the standard library (or the stand-in) already has.
    static let known: Set<String> = [
        "String", "Int", "Bool", "Double", "Float", "Character", "UInt", "Int8", "Int16", "Int32", "Int64",
        "UInt8", "UInt16", "UInt32", "UInt64", "Set", "Array", "Dictionary", "Optional", "Result", "Void", "Never",
        "Any", "AnyObject", "Error", "Hashable", "Equatable", "Sendable", "Codable", "Comparable", "Identifiable",
        "Substring", "AnyHashable", "Swift", "Self", "Range", "ClosedRange",
        // Foundation's, which the generated code reads with their own initializers
        // (`UUID(uuidString:)`, `URL(string:)`) and imports Foundation for.
        "UUID", "URL",
    ]

    final class Node: @unchecked Sendable {
        var isProtocol = false
        var isType = false
        var arity = 0
        var members: [String: Node] = [:]
    }

    var roots: [String: Node] = [:]

    /// Adds the types of a program's declarations.
    mutating func add(project: Project, program: Program) {
        for f in program.files {
            for d in project.files[f].model.declarations {
                for text in d.parameters.map(\.type) + [d.type].compactMap({ $0 }) {
                    if let t = SwiftType(parsing: text) { add(t, asProtocol: false) }
                }
            }
        }
    }

    mutating func add(_ t: SwiftType, asProtocol: Bool) {
        switch t {
        case .named(let cs):
            guard let first = cs.first, !Self.known.contains(first.name) else {
                for c in cs { for a in c.arguments { add(a, asProtocol: false) } }
                return
            }
            let root = roots[first.name] ?? Node()
            roots[first.name] = root
            var node = root
            for (k, c) in cs.enumerated() {
                if k > 0 {
                    if k == cs.count - 1 && (c.name == "Type" || c.name == "Protocol") { break }
                    let next = node.members[c.name] ?? Node()
                    node.members[c.name] = next
                    node = next
                    node.isType = true
                }
                node.arity = max(node.arity, c.arguments.count)
                for a in c.arguments { add(a, asProtocol: false) }
            }
            if cs.count == 1 && asProtocol { root.isProtocol = true } else { root.isType = true }
        case .optional(let t), .array(let t), .attributed(_, let t): add(t, asProtocol: false)
        case .dictionary(let k, let v):
            add(k, asProtocol: false)
            add(v, asProtocol: false)
        case .tuple(let es): for e in es { add(e.type, asProtocol: false) }
        case .function(let ps, let effects, let r):
            for p in ps { add(p.type, asProtocol: false) }
            add(r, asProtocol: false)
            if let open = effects.firstIndex(of: "("), let t = SwiftType(parsing: String(effects[effects.index(after: open)..<effects.index(before: effects.endIndex)])) {
                add(t, asProtocol: false)
            }
        case .prefixed(_, let t): add(t, asProtocol: true)
        case .composition(let ts): for t in ts { add(t, asProtocol: true) }
        }
    }

    /// Whether two sets of stubs can be declared together (no name is a protocol in one and
    /// a type in the other, or generic with another arity).
    func isCompatible(with other: Stubs) -> Bool {
        func compatible(_ a: Node, _ b: Node) -> Bool {
            if (a.isProtocol && b.isType) || (a.isType && b.isProtocol) || (a.isProtocol && !a.members.isEmpty) { return false }
            if a.arity != b.arity && (a.isType || a.isProtocol) && (b.isType || b.isProtocol) { return false }
            for (name, m) in a.members { if let n = b.members[name], !compatible(m, n) { return false } }
            return true
        }
        for (name, a) in roots { if let b = other.roots[name], !compatible(a, b) { return false } }
        return true
    }

    mutating func merge(_ other: Stubs) {
        func merge(_ a: Node, _ b: Node) {
            a.isProtocol = a.isProtocol || b.isProtocol
            a.isType = a.isType || b.isType
            a.arity = max(a.arity, b.arity)
            for (name, m) in b.members {
                if let n = a.members[name] { merge(n, m) } else { a.members[name] = m }
            }
        }
        for (name, b) in other.roots {
            if let a = roots[name] { merge(a, b) } else { roots[name] = b }
        }
    }

    /// The declarations, in name order.
    var source: String { source(access: "") }

    /// The declarations with an access modifier (`"public "`).
    func source(access: String) -> String {
        func declare(_ name: String, _ node: Node, indent: String) -> [String] {
            if node.isProtocol && !node.isType { return ["\(indent)\(access)protocol \(name) {}"] }
            let generics = node.arity == 0 ? "" : "<" + (0..<node.arity).map { "T\($0)" }.joined(separator: ", ") + ">"
            // (LosslessStringConvertible: a link's placeholder of an app's type is parsed
            // through it.)
            var lines = ["\(indent)\(access)struct \(name)\(generics): Hashable, Sendable, Error, LosslessStringConvertible {"]
            lines.append("\(indent)    \(access)init() {}")
            lines.append("\(indent)    \(access)init?(_ description: String) { nil }")
            lines.append("\(indent)    \(access)var description: String { \"\" }")
            for (m, n) in node.members.sorted(by: { $0.key < $1.key }) { lines += declare(m, n, indent: indent + "    ") }
            lines.append("\(indent)}")
            return lines
        }
        return roots.sorted { $0.key < $1.key }.flatMap { declare($0.key, $0.value, indent: "") }.joined(separator: "\n") + "\n"
    }
}
