import RoutesModel
import RoutesSyntax
import Synchronization

/// The links of a project, read once per analysis and handed to each program's
/// `ProgramLinks`: each link's screens, its typed pattern when it takes part in matching, and
/// the `invalid-link` diagnostics of every link (with `undefined-name` for a placeholder the
/// pattern does not have). What a program then judges (conditions, overlaps) depends on the
/// program; this does not.
struct ProjectLinks: Sendable {
    struct Link: Sendable {
        var symbol: Symbol
        var declaration: LinkDeclaration
        /// The screens of the path; nil when one does not resolve to a screen.
        var screens: [Symbol]?
        /// The pattern with the types of its placeholders; nil for a link with an error (an
        /// `invalid-link`, a name that does not resolve, a syntax error in it).
        var typed: TypedLink?
    }

    /// By file, in declaration order.
    private(set) var byFile: [FileID: [Link]] = [:]
    /// `invalid-link` and `undefined-name` diagnostics, in file order.
    private(set) var diagnostics: [Diagnostic] = []

    init(project: Project) {
        let plan = Plan(project: project)
        self.init(plan: plan, parts: plan.parts.indices.map { Part(plan: plan, part: $0, project: project) })
    }

    /// The links of `plan`, judged in `parts` (in order).
    init(plan: Plan, parts: [Part]) {
        for part in parts {
            for (file, link) in part.links { byFile[file, default: []].append(link) }
            diagnostics += part.diagnostics
        }
        // (A file whose links are all skipped still has its list.)
        for file in plan.files where byFile[file] == nil { byFile[file] = [] }
    }

    /// The link declarations of a project, in file order, cut into parts judged apart (on
    /// several cores): each part reads the parameters of the screens its links name.
    struct Plan: Sendable {
        /// The files that declare links, in order.
        var files: [FileID] = []
        /// Each link declaration, in file order.
        var links: [Symbol] = []
        /// The errors of the files with links, by file: a link holding one takes no part.
        var errors: [FileID: [Range<Int>]] = [:]
        /// Ranges of `links`, in order.
        var parts: [Range<Int>] = []

        /// A part has at least this many links (fewer parts cost less than they share).
        static let smallestPart = 128
        /// At most this many parts.
        static let mostParts = 8

        init(project: Project) {
            guard project.hasLinks else { return }
            files = project.filesWithLinks.sorted()
            for file in files {
                let declarations = project.files[file].model.declarations
                for index in declarations.indices where declarations[index].kind == .link && declarations[index].hasLink {
                    links.append(Symbol(file: file, declaration: index))
                }
            }
            let withLinks = project.filesWithLinks
            for diagnostic in project.diagnostics where diagnostic.severity == .error && withLinks.contains(diagnostic.file) {
                errors[diagnostic.file, default: []].append(diagnostic.range)
            }
            let count = min(Self.mostParts, max(1, links.count / Self.smallestPart))
            let size = (links.count + count - 1) / max(count, 1)
            parts = stride(from: 0, to: links.count, by: max(size, 1)).map { $0..<min($0 + size, links.count) }
        }
    }

    /// The links of one part of a plan, judged: each with its screens and typed pattern, and
    /// their `invalid-link` and `undefined-name` diagnostics, in order.
    struct Part: Sendable {
        var links: [(FileID, Link)] = []
        var diagnostics: [Diagnostic] = []

        init(plan: Plan, part: Int, project: Project) {
            let symbols = plan.links[plan.parts[part]]
            // Each link's screens (nil for a name that is no screen); the parameters of the
            // screens whose model left them out (see `Project.addFiles`), read again once.
            var screensOf: [[Symbol?]] = []
            screensOf.reserveCapacity(symbols.count)
            var leftOut: [Symbol] = []
            for symbol in symbols {
                let path = project.files[symbol.file].model.declarations[symbol.declaration].link?.path ?? []
                let screens = path.map { project.screen($0.screen, in: symbol.file) }
                for case let screen? in screens where project.files[screen.file].model.declarations[screen.declaration].parametersLeftOut {
                    leftOut.append(screen)
                }
                screensOf.append(screens)
            }
            let readAgain = leftOut.isEmpty ? [:] : project.parameters(of: leftOut)
            var types: [String: PlaceholderType] = [:]
            for (symbol, screens) in zip(symbols, screensOf) {
                let file = symbol.file
                let declaration = project.files[file].model.declarations[symbol.declaration]
                guard let linkDeclaration = declaration.link else { continue }
                var link = Link(symbol: symbol, declaration: linkDeclaration)
                if !screens.contains(nil) && !linkDeclaration.path.isEmpty { link.screens = screens.map { $0! } }
                // The parameters of the screen of each element of the path. (Read in place: a
                // copy of a declaration retains each of its fields.)
                var declared: [[Parameter]?] = []
                declared.reserveCapacity(screens.count)
                for screen in screens {
                    guard let screen else {
                        declared.append(nil)
                        continue
                    }
                    declared.append(project.files[screen.file].model.declarations[screen.declaration].parametersLeftOut
                        ? readAgain[screen] ?? [] : project.files[screen.file].model.declarations[screen.declaration].parameters)
                }
                // (Parsed here, once, on each core: see `LinkDeclaration.parsed`.)
                let parsed = linkDeclaration.parsed
                let found = InvalidLink.check(linkDeclaration, parsed: parsed, file: file, parameters: declared)
                diagnostics += found
                let range = declaration.range
                let hasError = !found.isEmpty || (plan.errors[file] ?? []).contains { range.contains($0.lowerBound) }
                if !hasError, link.screens != nil, case .success(let pattern)? = parsed {
                    link.typed = TypedLink(name: declaration.name.text, pattern: pattern,
                                           types: ProjectLinks.placeholderTypes(linkDeclaration, parameters: declared, known: &types))
                }
                links.append((file, link))
            }
        }
    }

