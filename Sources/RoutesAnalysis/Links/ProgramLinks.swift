import RoutesModel
import RoutesSyntax

/// The links of one program (the links declared in its files): each with its pattern, the
/// types of its placeholders, the screens of its path and the condition under which the
/// path is built whole; and what the link rules find over them (`ambiguous-link`,
/// `shadowed-link`, `unbuildable-link`). A link with an error (`invalid-link`, a name that
/// does not resolve, a syntax error in it) takes no part in matching nor in the rules.
public struct ProgramLinks: Sendable {
    public struct Link: Sendable {
        public var symbol: Symbol
        public var name: String
        public var declaration: LinkDeclaration
        /// The pattern with the types of its placeholders; nil for a link with an error.
        public var typed: TypedLink?
        /// The screens of the path; nil when one does not resolve to a screen.
        public var screens: [Symbol]?
        /// Under which environments the whole path is built; nil when not judged (an error,
        /// or a program whose analysis is uncertain).
        public var condition: LinkCondition?
        /// How many elements, from the first, are built together in some environment.
        public var builtPrefix: Int?
        /// An environment in which the whole path is not built (flags true and optionals
        /// present where that is free); nil when it always is, or was not judged.
        public var failingEnvironment: ProgramEnvironment?
    }

    /// In declaration order (see `order(_:in:)`).
    public private(set) var links: [Link] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// The links that take part in matching, as typed links, with their positions in `links`.
    public var matching: (links: [TypedLink], positions: [Int]) {
        var typed: [TypedLink] = []
        var positions: [Int] = []
        for (position, link) in links.enumerated() {
            if let t = link.typed {
                typed.append(t)
                positions.append(position)
            }
        }
        return (typed, positions)
    }

    init() {}

    init(facts: ProgramFacts) {
        let project = facts.project
        let program = facts.program
        var declared: [(LinkDeclaration, FileID)] = []
        for file in program.files where project.filesWithLinks.contains(file) {
            for declaration in project.files[file].model.declarations where declaration.kind == .link {
                if let link = declaration.link { declared.append((link, file)) }
            }
        }
        guard !declared.isEmpty else { return }
        let files = Self.order(Array(Set(declared.map(\.1))), in: project)
        // The errors of the files with links, by file: a link holding one takes no part.
        var errors: [FileID: [Range<Int>]] = [:]
        let withLinks = Set(files)
        for diagnostic in project.diagnostics where diagnostic.severity == .error && withLinks.contains(diagnostic.file) {
            errors[diagnostic.file, default: []].append(diagnostic.range)
        }
        let parameterTable = project.linkParameters(declared)
        for file in files {
            let parameters = { (name: Name) in project.screen(name, in: file).flatMap { parameterTable[$0] } }
            for (index, declaration) in project.files[file].model.declarations.enumerated() where declaration.kind == .link {
                guard let linkDeclaration = declaration.link else { continue }
                let symbol = Symbol(file: file, declaration: index)
                var link = Link(symbol: symbol, name: declaration.name.text, declaration: linkDeclaration)
                let screens = linkDeclaration.path.map { element -> Symbol? in
                    guard let s = project.resolve(element.screen, in: file), project.declaration(s).kind == .screen else { return nil }
                    return s
                }
                if !screens.contains(nil) && !linkDeclaration.path.isEmpty { link.screens = screens.map { $0! } }
                let hasError = (errors[file] ?? []).contains { declaration.range.contains($0.lowerBound) }
                    || !InvalidLink.check(linkDeclaration, file: file, parameters: parameters).isEmpty
                if !hasError, link.screens != nil, let pattern = linkDeclaration.parsedPattern {
                    link.typed = TypedLink(name: link.name, pattern: pattern, types: Self.placeholderTypes(linkDeclaration, parameters: parameters))
                }
                links.append(link)
            }
        }
        guard !links.isEmpty else { return }
        judgeBuilds(facts)
        judgeOverlaps(project)
    }

    /// The program's files with every file after those it imports, else by path: the order
    /// in which "earlier" is meant between links of different files.
    static func order(_ files: [FileID], in project: Project) -> [FileID] {
        // (Over the files that declare links: few.)
        var remaining = Set(files)
        var ordered: [FileID] = []
        while !remaining.isEmpty {
            // The files none of whose imports among the remaining ones is left, by path.
            let ready = remaining.filter { file in !remaining.contains { $0 != file && project.closures[file].contains($0) } }
            let pool = ready.isEmpty ? remaining : ready  // (an import cycle: by path)
            let next = pool.min { project.files[$0].path < project.files[$1].path }!
            ordered.append(next)
            remaining.remove(next)
        }
        return ordered
    }

