import Testing
import TestSupport
@testable import RoutesAnalysis

/// `analysis-limit` (Sources/RoutesAnalysis/Rules/AnalysisLimit.swift).
@Suite struct AnalysisLimitTests {
    static let program = """
          screen P
          screen X
          dependency d: D from P
          flag unusedFlag
        //     ^^^^^^^^^^ warning: unused-declaration
          root {
        //^^^^ error: analysis-limit — stopped at its limit of 3 decision-diagram nodes (or 96 steps)
            anyOf {
              screen X uses d
              screen P
            }
          }
        """

    @Test func aLimitForcedLowStopsTheProgramAndKeepsWhatNeedsNoAnalysis() {
        RuleFixture.check(Self.program, limits: AnalysisLimits(nodes: 3))
    }

    @Test func theSameProgramWithinTheLimitReportsItsMissingDependency() {
        RuleFixture.check("""
              screen P
              screen X
              dependency d: D from P
              flag unusedFlag
            //     ^^^^^^^^^^ warning: unused-declaration
              root {
                anyOf {
                  screen X uses d
            //                  ^ error: missing-dependency
                  screen P
                }
              }
            """)
    }
}
