import TestSupport
import Testing

@testable import RoutesAnalysis

/// The BDD package against truth tables: random functions over a few variables, every
/// operation compared with the same operation on the tables.
@Suite struct BDDTests {
    static let variables = 6
    /// Variables 0..<3 are the "element" bits on top, 3..<6 the "environment" variables below.
    static let first = 3

    /// A truth table: bit i is f(assignment i), variable v = bit v of i.
    typealias Table = UInt64
    static let all: Table = (1 << (1 << variables)) &- 1

    static func value(_ bdd: BDD, _ f: BDD.Ref, _ assignment: Int) -> Bool {
        // Evaluate through the public operations only: cofactor all element bits, then
        // conjoin the environment literals.
        let env = bdd.cofactorAbove(f, end: Int32(first), code: assignment & ((1 << first) - 1))
        var g = env
        for v in first..<variables {
            let lit = bdd.variable(v)
            g = (assignment >> v) & 1 == 1 ? bdd.and(g, lit) : bdd.andNot(g, lit)
        }
        return g != BDD.zero
    }

    static func table(_ bdd: BDD, _ f: BDD.Ref) -> Table {
        var t: Table = 0
        for a in 0..<(1 << variables) where value(bdd, f, a) { t |= 1 << a }
        return t
    }

    /// A random function built from literals with and/or/not.
    static func random(_ bdd: BDD, _ rng: inout SplitMix64) -> (BDD.Ref, Table) {
        var f = BDD.zero, t: Table = 0
        for _ in 0..<(1 + Int(rng.next() % 4)) {
            var c = BDD.one, ct = all
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let v = Int(rng.next() % UInt64(variables))
                var lt: Table = 0
                for a in 0..<(1 << variables) where (a >> v) & 1 == 1 { lt |= 1 << a }
                if rng.next() % 2 == 0 {
                    c = bdd.and(c, bdd.variable(v)); ct &= lt
                } else {
                    c = bdd.andNot(c, bdd.variable(v)); ct &= ~lt & all
                }
            }
            f = bdd.or(f, c); t |= ct
        }
        return (f, t)
    }

    @Test func operationsMatchTruthTables() {
        let bdd = BDD(cacheBits: 6)  // a tiny cache: collisions are exercised too
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let (f, ft) = Self.random(bdd, &rng)
            let (g, gt) = Self.random(bdd, &rng)
            #expect(Self.table(bdd, f) == ft)
            #expect(Self.table(bdd, bdd.and(f, g)) == ft & gt)
            #expect(Self.table(bdd, bdd.or(f, g)) == ft | gt)
            #expect(Self.table(bdd, bdd.andNot(f, g)) == ft & ~gt & Self.all)
            #expect(Self.table(bdd, bdd.not(f)) == ~ft & Self.all)
            #expect(bdd.intersects(f, g) == (ft & gt != 0))
            #expect(bdd.intersects(f, bdd.not(g)) == (ft & ~gt & Self.all != 0))
            // ∃ element bits: true for an environment when f holds for some code.
            let codeMask = (1 << Self.first) - 1
            var et: Table = 0
            for a in 0..<(1 << Self.variables) {
                let env = a & ~codeMask
                let some = (0...codeMask).contains { code in (ft >> (env | code)) & 1 == 1 }
                if some { et |= 1 << a }
            }
            #expect(Self.table(bdd, bdd.existsAbove(f, end: Int32(Self.first))) == et)
            // The cofactor on a code: a function of the environment only.
            let code = Int(rng.next() % 8)
            var ct: Table = 0
            for a in 0..<(1 << Self.variables) where (ft >> ((a & ~codeMask) | code)) & 1 == 1 { ct |= 1 << a }
            #expect(Self.table(bdd, bdd.cofactorAbove(f, end: Int32(Self.first), code: code)) == ct)
            // Canonical: equal tables are the same node.
            #expect((bdd.or(f, g) == bdd.or(g, f)))
            #expect(bdd.and(f, bdd.not(f)) == BDD.zero)
        }
    }

    /// The question asked on several threads at once answers as the shared one does, with a
    /// tiny local cache (collisions), and leaves the manager as it was: no node, no step.
    @Test func intersectsWithALocalCacheMatchesTruthTables() {
        let bdd = BDD(cacheBits: 6)
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        var rng = SplitMix64(seed: 17)
        var local = BDD.LocalCache(bits: 3)
        for _ in 0..<300 {
            let (f, ft) = Self.random(bdd, &rng)
            let (g, gt) = Self.random(bdd, &rng)
            let notG = bdd.not(g)
            let (nodes, steps) = (bdd.nodeCount, bdd.steps)
            #expect(bdd.intersects(f, g, local: &local) == (ft & gt != 0))
            #expect(bdd.intersects(f, notG, local: &local) == (ft & ~gt & Self.all != 0))
            #expect(bdd.nodeCount == nodes && bdd.steps == steps)
        }
    }

    @Test func codesBelowAreExactlyTheSmallerCodes() {
        let bdd = BDD()
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        for n in 0...8 {
            let below = bdd.codes(below: n, first: 0, count: 3)
            var union = BDD.zero
            for code in 0..<n { union = bdd.or(union, bdd.code(code, first: 0, count: 3)) }
            #expect(below == union, "codes below \(n)")
        }
    }

    /// The table of every code (made level by level) holds the same nodes as the codes made
    /// one by one, for every count of codes and as it grows.
    @Test func theCodeTableHoldsEachCode() {
        for count in 1...6 {
            let bdd = BDD()
            for _ in 0..<(2 + count) { _ = bdd.newVariable() }
            for n in [0, 1, 2, 3, (1 << count) - 1, 1 << count] where n <= 1 << count {
                let table = bdd.codes(each: n, first: 2, count: count)
                #expect(table.count == n)
                #expect(table == (0..<n).map { bdd.code($0, first: 2, count: count) }, "\(n) codes of \(count) bits")
            }
        }
        // Made a level at a time with their slots asked for ahead: thousands of codes, the
        // unique table growing in the middle of a level.
        let bdd = BDD(capacityBits: 8)
        for _ in 0..<14 { _ = bdd.newVariable() }
        let table = bdd.codes(each: 3000, first: 2, count: 12)
        #expect(bdd.uniqueTableIsExact)
        #expect(table == (0..<3000).map { bdd.code($0, first: 2, count: 12) })
        #expect(Set(table).count == 3000)
    }

    /// The variables made together are those made one by one, in the order asked, also when
    /// the table grows among them.
    @Test func variablesMadeTogetherAreTheVariables() {
        let bdd = BDD(capacityBits: 6)
        for _ in 0..<500 { _ = bdd.newVariable() }
        let order = (0..<500).map { Int32((Int($0) * 7) % 500) }
        let made = bdd.variables(order)
        #expect(bdd.uniqueTableIsExact)
        #expect(made == order.map { bdd.variable(Int($0)) })
        #expect(Set(made).count == 500)
    }

    @Test func codesAreExactlyTheirElement() {
        let bdd = BDD()
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        for code in 0..<8 {
            let c = bdd.code(code, first: 0, count: 3)
            for a in 0..<(1 << Self.variables) {
                #expect(Self.value(bdd, c, a) == (a & 7 == code))
            }
        }
    }

    /// A collection keeps what its roots reach, as it was: their truth tables, and the same
    /// nodes when the same functions are made again (the unique table holds them); what it
    /// freed is made in freed slots, and the manager keeps working through several
    /// collections, the later ones over slots taken again (children above their parents).
    @Test func aCollectionKeepsWhatItsRootsReachAndReusesTheRest() {
        let bdd = BDD(cacheBits: 6)
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        var rng = SplitMix64(seed: 11)
        var kept: [(BDD.Ref, BDD.Ref, BDD.Ref, Table)] = []
        for round in 0..<4 {
            for _ in 0..<40 {
                let (f, ft) = Self.random(bdd, &rng)
                let (g, gt) = Self.random(bdd, &rng)
                if rng.next() % 3 == 0 { kept.append((f, g, bdd.and(f, g), ft & gt)) }
                _ = bdd.or(f, bdd.not(g))  // garbage
            }
            let before = bdd.nodeCount
            bdd.collect { mark in for (f, g, h, _) in kept { mark(f); mark(g); mark(h) } }
            #expect(bdd.collections == round + 1)
            #expect(bdd.uniqueTableIsExact, "round \(round): the table holds every node kept, and only those")
            // New functions take freed slots before new ones.
            for _ in 0..<3 { _ = Self.random(bdd, &rng) }
            #expect(bdd.nodeCount == before, "round \(round): \(bdd.nodeCount) slots, \(before) before")
            for (f, g, h, t) in kept {
                #expect(bdd.and(f, g) == h, "round \(round): the same function is the same node")
                #expect(Self.table(bdd, h) == t, "round \(round)")
                #expect(Self.table(bdd, f) == Self.table(bdd, bdd.or(f, f)), "round \(round)")
            }
        }
    }

    /// The node budget counts the nodes made, also those made again after a collection: an
    /// analysis that collects never makes fewer nodes than one that does not.
    @Test func theBudgetCountsNodesMadeAgain() {
        let bdd = BDD()
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        let x = bdd.and(bdd.variable(3), bdd.variable(4))
        let made = bdd.nodesMade
        bdd.collect { _ in }
        #expect(bdd.nodesMade == made)
        let again = bdd.and(bdd.variable(3), bdd.variable(4))
        #expect(bdd.nodesMade > made, "the conjunction's nodes were made again")
        #expect(bdd.nodeCount == made, "in the slots they had")
        _ = (x, again)
    }

    /// A copy holds the original's functions at the same refs (the same nodes when made
    /// again, the same truth tables), also after a collection freed slots in the original;
    /// what each makes afterwards is its own; and what the copy spent is counted against the
    /// original's budget, which runs out when the two together pass it.
    @Test func aCopyWorksOnTheOriginalsFunctionsAndChargesWhatItSpends() {
        let bdd = BDD(cacheBits: 6)
        for _ in 0..<Self.variables { _ = bdd.newVariable() }
        var rng = SplitMix64(seed: 13)
        var kept: [(BDD.Ref, BDD.Ref, BDD.Ref, Table)] = []
        for _ in 0..<60 {
            let (f, ft) = Self.random(bdd, &rng)
            let (g, gt) = Self.random(bdd, &rng)
            kept.append((f, g, bdd.or(f, g), ft | gt))
            _ = bdd.and(f, bdd.not(g))  // garbage
        }
        bdd.collect { mark in for (f, g, h, _) in kept { mark(f); mark(g); mark(h) } }
        bdd.beginAnalysis(nodes: 1 << 20, steps: 1 << 30, variables: Self.variables)
        let copy = BDD(copying: bdd, cacheBits: 4)
        let (copiedMade, copiedSteps) = (copy.nodesMade, copy.steps)
        #expect(copiedMade == bdd.nodesMade && copiedSteps == bdd.steps)
        for (f, g, h, t) in kept {
            #expect(copy.or(f, g) == h, "the same function is the same node")
            #expect(Self.table(copy, h) == t)
        }
        // Each goes on alone: new functions in the copy, and in the original the old ones
        // as they were.
        var inCopy: [(BDD.Ref, Table)] = []
        for (f, g, _, _) in kept.prefix(20) {
            let made = copy.andNot(f, copy.not(g))
            inCopy.append((made, Self.table(copy, made)))
        }
        for (f, g, h, t) in kept {
            #expect(bdd.or(f, g) == h)
            #expect(Self.table(bdd, h) == t)
        }
        for (made, t) in inCopy { #expect(Self.table(copy, made) == t) }
        let (spentNodes, spentSteps) = (copy.nodesMade - copiedMade, copy.steps - copiedSteps)
        #expect(spentNodes > 0 && spentSteps > 0)
        let (madeBefore, stepsBefore) = (bdd.nodesMade, bdd.steps)
        bdd.charge(for: copy)
        #expect(bdd.nodesMade == madeBefore + spentNodes)
        #expect(bdd.steps == stepsBefore + spentSteps)
        #expect(!bdd.exhausted)
        for (f, g, h, t) in kept.prefix(5) {
            #expect(bdd.or(f, g) == h, "the original works on after the charge")
            #expect(Self.table(bdd, h) == t)
        }

        // A copy whose work passes what the original has left: the original runs out.
        let small = BDD(cacheBits: 6)
        for _ in 0..<Self.variables { _ = small.newVariable() }
        small.beginAnalysis(nodes: 1 << 20, steps: 40, variables: Self.variables)
        let f = small.and(small.variable(3), small.variable(4))
        #expect(!small.exhausted)
        let spender = BDD(copying: small, cacheBits: 4)
        var g = f
        for v in 0..<Self.variables { g = spender.or(spender.not(g), spender.and(spender.variable(v), g)) }
        #expect(spender.steps > 40)
        #expect(!small.exhausted)
        small.charge(for: spender)
        #expect(small.exhausted, "the copy's steps count against the original's budget")
    }
}