    /// Per placeholder, the type of the parameters it fills (the first: a conflict is an
    /// error of the link).
    static func placeholderTypes(_ link: LinkDeclaration, parameters declared: (Name) -> [Parameter]?) -> [String: PlaceholderType] {
        var types: [String: PlaceholderType] = [:]
        for element in link.path {
            guard let parameters = declared(element.screen) else { continue }
            for argument in element.arguments {
                guard case .placeholder(let name) = argument.value, types[name.text] == nil,
                      let parameter = parameters.first(where: { $0.label.text == argument.label.text }) else { continue }
                types[name.text] = PlaceholderType.of(swiftType: parameter.type)
            }
        }
        return types
    }

    /// The same links in a project moved by a trivia edit: their positions read again.
    mutating func rebase(onto project: Project) {
        for position in links.indices {
            if let moved = project.declaration(links[position].symbol).link { links[position].declaration = moved }
        }
    }

    // MARK: Builds

    /// The condition of each link's path, and `unbuildable-link` where it is `never`.
    private mutating func judgeBuilds(_ facts: ProgramFacts) {
        let semantics = facts.semantics
        guard let rootBody = facts.rootBody else { return }
        let conditions = PathCondition(semantics: semantics)
        // Links share the starts of their paths: each prefix is followed once.
        var steps: [[Int]: (frontier: PathCondition.Frontier, built: BDD.Ref)] = [[]: ([rootBody: BDD.one], BDD.one)]
        var conditionOf: [BDD.Ref: LinkCondition] = [:]
        var failingOf: [BDD.Ref: ProgramEnvironment] = [:]
        let names = LinkCondition.variableNames(semantics)
        for position in links.indices {
            guard links[position].typed != nil, let screens = links[position].screens else { continue }
            let codes = screens.map { facts.graph.screenCode($0) ?? -1 }
            var prefixes: [BDD.Ref] = []
            for length in 1...codes.count {
                let key = Array(codes.prefix(length))
                if steps[key] == nil {
                    let (next, built) = conditions.step(steps[Array(codes.prefix(length - 1))]!.frontier, codes[length - 1])
                    steps[key] = (next, built)
                }
                prefixes.append(steps[key]!.built)
            }
            let built = prefixes.prefix { $0 != BDD.zero }.count
            links[position].builtPrefix = built
            if semantics.hasUncertainty { continue }
            let whole = prefixes.last ?? BDD.one
            if conditionOf[whole] == nil { conditionOf[whole] = LinkCondition.of(whole, semantics, names: names) }
            links[position].condition = conditionOf[whole]
            if whole != BDD.one {
                if failingOf[whole] == nil { failingOf[whole] = Self.environment(semantics.bdd.not(whole), facts) }
                links[position].failingEnvironment = failingOf[whole]
            }
            if built < screens.count { reportUnbuildable(position, built: built, prefixes: prefixes, facts, conditions, rootBody) }
        }
    }

    private mutating func reportUnbuildable(_ position: Int, built: Int, prefixes: [BDD.Ref], _ facts: ProgramFacts,
                                            _ conditions: PathCondition, _ rootBody: Int) {
        let link = links[position]
        let project = facts.project
        let screens = link.screens!
        // An environment that builds the longest prefix, with the defaults where it is free:
        // the reason is the one a preview under it gives.
        let environment = Self.environment(built == 0 ? BDD.one : prefixes[built - 1], facts)
        let resolution = Resolution.resolve(screens: screens, program: facts.program, project: project, environment: environment)
        let reason = resolution.elements[built].reason ?? "it is not built there"
        let element = link.declaration.path[built]
        let prefix = Self.shortestPrefix(screens.map { facts.graph.screenCode($0) ?? -1 }, facts, conditions, rootBody)
        let finding = UnbuildableLink.Finding(link: link.name, element: element.screen.text, reason: reason, prefix: prefix)
        let detail = prefix.map { UnbuildableLink.Detail(pathStart: link.declaration.path[0].range.lowerBound, prefix: $0) }
        diagnostics.append(Diagnostic(UnbuildableLink.self, file: link.symbol.file, range: element.range,
                                      message: UnbuildableLink.message(finding), detail: detail.map { DiagnosticDetail($0) }))
    }

