import Testing

/// `syntax-error` (Sources/RoutesSyntax/Rules/SyntaxError.swift): one error per mistake, and
/// the rest of the file is still checked.
@Suite struct SyntaxErrorTests {
    /// The `}` at the end is indented as `root`'s line: the one left out is `Home`'s nesting's,
    /// after its builder.
    @Test func anUnclosedBlockIsOneErrorAndTheNextDeclarationIsKept() {
        RuleFixture.check("""
              screen Home
              screen Detail
              screen Orphan
            //       ^^^^^^ warning: unreachable-screen
              root {
                screen Home {
                  screen Detail
            //                 ^ error: syntax-error — expected `}`
              }
            """)
    }

    @Test func elseIfIsOneError() {
        RuleFixture.check("""
            screen Home
            flag beta
            root {
              conditional beta { screen Home } else if beta { empty }
            //                                      ^^ error: syntax-error — there is no `else if`
            }
            """)
    }

    @Test func anUnexpectedCharacterIsOneError() {
        RuleFixture.check("""
            screen Home
            root { screen Home € }
            //                 ^^^ error: syntax-error — unexpected character
            """)
    }
}
