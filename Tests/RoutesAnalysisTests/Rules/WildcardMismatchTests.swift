import Testing

/// `wildcard-mismatch` (Sources/RoutesAnalysis/Rules/WildcardMismatch.swift).
@Suite struct WildcardMismatchTests {
    @Test func aBuilderThatCannotBuildTheWildcardsScreen() {
        RuleFixture.check("""
            screen Shop
            screen Browse
            builder shop { screen Shop { screen Browse } }
            root {
              wildcard Browse { shop }
            //^^^^^^^^^^^^^^^ warning: wildcard-mismatch — cannot build Browse in any environment
            }
            """)
    }

    @Test func aBuilderThatBuildsItUnderSomeFlagIsFine() {
        RuleFixture.check("""
            screen Shop
            flag beta
            root { wildcard Shop { conditional beta { screen Shop } else { empty } } }
            """)
    }
}
