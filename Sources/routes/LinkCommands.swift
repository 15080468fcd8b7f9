import ArgumentParser
import RoutesAnalysis
import RoutesEncoding
import RoutesJSON
import RoutesModel
import RoutesSyntax
import RoutesWorkspace

enum LinkFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `routes link FILE URL [--flag NAME=true|false ...] [--optional NAME=present|absent ...]
/// [--format text|json]`: what a URL opens in a program (docs/links.md).
struct LinkCommand: ProgramCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Show what a URL opens: the link that matches it, its path, and when the path is built.",
        discussion: """
            Matches URL against the program's links as the generated code does: the most \
            specific matching link wins. Prints the link, the path it opens with the URL's \
            values, and the exact condition under which the whole path is built; then the \
            path resolved under the environment given by --flag and --optional, or, without \
            them, under an environment where the path is not built (if there is one). When no \
            link matches, the links that came closest and why each failed.

            Exit status: 0 when one link matches; 1 when none does, or when two or more tie \
            (the winners are listed); 2 for bad usage.
            """
    )

    @Argument(help: "A .routes file that declares `root`.")
    var file: String

    @Argument(help: "The URL: `myapp://items/3`, `https://example.com/items/3?tab=info`, or a path `/items/3`.")
    var url: String

    @OptionGroup var environment: EnvironmentOptions

    @Option(help: "Output format: text or json.")
    var format: LinkFormat = .text

    @Option(name: .customLong("root"), help: "Workspace root that imports may not leave (default: the nearest folder upward holding routes.json, else .git; else the current directory when FILE lies inside it, else FILE's directory).")
    var root: String?

    func validate() throws {
        try validateRoot(root)
    }

    func run() throws {
        let (project, program) = try loadProgram()
        let given = environment.isEmpty ? nil : try programEnvironment(of: program, in: project)
        _ = writeErrors(of: program, in: project)
        let session = AnalysisSession.forEditor(project: project)
        guard let links = session.links(ofProgramRootedAt: program.root) else {
            throw usageError("the program of '\(file)' is too large to analyse (an analysis limit): its links cannot be matched")
        }
        let report: LinkReport
        switch LinkURL.parse(url) {
        case .failure(let problem):
            report = LinkReport(url: url, problem: problem.message)
        case .success(let parsed):
            report = LinkReport(url: url, match: links.match(parsed), links: links, program: program, project: project, given: given)
        }
        switch format {
        case .text: Terminal.write(report.text(project: project, links: links))
        case .json: Terminal.write(JSON.serialize(report.json(project: project, links: links), pretty: true) + "\n")
        }
        for warning in report.rejectedAtRunTime(project: project, program: program) { Terminal.writeError("routes: warning: \(warning)\n") }
        if report.match?.link == nil { throw ExitCode(1) }
    }
}

/// What `routes link` prints.
struct LinkReport {
    var url: String
    /// Why the URL matches nothing before any link is tried (a broken escape).
    var problem: String? = nil
    var match: LinkMatch? = nil
    var path: [(screen: String, arguments: [(label: String, value: LinkPathValue)])] = []
    var resolution: PathResolution? = nil

    init(url: String, problem: String) {
        self.url = url
        self.problem = problem
    }

    init(url: String, match: LinkMatch, links: ProgramLinks, program: Program, project: Project, given: ProgramEnvironment?) {
        self.url = url
        self.match = match
        guard let position = match.link else { return }
        let link = links.links[position]
        path = links.path(of: position, values: match.values)
        // Under the environment given; else where the path is not built, if it ever is not;
        // else the defaults.
        guard let environment = given ?? link.failingEnvironment.flatMap({ try? ProgramEnvironment($0, program: program, project: project) })
                ?? (try? ProgramEnvironment(Environment(), program: program, project: project)) else { return }
        resolution = links.resolve(position, values: match.values, program: program, project: project, environment: environment)
    }

