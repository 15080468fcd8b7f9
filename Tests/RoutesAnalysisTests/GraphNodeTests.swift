import Testing
@testable import RoutesAnalysis

/// A graph node keeps its kind as a tag and three 32-bit numbers: every kind reads back as
/// written, with its absent numbers absent, beside the index in its parent, whether it tests
/// an optional and whether its name resolved (which share its tag's word), and a node stays
/// 28 bytes.
@Suite struct GraphNodeTests {
    static let kinds: [BuilderGraph.Kind] = [
        .screen(nil, nesting: nil), .screen(0, nesting: 7), .screen(3, nesting: nil), .screen(nil, nesting: 9),
        .anyOf(.init(start: 0, count: 0)), .anyOf(.init(start: 12, count: 3)),
        .condition(0, then: 1, else: nil), .condition(4, then: 5, else: 6),
        .ifScreen(nil, then: 2, else: nil), .ifScreen(1, then: 2, else: 3),
        .wildcard(nil, body: 4), .wildcard(2, body: 5),
        .reference(nil), .reference(0), .reference(Int(Int32.max)),
        .nothing,
    ]

    @Test func everyKindReadsBackAsWritten() {
        for kind in Self.kinds {
            var node = BuilderGraph.Node(kind: kind, file: 3, local: 11, testsOptional: true)
            #expect(node.kind == kind)
            #expect((node.file, node.local, node.testsOptional) == (3, 11, true))
            for other in Self.kinds {
                node.kind = other
                #expect(node.kind == other)
            }
        }
    }

    @Test func nodesOfDifferentKindsDiffer() {
        for (i, a) in Self.kinds.enumerated() {
            for (j, b) in Self.kinds.enumerated() {
                let x = BuilderGraph.Node(kind: a, file: 0, local: 0, testsOptional: false)
                let y = BuilderGraph.Node(kind: b, file: 0, local: 0, testsOptional: false)
                #expect((x == y) == (i == j), "\(a) \(b)")
            }
        }
    }

    @Test func theTagTheTestAndTheIndexInTheParentKeepApart() {
        for kind in Self.kinds {
            for index in [0, 1, 5, 1 << 20, (1 << 27) - 1] {
                for (optional, unresolved) in [(false, false), (true, false), (false, true), (true, true)] {
                    var node = BuilderGraph.Node(kind: kind, file: 1, local: 2, testsOptional: optional)
                    node.unresolved = unresolved
                    node.indexInParent = index
                    node.parent = 9
                    #expect(node.kind == kind && node.testsOptional == optional && node.indexInParent == index)
                    #expect(node.unresolved == unresolved)
                    node.testsOptional = !optional
                    node.kind = .nothing
                    #expect(node.kind == .nothing && node.testsOptional == !optional && node.indexInParent == index)
                    #expect(node.unresolved == unresolved)
                    node.kind = kind
                    node.indexInParent = 3
                    node.unresolved = !unresolved
                    #expect(node.kind == kind && node.testsOptional == !optional && node.indexInParent == 3 && node.parent == 9)
                    #expect(node.unresolved == !unresolved)
                }
            }
        }
    }

    @Test func aNodeIsTwentyEightBytes() {
        #expect(MemoryLayout<BuilderGraph.Node>.stride == 28)
    }
}
