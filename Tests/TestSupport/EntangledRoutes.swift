/// A `.routes` program whose exact analysis needs 2^pairs decision-diagram nodes: `pairs`
/// pairs of flags x_i, y_i; an `anyOf` whose first branches test every x alone (building `B`),
/// so that the xs are tested first; then one branch per pair, testing y_i and x_i together
/// and building `A`; then branches that test every y alone (building `B`), so that the ys are
/// tested last: whether the conditions are ordered by first or by last test, every y lies
/// on one side of every x. Then the branches `last` (written as given). The branches after
/// the pairs are masked with `¬(x1 ∧ y1) ∧ … ∧ ¬(xn ∧ yn)` for the element `A`, which has 2^n
/// nodes in such an order. Shared by the tests of the analysis limit in the analysis, CLI and
/// language-server targets.
public func entangledRoutes(pairs: Int, last: [String]) -> String {
    var lines = ["screen A", "screen B"]
    lines += (0..<pairs).map { "flag x\($0)" } + (0..<pairs).map { "flag y\($0)" }
    let branches = (0..<pairs).map { "    conditional x\($0) { screen B } else { empty }" }
        + (0..<pairs).map { "    conditional y\($0) { conditional x\($0) { screen A } else { empty } } else { empty }" }
        + (0..<pairs).map { "    conditional y\($0) { screen B } else { empty }" }
        + last.map { "    " + $0 }
    lines.append("root {\n  anyOf {\n" + branches.joined(separator: "\n") + "\n  }\n}")
    return lines.joined(separator: "\n") + "\n"
}

/// The same program without the branches that test an x or a y alone: each pair's flags are
/// then tested together only, neighbours in either variable order, and the analysis is
/// linear in the pairs.
public func untangledRoutes(pairs: Int, last: [String]) -> String {
    let single = Set((0..<pairs).flatMap { ["    conditional x\($0) { screen B } else { empty }", "    conditional y\($0) { screen B } else { empty }"] })
    return entangledRoutes(pairs: pairs, last: last).split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !single.contains(String($0)) }.joined(separator: "\n")
}