    /// The same links in `project`, the project after an edit of `file` that moved positions
    /// only (see `AnalysisSession.rebased(onto:file:edit:relinking:)`).
    func rebased(onto project: Project, moving edit: TriviaEdit, in file: FileID) -> ProjectLinks {
        var moved = self
        if let links = byFile[file] {
            moved.byFile[file] = links.map { link in
                var link = link
                if let declaration = project.declaration(link.symbol).link { link.declaration = declaration }
                return link
            }
        }
        moved.diagnostics = diagnostics.map { $0.shifted(edit, in: file) }
        return moved
    }

    /// Per placeholder, the type of the parameters it fills (the first: a conflict is an
    /// error of the link); `known` keeps the type of each Swift type already read.
    static func placeholderTypes(_ link: LinkDeclaration, parameters declared: [[Parameter]?],
                                 known: inout [String: PlaceholderType]) -> [String: PlaceholderType] {
        var types: [String: PlaceholderType] = [:]
        for (position, element) in link.path.enumerated() {
            guard let parameters = declared[position] else { continue }
            for argument in element.arguments {
                guard case .placeholder(let name) = argument.value, types[name.text] == nil,
                      let parameter = parameters.first(where: { $0.label.text == argument.label.text }) else { continue }
                if known[parameter.type] == nil { known[parameter.type] = PlaceholderType.of(swiftType: parameter.type) }
                types[name.text] = known[parameter.type]
            }
        }
        return types
    }
}

/// A project's links being read, in parts (`ProjectLinks.Plan`), by the pool's threads while
/// the programs are analysed, which need them only at the end (see
/// `ProgramLinks.init(facts:pending:judgingConditions:)`): read by a thread of the pool, and
/// by whoever asks for them first (who reads the parts no thread has begun). In a project of
/// one program, that thread then searches the overlaps of the program's links too.
final class PendingLinks: Sendable {
    let plan: ProjectLinks.Plan
    private let reading: Reading
    /// The links, then, in a project of one program, the overlaps of its links (`overlaps(of:)`).
    private let whole: SharedWorkList<OverlapsFound?>

    /// What `LinkOverlap` found over the links `symbols`, in this order.
    struct OverlapsFound: Sendable {
        var symbols: [Symbol]
        var result: LinkOverlap.Result
    }

    /// The parts being read, and the links once assembled from them (by the first to ask).
    private final class Reading: Sendable {
        let plan: ProjectLinks.Plan
        let parts: SharedWorkList<ProjectLinks.Part>
        let assembled = Mutex<ProjectLinks?>(nil)

        init(plan: ProjectLinks.Plan, project: Project) {
            self.plan = plan
            parts = SharedWorkList(count: plan.parts.count) { part in ProjectLinks.Part(plan: plan, part: part, project: project) }
        }

        var links: ProjectLinks {
            // (Every asker does its share of the parts left, then one assembles them.)
            let done = parts.results()
            return assembled.withLock { links in
                if let links { return links }
                let made = ProjectLinks(plan: plan, parts: done)
                links = made
                return made
            }
        }
    }

    /// Starts reading `project`'s links when it has some, in parts (see `ProjectLinks.Plan`).
    init(project: Project) {
        let plan = ProjectLinks.Plan(project: project)
        self.plan = plan
        let reading = Reading(plan: plan, project: project)
        self.reading = reading
        let searchesOverlaps = project.programs.count == 1
        whole = SharedWorkList(count: plan.parts.isEmpty ? 0 : 1) { _ in
            let links = reading.links
            guard searchesOverlaps else { return nil }
            var typed: [TypedLink] = []
            var symbols: [Symbol] = []
            for file in ProgramLinks.order(plan.files, in: project) {
                for link in links.byFile[file] ?? [] {
                    guard let t = link.typed else { continue }
                    typed.append(t)
                    symbols.append(link.symbol)
                }
            }
            return typed.count > 1 ? OverlapsFound(symbols: symbols, result: LinkOverlap.analyse(typed)) : nil
        }
        whole.start()
    }

    /// The links, once read: the caller reads the parts no thread has begun.
    var links: ProjectLinks { reading.links }

    /// What `LinkOverlap` finds over the typed links `symbols` (in this order), when that is
    /// what was searched beside the parts; else nil.
    func overlaps(of symbols: [Symbol]) -> LinkOverlap.Result? {
        guard let found = whole.results().first ?? nil, found.symbols == symbols else { return nil }
        return found.result
    }
}
