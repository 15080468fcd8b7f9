/// A `.routes` program whose exact analysis needs 2^pairs decision-diagram nodes: `pairs`
/// pairs of flags, every x declared before every y, each pair tested together in an `anyOf`
/// branch that builds `A`, followed by the branches `last` (written as given). Shared by the
/// tests of the analysis budget in the analysis, CLI and language-server targets.
public func entangledRoutes(pairs: Int, last: [String]) -> String {
    var lines = ["screen A", "screen B"]
    lines += (0..<pairs).map { "flag x\($0)" } + (0..<pairs).map { "flag y\($0)" }
    let branches = (0..<pairs).map { "    conditional x\($0) { conditional y\($0) { screen A } else { empty } } else { empty }" }
        + last.map { "    " + $0 }
    lines.append("root {\n  anyOf {\n" + branches.joined(separator: "\n") + "\n  }\n}")
    return lines.joined(separator: "\n") + "\n"
}
