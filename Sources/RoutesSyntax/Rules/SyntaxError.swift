/// `syntax-error`: the text does not parse. The check is the lexer and the resilient parser
/// (`Lexer.tokenize`, `Parser`): they recover and go on, one error per real mistake, each
/// worded where the parser knows what it expected and what it found.
public enum SyntaxError: RuleDefinition {
    public static let id = RuleID("syntax-error")
    public static let severity = Severity.error
    public static let category = RuleCategory.syntax
    public static let summary = "The text does not parse."
    /// What did not parse is not checked: that cannot be silenced or turned off.
    public static let suppressible = false
    public static let configurable = false
    public static let documentation = RuleDocumentation(
        what: """
            A token is missing or unexpected, a block is not closed, a string or escape is \
            malformed, or the file is not valid UTF-8. The parser recovers and keeps going, \
            with one error per mistake: a declaration keyword at the start of a line closes \
            every open block, so the rest of the file is still checked. The error points at \
            the token that is wrong (`42` in `screen 42`), or, where a token is missing, at \
            the place it goes: an empty range right after the token before it (the `}` a block \
            was not closed with, the `,` between two names of a `uses` list).
            """,
        why: """
            A file that does not parse does not say what the app does: the part that did not \
            parse is left out of the routing tree, and nothing about it can be checked.
            """,
        example: """
            screen Home
            dependency appStore: AppStore
            dependency cartStore: CartStore
            root {
              screen Home uses appStore cartStore
            }
            """,
        fix: """
            Write what the message asks for at the place it points to (here, the `,` between \
            `appStore` and `cartStore`: without it `cartStore` reads as a second builder). \
            Close every `{` with a `}`; there is no `else if`: write `else { if … }`; a block \
            holds one builder: list several with `anyOf { … }`.
            """)

    public static let fixes = [
        RuleFix(.safe, """
            Where the mistake has one clear repair: insert the `,` missing between two names of \
            a `uses` list, add `else { empty }` to a `conditional` that has no `else` (the \
            branch that builds nothing, which is what a missing `else` is usually meant to be), \
            insert the `as` a placement's presentation needs (`screen Detail as sheet`), \
            remove the one a declaration's must not have (`screen Detail sheet`), insert the \
            `uses` before a screen node's dependency list (`screen Home uses d, e`), spell a \
            misspelt keyword or presentation right (`scren Home`, `buidler home {`, \
            `} esle {`, `screen Detail shet`), insert the `root` before the routing tree's \
            block, write `//` for a comment started with `#`, plain spaces for no-break or \
            other Unicode spaces, straight double quotes for a string in curly or single \
            quotes (`“/items”`, `'/items'`), remove the `()` after a builder's name \
            (`detail()`, `builder detail() {`) or `root` (`root() {`), \
            write `:` for `=` after a dependency's name, a parameter's label or a path's \
            label and `->` for `=>`, `–>` \
            or `→` in a link, remove the `,` that ends a `uses` list, write a `uses` list as \
            the language does (`uses: a`, `uses(a, b)`, `uses [a]`, `uses a & b`, `uses a and \
            b`, `uses a: A` become `uses a` and `uses a, b`; `screen Home.self` becomes `screen \
            Home`), remove Swift's `?` or `!` after a name (`uses store!`, `if let draft? {`), \
            write `/` for a `.` between a link path's screens (`Home.Cart`), write the keyword of a declaration written as in Swift (`let api: API` \
            and `var api: API` become `dependency`, `func detail {` becomes `builder`, \
            `struct Home` becomes `screen`), remove Swift's `_`, `let` or `var` before a \
            screen's parameter and a default value after its type (`(_ id: String, title: \
            String? = nil)` becomes `(id: String, title: String?)`), write SwiftUI's `fullScreenCover` and `modal` as \
            `cover` and `sheet` and `.sheet` as `sheet`, write `guard let user else { … }` as `if let \
            user { empty } else { … }`, a `{` typed twice (`anyOf { {`), a `:` or `=` before a declaration's \
            block (`root: {`, `builder home = {`), a `;` written as in Swift (`import \"Shared.routes\";`), \
            close the blocks a file ends in (a `}` for each on a line of its own at the end, \
            indented as the line of its `{`), insert the `:` between a dependency's or an \
            optional's name and its type, remove a `,` between the branches of an `anyOf`, \
            complete an `if` followed by a name alone by what the name is (`if let draft` for \
            an optional, `if screen Help` for a screen, `conditional beta` for a flag, with \
            `else { empty }` when the `if` had no `else`), move a `link` written inside a \
            block out of it (after the declaration that holds the block), \
            or quote an import's path written without quotes \
            (`import Shared` becomes `import \"Shared.routes\"`, when that file is there).
            """),
        RuleFix(.unsafe, """
            Insert `as` before `cover` or `popover` written as a second builder after a \
            placement (`screen Detail popover` in a block): the word may be the placement's \
            presentation, or a builder of that name. Remove the parameters written after a \
            builder's name in its declaration (`builder detail(id: String) {`), or the \
            arguments after it where it is used (`detail(store: store)`): a builder takes \
            none, and the fix drops what they say.
            """),
    ]

