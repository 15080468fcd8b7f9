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
        guard project.hasLinks else { return }
        let files = project.filesWithLinks.sorted()
        // The errors of the files with links, by file: a link holding one takes no part.
        var errors: [FileID: [Range<Int>]] = [:]
        let withLinks = project.filesWithLinks
        for diagnostic in project.diagnostics where diagnostic.severity == .error && withLinks.contains(diagnostic.file) {
            errors[diagnostic.file, default: []].append(diagnostic.range)
        }
        // Each link's screens (nil for a name that is no screen), and the parameters of every
        // screen named, each looked up once.
        var screensOf: [[Symbol?]] = []
        var named: [Symbol] = []
        var seen = Set<Symbol>()
        for file in files {
            let declarations = project.files[file].model.declarations
            for index in declarations.indices where declarations[index].kind == .link {
                guard let link = declarations[index].link else { continue }
                let screens = link.path.map { project.screen($0.screen, in: file) }
                for case let screen? in screens where seen.insert(screen).inserted { named.append(screen) }
                screensOf.append(screens)
            }
        }
        let parameterTable = project.parameters(of: named)
        var types: [String: PlaceholderType] = [:]
        var next = 0
        for file in files {
            var links: [Link] = []
            let declarations = project.files[file].model.declarations
            for index in declarations.indices where declarations[index].kind == .link {
                guard let linkDeclaration = declarations[index].link else { continue }
                var link = Link(symbol: Symbol(file: file, declaration: index), declaration: linkDeclaration)
                let screens = screensOf[next]
                next += 1
                if !screens.contains(nil) && !linkDeclaration.path.isEmpty { link.screens = screens.map { $0! } }
                // (A path names a few screens: a scan.)
                let parameters = { (name: Name) -> [Parameter]? in
                    guard let position = linkDeclaration.path.firstIndex(where: { $0.screen.text == name.text }),
                          let screen = screens[position] else { return nil }
                    return parameterTable[screen]
                }
                let found = InvalidLink.check(linkDeclaration, file: file, parameters: parameters)
                diagnostics += found
                let range = declarations[index].range
                let hasError = !found.isEmpty || (errors[file] ?? []).contains { range.contains($0.lowerBound) }
                if !hasError, link.screens != nil, let pattern = linkDeclaration.parsedPattern {
                    link.typed = TypedLink(name: declarations[index].name.text, pattern: pattern,
                                           types: Self.placeholderTypes(linkDeclaration, parameters: parameters, known: &types))
                }
                links.append(link)
            }
            byFile[file] = links
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
    static func placeholderTypes(_ link: LinkDeclaration, parameters declared: (Name) -> [Parameter]?,
                                 known: inout [String: PlaceholderType]) -> [String: PlaceholderType] {
        var types: [String: PlaceholderType] = [:]
        for element in link.path {
            guard let parameters = declared(element.screen) else { continue }
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

/// A project's links being read on another core (see `ProjectLinks`) while the programs'
/// semantics are computed, which do not need them: taken by the first checker to run its link
/// rules, and by the session once every program is analysed.
final class PendingLinks: Sendable {
    private let work: SharedWorkList<ProjectLinks>
    /// The links once taken: the programs analysed in parallel ask at once, and a work
    /// list's results are waited for by one caller.
    private let taken = Mutex<ProjectLinks?>(nil)

    /// Starts reading `project`'s links when it has some.
    init(project: Project) {
        work = SharedWorkList(count: 1) { _ in ProjectLinks(project: project) }
        if project.hasLinks { work.start() }
    }

    /// The links, once read (read now by the caller if no thread has begun).
    var value: ProjectLinks {
        taken.withLock { taken in
            if let taken { return taken }
            let links = work.results()[0]
            taken = links
            return links
        }
    }
}
