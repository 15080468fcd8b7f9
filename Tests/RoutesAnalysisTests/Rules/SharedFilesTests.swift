import Testing

/// A file shared by several programs: an error is reported when some program has it, a
/// warning only when every program that has a say on its place has it.
@Suite struct SharedFilesTests {
    /// `split` and `Split` are used by Pad only: not unused, not unplaced; `leftover` is used
    /// by none. The lint of the folder and of each file must agree (see the CLI's tests).
    static let apps: [String: String] = [
        "Lib.routes": """
            screen Home
            screen Split
            screen Detail
            dependency store: Store from Home
            flag leftover
            //   ^^^^^^^^ warning: unused-declaration
            builder split { screen Split }
            builder detail { screen Detail uses store }
            //                                  ^^^^^ error: missing-dependency — `store` is not in scope on every way `Detail` is built
            """,
        "Phone.routes": """
            import "Lib.routes"
            root { screen Home { detail } }
            """,
        "Pad.routes": """
            import "Lib.routes"
            root { anyOf { screen Home { split } detail } }
            """,
    ]

    @Test func aWarningHoldsOnlyWhenItHoldsInEveryProgram() {
        RuleFixture.check(Self.apps)
    }

    @Test func aNodeOnlyOneProgramUsesIsJudgedByThatProgram() {
        RuleFixture.check([
            "Lib.routes": """
                screen Home
                screen Other
                builder menu {
                  anyOf {
                    screen Home
                    screen Home
                //  ^^^^^^^^^^^ warning: shadowed-branch
                  }
                }
                """,
            "A.routes": "import \"Lib.routes\"\nroot { anyOf { menu screen Other } }\n",
            "B.routes": "import \"Lib.routes\"\nroot { anyOf { screen Home screen Other } }\n",
        ])
    }
}
