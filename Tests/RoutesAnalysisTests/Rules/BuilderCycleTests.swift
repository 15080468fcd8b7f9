import Testing

/// `builder-cycle` (Sources/RoutesAnalysis/Rules/BuilderCycle.swift).
@Suite struct BuilderCycleTests {
    @Test func mutualReferencesOutsideANesting() {
        RuleFixture.check("""
            screen Home
            screen Cart
            //     ^^^^ warning: unreachable-screen — never placed
            builder browse { anyOf { screen Home categories } }
            //                                   ^^^^^^^^^^ error: builder-cycle — (`categories`, `browse`)
            builder categories { anyOf { browse } }
            root { browse }
            """)
    }

    @Test func recursionThroughANestingIsFine() {
        RuleFixture.check("""
            screen Detail
            builder detail { screen Detail { detail } }
            root { detail }
            """)
    }

    @Test func anUnusedBuilderIsCheckedToo() {
        RuleFixture.check("""
            screen Home
            builder loop { anyOf { loop screen Home } }
            //      ^^^^ warning: unused-declaration
            //                     ^^^^ error: builder-cycle — `loop` refers to itself
            root { screen Home }
            """)
    }
}
