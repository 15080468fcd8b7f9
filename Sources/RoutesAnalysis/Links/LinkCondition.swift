/// The condition under which something holds, over a program's flags and optionals, in
/// words: `always`, `never`, or a disjunction of conjunctions (`isPro && !detailStore ||
/// isLoggedIn`) with no term or literal that could be left out (`Cover`).
public enum LinkCondition: Sendable, Hashable, CustomStringConvertible {
    case always
    case never
    /// Each term a conjunction of literals: a condition's name and whether it holds.
    case terms([[Literal]])

    public struct Literal: Sendable, Hashable, Comparable {
        public var name: String
        public var holds: Bool

        public static func < (a: Literal, b: Literal) -> Bool { a.name != b.name ? a.name < b.name : a.holds && !b.holds }
    }

    public var description: String {
        switch self {
        case .always: return "always"
        case .never: return "never"
        case .terms(let terms):
            return terms.map { term in term.map { ($0.holds ? "" : "!") + $0.name }.joined(separator: " && ") }
                .joined(separator: " || ")
        }
    }

    /// The condition a function over a semantics's condition variables (element variables
    /// quantified away) stands for: an irredundant cover of it (`Cover`), each term's
    /// literals in order of name, the terms in order.
    static func of(_ f: BDD.Ref, _ semantics: Semantics, names given: [Int: String]? = nil) -> LinkCondition {
        if f == BDD.zero { return .never }
        if f == BDD.one { return .always }
        let names = given ?? variableNames(semantics)
        var cover = Cover()
        let local = cover.copy(f, from: semantics.bdd)
        let terms = cover.irredundant(local, local).terms.map { term in
            term.map { Literal(name: names[Int($0.variable)] ?? "v\($0.variable)", holds: $0.holds) }.sorted()
        }
        if terms.contains(where: \.isEmpty) { return .always }
        return terms.isEmpty ? .never : .terms(terms.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// The name of each condition's variable.
    static func variableNames(_ semantics: Semantics) -> [Int: String] {
        var names: [Int: String] = [:]
        let graph = semantics.graph
        for (condition, variable) in semantics.variableOfCondition.enumerated() {
            switch graph.conditions[condition] {
            case .symbol(let s): names[Int(variable)] = graph.project.declaration(s).name.text
            case .unknown(let text): names[Int(variable)] = text
            }
        }
        return names
    }
}

/// A condition written as a disjunction of conjunctions, without redundancy: the recursive
/// irredundant sum-of-products construction of Minato and Morreale over a small decision
/// diagram of its own (the function is copied out of the semantics's manager, which is not
/// written to: another thread may be working in it, and its node budget is the analysis's).
/// No term of the result is implied by the others, and no literal can be dropped from a term;
/// the work grows with the diagram and the terms written, where merging the diagram's paths
/// pairwise grew with the cube of their number (a path whose screens are each built under
/// `f || g` has 2^k of them).
struct Cover {
    struct Node: Hashable {
        var variable: Int32
        var low: Int32
        var high: Int32
    }
    typealias Term = [(variable: Int32, holds: Bool)]

    static let zero: Int32 = 0
    static let one: Int32 = 1
    /// The constants' variable: below every variable.
    private static let bottom = Int32.max

    private var nodes: [Node] = [Node(variable: bottom, low: 0, high: 0), Node(variable: bottom, low: 1, high: 1)]
    private var unique: [Node: Int32] = [:]
    private var andMemo: [Pair: Int32] = [:]
    private var notMemo: [Int32: Int32] = [:]
    private var coverMemo: [Pair: (terms: [Term], function: Int32)] = [:]

    private struct Pair: Hashable {
        var a: Int32
        var b: Int32
    }

    private mutating func make(_ variable: Int32, _ low: Int32, _ high: Int32) -> Int32 {
        if low == high { return low }
        let node = Node(variable: variable, low: low, high: high)
        if let ref = unique[node] { return ref }
        let ref = Int32(nodes.count)
        nodes.append(node)
        unique[node] = ref
        return ref
    }

    /// `f` of `bdd`, copied into this diagram (the same variables, the same order).
    mutating func copy(_ f: BDD.Ref, from bdd: BDD) -> Int32 {
        var copied: [BDD.Ref: Int32] = [BDD.zero: Self.zero, BDD.one: Self.one]
        func walk(_ g: BDD.Ref) -> Int32 {
            if let done = copied[g] { return done }
            guard let (variable, low, high) = bdd.top(g) else { return Self.zero }
            let result = make(Int32(variable), walk(low), walk(high))
            copied[g] = result
            return result
        }
        return walk(f)
    }

    private func cofactors(_ f: Int32, _ variable: Int32) -> (Int32, Int32) {
        let node = nodes[Int(f)]
        return node.variable == variable ? (node.low, node.high) : (f, f)
    }

    mutating func not(_ f: Int32) -> Int32 {
        if f == Self.zero { return Self.one }
        if f == Self.one { return Self.zero }
        if let done = notMemo[f] { return done }
        let node = nodes[Int(f)]
        let result = make(node.variable, not(node.low), not(node.high))
        notMemo[f] = result
        return result
    }

    mutating func and(_ a: Int32, _ b: Int32) -> Int32 {
        if a == Self.zero || b == Self.zero { return Self.zero }
        if a == Self.one { return b }
        if b == Self.one || a == b { return a }
        let key = Pair(a: min(a, b), b: max(a, b))
        if let done = andMemo[key] { return done }
        let variable = min(nodes[Int(a)].variable, nodes[Int(b)].variable)
        let (a0, a1) = cofactors(a, variable), (b0, b1) = cofactors(b, variable)
        let result = make(variable, and(a0, b0), and(a1, b1))
        andMemo[key] = result
        return result
    }

    /// a ∨ b, as ¬(¬a ∧ ¬b): the diagrams are small, and `not` is remembered.
    mutating func or(_ a: Int32, _ b: Int32) -> Int32 {
        not(and(not(a), not(b)))
    }

    /// An irredundant cover of some function between `lower` and `upper` (lower implies
    /// upper): its terms, and the function they stand for. On the top variable v: the terms
    /// that need ¬v cover what of the lower bound's ¬v half the upper bound's v half does
    /// not; the terms that need v, the converse; the terms without v, what is left of both
    /// halves, within where both halves of the upper bound hold.
    mutating func irredundant(_ lower: Int32, _ upper: Int32) -> (terms: [Term], function: Int32) {
        if lower == Self.zero { return ([], Self.zero) }
        if upper == Self.one { return ([[]], Self.one) }
        let key = Pair(a: lower, b: upper)
        if let done = coverMemo[key] { return done }
        let variable = min(nodes[Int(lower)].variable, nodes[Int(upper)].variable)
        let (lower0, lower1) = cofactors(lower, variable), (upper0, upper1) = cofactors(upper, variable)
        let without = irredundant(and(lower0, not(upper1)), upper0)
        let with = irredundant(and(lower1, not(upper0)), upper1)
        let rest = or(and(lower0, not(without.function)), and(lower1, not(with.function)))
        let either = irredundant(rest, and(upper0, upper1))
        var terms = without.terms.map { $0 + [(variable, false)] }
        terms += with.terms.map { $0 + [(variable, true)] }
        terms += either.terms
        let function = make(variable, or(without.function, either.function), or(with.function, either.function))
        coverMemo[key] = (terms, function)
        return (terms, function)
    }
}
