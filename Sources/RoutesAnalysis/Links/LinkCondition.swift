/// The condition under which something holds, over a program's flags and optionals, in
/// words: `always`, `never`, or a disjunction of conjunctions (`isPro && !detailStore ||
/// isLoggedIn`), without redundant terms where that is cheap.
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
    /// quantified away) stands for: the paths of its diagram to `one` as terms, then terms
    /// that differ in one literal merged, and terms another implies dropped.
    static func of(_ f: BDD.Ref, _ semantics: Semantics, names given: [Int: String]? = nil) -> LinkCondition {
        if f == BDD.zero { return .never }
        if f == BDD.one { return .always }
        let names = given ?? variableNames(semantics)
        var terms: [[Literal]] = []
        var stack: [(BDD.Ref, [Literal])] = [(f, [])]
        while let (g, term) = stack.popLast() {
            if g == BDD.one {
                terms.append(term)
                continue
            }
            guard let (variable, low, high) = semantics.bdd.top(g) else { continue }
            let name = names[variable] ?? "v\(variable)"
            if low != BDD.zero { stack.append((low, term + [Literal(name: name, holds: false)])) }
            if high != BDD.zero { stack.append((high, term + [Literal(name: name, holds: true)])) }
        }
        return simplified(terms)
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

    /// Terms without repeats: a literal dropped from a term while another term holds its
    /// opposite and otherwise only literals of the first (`c && x || d && c && !x` is
    /// `c && x || d && c`: where `d && c` holds, one of the two does; and `a && b || a && !b`
    /// is `a`) until none is left, then terms that another term's literals all appear in
    /// dropped. Each step takes a literal away, so it ends.
    static func simplified(_ terms: [[Literal]]) -> LinkCondition {
        var current = Set(terms.map { Set($0) })
        var merged = true
        while merged {
            merged = false
            let list = Array(current)
            search: for a in list {
                for b in list where a != b {
                    // A literal x of a whose opposite b holds, the rest of a within b.
                    for x in a {
                        let opposite = Literal(name: x.name, holds: !x.holds)
                        guard b.contains(opposite) else { continue }
                        var rest = a
                        rest.remove(x)
                        var shorter = b
                        shorter.remove(opposite)
                        guard rest.isSubset(of: shorter) else { continue }
                        current.remove(b)
                        current.insert(shorter)
                        merged = true
                        break search
                    }
                }
            }
        }
        if current.contains([]) { return .always }
        let kept = current.filter { term in !current.contains { other in other != term && other.isSubset(of: term) } }
        if kept.isEmpty { return .never }
        return .terms(kept.map { $0.sorted() }.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
