import Testing

/// `missing-dependency` (Sources/RoutesAnalysis/Rules/MissingDependency.swift).
@Suite struct MissingDependencyTests {
    @Test func aProviderThatSomeWaySkips() {
        RuleFixture.check("""
            screen Shop
            screen Product
            dependency cartStore: CartStore from Shop
            root {
              anyOf {
                screen Product uses cartStore
            //                      ^^^^^^^^^ error: missing-dependency — provided by `Shop`
                screen Shop { screen Product uses cartStore }
              }
            }
            """)
    }

    @Test func everyWayPassesTheProvider() {
        RuleFixture.check("""
            screen Shop
            screen Product
            dependency cartStore: CartStore from Shop
            root { screen Shop { screen Product uses cartStore } }
            """)
    }

    @Test func anOptionalOutsideItsIfLet() {
        RuleFixture.check("""
            screen Home
            screen Editor
            optional draft: Draft
            root {
              screen Home {
                anyOf {
                  if let draft { screen Editor uses draft }
                  screen Editor uses draft
            //                       ^^^^^ error: missing-dependency — outside `if let draft`
                }
              }
            }
            """)
    }

    @Test func aNameListedTwiceIsOneEntry() {
        RuleFixture.check("""
            screen P
            screen X
            dependency d: D from P
            root {
              anyOf {
                screen X uses d, d
            //                ^ error: missing-dependency
                screen P
              }
            }
            """)
    }
}
