import Testing
import RoutesAnalysis

/// Suppressions (`// routes:ignore`, Sources/RoutesAnalysis/Suppressions.swift) and
/// `unused-suppression` (Sources/RoutesAnalysis/Rules/UnusedSuppression.swift).
@Suite struct UnusedSuppressionTests {
    @Test func atTheEndOfTheLineItSuppressesThatLine() {
        RuleFixture.check("""
            screen Home
            root {
              anyOf {
                screen Home
                screen Home // routes:ignore shadowed-branch
              }
            }
            """)
    }

    @Test func aloneOnALineItSuppressesTheNextLine() {
        RuleFixture.check("""
            screen Home
            // routes:ignore unused-declaration
            flag leftover
            flag another
            //   ^^^^^^^ warning: unused-declaration
            root { screen Home }
            """)
    }

    @Test func severalRulesSeparatedByCommas() {
        RuleFixture.check("""
            screen Home
            screen Lost flag unusedA // routes:ignore unreachable-screen, unused-declaration
            root { screen Home }
            """)
    }

    @Test func whatSuppressesNothingIsReported() {
        RuleFixture.check("""
            screen Home // routes:ignore shadowed-branch
            //                           ^^^^^^^^^^^^^^^ warning: unused-suppression — `shadowed-branch` suppresses nothing
            flag beta // routes:ignore unused-declaraton
            //   ^^^^ warning: unused-declaration
            //                         ^^^^^^^^^^^^^^^^^ warning: unused-suppression — did you mean `unused-declaration`?
            root { screen Home } // routes:ignore
            //                   ^^^^^^^^^^^^^^^^ warning: unused-suppression — names no rule
            """)
    }

    @Test func aSyntaxErrorCannotBeSuppressed() {
        RuleFixture.check("""
            screen Home
            root { screen Home € } // routes:ignore syntax-error
            //                 ^^^ error: syntax-error
            //                                        ^^^^^^^^^^^^ warning: unused-suppression — `syntax-error` cannot be suppressed
            """)
    }

    @Test func settingsTurnARuleOffOrChangeItsSeverity() {
        let source = """
            screen Home
            flag leftover
            //   ^^^^^^^^ error: unused-declaration
            root {
              anyOf {
                screen Home
                screen Home // routes:ignore shadowed-branch
              }
            }
            """
        RuleFixture.check(source, settings: RuleSettings(rules: [.unusedDeclaration: .error]))
        // Off: nothing, and its suppressions are not reported as unused.
        RuleFixture.check("""
            screen Home
            flag leftover // routes:ignore unused-declaration
            flag other
            root { screen Home }
            """, settings: RuleSettings(rules: [.unusedDeclaration: .off]))
    }
}
