import Testing

/// `unreachable-screen` (Sources/RoutesAnalysis/Rules/UnreachableScreen.swift).
@Suite struct UnreachableScreenTests {
    @Test func contradictingConditions() {
        RuleFixture.check("""
            screen Home
            screen Settings
            flag isLoggedIn
            root {
              conditional isLoggedIn {
                conditional isLoggedIn { screen Home } else { screen Settings }
            //                                                ^^^^^^^^^^^^^^^ warning: unreachable-screen — `conditional isLoggedIn` is always true
              } else { empty }
            }
            """)
    }

    @Test func insideAWildcardOfAnotherScreen() {
        RuleFixture.check("""
            screen Home
            screen Detail
            root {
              wildcard Home { anyOf { screen Home screen Detail } }
            //                                    ^^^^^^^^^^^^^ warning: unreachable-screen — inside `wildcard Home`
            }
            """)
    }

    @Test func takenByAnEarlierBranchHigherUpQuotesItsPosition() {
        RuleFixture.check("""
            screen Home
            screen Detail
            root {
              anyOf {
                screen Detail
                anyOf { screen Home screen Detail }
            //                      ^^^^^^^^^^^^^ warning: unreachable-screen — the `anyOf` at 4:3 always builds Detail first
              }
            }
            """)
    }

    @Test func aDeclaredScreenNeverPlaced() {
        RuleFixture.check("""
            screen Home
            screen GiftCards
            //     ^^^^^^^^^ warning: unreachable-screen — never placed in the routing tree
            root { screen Home }
            """)
    }
}
