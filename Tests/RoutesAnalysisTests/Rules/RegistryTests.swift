import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The registry lists every rule once, and each rule's documented example triggers it.
@Suite struct RegistryTests {
    @Test func everyRuleOnceWithItsOwnId() {
        let ids = Rules.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(ids.count == 15)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id)")
            #expect(Rules.info(RuleID(id))?.id.rawValue == id)
        }
    }

    @Test(arguments: Rules.all.map(\.id.rawValue))
    func theDocumentedExampleTriggersTheRule(_ id: String) throws {
        let rule = try #require(Rules.info(RuleID(id)))
        // The limit's example is a program cut short: it stops under a limit forced low.
        let limits = rule.id == .analysisLimit ? AnalysisLimits(nodes: 3) : .standard
        let provider = MemoryProvider(files: ["/ws/App.routes": rule.documentation.example])
        let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                              provider: provider)
        let found = AnalysisSession(project: project, keepsAnalyses: false, limits: limits).diagnostics
        #expect(found.contains { $0.rule == rule.id && $0.severity == rule.severity }, "\(found.map { "\($0.rule): \($0.message)" })")
        for part in [rule.documentation.what, rule.documentation.why, rule.documentation.fix, rule.summary] {
            #expect(!part.isEmpty && !part.contains("  "), "\(id): «\(part)»")
        }
    }
}