    /// The one clear repair of a syntax error, for its fix (see `fixes`): what to write at
    /// the diagnostic's place.
    public enum Repair: Hashable, Sendable {
        /// A `,` after the name before the diagnostic's (`uses a b`: the error is at `b`).
        case insertComma
        /// ` else { empty }` where the diagnostic is (just after a `conditional`'s block).
        case insertElseEmpty
        /// `as ` where the diagnostic starts (`screen Detail sheet` at a placement).
        case insertAs
        /// The same, where the word may as well be a builder's name (`screen Detail popover`
        /// in a block): not a safe fix.
        case insertAsIfPresentation
        /// The `as ` the diagnostic covers (`screen Detail as sheet` in a declaration).
        case removeAs
        /// ` uses` where the diagnostic is (`screen Home d, e`: right after the screen).
        case insertUses
        /// The keyword the diagnostic's word misspells, in its place (`scren Home`).
        case replaceWithKeyword(String)
        /// `root ` before the diagnostic's `{` (the routing tree's block without `root`).
        case insertRoot
        /// The text the diagnostic covers (`()` after a builder's name).
        case remove
        /// The `,` just before the diagnostic's place (`uses a, b, {`: the error is where a
        /// name was expected after it).
        case removeComma
        /// The same where the text says something the language has no place for (`(id:
        /// String)` after a builder's name): a fix that drops it is not safe.
        case removeUnsafely
        /// A `:` for the `=` the diagnostic covers, with the blanks before it (`appStore =
        /// AppStore` becomes `appStore: AppStore`).
        case colonForEquals
        /// A `}` for each block the file ends in, on lines of their own at its end, each
        /// indented as the line of its `{` (the byte offsets of those `{`s, innermost first).
        case closeBlocks(braces: [Int])
        /// The text to write where the diagnostic is (`:` after a dependency's name that its
        /// type follows without one).
        case insert(String)
        /// `if detailStore {`: the word after `if` (the diagnostic is right after `if`) names
        /// an optional, then ` let` goes after `if`, a screen, then ` screen`, or a flag, then
        /// `conditional` replaces `if` (the parser cannot tell which: a fix reads the name's
        /// kind).
        case testWithoutLet
        /// The `link` declaration that starts at the diagnostic and ends at `end` (a byte
        /// offset), written inside a block: moved out, with its lines and the doc comment
        /// above it, to lines of their own after the declaration that holds the block.
        case moveLinkOutOfBlock(end: Int)
    }

    /// A syntax error at `range` of `file`, with its repair when it has one clear repair.
    public static func diagnostic(file: FileID, range: Range<Int>, message: String,
                                  related: [RelatedLocation] = [], repair: Repair? = nil) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message, related: related,
                   detail: repair.map { DiagnosticDetail($0) })
    }
}

extension RuleID {
    public static let syntaxError = SyntaxError.id
}
