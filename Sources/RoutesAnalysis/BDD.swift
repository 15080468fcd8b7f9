import CMalloc

/// A small reduced ordered binary decision diagram package: boolean functions over numbered
/// variables, shared and canonical, so that equality is identity and the analyses can reason
/// about all 2^n environments without enumerating them.
///
/// Variable 0 is at the top of the order. Functions are `BDD.Ref` indices; `zero` and `one`
/// are the constants. One manager per analysis, used by one thread at a time, except that two
/// threads may make nodes in it at once through `beginSharing()`.
final class BDD {
    typealias Ref = Int32

    static let zero: Ref = 0
    static let one: Ref = 1

    private struct Node {
        var variable: Int32
        var low: Ref
        var high: Ref
    }

    // Raw buffers: these are the innermost loops of every analysis, and arrays held by a
    // class pay a dynamic exclusivity check and a bounds check on every access.
    private var nodes: UnsafeMutablePointer<Node>
    private var nodeCapacity: Int
    /// The slots in use: nodes, and the free slots `collect(_:)` left.
    private(set) var nodeCount: Int
    /// The nodes made so far, counting those made again after a collection took them: what
    /// an analysis's node budget counts (the slots in use when nothing was collected).
    var nodesMade: Int { nodeCount + nodesMadeInFreeSlots }
    private var nodesMadeInFreeSlots = 0
    /// `nodeLimit` less the nodes made in free slots: the budget as the slots in use count
    /// it, so that making a node compares one number.
    private var slotLimit = BDD.maxNodes
    /// The first free slot (a free node's `low` holds the next one), -1 for none.
    private var freeSlot: Ref = -1
    /// How many times `collect(_:)` ran.
    private(set) var collections = 0
    /// The variable of a free slot.
    private static let freeVariable = Int32.min
    /// Open-addressing unique table: per slot a node ref and 6 more bits of its hash (see
    /// `slot(_:_:)`), 0 = empty.
    private var table: UnsafeMutablePointer<UInt32>
    private var tableMask: Int

    // A direct-mapped cache of operation results (like CUDD's computed table).
    fileprivate struct CacheEntry {
        var op: Int32
        var a: Ref
        var b: Ref
        var result: Ref
    }
    private var cache: UnsafeMutablePointer<CacheEntry>
    private var cacheMask: Int

    private enum Op: Int32 {
        case and = 1, or, andNot, not, existsAbove, existsBelow, cofactorBelow, intersects
    }

    /// The number of variables created so far; `variable(_:)` grows it.
    private(set) var variableCount: Int = 0

    /// `nodesMade` when the current analysis began (see
    /// `beginAnalysis(nodes:steps:variables:)`): its node budget is counted from there.
    private(set) var nodesAtStart = 2

    /// The budget of one analysis. Exact analysis is exponential in the worst case (flags
    /// tested in an order that entangles them, such as `x1 ∧ y1 ∨ x2 ∧ y2 ∨ …` with every x
    /// declared before every y), so the manager stops at `nodeLimit` nodes or `stepLimit`
    /// operation steps (cache misses) rather than let a 50-line file take minutes and
    /// gigabytes. Once `exhausted`, every operation answers at once with a meaningless result,
    /// and whoever uses the manager must discard what it computed.
    var nodeLimit = BDD.maxNodes {
        didSet { slotLimit = nodeLimit - nodesMadeInFreeSlots }
    }
    var stepLimit = Int.max
    private(set) var steps = 0
    private(set) var exhausted = false

    /// Counts one operation step; false (and exhausted from then on) once the budget is spent.
    @inline(__always) private func step() -> Bool {
        if exhausted { return false }
        steps &+= 1
        if steps > stepLimit { exhausted = true }
        return !exhausted
    }

    /// - Parameters:
    ///   - cacheBits: the operation cache has 2^cacheBits entries.
    ///   - capacityBits: room for 2^capacityBits nodes, and a unique table of as many slots,
    ///     which grows when three quarters are taken (probes stay in one or two cache lines,
    ///     and a table half the size of one kept at half load misses the cache less).
    init(cacheBits: Int = 18, capacityBits: Int = 12) {
        let terminal = Int32.max
        nodeCapacity = 1 << capacityBits
        nodes = Self.allocate(nodeCapacity)
        nodes[0] = Node(variable: terminal, low: 0, high: 0)
        nodes[1] = Node(variable: terminal, low: 1, high: 1)
        nodeCount = 2
        let tableSize = 1 << capacityBits
        table = Self.allocate(tableSize)
        table.initialize(repeating: 0, count: tableSize)
        tableMask = tableSize - 1
        cache = Self.emptyCache(bits: cacheBits)
        cacheMask = (1 << cacheBits) - 1
    }

