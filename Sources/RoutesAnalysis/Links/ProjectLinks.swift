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
        /// Its position among the plan's links, and in `all`.
        var index: Int
        var declaration: LinkDeclaration
        /// The screens of the path; nil when one does not resolve to a screen.
        var screens: [Symbol]?
        /// The pattern with the types of its placeholders; nil for a link with an error (an
        /// `invalid-link`, a name that does not resolve, a syntax error in it).
        var typed: TypedLink?
        /// Whether `unbuildable-link` is judged for it: when every screen of its path
        /// resolves, its pattern parses and it holds no syntax error, whatever other error it
        /// has (a bad label, an unused placeholder: mistakes of their own, which leave its path
        /// what it is).
        var judgesBuilds = false
    }

    /// The plan the links were read in (which of them each file declares).
    let plan: Plan
    /// Each of the plan's links, in its order.
    private(set) var all: [Link] = []
    /// `invalid-link` and `undefined-name` diagnostics, in file order.
    private(set) var diagnostics: [Diagnostic] = []

    /// The links file f declares, in order.
    func links(in f: FileID) -> ArraySlice<Link> { plan.ranges[f].map { all[$0] } ?? [] }

    init(project: Project) {
        let plan = Plan(project: project)
        self.init(plan: plan, parts: plan.parts.indices.map { Part(plan: plan, part: $0, project: project) })
    }

    /// The links of `plan`, judged in `parts` (in order).
    init(plan: Plan, parts: [Part]) {
        self.plan = plan
        all.reserveCapacity(plan.links.count)
        for part in parts {
            all += part.links
            diagnostics += part.diagnostics
        }
    }

    /// The link declarations of a project, in file order, cut into parts judged apart (on
    /// several cores): each part reads the parameters of the screens its links name.
    struct Plan: Sendable {
        /// The files that declare links, in order.
        var files: [FileID] = []
        /// Each link declaration, in file order.
        var links: [Symbol] = []
        /// What each of them says.
        var declarations: [LinkDeclaration] = []
        /// The positions in `links` of each file's.
        var ranges: [FileID: Range<Int>] = [:]
        /// The screens of each link's path; nil when one does not resolve to a screen.
        var screens: [[Symbol]?] = []
        /// The errors of the files with links, by file: a link holding one takes no part.
        var errors: [FileID: [Range<Int>]] = [:]
        /// The syntax errors among them: a link holding one is not judged (what did not parse
        /// is that one error, not a placeholder left unused or an argument missing besides).
        var syntaxErrors: [FileID: [Range<Int>]] = [:]
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
                let first = links.count
                for index in declarations.indices where declarations[index].kind == .link {
                    // (Read in place: a copy of the declaration retains each of its fields.)
                    guard let link = declarations[index].link else { continue }
                    links.append(Symbol(file: file, declaration: index))
                    self.declarations.append(link)
                    var resolved: [Symbol] = []
                    resolved.reserveCapacity(link.pathCount)
                    var unresolved = false
                    link.forEachScreenRange { name in
                        guard !unresolved, let screen = project.screen(at: name.lowerBound, in: file) else { return unresolved = true }
                        resolved.append(screen)
                    }
                    screens.append(!resolved.isEmpty && !unresolved ? resolved : nil)
                }
                ranges[file] = first..<links.count
            }
            let withLinks = project.filesWithLinks
            for diagnostic in project.diagnostics where diagnostic.severity == .error && withLinks.contains(diagnostic.file) {
                errors[diagnostic.file, default: []].append(diagnostic.range)
                if diagnostic.rule == SyntaxError.id { syntaxErrors[diagnostic.file, default: []].append(diagnostic.range) }
            }
            let count = min(Self.mostParts, max(1, links.count / Self.smallestPart))
            let size = (links.count + count - 1) / max(count, 1)
            parts = stride(from: 0, to: links.count, by: max(size, 1)).map { $0..<min($0 + size, links.count) }
        }
    }

    /// The links of one part of a plan, judged: each with its screens and typed pattern, and
    /// their `invalid-link` and `undefined-name` diagnostics, in order.
    struct Part: Sendable {
        var links: [Link] = []
        var diagnostics: [Diagnostic] = []

        /// Whether a run of invalid UTF-8 (as `text` repaired it) starts at `offset`, in a
        /// `//` comment.
        static func isInvalidUTF8InComment(at offset: Int, _ text: SourceText) -> Bool {
            let runs = text.invalidUTF8
            // (The runs are in order: a binary search, as a file may hold thousands.)
            var low = 0, high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].lowerBound < offset { low = middle + 1 } else { high = middle }
            }
            guard low < runs.count, runs[low].lowerBound == offset else { return false }
            // A `//` before it on its line, outside a string (strings end on their line).
            let bytes = text.bytes
            var start = offset
            while start > 0 && bytes[start - 1] != 0x0A && bytes[start - 1] != 0x0D { start -= 1 }
            var inString = false
            var i = start
            while i + 1 < offset {
                let byte = bytes[i]
                if inString {
                    if byte == 0x5C { i += 2; continue }
                    if byte == 0x22 { inString = false }
                } else if byte == 0x22 {
                    inString = true
                } else if byte == 0x2F && bytes[i + 1] == 0x2F {
                    return true
                }
                i += 1
            }
            return false
        }

        init(plan: Plan, part: Int, project: Project) {
            let range = plan.parts[part]
            // The screens of each link whose path has a name that is no screen, by position
            // in the plan (nil for such a name; the others' are the plan's).
            var unresolved: [Int: [Symbol?]] = [:]
            // The screens whose model left their parameters out (see `Project.addFiles`),
            // read again once.
            var leftOut: [Symbol] = []
            func noteLeftOut(_ screen: Symbol) {
                if project.files[screen.file].model.declarations[screen.declaration].parametersLeftOut { leftOut.append(screen) }
            }
            for index in range {
                let symbol = plan.links[index]
                if let resolved = plan.screens[index] {
                    for screen in resolved { noteLeftOut(screen) }
                } else {
                    var screens: [Symbol?] = []
                    plan.declarations[index].forEachScreenRange { screens.append(project.screen(at: $0.lowerBound, in: symbol.file)) }
                    unresolved[index] = screens
                    for case let screen? in screens { noteLeftOut(screen) }
                }
            }
            let readAgain = leftOut.isEmpty ? [:] : project.parameters(of: leftOut)
            var types: [String: PlaceholderType] = [:]
            links.reserveCapacity(range.count)
            // Room kept from link to link.
            var declared: [[Parameter]?] = []
            var filledTypes: [String?] = []
            var filled: InvalidLink.Uses = []
            for index in range {
                let symbol = plan.links[index]
                let file = symbol.file
                // (Read in place: a copy of a declaration retains each of its fields.)
                let declarations = project.files[file].model.declarations
                let linkDeclaration = plan.declarations[index]
                var link = Link(symbol: symbol, index: index, declaration: linkDeclaration)
                link.screens = plan.screens[index]
                // The parameters of the screen of each element of the path.
                // (Emptied from the end: `removeAll(keepingCapacity:)` costs more here.)
                while !declared.isEmpty { declared.removeLast() }
                func declare(_ screen: Symbol?) {
                    guard let screen else { return declared.append(nil) }
                    let screenDeclarations = project.files[screen.file].model.declarations
                    declared.append(screenDeclarations[screen.declaration].parametersLeftOut
                        ? readAgain[screen] ?? [] : screenDeclarations[screen.declaration].parameters)
                }
                if let screens = link.screens {
                    for screen in screens { declare(screen) }
                } else {
                    for screen in unresolved[index] ?? [] { declare(screen) }
                }
                // Whether one of `errors` lies in the declaration or after it, before the next
                // one (where what a syntax error cut off the declaration, or a missing token at
                // its end, is reported). A run of invalid UTF-8 in a comment after the
                // declaration is not one: it is a mistake of its own, which leaves the
                // declaration whole (an editor, which sends the text as U+FFFD, finds no error
                // there at all). (The ranges read only for a file with errors: most have none.)
                func holdsOne(of errors: [FileID: [Range<Int>]]) -> Bool {
                    guard let inFile = errors[file] else { return false }
                    let range = declarations[symbol.declaration].range
                    let next = symbol.declaration + 1 < declarations.count ? declarations[symbol.declaration + 1].range.lowerBound : Int.max
                    return inFile.contains { error in
                        error.lowerBound >= range.lowerBound && error.lowerBound < next
                            && !(error.lowerBound >= range.upperBound && Self.isInvalidUTF8InComment(at: error.lowerBound, project.files[file].text))
                    }
                }
                // A plain link read from its line is vouched for without parsing its pattern;
                // any other is parsed here, once, on each core (see `LinkDeclaration.parsed`),
                // unless it holds a syntax error: that is its one error. (A syntax error after
                // a plain link, before the next declaration, is held by it too, as when the
                // link is read token by token: its path is not judged either way.)
                var parsed: Result<LinkPattern, LinkPattern.Problem>? = nil
                var found: [Diagnostic] = []
                let holdsSyntaxError = holdsOne(of: plan.syntaxErrors)
                let vouched = holdsSyntaxError ? nil : InvalidLink.vouch(linkDeclaration, parameters: declared)
                if let vouched {
                    filledTypes = vouched
                } else if !holdsSyntaxError {
                    parsed = linkDeclaration.parsed
                    found = InvalidLink.check(linkDeclaration, parsed: parsed, file: file, parameters: declared,
                                              filledTypes: &filledTypes, filled: &filled)
                }
                if !found.isEmpty { diagnostics += found }
                let hasError = !found.isEmpty || holdsOne(of: plan.errors)
                var pattern: LinkPattern? = nil
                if case .success(let parsedPattern)? = parsed { pattern = parsedPattern }
                link.judgesBuilds = link.screens != nil && (vouched != nil || pattern != nil)
                if !hasError, link.screens != nil, vouched != nil || pattern != nil {
                    let name = declarations[symbol.declaration].name.text
                    let typesInOrder = filledTypes.map { $0.map { ProjectLinks.placeholderType(of: $0, known: &types) } ?? .string }
                    // (A link read from its line holds no pattern: the overlaps read its
                    // segments from the line, and the few links a message names parse it.)
                    link.typed = linkDeclaration.isReadFromLine
                        ? TypedLink(name: name, line: linkDeclaration, typesInOrder: typesInOrder)
                        : TypedLink(name: name, pattern: pattern!, typesInOrder: typesInOrder)
                }
                links.append(link)
            }
            Profile.mark("links: a part read")
        }
    }

    /// The same links in `project`, the project after an edit of `file` that moved positions
    /// only (see `AnalysisSession.rebased(onto:file:edit:relinking:)`).
    func rebased(onto project: Project, moving edit: TriviaEdit, in file: FileID) -> ProjectLinks {
        var moved = self
        for index in plan.ranges[file] ?? 0..<0 {
            if let declaration = project.declaration(all[index].symbol).link { moved.all[index].declaration = declaration }
        }
        moved.diagnostics = diagnostics.map { $0.shifted(edit, in: file) }
        return moved
    }

    /// The placeholder type of Swift type `type` (see `PlaceholderType.of(swiftType:)`);
    /// `known` keeps the type of each Swift type already read, but for the commonest and
    /// plain names, known at once.
    static func placeholderType(of type: String, known: inout [String: PlaceholderType]) -> PlaceholderType {
        switch type {
        case "Int": return .int
        case "String": return .string
        case "Double": return .double
        case "Bool": return .bool
        default:
            // A plain name (`Item.ID`, the usual case): a type of its own, as
            // `PlaceholderType.of` finds it, without a look in the table.
            let isPlain = type.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "?") && byte != UInt8(ascii: "!")
            }
            if isPlain && !type.hasPrefix("Swift.") { return .other(type) }
            if let placeholderType = known[type] { return placeholderType }
            let placeholderType = PlaceholderType.of(swiftType: type)
            known[type] = placeholderType
            return placeholderType
        }
    }
}

