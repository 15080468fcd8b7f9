extension Project {
    /// What a project keeps of each file once the file is lowered: one value, with the
    /// presets of its users. What a project does not keep it reads or lowers again when it
    /// is asked for (see ``SourceFile/syntax``, ``SourceFile/text``, ``Project/builderNodes(of:)``).
    public struct Keeps: Sendable {
        /// Which files keep their syntax trees (tokens and nodes). The others keep their
        /// text and syntax errors (`SyntaxTree.droppingTokens()`, about a sixth of what a
        /// project holds), and parse again if asked.
        public var syntaxTrees: SyntaxTrees
        /// Whether the models keep the declarations' doc comments (hover shows them; no rule
        /// quotes them).
        public var docComments: Bool
        /// Whether every file keeps its text. Without it, a file holds no text (and no
        /// tree) once lowered, and reads it again through the provider when it is asked for,
        /// checked against the bytes first read (``SourceFile/isTextChangedSinceRead``);
        /// a file whose text mentions the suppression marker keeps it (every analysis reads
        /// its comments).
        public var texts: Bool
        /// Whether the models keep the screens' parameters and the Swift types of
        /// dependencies and optionals (a wildcard naming a screen with parameters has them
        /// lowered again from the screen's file, for its message).
        public var signatures: Bool
        /// Whether every file's scope is kept once the names are resolved. Without it, only
        /// the scopes an analysis reads are (those of files whose syntax errors skipped
        /// names), and which declaration of a name declared twice wins in a program is kept
        /// as the few declarations that lose (``Project/isRedeclaration(_:in:)``).
        public var scopes: Bool

        public enum SyntaxTrees: Sendable {
            case all
            case none
            /// Those of these files (by canonical path).
            case only(Set<String>)
        }

        public init(syntaxTrees: SyntaxTrees, docComments: Bool, texts: Bool, signatures: Bool, scopes: Bool) {
            self.syntaxTrees = syntaxTrees
            self.docComments = docComments
            self.texts = texts
            self.signatures = signatures
            self.scopes = scopes
        }

        /// Everything: tools that ask anything of any file (previews, fixes, code generation,
        /// tests).
        public static let everything = Keeps(syntaxTrees: .all, docComments: true, texts: true, signatures: true, scopes: true)

        /// What `routes lint` reads: models without doc comments, parameters or types, no
        /// syntax trees, no texts but those mentioning the suppression marker (the texts of
        /// the files it reports on are read again for positions and quoted lines), and the
        /// scopes the analyses read.
        public static let lint = Keeps(syntaxTrees: .none, docComments: false, texts: false, signatures: false, scopes: false)

        /// What an editor reads: everything, but syntax trees only for the documents it has
        /// open (a file not open is parsed again if a question needs its tree).
        public static func editor(openDocuments: Set<String>) -> Keeps {
            Keeps(syntaxTrees: .only(openDocuments), docComments: true, texts: true, signatures: true, scopes: true)
        }

        /// Whether the file at this canonical path keeps its syntax tree.
        func keepsSyntaxTree(of path: String) -> Bool {
            switch syntaxTrees {
            case .all: return true
            case .none: return false
            case .only(let paths): return paths.contains(path)
            }
        }
    }
}
