import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

/// Diagnostics come out in one order whatever order they were found in (found by
/// fuzz-analysis: two diagnostics equal but for their related locations came out in either
/// order, so output depended on hashing).
@Suite struct DiagnosticOrderTests {
    @Test func theOrderIsTotal() {
        let related = { (at: Int) in [RelatedLocation(file: 0, range: at..<(at + 1), message: "first declared here")] }
        let a = Diagnostic(rule: .duplicateDeclaration, severity: .error, file: 0, range: 10..<14, message: "invalid redeclaration of `x`", related: related(1))
        let b = Diagnostic(rule: .duplicateDeclaration, severity: .error, file: 0, range: 10..<14, message: "invalid redeclaration of `x`", related: related(5))
        let c = Diagnostic(rule: .duplicateDeclaration, severity: .error, file: 0, range: 10..<14, message: "invalid redeclaration of `x`", related: [])
        for input in [[a, b, c], [c, b, a], [b, c, a], [b, a, c]] {
            #expect(input.sorted(by: Analysis.order) == [c, a, b])
        }
        #expect(!Analysis.order(a, a))
    }
}