    /// The shortest run of screens without parameters (at most three) that, put before the
    /// path, makes it buildable; the first such run in the order of the program's screens.
    static func shortestPrefix(_ codes: [Int], _ facts: ProgramFacts, _ conditions: PathCondition, _ rootBody: Int) -> [String]? {
        let graph = facts.graph
        let candidates = graph.screens.enumerated().filter { _, s in !facts.project.declaration(s).hasParameters }
            .map { (code: $0.offset, name: facts.project.declaration($0.element).name.text) }
            .sorted { $0.name < $1.name }
        guard !candidates.isEmpty else { return nil }
        var runs: [[Int]] = [[]]
        for _ in 1...3 {
            var next: [[Int]] = []
            for run in runs {
                for candidate in candidates.indices {
                    let longer = run + [candidate]
                    let path = longer.map { candidates[$0].code } + codes
                    if conditions.prefixes(of: path, rootBody: rootBody).last != BDD.zero {
                        return longer.map { candidates[$0].name }
                    }
                    next.append(longer)
                }
            }
            // Runs are tried only as far as they are built themselves.
            runs = next.filter { run in conditions.prefixes(of: run.map { candidates[$0].code }, rootBody: rootBody).last != BDD.zero }
            if runs.isEmpty || runs.count > 4096 { return nil }
        }
        return nil
    }

    /// An environment in `environments` (a function of the condition variables): flags true
    /// and optionals present where it leaves them free.
    static func environment(_ environments: BDD.Ref, _ facts: ProgramFacts) -> ProgramEnvironment {
        let semantics = facts.semantics
        var assignment: [Int: Bool] = [:]
        var current = environments
        while let (variable, low, high) = semantics.bdd.top(current) {
            if high != BDD.zero {
                assignment[variable] = true
                current = high
            } else {
                assignment[variable] = false
                current = low
            }
        }
        var given = Environment()
        for (condition, variable) in semantics.variableOfCondition.enumerated() {
            guard let value = assignment[Int(variable)], case .symbol(let s) = facts.graph.conditions[condition] else { continue }
            let declaration = facts.project.declaration(s)
            if declaration.kind == .flag { given.flags[declaration.name.text] = value } else { given.optionals[declaration.name.text] = value }
        }
        return (try? ProgramEnvironment(given, program: facts.program, project: facts.project))
            ?? (try! ProgramEnvironment(Environment(), program: facts.program, project: facts.project))
    }

    // MARK: Overlaps

    /// `ambiguous-link` and `shadowed-link`, exactly, over the links that take part.
    private mutating func judgeOverlaps(_ project: Project) {
        let (typed, positions) = matching
        guard !typed.isEmpty else { return }
        let result = LinkOverlap.analyse(typed)
        // Per later link, the earlier links it ties with, and a URL of the first tie.
        var ties: [Int: (earlier: [Int], url: String)] = [:]
        for tie in result.ties {
            ties[tie.second, default: ([], tie.url)].earlier.append(tie.first)
        }
        for (second, tie) in ties.sorted(by: { $0.key < $1.key }) {
            let link = links[positions[second]]
            let earlier = tie.earlier.map { links[positions[$0]] }
            let finding = AmbiguousLink.Finding(link: link.name, earlier: earlier.map(\.name), url: tie.url)
            diagnostics.append(Diagnostic(AmbiguousLink.self, file: link.symbol.file, range: link.declaration.patternRange,
                                          message: AmbiguousLink.message(finding),
                                          related: earlier.map { RelatedLocation(file: $0.symbol.file, range: $0.declaration.patternRange,
                                                                                 message: "`\($0.name)` matches it as well") }))
        }
        for (index, by) in result.shadowed.sorted(by: { $0.key < $1.key }) {
            let link = links[positions[index]]
            let takers = by.map { links[positions[$0]] }
            let finding = ShadowedLink.Finding(link: link.name, by: takers.map(\.name))
            diagnostics.append(Diagnostic(ShadowedLink.self, file: link.symbol.file, range: link.declaration.patternRange,
                                          message: ShadowedLink.message(finding),
                                          related: takers.map { RelatedLocation(file: $0.symbol.file, range: $0.declaration.patternRange,
                                                                                message: "`\($0.name)` is more specific") }))
        }
    }
}
