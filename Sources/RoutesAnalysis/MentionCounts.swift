import RoutesModel
import RoutesSyntax

/// How many times each declaration (by number) is mentioned: `contains` when at least once.
struct MentionCounts {
    private var counts: [Int32]
    init(count: Int) { counts = [Int32](repeating: 0, count: count) }
    var count: Int { counts.count }
    func contains(_ n: Int) -> Bool { counts[n] > 0 }
    mutating func add(_ n: Int) { counts[n] += 1 }
    mutating func remove(_ n: Int) { counts[n] -= 1 }
}
