import Testing

/// `invalid-wildcard` (Sources/RoutesModel/Rules/InvalidWildcard.swift).
@Suite struct InvalidWildcardTests {
    @Test func aScreenWithParameters() {
        RuleFixture.check("""
            screen Shop(selectedTab: Int)
            root { wildcard Shop { screen Shop } }
            //              ^^^^ error: invalid-wildcard — but `Shop` has (selectedTab)
            """)
    }

    @Test func aScreenWithoutParametersIsFine() {
        RuleFixture.check("""
            screen Shop
            root { wildcard Shop { screen Shop } }
            """)
    }
}
