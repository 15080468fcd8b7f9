import Foundation
import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The registry lists every rule once, and each rule's documented example triggers it.
@Suite struct RegistryTests {
    @Test func everyRuleOnceWithItsOwnId() throws {
        let ids = Rules.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids) == (try Self.idsDeclaredInRuleFiles()))
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id)")
            #expect(Rules.info(RuleID(id))?.id.rawValue == id)
        }
    }

    /// Each rule's kinds, which its registry line's initialiser records when the registry is
    /// compiled, are the kinds its type conforms to: the checkers iterate every rule of
    /// their kind, none left out, none of another kind.
    @Test func theCheckersFindEveryRuleOfTheirKind() {
        for rule in Rules.all {
            let isNodeRule = rule.definition is any NodeRule.Type
            let isDeclarationRule = rule.definition is any DeclarationRule.Type
            #expect((rule.nodeRule != nil) == isNodeRule, "\(rule.id.rawValue)")
            #expect((rule.declarationRule != nil) == isDeclarationRule, "\(rule.id.rawValue)")
        }
        let nodeRuleIDs: [RuleID] = Rules.nodeRules.map { ruleID(of: $0) }
        let declarationRuleIDs: [RuleID] = Rules.declarationRules.map { ruleID(of: $0) }
        #expect(nodeRuleIDs == Rules.all.filter { $0.definition is any NodeRule.Type }.map(\.id))
        #expect(declarationRuleIDs == Rules.all.filter { $0.definition is any DeclarationRule.Type }.map(\.id))
        #expect(nodeRuleIDs.count >= 4 && declarationRuleIDs.count >= 2)
    }

    private func ruleID(of rule: any RuleDefinition.Type) -> RuleID { rule.id }

    /// The ids the rule files declare (`static let id = RuleID("…")` in `Sources/*/Rules/`):
    /// a rule is its file and its registry line, and neither is missing.
    static func idsDeclaredInRuleFiles() throws -> Set<String> {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        var ids = Set<String>()
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let rules = sources.appendingPathComponent(module).appendingPathComponent("Rules")
            for file in (try? FileManager.default.contentsOfDirectory(atPath: rules.path)) ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOf: rules.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.contains("static let id = RuleID(\"") {
                    ids.insert(String(line.split(separator: "\"")[1]))
                }
            }
        }
        return ids
    }

    @Test(arguments: Rules.all.map(\.id.rawValue))
    func theDocumentedExampleTriggersTheRule(_ id: String) throws {
        let rule = try #require(Rules.info(RuleID(id)))
        // The limit's example is a program cut short: it stops under a limit forced low.
        let limits = rule.id == .analysisLimit ? AnalysisLimits(nodes: 3) : .standard
        let provider = MemoryProvider(files: ["/ws/App.routes": rule.documentation.example])
        let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                              provider: provider)
        let found = AnalysisSession.forDiagnostics(project: project, limits: limits).diagnostics
        #expect(found.contains { $0.rule == rule.id && $0.severity == rule.severity }, "\(found.map { "\($0.rule): \($0.message)" })")
        for part in [rule.documentation.what, rule.documentation.why, rule.documentation.fix, rule.summary] {
            #expect(!part.isEmpty && !part.contains("  "), "\(id): «\(part)»")
        }
    }
}
