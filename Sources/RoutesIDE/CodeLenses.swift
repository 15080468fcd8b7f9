import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// A line of text an editor shows above a declaration, optionally a command.
public struct CodeLens: Sendable, Hashable {
    /// What running the lens shows: the routing tree of the program of `rootFile` (`path` nil),
    /// or how `path` resolves in it under the given flags and optionals (true: present). The
    /// params of the server's `routes/preview` request.
    public struct Preview: Sendable, Hashable {
        public var rootFile: FileID
        public var path: String?
        public var flags: [String: Bool]
        public var optionals: [String: Bool]

        public init(rootFile: FileID, path: String? = nil, flags: [String: Bool] = [:], optionals: [String: Bool] = [:]) {
            self.rootFile = rootFile
            self.path = path
            self.flags = flags
            self.optionals = optionals
        }
    }

    /// The declaration's name.
    public var range: Range<Int>
    public var title: String
    /// Nil for a lens that only informs.
    public var preview: Preview?

    public init(range: Range<Int>, title: String, preview: Preview? = nil) {
        self.range = range
        self.title = title
        self.preview = preview
    }
}

extension IDE {
    /// The longest example path a lens title shows whole; longer ones keep their first and
    /// last screens.
    static let lensPathLimit = 48

    /// The declarations of `file` that get a code lens, in source order: each screen and
    /// `root`, by name range and declaration index. What each lens says is worked out by
    /// ``codeLens(session:file:declaration:)`` only when the editor shows it, since an
    /// example path takes a search.
    public static func codeLensDeclarations(project: Project, file: FileID) -> [(range: Range<Int>, declaration: Int)] {
        guard project.files.indices.contains(file) else { return [] }
        return project.files[file].model.declarations.enumerated().compactMap { i, d in
            d.kind == .screen || d.kind == .root || d.kind == .link ? (d.name.range, i) : nil
        }
    }

    /// The lens of a declaration (README.md, `routes lsp`):
    ///
    /// - `root`: `preview routing tree`, which shows the program's routing tree;
    /// - a screen reached by some path: `preview Home/Detail` (an example path, as hover
    ///   gives it), which shows how that path resolves under the example's environment, in the
    ///   program where it was found; prefixed with `N places ·` when the screen is built at
    ///   more than one place of the routing trees;
    /// - a screen no path reaches: `unreachable` or `not placed in any routing tree` (no
    ///   command; the diagnostic says why);
    /// - a link: `opens Home/Detail` with `when CONDITION` unless it is always built (which
    ///   previews its path where it is), `never built whole`, or `not checked` for a link with
    ///   an error.
    ///
    /// Nil for another kind of declaration or an index out of range.
    public static func codeLens(session: AnalysisSession, file: FileID, declaration: Int) -> CodeLens? {
        let project = session.project
        guard project.files.indices.contains(file), project.files[file].model.declarations.indices.contains(declaration) else {
            return nil
        }
        let symbol = Symbol(file: file, declaration: declaration)
        let decl = project.declaration(symbol)
        switch decl.kind {
        case .root:
            return CodeLens(range: decl.name.range, title: "preview routing tree", preview: CodeLens.Preview(rootFile: file))
        case .screen:
            let (example, root, places) = session.placedExample(screen: symbol)
            let count = places.count > 1 ? "\(places.count) places · " : ""
            switch example {
            case .reached(let path, let flags, let optionals):
                guard let root else { return CodeLens(range: decl.name.range, title: count + "reached") }
                var preview = CodeLens.Preview(rootFile: root.file, path: path.joined(separator: "/"))
                for (name, value) in flags { preview.flags[name] = value }
                for (name, present) in optionals { preview.optionals[name] = present }
                return CodeLens(range: decl.name.range, title: count + "preview " + shortPath(path), preview: preview)
            case .unreachable:
                return CodeLens(range: decl.name.range, title: places.isEmpty ? "not placed in any routing tree" : count + "unreachable")
            case .notAnalysed:
                return CodeLens(range: decl.name.range, title: "not analysed")
            }
        case .link:
            return linkLens(session: session, symbol: symbol)
        default:
            return nil
        }
    }

    /// The lens of link `symbol`, from the first program that holds its file.
    static func linkLens(session: AnalysisSession, symbol: Symbol) -> CodeLens? {
        let project = session.project
        let decl = project.declaration(symbol)
        guard let program = project.programs.first(where: { $0.files.contains(symbol.file) }),
              let link = session.links(ofProgramRootedAt: program.root)?.links.first(where: { $0.symbol == symbol }) else {
            return CodeLens(range: decl.name.range, title: "not checked (in no program)")
        }
        let path = link.declaration.path.map(\.screen.text)
        guard link.typed != nil, let condition = link.condition else {
            return CodeLens(range: decl.name.range, title: "not checked (the link has an error)")
        }
        var preview = CodeLens.Preview(rootFile: program.root.file, path: path.joined(separator: "/"))
        switch condition {
        case .never:
            return CodeLens(range: decl.name.range, title: "never built whole", preview: preview)
        case .always:
            return CodeLens(range: decl.name.range, title: "opens " + shortPath(path), preview: preview)
        case .terms(let terms):
            // Previewed where the first term holds.
            for literal in terms.first ?? [] {
                guard let s = project.scopes[program.root.file][literal.name] else { continue }
                if project.declaration(s).kind == .flag { preview.flags[literal.name] = literal.holds } else { preview.optionals[literal.name] = literal.holds }
            }
            return CodeLens(range: decl.name.range, title: "opens \(shortPath(path)) when \(condition)", preview: preview)
        }
    }

    /// `Home/Settings/Detail`, or `Home/…/Detail` when longer than ``lensPathLimit``.
    static func shortPath(_ path: [String]) -> String {
        let whole = path.joined(separator: "/")
        guard whole.count > lensPathLimit, path.count > 2 else { return whole }
        return path[0] + "/…/" + path[path.count - 1]
    }
}
