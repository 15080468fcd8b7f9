import RoutesAnalysis
import RoutesModel
import Testing

/// Both variable layouts of the decision diagrams give the same diagnostics, messages and
/// related places included, on every fixture and example (the fuzz targets check it on
/// generated programs; `reason-above-a-wildcard` is one they found).
@Suite struct LayoutAgreementTests {
    @Test(arguments: FixPropertyTests.inputs)
    func bothLayoutsReportTheSame(_ input: FixPropertyTests.Input) {
        let project = DroppedSyntaxTests.project(input.files.mapValues { Array($0.utf8) }, keeps: .everything)
        let layouts = [AnalysisLayout.conditionsAbove, .elementAbove].map {
            DroppedSyntaxTests.rendered(AnalysisSession.forDiagnostics(project: project, limits: AnalysisLimits(layout: $0)))
        }
        if layouts.contains(where: { $0.contains { $0.contains("analysis-limit") } }) { return }
        #expect(layouts[0] == layouts[1], "\(input.name)")
    }
}
