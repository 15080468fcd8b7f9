#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far one program's exact analysis may grow before it stops (see `BDD.nodeLimit`).
///
/// The analyses are exponential in the worst case, so each program's decision diagrams get a
/// budget of new nodes, and 32 operation steps per node. A program is analysed first in the
/// variable layout that is smaller for most programs, within a trial budget; should that run
/// out, in the other layout with the whole budget (see `AnalysisLayout`). A program that
/// outgrows that too is reported with an error at its `root` (`AnalysisLimit`), and gets only
/// the checks that read no decision diagram; the other programs are not affected.
public struct AnalysisLimits: Sendable, Hashable {
    /// A fixed node budget per program, instead of the default (which grows with the program).
    public var nodes: Int?
    /// One layout only, with the whole budget (tests and fuzz oracles compare the layouts).
    public var layout: AnalysisLayout?

    public init(nodes: Int? = nil, layout: AnalysisLayout? = nil) {
        self.nodes = nodes.map { max($0, 1) }
        self.layout = layout
    }

    /// The default: 2^21 nodes, or 64 per node of the program's graph when that is more.
    /// Generated programs of 10,000 and 100,000 lines make about 7 nodes and 13 steps per
    /// graph node, so this leaves them a tenfold margin and more, and stops an entangled
    /// 50-line file in a few tenths of a second.
    public static let standard = AnalysisLimits()

    /// The node budget of a program whose graph has `graphNodes` nodes.
    func nodeBudget(graphNodes: Int) -> Int { nodes ?? max(1 << 21, graphNodes * 64) }

    /// The budget of the first layout's trial: 16 nodes per graph node (generated programs
    /// make 6 to 7), at least 2^14, at most the whole budget. A program that outgrows it pays
    /// for it once more at most, and a 20-flag menu that would need millions of nodes in that
    /// layout is let go after a few milliseconds.
    func trialBudget(graphNodes: Int) -> Int { min(nodeBudget(graphNodes: graphNodes), max(1 << 14, graphNodes * 16)) }

    /// The layouts to try in turn, each with its node budget: the smaller layout for most
    /// programs first (unless `hint`, the layout an earlier analysis of the program ended in,
    /// is the other), then the other with the whole budget.
    func attempts(graphNodes: Int, hint: Semantics.Layout?) -> [(layout: Semantics.Layout, nodes: Int)] {
        let whole = nodeBudget(graphNodes: graphNodes)
        if let layout { return [(layout, whole)] }
        if hint == .elementAbove { return [(.elementAbove, whole)] }
        return [(.conditionsAbove, trialBudget(graphNodes: graphNodes)), (.elementAbove, whole)]
    }

    /// The step budget that goes with a node budget.
    static func stepBudget(nodes: Int) -> Int { nodes &* 32 }

    /// The limits of this process: the default, or a fixed node budget from the environment
    /// variable `ROUTES_ANALYSIS_NODE_LIMIT` (a positive number), which the tests use to reach
    /// the limit with small programs, and which a user may raise for an unusual program.
    public static let configured: AnalysisLimits = {
        guard let raw = getenv("ROUTES_ANALYSIS_NODE_LIMIT"), let nodes = Int(String(cString: raw)), nodes > 0 else { return .standard }
        return AnalysisLimits(nodes: nodes)
    }()
}

/// Where the element's variables are in the order of a program's decision diagrams. Both
/// layouts give the same answers; which one stays small depends on the program (see
/// docs/dev/analysis.md). A lint tries them in turn (`AnalysisLimits`); tests and the fuzz
/// oracles force one to compare them.
public enum AnalysisLayout: Sendable, Hashable {
    /// The conditions on top, the element at the bottom: a set of pairs is a decision on
    /// the conditions whose outcomes are sets of elements, shared by every context that
    /// needs the same set (an `anyOf` takes each branch's screens out of "every element"
    /// once, whatever the conditions). The smaller layout for most programs, tried first.
    /// It grows exponentially when screens depend on their own conditions in one context:
    /// after `conditional f_i { screen S_i }` for i = 1…n, the later branches get "every
    /// element but the S_i whose f_i holds", a different set for each of the 2^n
    /// assignments.
    case conditionsAbove
    /// The element on top: a set of pairs is, per screen, a function of the conditions
    /// alone, so what one screen needs never multiplies with what another needs (the
    /// context above is "S_i only where not f_i", a node or two per screen). At most the
    /// screens' count times larger than the other layout, and larger by a constant factor
    /// on most programs (each condition split copies the element decision above it), so it
    /// is the fallback (see `ProgramAnalysis`).
    case elementAbove
}