    /// A manager holding `other`'s nodes at the same refs, with its budget and what it has
    /// counted against it, and an empty operation cache of 2^cacheBits entries: for work on
    /// another thread over functions `other` made, while `other` goes on (see
    /// `ProgramLinks.following(_:pending:)`). What the copy makes is its own; what it
    /// spends is given back to `other` by `charge(for:)`.
    init(copying other: BDD, cacheBits: Int) {
        // Room for a few thousand nodes more, and a unique table made afresh: the original's
        // are sized for its whole analysis, and each page a copy touches costs (a block the
        // heap has freed costs none).
        nodeCapacity = other.nodeCount + (1 << 11)
        nodes = Self.allocate(nodeCapacity)
        nodes.initialize(from: other.nodes, count: other.nodeCount)
        nodeCount = other.nodeCount
        nodesMadeInFreeSlots = other.nodesMadeInFreeSlots
        slotLimit = other.slotLimit
        freeSlot = other.freeSlot
        var tableSize = 1 << 10
        while tableSize * 3 < nodeCapacity * 4 { tableSize *= 2 }
        table = Self.allocate(tableSize)
        tableMask = tableSize - 1
        cache = Self.emptyCache(bits: cacheBits)
        cacheMask = (1 << cacheBits) - 1
        variableCount = other.variableCount
        nodesAtStart = other.nodesAtStart
        nodeLimit = other.nodeLimit
        stepLimit = other.stepLimit
        steps = other.steps
        exhausted = other.exhausted
        codeTable = other.codeTable
        copiedAt = (other.nodesMade, other.steps)
        rehash(size: tableSize)
    }

    /// For a copy (`init(copying:cacheBits:)`): what its original had made and spent when
    /// copied.
    private var copiedAt: (nodesMade: Int, steps: Int)? = nil

    /// Counts against this manager's budget the nodes and steps that `copy`, made from it,
    /// spent since: an analysis that did part of its work on a copy stops where it would have
    /// had it done that work here (give or take the operations the two caches shared).
    func charge(for copy: BDD) {
        guard let (madeBefore, stepsBefore) = copy.copiedAt else { return }
        let made = max(0, copy.nodesMade - madeBefore)
        // (Counted as made in free slots: nodes that take no slot of this manager.)
        nodesMadeInFreeSlots += made
        slotLimit -= made
        steps &+= max(0, copy.steps - stepsBefore)
        if copy.exhausted || steps > stepLimit || nodesMade > nodeLimit { exhausted = true }
    }

    /// Replaces the operation cache by one of 2^bits entries (results stay correct, only
    /// recomputation gets likelier): a finished analysis kept for the few questions an editor
    /// asks need not hold a cache sized for the whole analysis.
    func shrinkCache(bits: Int) {
        if (1 << bits) < cacheMask + 1 { replaceCache(bits: bits) }
    }

    private func replaceCache(bits: Int) {
        cache.deallocate()
        cache = Self.emptyCache(bits: bits)
        cacheMask = (1 << bits) - 1
    }

    /// Room for `count` values, uninitialized.
    private static func allocate<T>(_ count: Int) -> UnsafeMutablePointer<T> {
        UnsafeMutablePointer<T>.allocate(capacity: count)
    }

    /// An operation cache of 2^bits entries, every one empty.
    private static func emptyCache(bits: Int) -> UnsafeMutablePointer<CacheEntry> {
        let cache = allocate(1 << bits) as UnsafeMutablePointer<CacheEntry>
        cache.initialize(repeating: CacheEntry(op: 0, a: 0, b: 0, result: 0), count: 1 << bits)
        return cache
    }

    deinit {
        if ownsArrays {
            nodes.deallocate()
            table.deallocate()
        }
        cache.deallocate()
    }

    @inline(__always) func isConstant(_ f: Ref) -> Bool { f <= 1 }

    // MARK: Nodes