    /// The values of the path that match their placeholder, which takes any text, but that
    /// the generated code reads at run time and rejects: a `UUID`'s text, a `Character` of one
    /// character (the types the tools know the reading of). The app then goes on to the next
    /// link that matches, as if this one did not.
    func rejectedAtRunTime(project: Project, program: Program) -> [String] {
        var out: [String] = []
        let scope = project.scopes[program.root.file]
        for element in path {
            guard let screen = scope[element.screen], project.kind(of: screen) == .screen else { continue }
            let parameters = project.declaration(screen).parameters
            for argument in element.arguments {
                guard case .string(let text) = argument.value,
                      let type = parameters.first(where: { $0.label.text == argument.label })?.type else { continue }
                var trimmed = Substring(type.filter { $0 != " " && $0 != "\t" })
                while let last = trimmed.last, last == "?" || last == "!" { trimmed = trimmed.dropLast() }
                guard ["UUID", "Foundation.UUID", "Character", "Swift.Character"].contains(trimmed),
                      let wanted = PathLiteral.Value.string(text).mismatch(type: type) else { continue }
                out.append("`\(element.screen)`'s `\(argument.label)` is a `\(trimmed)`: the generated code cannot read \(PathLiteral.quoted(text)) as one (it takes \(wanted)); the app goes on to the next link that matches, as if this one did not")
            }
        }
        return out
    }

    func text(project: Project, links: ProgramLinks) -> String {
        if let problem { return "\(url): matches no link: \(problem)\n" }
        guard let match else { return "" }
        if match.winners.count > 1 {
            var out = "\(url): ambiguous: \(match.winners.count) links match it equally well\n"
            for position in match.winners { out += "  " + Self.describe(links.links[position], project) + "\n" }
            return out
        }
        guard let position = match.link else {
            var out = "\(url): matches no link\n"
            if !match.candidates.isEmpty { out += "closest:\n" }
            for candidate in match.candidates {
                out += "  " + Self.describe(links.links[candidate.link], project) + ": " + candidate.reason + "\n"
            }
            return out
        }
        let link = links.links[position]
        var out = "link: " + Self.describe(link, project) + "\n"
        out += "path: " + ProgramLinks.texts(path).joined(separator: "/") + "\n"
        out += "condition: \(link.condition.map(\.description) ?? "unknown (an error of the link, or on its path)")\n"
        if let resolution { out += resolution.text(project: project) }
        return out
    }

    /// `item "/items/{id}" (App.routes:10)`.
    static func describe(_ link: ProgramLinks.Link, _ project: Project) -> String {
        "\(link.name) \"\(link.declaration.pattern ?? "")\" (\(project.locationText(file: link.symbol.file, offset: link.declaration.patternRange.lowerBound)))"
    }

    func json(project: Project, links: ProgramLinks) -> JSONValue {
        var object: JSONObject = ["url": .string(url)]
        let winner = match?.link
        object["link"] = winner.map { .string(links.links[$0].name) } ?? .null
        object["winners"] = .array((match?.winners ?? []).map { .string(links.links[$0].name) })
        object["path"] = .array(path.map { element in
            var arguments: JSONObject = [:]
            for argument in element.arguments { arguments[argument.label] = Self.json(argument.value) }
            return ["screen": .string(element.screen), "arguments": .object(arguments)]
        })
        object["condition"] = winner.flatMap { links.links[$0].condition }.map { .string($0.description) } ?? .null
        object["resolution"] = resolution.map { TreeJSON.resolution($0, project: project) } ?? .null
        var candidates = (match?.candidates ?? []).map { candidate -> JSONValue in
            ["link": .string(links.links[candidate.link].name), "reason": .string(candidate.reason)]
        }
        if let problem { candidates = [["link": .null, "reason": .string(problem)]] }
        object["candidates"] = .array(candidates)
        return .object(object)
    }

    static func json(_ value: LinkPathValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let number): return .int(Int64(number))
        case .decimal(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .absent: return .null
        }
    }
}

