import RoutesModel
import RoutesSyntax

/// A directed graph over 0..<count in two flat arrays: the successors of v are
/// `targets[start[v]..<start[v + 1]]`.
struct Adjacency {
    var start: [Int32]
    var targets: [Int32]
    var count: Int { start.count - 1 }
    func neighbors(_ v: Int) -> ArraySlice<Int32> { targets[Int(start[v])..<Int(start[v + 1])] }
}

/// Strongly connected components in one flat list: component i is
/// `members[start[i]..<start[i + 1]]`.
struct Components: RandomAccessCollection {
    var members: [Int]
    var start: [Int]
    var startIndex: Int { 0 }
    var endIndex: Int { start.count - 1 }
    subscript(_ i: Int) -> ArraySlice<Int> { members[start[i]..<start[i + 1]] }
}
