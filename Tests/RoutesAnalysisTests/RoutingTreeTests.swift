import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@Suite struct RoutingTreeTests {
    func tree(_ source: String, limits: RoutingTree.Limits = .standard, others: [String: String] = [:]) -> RoutingTree {
        let project = ResolutionTestSupport.project(source, others: others)
        return RoutingTree(program: ResolutionTestSupport.program(project), project: project, limits: limits)
    }

    /// The seed app's routing tree, verbatim: `Examples/Seed/App.tree`.
    static let specTree = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Seed/App.tree"), encoding: .utf8)) ?? "missing Examples/Seed/App.tree"

    @Test func theSeedAppPrintsTheTreeOfTheSpec() {
        let t = tree(ResolutionTestSupport.seedSource)
        #expect(t.text == Self.specTree)
        #expect(!t.isTruncated)
        #expect(t.nodes.map(\.kind) == [.root, .conditional, .wildcard, .screen, .anyOf, .screen, .ifLet, .screen, .recursion, .empty, .wildcard, .screen])
    }

    @Test func theSeedTreeCarriesNamesLabelsAndLocations() {
        let project = ResolutionTestSupport.project(ResolutionTestSupport.seedSource)
        let t = RoutingTree(program: ResolutionTestSupport.program(project), project: project)
        let detail = t.nodes[7]
        #expect(detail.name == "Detail" && detail.label == "then" && detail.presentation == .sheet && detail.uses == ["detailStore"])
        #expect(project.locationText(file: detail.file, offset: detail.range.lowerBound) == "App.routes:38:3")
        #expect(project.files[0].text.text(detail.range) == "screen Detail")
        let recursion = t.nodes[8]
        #expect(recursion.name == "detail" && recursion.recursionTarget == 7)
        #expect(project.locationText(file: recursion.file, offset: recursion.range.lowerBound) == "App.routes:39:5")
        #expect(t.nodes[0].name == nil && project.files[0].text.text(t.nodes[0].range) == "root")
        #expect(t.nodes[1].children == [2, 10])
        #expect(t.nodes[2].label == "true" && t.nodes[10].label == "false")
    }

    @Test func presentationsUsesAndLabels() {
        let t = tree("""
            screen A sheet(allowsPush: false)
            screen B
            flag f
            optional o: O
            dependency d: D
            dependency e: E
            root {
              anyOf {
                screen A uses d, e, d
                if screen B { screen B } else { empty }
                if let o { screen B }
                conditional f { empty } else { screen B }
              }
            }
            """)
        #expect(t.text == """
            root
            └─ anyOf
               ├─ A (sheet, no push)  uses d, e
               ├─ if screen B
               │  ├─ then: B
               │  └─ else: empty
               ├─ if let o
               │  └─ then: B
               └─ conditional f
                  ├─ true: empty
                  └─ false: B

            """)
    }

    @Test func recursionIsShownOncePerChain() {
        let t = tree("""
            screen A
            screen B
            builder a { screen A { anyOf { b a } } }
            builder b { screen B { a } }
            builder self { self }
            root { anyOf { a self } }
            """)
        #expect(t.text == """
            root
            └─ anyOf
               ├─ A
               │  └─ anyOf
               │     ├─ B
               │     │  └─ ↻ a
               │     └─ ↻ a
               └─ ↻ self

            """)
        // Back edges go to where that builder's expansion started; `self` starts at itself.
        #expect(t.nodes[5].recursionTarget == 2)
        #expect(t.nodes[6].recursionTarget == 2)
        #expect(t.nodes[7].recursionTarget == nil)
    }

    @Test func aNamedBuilderHasItsOwnTree() {
        let project = ResolutionTestSupport.project(ResolutionTestSupport.seedSource)
        let detail = project.scopes[0]["detail"]!
        let t = RoutingTree(builder: detail, project: project)
        #expect(t.text == "Detail (sheet)  uses detailStore\n└─ ↻ detail\n")
        #expect(t.nodes[1].recursionTarget == 0)
        let selfish = ResolutionTestSupport.project("builder b { b }\nroot { empty }")
        #expect(RoutingTree(builder: selfish.scopes[0]["b"]!, project: selfish).text == "↻ b\n")
        let broken = ResolutionTestSupport.project("builder b { }\nroot { empty }")
        #expect(RoutingTree(builder: broken.scopes[0]["b"]!, project: broken).nodes.isEmpty)
    }

    @Test func theDefaultDepthLimitIs200() {
        var source = "screen A\n"
        for i in 1..<300 { source += "builder b\(i) { screen A { b\(i + 1) } }\n" }
        source += "builder b300 { screen A }\nroot { b1 }\n"
        let t = tree(source)
        #expect(t.nodes.count == 201)
        #expect(t.omitted == 100)
    }

    @Test func unresolvedNamesAreShownAsWritten() {
        let t = tree("""
            screen A
            root { anyOf { nope screen Nope conditional nf { screen A } else { empty } A } }
            """)
        #expect(t.text == """
            root
            └─ anyOf
               ├─ nope  (unresolved)
               ├─ Nope (unresolved)
               ├─ conditional nf
               │  ├─ true: A
               │  └─ false: empty
               └─ A  (unresolved)

            """)
        #expect(t.nodes[2].kind == .reference && t.nodes[2].unresolved)
        #expect(t.nodes[4].unresolved)
    }

    @Test func syntaxErrorHolesAreLeftOut() {
        let t = tree("screen A\nbuilder hole { }\nroot { anyOf { hole screen A } }")
        #expect(t.text == "root\n└─ anyOf\n   └─ A\n")
    }

    @Test func importedBuildersAreExpandedInline() {
        let t = tree("import \"Lib.routes\"\nroot { lib }", others: ["Lib.routes": "screen A\nbuilder lib { screen A }"])
        #expect(t.text == "root\n└─ A\n")
        #expect(t.nodes[1].file == 1)
    }

    @Test func aTenThousandLongChainOfReferencesIsOneNode() {
        var source = "screen X\n"
        for i in 1..<10_000 { source += "builder b\(i) { b\(i + 1) }\n" }
        source += "builder b10000 { screen X }\nroot { b1 }\n"
        #expect(tree(source).text == "root\n└─ X\n")
    }

    @Test func exponentialExpansionIsTruncated() {
        // 2^31 nodes if printed in full.
        var source = "screen X\n"
        for i in 1...30 { source += "builder b\(i) { anyOf { b\(i + 1) b\(i + 1) } }\n" }
        source += "builder b31 { screen X }\nroot { b1 }\n"
        let t = tree(source, limits: RoutingTree.Limits(maxNodes: 20_000, maxDepth: 256, maxCounted: 100_000))
        #expect(t.nodes.count == 20_000)
        #expect(t.omittedIsLowerBound)
        #expect(t.omitted == 100_000)
        let text = t.text
        #expect(text.split(separator: "\n").count > 20_000)
        #expect(text.contains("… (truncated: at least "))
    }

    @Test func truncationCountsWhatIsLeftOutExactly() {
        let full = tree(ResolutionTestSupport.seedSource)
        let cut = tree(ResolutionTestSupport.seedSource, limits: RoutingTree.Limits(maxNodes: 5))
        #expect(cut.nodes.count == 5)
        #expect(!cut.omittedIsLowerBound)
        #expect(cut.omitted == full.nodes.count - 5)
        #expect(cut.text == """
            root
            └─ conditional isLoggedIn
               ├─ true: wildcard Home
               │  └─ Home  uses appStore
               │     └─ anyOf
               │        └─ … (truncated: 5 more nodes)
               └─ … (truncated: 2 more nodes)

            """)
    }

    @Test func deepTreesAreCutAtTheDepthLimit() {
        var source = "screen A\n"
        for i in 1..<1_000 { source += "builder b\(i) { screen A { b\(i + 1) } }\n" }
        source += "builder b1000 { screen A }\nroot { b1 }\n"
        let t = tree(source, limits: RoutingTree.Limits(maxNodes: 20_000, maxDepth: 10))
        #expect(t.nodes.count == 11)
        #expect(t.omitted == 990)
        #expect(t.text.hasSuffix("\n" + String(repeating: " ", count: 30) + "└─ … (truncated: 990 more nodes)\n"))
    }

    @Test func dotDrawsRecursionAsDashedBackEdges() {
        let t = tree(ResolutionTestSupport.seedSource)
        let dot = PreviewGraph.dot(t)
        #expect(dot.hasPrefix("digraph routes {\n"))
        #expect(dot.hasSuffix("}\n"))
        #expect(dot.contains("  n7 -> n7 [style=dashed, constraint=false, label=\"↻ detail\"];\n"))
        #expect(dot.contains("  n1 -> n2 [label=\"true\"];\n"))
        #expect(dot.contains("  n7 [label=\"Detail (sheet)  uses detailStore\", style=\"rounded\"];\n"))
        #expect(!dot.contains("n8"))  // the recursion is an edge, not a node
        let highlighted = PreviewGraph.dot(t, highlight: [t.nodes[3].source!], title: "say \"hi\"\\")
        #expect(highlighted.contains("graph [label=\"say \\\"hi\\\"\\\\\", labelloc=t];"))
        #expect(highlighted.contains("  n3 [label=\"Home  uses appStore\", fillcolor=\"#ffe9a8\", style=\"rounded,filled,bold\"];\n"))
    }

    @Test func mermaidStartsWithFlowchartAndQuotesLabels() {
        let t = tree(ResolutionTestSupport.seedSource)
        let m = PreviewGraph.mermaid(t, highlight: [t.nodes[7].source!], title: "path: Home/Detail(id: \"1\")")
        #expect(m.hasPrefix("flowchart TD\n"))
        #expect(m.contains("  n7(\"Detail (sheet)  uses detailStore\")\n"))
        #expect(m.contains("  n7 -.->|\"↻ detail\"| n7\n"))
        #expect(m.contains("  n1 -->|\"true\"| n2\n"))
        #expect(m.contains("  class n7 built\n"))
        #expect(m.contains("%% path: Home/Detail(id: \"1\")"))
    }

    @Test func truncationShowsInTheGraphs() {
        let t = tree(ResolutionTestSupport.seedSource, limits: RoutingTree.Limits(maxNodes: 5))
        #expect(PreviewGraph.dot(t).contains("t4 [label=\"… (truncated: 5 more nodes)\", shape=plaintext];"))
        #expect(PreviewGraph.mermaid(t).contains("t4[\"… (truncated: 5 more nodes)\"]"))
    }
}