/// A project's links being read, in parts (`ProjectLinks.Plan`), by a helper thread
/// (`Helpers`) while the programs are analysed, which need them only at the end (see
/// `ProgramLinks.init(facts:pending:judgingConditions:)`), and by whoever asks for them first
/// (who reads the parts no thread has begun). In a project of
/// one program, that thread then searches the overlaps of the program's links too.
final class PendingLinks: Sendable {
    var plan: ProjectLinks.Plan { reading.plan }
    /// The plan and the parts being read: the plan is made by the first to ask (the helper,
    /// started at once), so that the thread that made this goes on at once.
    private let planned: SharedWorkList<Reading>
    private var reading: Reading { planned.results()[0] }
    /// The links, then, in a project of one program, the overlaps of its links (`overlaps(of:)`).
    private let whole: SharedWorkList<OverlapsFound?>

    /// What `LinkOverlap` found over the links `indices` (of the plan's links), in this order.
    struct OverlapsFound: Sendable {
        var indices: [Int]
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
        let planned = SharedWorkList(count: 1) { _ in
            defer { Profile.mark("links: planned") }
            return Reading(plan: ProjectLinks.Plan(project: project), project: project)
        }
        self.planned = planned
        let searchesOverlaps = project.programs.count == 1
        let successors = Successors()
        self.successors = successors
        whole = SharedWorkList(count: project.hasLinks ? 1 : 0) { _ in
            Profile.mark("links: started")
            let reading = planned.results()[0]
            let plan = reading.plan
            let links = reading.links
            guard searchesOverlaps else { return nil }
            let indices = ProgramLinks.positions(in: plan, files: plan.files, project: project).filter { links.all[$0].typed != nil }
            guard indices.count > 1 else { return nil }
            defer { Profile.mark("links: overlaps searched") }
            return OverlapsFound(indices: indices, result: LinkOverlap.analyse(indices.map { links.all[$0].typed! }))
        }
        // On a helper thread (as `start()` offers it), and then what waits for it, once it is
        // done: that work may ask for it. Without links, nothing is to be done first.
        guard project.hasLinks else {
            successors.finish()
            return
        }
        let whole = whole
        Helpers.shared.async {
            whole.takeShare()
            successors.finish()
        }
    }

