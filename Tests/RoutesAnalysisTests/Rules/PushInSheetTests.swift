import Testing

/// `push-in-sheet` (Sources/RoutesAnalysis/Rules/PushInSheet.swift).
@Suite struct PushInSheetTests {
    @Test func aPushAfterASheetThatAllowsNone() {
        RuleFixture.check("""
            screen Home
            screen Picker sheet(allowsPush: false)
            screen Detail
            root {
              screen Home {
                screen Picker {
                  screen Detail
            //    ^^^^^^^^^^^^^ warning: push-in-sheet — it follows `Picker`
                }
              }
            }
            """)
    }

    @Test func aSheetBetweenResetsTheContext() {
        RuleFixture.check("""
            screen Home
            screen Picker sheet(allowsPush: false)
            screen Editor sheet
            screen Detail
            root { screen Home { screen Picker { screen Editor { screen Detail } } } }
            """)
    }

    @Test func oneWayThatAllowsItIsEnough() {
        RuleFixture.check("""
            screen Home
            screen Picker sheet(allowsPush: false)
            screen Detail
            builder detail { screen Detail }
            root { screen Home { anyOf { screen Picker { detail } detail } } }
            """)
    }
}