    @inline(__always)
    private func hash(_ v: Int32, _ lo: Ref, _ hi: Ref) -> Int {
        var hash = UInt64(UInt32(bitPattern: v)) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt64(UInt32(bitPattern: lo)) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= UInt64(UInt32(bitPattern: hi)) &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private func make(_ v: Int32, _ lo: Ref, _ hi: Ref) -> Ref {
        if lo == hi { return lo }
        if let growRequested { return makeShared(v, lo, hi, growRequested) }
        return make(v, lo, hi, hashed: hash(v, lo, hi))
    }

    /// `make` of a node whose hash is known, by a thread that does not share the manager.
    private func make(_ v: Int32, _ lo: Ref, _ hi: Ref, hashed: Int) -> Ref {
        if nodeCount >= slotLimit {
            exhausted = true
            return lo
        }
        let tag = Self.tag(hashed)
        var slot = hashed & tableMask
        while true {
            let entry = table[slot]
            if entry == 0 { break }
            // A node whose hash differs in the tag's bits is not loaded: a new node's probe
            // (most of them) reads the table alone.
            if entry & Self.tagMask == tag {
                let ref = Ref(bitPattern: entry >> Self.tagBits)
                let node = nodes[Int(ref)]
                if node.variable == v && node.low == lo && node.high == hi { return ref }
            }
            slot = (slot + 1) & tableMask
        }
        if freeSlot < 0 {
            if nodeCount == nodeCapacity {
                let bigger = Self.allocate(nodeCapacity * 2) as UnsafeMutablePointer<Node>
                bigger.moveInitialize(from: nodes, count: nodeCount)
                nodes.deallocate()
                nodes = bigger
                nodeCapacity *= 2
            }
            let ref = Ref(nodeCount)
            nodes[nodeCount] = Node(variable: v, low: lo, high: hi)
            nodeCount += 1
            table[slot] = UInt32(bitPattern: ref) << Self.tagBits | tag
            // No slot is free: the table holds every slot's node.
            if nodeCount * 4 > (tableMask + 1) * 3 { grow() }
            return ref
        }
        let ref = freeSlot
        freeSlot = nodes[Int(ref)].low
        nodesMadeInFreeSlots += 1
        slotLimit -= 1
        nodes[Int(ref)] = Node(variable: v, low: lo, high: hi)
        table[slot] = UInt32(bitPattern: ref) << Self.tagBits | tag
        return ref
    }

    /// Frees every node that no root reaches, for the nodes made afterwards to take, and
    /// empties the operation cache. `roots` calls its argument with every ref the caller
    /// still holds; a ref it leaves out must never be used again. (A lint collects the
    /// intermediate results of a program's semantics before the main flows: about a third of
    /// a million-line program's nodes.) The functions of the refs kept are unchanged; what a
    /// later analysis counts against its budget is `nodesMade`.
    func collect(_ roots: ((Ref) -> Void) -> Void) {
        var marked = BitSet(count: nodeCount)
        // One pass down the slots marks the children of the marked nodes, with no stack (a
        // stack of refs would grow with the manager at the lint's peak): a child below its
        // parent is marked and its turn comes later in the pass. A child above (made in a
        // slot a collection freed, or in another thread's later chunk while two threads
        // shared the manager: few) is behind the pass already, so what it reaches above the
        // pass is marked at once, from a stack that holds only those.
        roots { if $0 > 1 { marked.insert(Int($0)) } }
        for ref in codeTable.refs where ref > 1 { marked.insert(Int(ref)) }
        var above: [Ref] = []
        for ref in (2..<nodeCount).reversed() where marked.contains(ref) {
            var next = Ref(ref)
            while true {
                let node = nodes[Int(next)]
                if node.low > 1 && marked.insert(Int(node.low)) && Int(node.low) > ref { above.append(node.low) }
                if node.high > 1 && marked.insert(Int(node.high)) && Int(node.high) > ref { above.append(node.high) }
                guard let pending = above.popLast() else { break }
                next = pending
            }
        }
        freeSlot = -1
        for ref in (2..<nodeCount).reversed() where !marked.contains(ref) {
            nodes[ref] = Node(variable: Self.freeVariable, low: freeSlot, high: 0)
            freeSlot = Ref(ref)
        }
        rehash(size: tableMask + 1)
        cache.update(repeating: CacheEntry(op: 0, a: 0, b: 0, result: 0), count: cacheMask + 1)
        collections += 1
    }

    private func grow() { rehash(size: (tableMask + 1) * 2) }

    /// A unique table of `size` slots holding every node.
    private func rehash(size: Int) {
        if size != tableMask + 1 {
            table.deallocate()
            table = Self.allocate(size)
            tableMask = size - 1
        }
        table.initialize(repeating: 0, count: size)
        // The nodes are read in order and their slots written at random: asked ahead, the
        // misses of a table larger than the caches overlap.
        let top = shared.map { $0.slotsHandedOut } ?? nodeCount
        withSlotsAskedAhead(2..<top, hash: { ref in
            let node = nodes[ref]
            return node.variable == Self.freeVariable ? nil : hash(node.variable, node.low, node.high)
        }) { ref, hashed in
            var slot = hashed & tableMask
            while table[slot] != 0 { slot = (slot + 1) & tableMask }
            table[slot] = UInt32(ref) << Self.tagBits | Self.tag(hashed)
        }
    }

    /// Calls `body(i, hash)` for each i of `indices` that `hashOf` gives a hash, in order,
    /// the unique-table slot of each hash asked for (`routes_prefetch_for_write`) 16 items
    /// before its call: for loops that probe or write the table at random, whose cache misses
    /// then overlap instead of following one another. `body` may grow the table.
    @inline(__always)
    private func withSlotsAskedAhead(_ indices: Range<Int>, hash hashOf: (Int) -> Int?, _ body: (Int, Int) -> Void) {
        let ahead = 16
        var waiting = [(index: Int, hashed: Int)](repeating: (0, 0), count: ahead)
        var count = 0
        for i in indices {
            guard let hashed = hashOf(i) else { continue }
            routes_prefetch_for_write(table + (hashed & tableMask))
            let at = count & (ahead - 1)
            if count >= ahead { body(waiting[at].index, waiting[at].hashed) }
            waiting[at] = (i, hashed)
            count += 1
        }
        for k in max(0, count - ahead)..<count { body(waiting[k & (ahead - 1)].index, waiting[k & (ahead - 1)].hashed) }
    }

    /// A unique-table slot holds a node ref shifted by `tagBits` and, below it, the top bits
    /// of the node's hash: refs stay below 2^26 (see `maxNodes`).
    private static let tagBits: UInt32 = 6
    private static let tagMask: UInt32 = (1 << tagBits) - 1
    /// The most nodes a manager holds (a slot has 26 bits for the ref): 768 MiB of nodes,
    /// far past any budget an analysis is given.
    static let maxNodes = 1 << 26

    @inline(__always) private static func tag(_ h: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(h)) >> 58)
    }

    /// Starts an analysis on this manager with a budget of `nodes` new nodes and `steps`
    /// steps. A manager kept from an earlier analysis keeps its nodes and its cached results:
    /// they are functions of numbered variables, true whatever the variables stand for now,
    /// so an analysis of a slightly edited program finds most of its operations done already.
    /// It makes only nodes a fresh manager would make too, so it never runs out of nodes
    /// where a fresh one would not. Variables up to `variables` exist afterwards.
    func beginAnalysis(nodes: Int, steps: Int, variables: Int) {
        precondition(!exhausted, "an exhausted manager is never used again")
        nodesAtStart = nodesMade
        nodeLimit = min(nodesMade + nodes, Self.maxNodes)
        stepLimit = steps
        self.steps = 0
        variableCount = max(variableCount, variables)
    }

    /// Replaces the operation cache by an empty one of 2^bits entries when it is smaller.
    func growCache(bits: Int) {
        if (1 << bits) > cacheMask + 1 { replaceCache(bits: bits) }
    }

    /// A new variable, below all earlier ones in the order.
    func newVariable() -> Int {
        variableCount += 1
        return variableCount - 1
    }

    /// The function "variable v is true".
    func variable(_ v: Int) -> Ref { make(Int32(v), BDD.zero, BDD.one) }

    /// `variable(_:)` of each of `variables`, in order: a large program's tens of thousands
    /// of flags and optionals, made with their table slots asked ahead (`makeEach`).
    func variables(_ variables: [Int32]) -> [Ref] {
        makeEach(variables.count) { (variables[$0], BDD.zero, BDD.one) }
    }

    // MARK: Cache

    @inline(__always)
    private func cached(_ op: Op, _ a: Ref, _ b: Ref) -> Ref? { cached(op.rawValue, a, b) }

    @inline(__always)
    private func cached(_ op: Int32, _ a: Ref, _ b: Ref) -> Ref? {
        let entry = cache[(hash(op, a, b)) & cacheMask]
        return entry.op == op && entry.a == a && entry.b == b ? entry.result : nil
    }

    @inline(__always)
    private func store(_ op: Op, _ a: Ref, _ b: Ref, _ result: Ref) { store(op.rawValue, a, b, result) }

    @inline(__always)
    private func store(_ op: Int32, _ a: Ref, _ b: Ref, _ result: Ref) {
        cache[(hash(op, a, b)) & cacheMask] = CacheEntry(op: op, a: a, b: b, result: result)
    }

    // MARK: Operations

    func and(_ a: Ref, _ b: Ref) -> Ref {
        if a == BDD.zero || b == BDD.zero { return BDD.zero }
        if a == BDD.one { return b }
        if b == BDD.one || a == b { return a }
        let (x, y) = a < b ? (a, b) : (b, a)
        if let result = cached(.and, x, y) { return result }
        guard step() else { return BDD.zero }
        let (v, xl, xh, yl, yh) = split(x, y)
        let result = reuse(v, and(xl, yl), and(xh, yh), x, xl, xh, y, yl, yh)
        store(.and, x, y, result)
        return result
    }

    func or(_ a: Ref, _ b: Ref) -> Ref {
        if a == BDD.one || b == BDD.one { return BDD.one }
        if a == BDD.zero { return b }
        if b == BDD.zero || a == b { return a }
        let (x, y) = a < b ? (a, b) : (b, a)
        if let result = cached(.or, x, y) { return result }
        guard step() else { return BDD.zero }
        let (v, xl, xh, yl, yh) = split(x, y)
        let result = reuse(v, or(xl, yl), or(xh, yh), x, xl, xh, y, yl, yh)
        store(.or, x, y, result)
        return result
    }

    /// a ∧ ¬b
    func andNot(_ a: Ref, _ b: Ref) -> Ref {
        if a == BDD.zero || b == BDD.one || a == b { return BDD.zero }
        if b == BDD.zero { return a }
        if a == BDD.one { return not(b) }
        if let result = cached(.andNot, a, b) { return result }
        guard step() else { return BDD.zero }
        let (v, al, ah, bl, bh) = split(a, b)
        let lo = andNot(al, bl), hi = andNot(ah, bh)
        // (Most masks leave most of `a` as it is: its own node then, without a probe.)
        let result = lo == al && hi == ah ? a : make(v, lo, hi)
        store(.andNot, a, b, result)
        return result
    }

    /// Whether a ∧ b is satisfiable, without making a ∧ b: the checks that only ask whether
    /// two sets meet make no nodes (a miss costs steps, and a cached answer is 0 or 1).
    func intersects(_ a: Ref, _ b: Ref) -> Bool {
        if a == BDD.zero || b == BDD.zero { return false }
        if a == BDD.one || b == BDD.one || a == b { return true }
        let (x, y) = a < b ? (a, b) : (b, a)
        if let result = cached(.intersects, x, y) { return result == BDD.one }
        guard step() else { return false }
        let (_, xl, xh, yl, yh) = split(x, y)
        let result = intersects(xl, yl) || intersects(xh, yh)
        store(.intersects, x, y, result ? BDD.one : BDD.zero)
        return result
    }

    /// Answers of `intersects(_:_:local:)` kept by one thread: a direct-mapped table like the
    /// operation cache, of its own.
    struct LocalCache {
        fileprivate var entries: [CacheEntry]
        fileprivate let mask: Int

        /// A cache of 2^bits entries, every one empty.
        init(bits: Int) {
            entries = Array(repeating: CacheEntry(op: 0, a: 0, b: 0, result: 0), count: 1 << bits)
            mask = (1 << bits) - 1
        }
    }

    /// `intersects(_:_:)` for threads that ask at once while none of them changes this manager:
    /// it reads the nodes and the operation cache, keeps what it computes in `local` instead of
    /// the shared cache, and counts no step (it makes no node, and its work is bounded by the
    /// product of the two diagrams' sizes). The same answer as `intersects(_:_:)`.
    func intersects(_ a: Ref, _ b: Ref, local: inout LocalCache) -> Bool {
        if a == BDD.zero || b == BDD.zero || exhausted { return false }
        if a == BDD.one || b == BDD.one || a == b { return true }
        let (x, y) = a < b ? (a, b) : (b, a)
        let op = Op.intersects.rawValue
        if let result = cached(op, x, y) { return result == BDD.one }
        let slot = hash(op, x, y) & local.mask
        let entry = local.entries[slot]
        if entry.op == op && entry.a == x && entry.b == y { return entry.result == BDD.one }
        let (_, xl, xh, yl, yh) = split(x, y)
        let result = intersects(xl, yl, local: &local) || intersects(xh, yh, local: &local)
        local.entries[slot] = CacheEntry(op: op, a: x, b: y, result: result ? BDD.one : BDD.zero)
        return result
    }

    func not(_ a: Ref) -> Ref {
        if a == BDD.zero { return BDD.one }
        if a == BDD.one { return BDD.zero }
        if let result = cached(.not, a, 0) { return result }
        guard step() else { return BDD.zero }
        let node = nodes[Int(a)]
        let result = make(node.variable, not(node.low), not(node.high))
        store(.not, a, 0, result)
        return result
    }

    func or(_ fs: [Ref]) -> Ref { fs.reduce(BDD.zero) { or($0, $1) } }

    /// a ⊕ b: what is in one of the two and not the other.
    func symmetricDifference(_ a: Ref, _ b: Ref) -> Ref { or(andNot(a, b), andNot(b, a)) }

    /// `make(v, lo, hi)` for an operation on x and y split at `v`: when the result's
    /// children are those of x (or of y), the result is x (or y), found without probing the
    /// unique table (x = (v ? xh : xl), and when x does not test v, xl = xh = x).
    @inline(__always)
    private func reuse(_ v: Int32, _ lo: Ref, _ hi: Ref, _ x: Ref, _ xl: Ref, _ xh: Ref, _ y: Ref, _ yl: Ref, _ yh: Ref) -> Ref {
        if lo == xl && hi == xh { return x }
        if lo == yl && hi == yh { return y }
        return make(v, lo, hi)
    }

    @inline(__always)
    private func split(_ a: Ref, _ b: Ref) -> (Int32, Ref, Ref, Ref, Ref) {
        let na = nodes[Int(a)], nb = nodes[Int(b)]
        let v = min(na.variable, nb.variable)
        let (al, ah) = na.variable == v ? (na.low, na.high) : (a, a)
        let (bl, bh) = nb.variable == v ? (nb.low, nb.high) : (b, b)
        return (v, al, ah, bl, bh)
    }

    /// ∃ v ≥ first. f — quantifies every variable from `first` down (the element bits when
    /// they are at the bottom of the order). Below `first` a node is a satisfiable function of
    /// the quantified variables only, so the recursion stops there.
    func existsBelow(_ f: Ref, first: Int32) -> Ref {
        if isConstant(f) { return f }
        let node = nodes[Int(f)]
        if node.variable >= first { return BDD.one }
        if let result = cached(.existsBelow, f, first) { return result }
        guard step() else { return BDD.zero }
        let result = make(node.variable, existsBelow(node.low, first: first), existsBelow(node.high, first: first))
        store(.existsBelow, f, first, result)
        return result
    }

    /// f with the variables from `first` down fixed to the bits of `code` (variable
    /// `first + i` is bit i): the cofactor, a function of the variables above `first`.
    func cofactorBelow(_ f: Ref, first: Int32, code: Int) -> Ref {
        if isConstant(f) { return f }
        let node = nodes[Int(f)]
        if node.variable >= first {
            var current = f
            while !isConstant(current) {
                let currentNode = nodes[Int(current)]
                current = (code >> Int(currentNode.variable - first)) & 1 == 1 ? currentNode.high : currentNode.low
            }
            return current
        }
        // Every input of a result is in its key (the first variable too), so that a manager
        // kept for another analysis, where it differs, never answers with a stale result.
        let op = Op.cofactorBelow.rawValue | (first << 4)
        if let result = cached(op, f, Ref(truncatingIfNeeded: code)) { return result }
        guard step() else { return BDD.zero }
        let result = make(node.variable, cofactorBelow(node.low, first: first, code: code),
                          cofactorBelow(node.high, first: first, code: code))
        store(op, f, Ref(truncatingIfNeeded: code), result)
        return result
    }

    /// ∃ v < end. f — quantifies the variables above `end` (the element bits, which are at
    /// the top of the order). At or below `end` a node is a function of the other variables
    /// only, so the recursion stops there.
    func existsAbove(_ f: Ref, end: Int32) -> Ref {
        if isConstant(f) { return f }
        let node = nodes[Int(f)]
        if node.variable >= end { return f }
        if let result = cached(.existsAbove, f, end) { return result }
        guard step() else { return BDD.zero }
        let low = existsAbove(node.low, end: end)
        let result = low == BDD.one ? low : or(low, existsAbove(node.high, end: end))
        store(.existsAbove, f, end, result)
        return result
    }

    /// f with the variables above `end` fixed to the bits of `code` (variable i is bit i):
    /// the cofactor, a function of the variables from `end` down. The fixed variables are on
    /// top, so this is one walk down f, making no nodes.
    @inline(__always)
    func cofactorAbove(_ f: Ref, end: Int32, code: Int) -> Ref {
        var current = f
        while !isConstant(current) {
            let node = nodes[Int(current)]
            if node.variable >= end { break }
            current = (code >> Int(node.variable)) & 1 == 1 ? node.high : node.low
        }
        return current
    }

    /// The function "variables first..first+count-1 spell `code` in binary" (bit i is
    /// variable first + i).
    func code(_ code: Int, first: Int, count: Int) -> Ref {
        var result = BDD.one
        for i in (0..<count).reversed() {
            result = (code >> i) & 1 == 1 ? make(Int32(first + i), BDD.zero, result) : make(Int32(first + i), result, BDD.zero)
        }
        return result
    }

    /// `code(c, first:count:)` for every c below n. Kept across the analyses that run on this
    /// manager: a program's screens are thousands of codes of a dozen nodes each, the same
    /// from one edit to the next. Made bottom-up, a level per variable: the chain below
    /// variable `first + i` spells c >> i and is shared by every code with those bits, so the
    /// n codes take about 2n node lookups, not `count` × n (on a 100k-line program, 40
    /// thousand instead of 290 thousand probes of the unique table).
    func codes(each n: Int, first: Int, count: Int) -> [Ref] {
        if codeTable.first != first || codeTable.count != count { codeTable = (first, count, []) }
        if codeTable.refs.count < n {
            // Level `count`: c >> count is 0 for every code.
            var below: [Ref] = [BDD.one]
            for i in stride(from: count - 1, through: 0, by: -1) {
                let values = ((n - 1) >> i) + 1
                let variable = Int32(first + i)
                below = makeEach(values) { value in
                    let rest = below[value >> 1]
                    return value & 1 == 1 ? (variable, BDD.zero, rest) : (variable, rest, BDD.zero)
                }
            }
            if exhausted { return [Ref](repeating: BDD.zero, count: n) }
            codeTable.refs = below
        }
        return Array(codeTable.refs[..<n])
    }

    private var codeTable: (first: Int, count: Int, refs: [Ref]) = (-1, 0, [])

    /// The nodes `node(0)`, …, `node(n - 1)` (each a variable above its two children, which
    /// exist already), in order, with their slots asked ahead (`withSlotsAskedAhead`): the
    /// codes of a large program's screens are hundreds of thousands of nodes, all new.
    private func makeEach(_ n: Int, _ node: (Int) -> (Int32, Ref, Ref)) -> [Ref] {
        var made = [Ref](repeating: BDD.zero, count: n)
        guard growRequested == nil else {
            for i in 0..<n { let (v, lo, hi) = node(i); made[i] = make(v, lo, hi) }
            return made
        }
        withSlotsAskedAhead(0..<n, hash: { i in
            let (v, lo, hi) = node(i)
            return hash(v, lo, hi)
        }) { i, hashed in
            let (v, lo, hi) = node(i)
            made[i] = lo == hi ? lo : make(v, lo, hi, hashed: hashed)
        }
        return made
    }

    /// The set of codes below n, over the same variables as `code(_:first:count:)`: built
    /// from the most significant bit (at the bottom) up, two nodes per bit, where a union of
    /// n codes would take n operations.
    func codes(below n: Int, first: Int, count: Int) -> Ref {
        if n <= 0 { return BDD.zero }
        if n >= 1 << count { return BDD.one }
        // below[c]: "the bits from here up (in significance) are below n's, or equal to them
        // and c" (c: the less significant bits already decided "below").
        var below: (Ref, Ref) = (BDD.zero, BDD.one)
        for i in (0..<count).reversed() {
            let v = Int32(first + i)
            if (n >> i) & 1 == 1 {
                below = (make(v, below.1, below.0), make(v, below.1, below.1))
            } else {
                below = (make(v, below.0, below.0), make(v, below.1, below.0))
            }
        }
        return below.0
    }

    /// A hash of f's diagram that depends on the function only (its variables and shape, not
    /// the refs of this manager), so that tests can compare functions of two managers.
    func structuralHash(_ f: Ref, memo: inout [Ref: UInt64]) -> UInt64 {
        if f <= 1 { return UInt64(f) &+ 0x51 }
        if let known = memo[f] { return known }
        let node = nodes[Int(f)]
        var hash = UInt64(UInt32(bitPattern: node.variable)) &* 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ structuralHash(node.low, memo: &memo)) &* 0xC2B2_AE3D_27D4_EB4F
        hash = (hash ^ (structuralHash(node.high, memo: &memo) &<< 1)) &* 0x1656_67B1_9E37_79F9
        memo[f] = hash
        return hash
    }

    /// One satisfying assignment of f (variables not on the chosen path are false), or nil
    /// when f is unsatisfiable.
    func anySatisfying(_ f: Ref) -> [Int: Bool]? {
        if f == BDD.zero { return nil }
        var assignment: [Int: Bool] = [:]
        var current = f
        while !isConstant(current) {
            let node = nodes[Int(current)]
            if node.low != BDD.zero {
                assignment[Int(node.variable)] = false
                current = node.low
            } else {
                assignment[Int(node.variable)] = true
                current = node.high
            }
        }
        return assignment
    }

    /// The top of a function that is not a constant: its variable, and its cofactors (the
    /// function where the variable is false, and where it is true).
    func top(_ f: Ref) -> (variable: Int, low: Ref, high: Ref)? {
        if isConstant(f) { return nil }
        let n = nodes[Int(f)]
        return (Int(n.variable), n.low, n.high)
    }

    // MARK: Two threads

    /// The slots a thread takes from the top of the node array at once while threads share
    /// the manager: one shared count is touched once per this many nodes.
    private static let chunkSlots = 1024

    /// Whether the unique table holds exactly the nodes, each where a probe finds it
    /// (tests: a growth while threads share the manager once left stale entries).
    var uniqueTableIsExact: Bool {
        var entries = 0
        for i in 0...tableMask {
            let entry = table[i]
            if entry == 0 { continue }
            entries += 1
            let ref = Int(entry >> Self.tagBits)
            guard ref < nodeCount, nodes[ref].variable != Self.freeVariable else { return false }
            let node = nodes[ref]
            let hashed = hash(node.variable, node.low, node.high)
            guard Self.tag(hashed) == entry & Self.tagMask else { return false }
            // Linear probing: no empty slot between the node's home and where it is.
            var slot = hashed & tableMask
            while slot != i {
                if table[slot] == 0 { return false }
                slot = (slot + 1) & tableMask
            }
        }
        var live = 0
        for ref in 2..<nodeCount where nodes[ref].variable != Self.freeVariable { live += 1 }
        return entries == live
    }

    /// A second manager over this one's nodes and unique table, for another thread to make
    /// nodes in at the same time as this one (see `SharedNodes`), until `endSharing(_:)`.
    /// Each has an operation cache of its own (of this one's size) and counts its own steps,
    /// with what is left of this one's step budget; they share the node budget. While
    /// shared, the node array and the unique table grow only while the other thread waits
    /// where it holds neither (`SharedNodes.requestGrowth`); the other thread takes part from
    /// `joinsSharing()` on.
    func beginSharing() -> BDD {
        precondition(shared == nil, "one sharing at a time")
        let group = SharedNodes(top: nodeCount, limit: min(slotLimit, Self.maxNodes))
        let worker = BDD(sharing: self, group: group)
        shared = group
        group.managers = [self, worker]
        return worker
    }

    /// Said by the thread of the manager `beginSharing()` gave before it makes a node in it:
    /// from then on a growth of the node array or the table waits for that thread (and not
    /// before, so that a thread that never comes does not hold the others up).
    func joinsSharing() { shared?.join() }

    /// Said by the thread of a manager sharing nodes (this one, or the one
    /// `beginSharing()` gave) that makes no more nodes in it, before `endSharing(_:)`: a
    /// growth of the table that the other thread asks for no longer waits for this one.
    func stopsSharing() { shared?.depart() }

    /// A manager over `main`'s nodes and table (see `beginSharing()`).
    private init(sharing main: BDD, group: SharedNodes) {
        nodes = main.nodes
        nodeCapacity = main.nodeCapacity
        nodeCount = main.nodeCount
        table = main.table
        tableMask = main.tableMask
        cacheMask = main.cacheMask
        cache = Self.emptyCache(bits: (main.cacheMask + 1).trailingZeroBitCount)
        variableCount = main.variableCount
        nodesAtStart = main.nodesAtStart
        stepLimit = main.stepLimit == Int.max ? Int.max : max(0, main.stepLimit - main.steps)
        exhausted = main.exhausted
        ownsArrays = false
        // (An initializer does not call `didSet`.)
        shared = group
        growRequested = group.growRequested
    }

    /// Ends the sharing `beginSharing()` began, once no thread uses `worker` any more: the
    /// nodes it made are this manager's, what it spent counts against this one's budget, and
    /// the slots taken but not used are free slots.
    func endSharing(_ worker: BDD) {
        guard let group = shared else { return }
        let end = group.slotsHandedOut
        for manager in [self, worker] {
            var leftover = manager.chunkNext
            while leftover < manager.chunkEnd {
                release(Ref(leftover))
                leftover += 1
            }
            if manager.spare >= 0 { release(manager.spare) }
            manager.chunkNext = 0
            manager.chunkEnd = 0
            manager.spare = -1
        }
        nodeCount = end
        steps &+= worker.steps
        if worker.exhausted || steps > stepLimit || nodesMade > nodeLimit { exhausted = true }
        worker.shared = nil
        worker.exhausted = true
        shared = nil
    }

    /// Puts a slot taken while shared but not used on the free list.
    private func release(_ ref: Ref) {
        nodes[Int(ref)] = Node(variable: Self.freeVariable, low: freeSlot, high: 0)
        freeSlot = ref
        nodesMadeInFreeSlots -= 1
        slotLimit += 1
    }

    /// While shared (see `beginSharing()`): the first slot of the chunk this thread takes
    /// nodes from, past its last, and a slot taken and not yet used (by a node that another
    /// thread made first).
    private var chunkNext = 0
    private var chunkEnd = 0
    private var spare: Ref = -1
    private var insertsSinceLoadCheck = 0
    private var shared: SharedNodes? = nil {
        didSet { growRequested = shared?.growRequested }
    }
    private var growRequested: UnsafeMutablePointer<Int32>? = nil
    /// While threads share this manager's nodes: what they share.
    var sharing: SharedNodes? { shared }
    /// False for a manager over another's nodes and table (`init(sharing:group:)`), which
    /// must not be used once the sharing ends.
    private var ownsArrays = true

    /// `make` while threads share the manager: the table's slots are read atomically, a new
    /// node is written in a slot of this thread's before it is published by a
    /// compare-and-swap of the empty table slot, and a thread that finds the slot taken
    /// reads it again (the other thread may have made the same node).
    private func makeShared(_ v: Int32, _ lo: Ref, _ hi: Ref, _ growRequested: UnsafeMutablePointer<Int32>) -> Ref {
        // (The group is not read on the way of most nodes: both threads would count references
        // to one object at every node.)
        if routes_load_relaxed_i32(growRequested) != 0 { shared?.park() }
        let hashed = hash(v, lo, hi)
        let tag = Self.tag(hashed)
        let mask = tableMask
        var slot = hashed & mask
        while true {
            let entry = routes_load_acquire_u32(table + slot)
            if entry == 0 {
                if spare < 0 {
                    guard let taken = takeSlot() else {
                        exhausted = true
                        return lo
                    }
                    spare = taken
                    // Taking a chunk may have waited for the table to grow: probe it afresh.
                    if tableMask != mask { return makeShared(v, lo, hi, growRequested) }
                }
                let ref = spare
                nodes[Int(ref)] = Node(variable: v, low: lo, high: hi)
                if routes_compare_swap_u32(table + slot, 0, UInt32(bitPattern: ref) << Self.tagBits | tag) != 0 {
                    spare = -1
                    insertsSinceLoadCheck += 1
                    // (Often enough that the threads' inserts between two checks fill a
                    // thirty-second of the table at most.)
                    if insertsSinceLoadCheck >= min(256, (tableMask + 1) >> 6) {
                        insertsSinceLoadCheck = 0
                        if let group = shared, group.slotsHandedOut * 4 > (tableMask + 1) * 3 { group.requestGrowth(by: self) }
                    }
                    return ref
                }
                // Taken meanwhile: read that slot again.
                nodes[Int(ref)] = Node(variable: Self.freeVariable, low: -1, high: 0)
                continue
            }
            if entry & Self.tagMask == tag {
                let ref = Ref(bitPattern: entry >> Self.tagBits)
                let node = nodes[Int(ref)]
                if node.variable == v && node.low == lo && node.high == hi { return ref }
            }
            slot = (slot + 1) & tableMask
        }
    }

    /// A slot for a new node while shared: from the free list (the manager that has one),
    /// else from this thread's chunk, else a new chunk from the top of the array. Nil when
    /// the node budget is spent.
    private func takeSlot() -> Ref? {
        if freeSlot >= 0 {
            let ref = freeSlot
            freeSlot = nodes[Int(ref)].low
            nodesMadeInFreeSlots += 1
            slotLimit -= 1
            return ref
        }
        if chunkNext == chunkEnd {
            guard let group = shared else { return nil }
            let start = group.takeChunk(Self.chunkSlots)
            guard start < group.limit else { return nil }
            let end = min(start + Self.chunkSlots, group.limit)
            // Free until used, so that a table grown meanwhile skips them: marked before a
            // growth this thread asks for, which puts every node below the top in the new
            // table (a slot left as the array had it would be put there as a node, and stay
            // there as a stale entry that no node clears). Those past the array's end are
            // marked by the growth.
            let free = Node(variable: Self.freeVariable, low: -1, high: 0)
            if start < nodeCapacity { (nodes + start).initialize(repeating: free, count: min(end, nodeCapacity) - start) }
            while end > nodeCapacity { group.requestGrowth(by: self) }
            chunkNext = start
            chunkEnd = end
        }
        let ref = Ref(chunkNext)
        chunkNext += 1
        return ref
    }

    /// While every other sharing thread waits (see `SharedNodes.requestGrowth`): doubles the
    /// node array when the slots given out reach past it (the slots past it are free until
    /// their thread uses them), and the unique table until it is at most three quarters full
    /// (of the slots given out); points
    /// every sharing manager at them.
    func growShared(_ group: SharedNodes) {
        let top = group.slotsHandedOut
        if top + Self.chunkSlots > nodeCapacity {
            let capacity = max(nodeCapacity * 2, top + 2 * Self.chunkSlots)
            let bigger = Self.allocate(capacity) as UnsafeMutablePointer<Node>
            // Every slot below the top is written (a thread writes its chunk before it can
            // wait) unless it is past the old array.
            let written = min(top, nodeCapacity)
            bigger.moveInitialize(from: nodes, count: written)
            (bigger + written).initialize(repeating: Node(variable: Self.freeVariable, low: -1, high: 0), count: top - written)
            nodes.deallocate()
            nodes = bigger
            nodeCapacity = capacity
        }
        var size = tableMask + 1
        while top * 4 > size * 3 { size *= 2 }
        if size != tableMask + 1 { rehash(size: size) }
        for manager in group.managers where manager !== self {
            manager.nodes = nodes
            manager.nodeCapacity = nodeCapacity
            manager.table = table
            manager.tableMask = tableMask
        }
    }
}
