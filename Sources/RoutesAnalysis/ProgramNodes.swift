import RoutesModel
import RoutesSyntax

/// The builder nodes of one program's files in a numbering of their own (slots
/// 0..<count), so that what a program's analysis keeps per node is sized by the program,
/// not by the project. A workspace of hundreds of small programs (an app per folder, a
/// fixture directory) otherwise kept, per program, arrays as large as all programs together:
/// memory and time grew with the square of the workspace.
///
/// A program's files keep their order, and each file's nodes stay consecutive, so walking
/// `all` visits the program's nodes in increasing global id, as a walk over the whole graph
/// restricted to them would.
struct ProgramNodes {
    /// The number of slots: the nodes of the program's files.
    let count: Int
    /// The program's files, in file order, and each one's global ids.
    let files: [FileID]
    let ranges: [Range<Int>]
    /// Files `firstFile...` up to the program's last file: slot of a global id g of that file
    /// is g + offset; `Int.min` for a file outside the program.
    private let firstFile: Int
    private let offsets: [Int]
    /// Whether the slots are the global ids (the program has every file).
    let isIdentity: Bool
    /// The graph's nodes, for the file of a global id.
    private let graphNodes: [BuilderGraph.Node]

    init(files: [FileID], graph: BuilderGraph) {
        let sorted = Set(files).sorted()
        let first = sorted.first ?? 0
        var offsets = [Int](repeating: Int.min, count: sorted.isEmpty ? 0 : sorted[sorted.count - 1] - first + 1)
        var ranges: [Range<Int>] = []
        var count = 0
        for f in sorted {
            let start = graph.firstNode(of: f)
            let size = graph.fileNodeCount(f)
            offsets[f - first] = count - start
            ranges.append(start..<(start + size))
            count += size
        }
        self.count = count
        self.files = sorted
        self.ranges = ranges
        graphNodes = graph.nodes
        self.firstFile = first
        self.offsets = offsets
        isIdentity = count == graph.nodes.count
    }

    /// The slot of global id g (of file `file`), or nil when the file is not the program's.
    @inline(__always)
    func slot(_ g: Int, file: FileID) -> Int? {
        if isIdentity { return g }
        let i = file - firstFile
        guard i >= 0 && i < offsets.count, offsets[i] != Int.min else { return nil }
        return g + offsets[i]
    }

    /// The slot of global id g, its file read from the graph's nodes only when needed.
    @inline(__always)
    func slot(_ g: Int) -> Int? {
        isIdentity ? g : slot(g, file: graphNodes[g].file)
    }

    /// Every global id of the program, increasing.
    var all: FlattenSequence<[Range<Int>]> { ranges.joined() }
}

/// One value per node of a program, read and written by global id; a node outside the
/// program reads as `outside` (and must not be written).
struct ProgramNodeMap<Value> {
    let nodes: ProgramNodes
    private var values: [Value]
    private let outside: Value

    init(_ nodes: ProgramNodes, initial: Value) {
        self.nodes = nodes
        values = Array(repeating: initial, count: nodes.count)
        outside = initial
    }

    subscript(g: Int) -> Value {
        get {
            guard let s = nodes.slot(g) else { return outside }
            return values[s]
        }
        _modify {
            guard let s = nodes.slot(g) else {
                preconditionFailure("node \(g) is not in the program")
            }
            yield &values[s]
        }
    }
}

/// A set of small non-negative integers (builder indices, declaration numbers) as bits: a
/// program's analysis keeps one over the project's builders, so it must cost a bit each.
struct BitSet {
    private var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    @inline(__always) func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    /// Adds i; false when it was already there.
    @discardableResult
    @inline(__always) mutating func insert(_ i: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(i & 63)
        if words[i >> 6] & bit != 0 { return false }
        words[i >> 6] |= bit
        return true
    }

    @inline(__always) mutating func remove(_ i: Int) { words[i >> 6] &= ~(1 << UInt64(i & 63)) }

    /// The members, increasing.
    var members: [Int] {
        var out: [Int] = []
        for (w, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                out.append(w * 64 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return out
    }
}
