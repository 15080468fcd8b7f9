import Testing

/// `shadowed-branch` (Sources/RoutesAnalysis/Rules/ShadowedBranch.swift).
@Suite struct ShadowedBranchTests {
    @Test func theSameScreenTwiceShadowsTheSecond() {
        RuleFixture.check("""
            screen Home
            screen Detail
            root {
              anyOf {
                screen Home
                screen Detail
                screen Home { screen Detail }
            //  ^^^^^^^^^^^ warning: shadowed-branch — built first by `screen Home`
              }
            }
            """)
    }

    @Test func aWildcardThatIsNotLastShadowsWhatFollows() {
        RuleFixture.check("""
            screen Home
            screen Detail
            root {
              anyOf {
                wildcard Home { screen Home }
                screen Detail
            //  ^^^^^^^^^^^^^ warning: shadowed-branch — built first by `wildcard Home`
              }
            }
            """)
    }

    @Test func aBranchTakenOnlyUnderAFlagIsNotShadowed() {
        RuleFixture.check("""
            screen Home
            flag beta
            root {
              anyOf {
                conditional beta { screen Home } else { empty }
                screen Home
              }
            }
            """)
    }

    @Test func nothingInsideAShadowedBranchIsReportedAgain() {
        RuleFixture.check("""
            screen Home
            screen Settings
            screen Detail
            root {
              anyOf {
                screen Home { screen Settings }
                screen Home { anyOf { screen Detail screen Detail } }
            //  ^^^^^^^^^^^ warning: shadowed-branch
              }
            }
            """)
    }
}
