import Testing

/// `import-error` (Sources/RoutesModel/Rules/ImportError.swift).
@Suite struct ImportErrorTests {
    @Test func aMissingFile() {
        RuleFixture.check("""
            import "Payments.routes"
            //     ^^^^^^^^^^^^^^^^^ error: import-error — cannot find `Payments.routes`
            screen Home
            root { screen Home }
            """)
    }

    @Test func aCycleIsReportedAtTheImportThatClosesIt() {
        RuleFixture.check([
            "A.routes": """
                import "B.routes"
                screen Home
                root { screen Home }
                """,
            "B.routes": """
                import "A.routes"
                //     ^^^^^^^^^^ error: import-error — import cycle
                """,
        ])
    }
}
