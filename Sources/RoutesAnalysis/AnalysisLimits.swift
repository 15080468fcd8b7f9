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
/// out, in the other layout with the whole budget (see `AnalysisLayout`), and then with the
/// conditions in another order (see `ConditionOrdering`). A program that outgrows that too is
/// reported with an error at its `root` (`AnalysisLimit`), and gets only
/// the checks that read no decision diagram; the other programs are not affected.
public struct AnalysisLimits: Sendable, Hashable {
    /// A fixed node budget per program, instead of the default (which grows with the program).
    public var nodes: Int?
    /// One layout only, with the whole budget (tests and fuzz oracles compare the layouts).
    public var layout: AnalysisLayout?
    /// One order of the conditions only (tests compare the orders): with `layout`, that layout
    /// in that order; else both layouts in turn, in that order.
    public var ordering: ConditionOrdering?

    public init(nodes: Int? = nil, layout: AnalysisLayout? = nil, ordering: ConditionOrdering? = nil) {
        self.nodes = nodes.map { max($0, 1) }
        self.layout = layout
        self.ordering = ordering
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

    /// One way to analyse a program: a layout, an order of the conditions and a node budget.
    struct Attempt: Equatable {
        var layout: Semantics.Layout
        var ordering: ConditionOrdering
        var nodes: Int
    }

    /// The ways to try in turn: the smaller layout for most programs first, within the trial
    /// budget, then the other with the whole budget; then, should both run out, the conditions
    /// in the other order (`ConditionOrdering.lastTest`) with the whole budget. After an
    /// analysis that ended in the second layout (`hint`), that layout with the whole budget,
    /// in the order it ended in first, then in the other.
    func attempts(graphNodes: Int, hint: (layout: Semantics.Layout, ordering: ConditionOrdering)?) -> [Attempt] {
        let whole = nodeBudget(graphNodes: graphNodes)
        if let layout { return [Attempt(layout: layout, ordering: ordering ?? .firstTest, nodes: whole)] }
        if let ordering {
            return [Attempt(layout: .conditionsAbove, ordering: ordering, nodes: trialBudget(graphNodes: graphNodes)),
                    Attempt(layout: .elementAbove, ordering: ordering, nodes: whole)]
        }
        let first = Attempt(layout: .elementAbove, ordering: .firstTest, nodes: whole)
        let last = Attempt(layout: .elementAbove, ordering: .lastTest, nodes: whole)
        if let hint, hint.layout == .elementAbove { return hint.ordering == .lastTest ? [last, first] : [first, last] }
        return [Attempt(layout: .conditionsAbove, ordering: .firstTest, nodes: trialBudget(graphNodes: graphNodes)), first, last]
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

/// How the conditions are ordered among a program's decision-diagram variables. Any order
/// gives the same answers; which one stays small depends on the program (see
/// docs/dev/analysis.md, Variable order).
public enum ConditionOrdering: Sendable, Hashable {
    /// By where the routing tree first tests each condition, the last first-tested on top:
    /// conditions tested together, nested, are neighbours. Tried first.
    case firstTest
    /// By where the routing tree last tests each, the last on top: conditions each first
    /// tested alone and then tested together, nested, later on (`conditional campaign_i {…}`
    /// branches, then `conditional region_i { conditional campaign_i {…} }` ones) are
    /// neighbours, where the first order puts every one of one kind above every one of the
    /// other, which grows exponentially with the pairs. Tried when the first order runs out.
    case lastTest
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
