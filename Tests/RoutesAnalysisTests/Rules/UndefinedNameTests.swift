import Testing

/// `undefined-name` (Sources/RoutesModel/Rules/UndefinedName.swift).
@Suite struct UndefinedNameTests {
    @Test func aTypoGetsTheClosestNameOfTheRightKind() {
        RuleFixture.check("""
            screen Settings
            dependency settingsStore: SettingsStore
            root { screen Setings uses settingsStor }
            //            ^^^^^^^ error: undefined-name — cannot find screen `Setings` in scope; did you mean `Settings`?
            //                         ^^^^^^^^^^^^ error: undefined-name — did you mean `settingsStore`?
            """)
    }

    @Test func nothingCloseIsNotSuggested() {
        RuleFixture.check("""
            screen Home
            root { screen Home uses zzz }
            //                      ^^^ error: undefined-name — cannot find dependency or optional `zzz` in scope
            """)
    }
}