/// `routes links [PATH ...] [--format text|json]`: every link of the programs.
struct LinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "List every link of the programs: name, pattern, path, and when the path is built.",
        discussion: """
            PATH is a .routes file or a folder (default: the current folder). For each link of \
            each program: its name, pattern and path, the condition under which the whole path \
            is built (`always`, `never`, or a formula over flags and optionals; `unknown` for a \
            link with an error, or whose path goes through an unresolved builder name, a syntax \
            error or a builder cycle), and where it is declared (`file:line`). The programs are those \
            of the workspace that hold a file named or found in a named folder, as for `routes \
            lint` (a library file's links are listed in each program that imports it); a file \
            in several programs lists its links once per program. In JSON, each entry names its \
            program (`program`: the path of the file that declares its `root`).

            The errors of the programs listed are printed on stderr (as `routes link` prints \
            them); the links are listed all the same.

            Exit status: 0; 2 for bad usage (an unreadable PATH).
            """
    )

    @Argument(help: "The .routes files or folders (default: the current folder).")
    var paths: [String] = []

    @Option(help: "Output format: text or json.")
    var format: LinkFormat = .text

    func run() throws {
        if paths.contains("-") {
            Terminal.writeError("routes: error: `routes links` reads the programs of files and folders, not standard input ('-')\n")
            throw ExitCode(2)
        }
        let provider = FileSystemProvider()
        // The other files of the workspaces are read: a file named is listed with every program
        // of its workspace that holds it, whichever path named it.
        let inputs = LintInputs(paths: paths.isEmpty ? ["."] : paths, fixedRoot: nil, stdin: nil, cwd: currentDirectory(),
                                provider: provider)
        if let failure = inputs.failures.first {
            Terminal.writeError("routes: error: cannot read '\(failure.path)': \(failure.message)\n")
            throw ExitCode(2)
        }
        let project = Project(entries: inputs.entries, provider: provider)
        let named = Set(inputs.named.compactMap { project.file(atPath: $0) })
        // Only the programs that hold a named file are analysed: the others are read for what
        // they import, not listed.
        let session = AnalysisSession.forEditor(project: project, reported: named)
        var rows: [(link: ProgramLinks.Link, program: Program)] = []
        var programsListed = 0
        var listedFiles = Set<FileID>()
        for program in project.programs where program.files.contains(where: named.contains) {
            programsListed += 1
            listedFiles.formUnion(program.files)
            for link in session.links(ofProgramRootedAt: program.root)?.links ?? [] { rows.append((link, program)) }
        }
        // The errors of the programs listed, as `routes link` prints them: a link with an
        // error (or whose path meets one) is `unknown`, and the errors say why.
        for diagnostic in session.diagnostics where diagnostic.severity == .error && listedFiles.contains(diagnostic.file) {
            Terminal.writeError(errorLine(diagnostic, in: project))
        }
        // A file named that no program holds: its links are listed with the programs that
        // import it, and none does.
        for f in named.sorted() where !project.programs.contains(where: { $0.files.contains(f) }) {
            let count = project.files[f].model.declarations.filter { $0.kind == .link }.count
            guard count > 0 else { continue }
            Terminal.writeError("routes: note: \(project.files[f].displayPath) is in no program (no file that declares `root` imports it): its \(count == 1 ? "link is" : "\(count) links are") listed only with a program that imports it, and none does\n")
        }
        switch format {
        case .text:
            // Columns: name, pattern, path, condition, place.
            let table = rows.map { link, program -> [String] in
                // `file:line`, the line of the link's pattern.
                let place = project.locationText(file: link.symbol.file, offset: link.declaration.patternRange.lowerBound, column: false)
                return [link.name, "\"\(link.declaration.pattern ?? "")\"", "-> " + link.declaration.pathText,
                        link.condition.map(\.description) ?? "unknown",
                        place + (programsListed > 1 ? " [program \(project.files[program.root.file].displayPath)]" : "")]
            }
            var widths = [Int](repeating: 0, count: 4)
            for row in table { for column in 0..<4 { widths[column] = max(widths[column], row[column].unicodeScalars.count) } }
            var out = ""
            for row in table {
                for column in 0..<4 { out += row[column] + String(repeating: " ", count: widths[column] - row[column].unicodeScalars.count + 2) }
                out += row[4] + "\n"
            }
            if rows.isEmpty { out = "no links\n" }
            Terminal.write(out)
        case .json:
            // (`program`: the root file of the program the entry is listed with, as the text
            // names it: a shared file's link is listed once per program.)
            let items: [JSONValue] = rows.map { link, program in
                ["name": .string(link.name), "pattern": .string(link.declaration.pattern ?? ""),
                 "path": .string(link.declaration.pathText),
                 "condition": .string(link.condition.map(\.description) ?? "unknown"),
                 "location": TreeJSON.location(file: link.symbol.file, range: project.declaration(link.symbol).name.range, project: project),
                 "program": .string(project.files[program.root.file].displayPath)]
            }
            Terminal.write(JSON.serialize(["links": .array(items)], pretty: true) + "\n")
        }
    }
}
