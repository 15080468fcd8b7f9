import Testing

/// `duplicate-declaration` (Sources/RoutesModel/Rules/DuplicateDeclaration.swift).
@Suite struct DuplicateDeclarationTests {
    @Test func theLaterDeclarationIsReported() {
        RuleFixture.check("""
            screen Home
            screen Home sheet
            //     ^^^^ error: duplicate-declaration — invalid redeclaration of `Home`
            root { screen Home }
            """)
    }

    @Test func theImportingFilesDeclarationIsTheLaterOne() {
        RuleFixture.check([
            "App.routes": """
                import "Lib.routes"
                screen Home
                //     ^^^^ error: duplicate-declaration
                root { screen Home }
                """,
            "Lib.routes": "screen Home\n",
        ])
    }

    @Test func aParameterLabelTwice() {
        RuleFixture.check("""
            screen Detail(id: String, id: Int)
            //                        ^^ error: duplicate-declaration — parameter `id` of screen `Detail` is declared twice
            root { screen Detail }
            """)
    }
}