    /// Work to be done once the links are read, by the thread that read them.
    private let successors: Successors

    /// Does `work` on the helper thread that reads the links once it has (and searched their
    /// overlaps, or found another thread doing so), else at once on a helper: work that would
    /// otherwise take a third thread to two cores while this one reads.
    func afterReading(_ work: @escaping @Sendable () -> Void) { successors.add(work) }

    /// Work waiting for other work, done by its thread when it is done.
    private final class Successors: Sendable {
        private let state = Mutex<(finished: Bool, waiting: [@Sendable () -> Void])>((false, []))

        /// `work` after the work, by its thread; at once on a helper when it is done.
        func add(_ work: @escaping @Sendable () -> Void) {
            let waits = state.withLock { state in
                if !state.finished { state.waiting.append(work) }
                return !state.finished
            }
            if !waits { Helpers.shared.async(work) }
        }

        /// Called by the thread of the work once it is done: what waits for it, and what is
        /// added meanwhile.
        func finish() {
            while true {
                let waiting = state.withLock { state in
                    if state.waiting.isEmpty { state.finished = true }
                    defer { state.waiting = [] }
                    return state.waiting
                }
                if waiting.isEmpty { return }
                for work in waiting { work() }
            }
        }
    }

    /// The links, once read: the caller reads the parts no thread has begun.
    var links: ProjectLinks { reading.links }

    /// What `LinkOverlap` finds over the typed links `indices` (of the plan's links, in this
    /// order), when that is what was searched beside the parts; else nil.
    func overlaps(of indices: [Int]) -> LinkOverlap.Result? {
        guard let found = whole.results().first ?? nil, found.indices == indices else { return nil }
        return found.result
    }
}
