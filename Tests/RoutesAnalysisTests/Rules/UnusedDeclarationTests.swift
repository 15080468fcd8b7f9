import Testing

/// `unused-declaration` (Sources/RoutesAnalysis/Rules/UnusedDeclaration.swift).
@Suite struct UnusedDeclarationTests {
    @Test func eachKind() {
        RuleFixture.check("""
            screen Home
            dependency analytics: Analytics
            //         ^^^^^^^^^ warning: unused-declaration — dependency `analytics` is never used
            optional draft: Draft
            //       ^^^^^ warning: unused-declaration
            flag isBlackFridayLive
            //   ^^^^^^^^^^^^^^^^^ warning: unused-declaration
            builder spare { screen Home }
            //      ^^^^^ warning: unused-declaration — nothing reachable from `root` refers to it
            root { screen Home }
            """)
    }

    @Test func aMisspeltUseCountsAsAUse() {
        RuleFixture.check("""
            screen Home
            dependency catalogStore: CatalogStore
            root { screen Home uses catalogStor }
            //                      ^^^^^^^^^^^ error: undefined-name — did you mean `catalogStore`?
            """)
    }

    @Test func aBuilderUsedOnlyThroughANestingIsUsed() {
        RuleFixture.check("""
            screen Home
            screen Detail
            builder detail { screen Detail { detail } }
            root { screen Home { detail } }
            """)
    }
}
