import RoutesModel
import RoutesSyntax

/// What `MissingDependency` needs before its flows, found without any: the names that need
/// scope items, the way predecessors, which items no way from `root` reaches a user of
/// without passing where the item is gained (`regionFree`), and the items some way may reach
/// a user of without it, with their users (`needFlows`).
struct MissingDependencyPlan: Sendable {
    /// A name that needs scope items: `uses` entry `use` of node g (an index into the
    /// graph's `useTargets`), or the name of the `if let` g (`use` -1); its one or two items.
    struct Use: Sendable {
        var node: Int32
        var use: Int32
        var number: Int32
        var first: ScopeItemCode
        var second: ScopeItemCode
    }

    var uses: [Use]
    var regionFree: [Bool]
    var predecessors: ScopeItems.Predecessors? = nil
    var needFlows: [(item: Int, users: [Int32])] = []
    /// The items in `needFlows`, for the plan after an edit (which decides them again).
    var flowItems: [Int] = []
    /// Whether the plan was carried over an edit (`ScopeItems.carriedPlan`): for tests.
    var carried = false

    /// Decides item i from its users: free when no way from `root` reaches one of them
    /// without passing where the item is gained, else it needs a flow.
    mutating func decide(item i: Int, users mine: ArraySlice<Int32>, root: Int, _ predecessors: ScopeItems.Predecessors,
                         region: Region, popped: inout [Int32]) {
        // The region leaves out the edges that gain the item (a flow without it stops there):
        // when no way from `root` to a user avoids them, no flow is needed.
        ScopeItems.fillBackwardRegion(region, from: mine, predecessors, gaining: ScopeItemCode(raw: Int32(i)), popped: &popped)
        if region.contains(root) {
            needFlows.append((i, Array(mine)))
            flowItems.append(i)
        } else {
            regionFree[i] = true
        }
    }

    /// The smallest program whose plan is made on another core: below it, waking a thread
    /// costs more than the plan (a 10k-line program has about 4,500 nodes).
    static let nodesForConcurrentPlan = 16_384
}
