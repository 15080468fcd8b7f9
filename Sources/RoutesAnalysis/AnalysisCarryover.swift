import RoutesModel
import RoutesSyntax

/// The decision-diagram manager of a program's previous analysis, and the layout and order of
/// the conditions that analysis ended in (see `AnalysisLimits.attempts`).
struct ManagerCarryover {
    let bdd: BDD
    let layout: Semantics.Layout
    let ordering: ConditionOrdering
}

/// A program's previous analysis, when its graph was patched over an edit: the global ids of
/// the nodes the patch resolved again, and what the new analysis may take from the old one
/// for everything else (see `Semantics.Carryover` and `ProgramChecker.Carryover`).
struct AnalysisCarryover {
    var semantics: Semantics
    var checker: ProgramChecker?
    var edited: EditedNodes
}

/// The global ids of the nodes an edit resolved again: the edited declaration's, and after a
/// rename every node of the files that see it (see `BuilderGraph.patched(onto:splice:)`).
struct EditedNodes: Sequence {
    var runs: [Range<Int>]
    /// Whether every declaration kept its name: then each name outside the edited
    /// declaration's nodes resolves as before (no file was resolved again).
    var namesKept: Bool
    /// The edited file, and after a rename the files that see the renamed declaration (some
    /// of whose names were resolved again, see `NodeSplice.resolvedNodes`).
    var files: [FileID] = []
    var isEmpty: Bool { runs.allSatisfy(\.isEmpty) }
    /// Past the last id.
    var upperBound: Int { runs.map(\.upperBound).max() ?? 0 }
    func contains(_ g: Int) -> Bool { runs.contains { $0.contains(g) } }
    func makeIterator() -> FlattenSequence<[Range<Int>]>.Iterator { runs.joined().makeIterator() }
}
