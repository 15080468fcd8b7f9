import Testing

/// `wrong-kind` (Sources/RoutesModel/Rules/WrongKind.swift).
@Suite struct WrongKindTests {
    @Test func aFlagInIfLet() {
        RuleFixture.check("""
            screen Home
            flag isLoggedIn
            root { if let isLoggedIn { screen Home } }
            //            ^^^^^^^^^^ error: wrong-kind — `isLoggedIn` is a flag, not an optional
            """)
    }

    @Test func aScreenUsedAsABuilder() {
        RuleFixture.check("""
            screen Home
            root { anyOf { Home screen Home } }
            //             ^^^^ error: wrong-kind — write `screen Home` to build it
            """)
    }
}
