import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The access level of the generated declarations.
public enum AccessLevel: String, Sendable, CaseIterable {
    case `internal`, `public`, `package`
}

/// Which library the generated code is written against.
public enum CodegenTarget: String, Sendable, CaseIterable {
    /// ComposableNavigator 0.2.0's path builders.
    case composableNavigator
    /// SwiftUI's `NavigationStack` (iOS 16 and later). Not yet selectable from the command
    /// line: it generates the screens, the path elements and the resolver so far
    /// (`SwiftUITarget`), not yet the views and the navigator.
    case swiftUI
}

/// One generated Swift file.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name (`App.routes.swift`).
    public var name: String
    public var contents: String
    /// The input it was generated from.
    public var input: FileID
}

/// `routes gen swift`: Swift code for the programs of a project.
public enum SwiftCodegen {
    public static let version = "0.1.0"

    public struct Options: Sendable {
        public var access: AccessLevel
        public var target: CodegenTarget
        /// At most this many view types (screens) per content protocol: more are split into
        /// parts that the content protocol composes.
        public var viewTypesPerProtocol: Int
        /// The SwiftUI target: the screens and the path elements are `Codable` too (for
        /// state restoration; the compiler checks that every parameter type is).
        public var codable: Bool
        public init(access: AccessLevel = .internal, target: CodegenTarget = .composableNavigator, viewTypesPerProtocol: Int = 500,
                    codable: Bool = false) {
            self.access = access
            self.target = target
            self.viewTypesPerProtocol = max(1, viewTypesPerProtocol)
            self.codable = codable
        }
    }

    public struct Output: Sendable {
        /// One file per input, in input order; empty when anything kept a program from
        /// being generated (nothing is half-generated).
        public var files: [GeneratedFile] = []
        /// Programs that were not generated because they have errors (the caller shows the
        /// diagnostics).
        public var programsWithErrors: [Program] = []
        /// Problems that keep programs from being generated.
        public var problems: [CodegenProblem] = []
        public var succeeded: Bool { programsWithErrors.isEmpty && problems.isEmpty }
    }

    /// The name of the file generated from an input: `App.routes` -> `App.routes.swift`.
    public static func outputName(forInput path: String) -> String {
        var base = Substring(path.split(separator: "/").last ?? Substring(path))
        if base.hasSuffix(".routes") { base = base.dropLast(7) }
        return base + ".routes.swift"
    }

    /// Generates one file per input file: a program's code for a file that declares `root`,
    /// a note for one that does not (its declarations are generated with the programs that
    /// import it). `diagnostics` are the project's (a program with an error in any of its
    /// files is not generated; a program whose analysis stopped at its limit has an error at
    /// its `root`, so it is not generated either).
    public static func generate(project: Project, diagnostics: [Diagnostic], inputs: [FileID],
                                options: Options = Options()) -> Output {
        var output = Output()
        let errorFiles = Set(diagnostics.filter { $0.severity == .error }.map(\.file))
        var namespaces: [String: Program] = [:]
        var files: [GeneratedFile] = []
        for input in inputs {
            let name = outputName(forInput: project.files[input].displayPath)
            guard let program = project.programs.first(where: { $0.root.file == input }) else {
                files.append(GeneratedFile(name: name, contents: libraryNote(project: project, file: input), input: input))
                continue
            }
            if program.files.contains(where: errorFiles.contains) {
                output.programsWithErrors.append(program)
                continue
            }
            let namespace = SwiftNames.namespace(forFile: project.files[input].displayPath)
            if let other = namespaces[namespace] {
                output.problems.append(CodegenProblem(
                    file: input, range: project.declaration(program.root).name.range,
                    message: "this program and the one of \(project.files[other.root.file].displayPath) would both generate the namespace `\(namespace)`: rename one of the files",
                    related: [RelatedLocation(file: other.root.file, range: project.declaration(other.root).name.range, message: "the other `root`")]))
                continue
            }
            namespaces[namespace] = program
            let rootPath = displayName(project, input)
            let rootDirectory = PathUtil.directory(of: project.files[input].path)
            let imported = program.files.filter { $0 != input }.map { relativePath(project.files[$0].path, from: rootDirectory) }
            var planner = Planner(project: project, program: program, namespace: namespace)
            guard let plan = planner.make(rootPath: rootPath, importedPaths: imported, viewTypesPerProtocol: options.viewTypesPerProtocol) else {
                output.problems += planner.problems
                continue
            }
            switch options.target {
            case .composableNavigator:
                let refused = ComposableNavigatorTarget.refusals(plan: plan, project: project)
                guard refused.isEmpty else {
                    output.problems += refused
                    continue
                }
                var target = ComposableNavigatorTarget(plan: plan, project: project, access: options.access)
                target.links = LinkCode.links(plan: plan, project: project, program: program)
                files.append(GeneratedFile(name: name, contents: target.file(header: header(plan)), input: input))
            case .swiftUI:
                var target = SwiftUITarget(plan: plan, project: project, access: options.access)
                target.codable = options.codable
                target.links = LinkCode.links(plan: plan, project: project, program: program)
                files.append(GeneratedFile(name: name, contents: target.file(header: header(plan)), input: input))
            }
        }
        if output.succeeded { output.files = files }
        return output
    }

    /// Plans one program (for tests and other targets); nil with the problems when it cannot.
    public static func plan(project: Project, program: Program, options: Options = Options()) -> (plan: ProgramPlan?, problems: [CodegenProblem]) {
        let input = program.root.file
        var planner = Planner(project: project, program: program, namespace: SwiftNames.namespace(forFile: project.files[input].displayPath))
        let plan = planner.make(rootPath: displayName(project, input), importedPaths: [], viewTypesPerProtocol: options.viewTypesPerProtocol)
        return (plan, planner.problems)
    }

    /// The aliases, outside the namespace, of the app's types that a type of the namespace
    /// hides (`ProgramPlan.typeAliases`), then a blank line; nothing when there are none.
    static func typeAliases(_ plan: ProgramPlan, modifier: String) -> [String] {
        guard !plan.typeAliases.isEmpty else { return [] }
        var out = ["// MARK: - Types of the app that the namespace hides"]
        for alias in plan.typeAliases {
            out.append("")
            out.append("/// `\(alias.type)`, which a type of `\(plan.namespace)` of the same name hides inside it.")
            out.append("\(modifier)typealias \(alias.alias) = \(alias.type)")
        }
        out.append("")
        return out
    }

    static func displayName(_ project: Project, _ f: FileID) -> String {
        let path = project.files[f].displayPath
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `path` relative to the folder `base` (both canonical).
    static func relativePath(_ path: String, from base: String) -> String {
        let pathParts = path.split(separator: "/"), baseParts = base.split(separator: "/")
        var common = 0
        while common < baseParts.count && common < pathParts.count - 1 && pathParts[common] == baseParts[common] { common += 1 }
        let up = Array(repeating: "..", count: baseParts.count - common)
        return (up + pathParts[common...].map(String.init)).joined(separator: "/")
    }

    static func header(_ plan: ProgramPlan) -> [String] {
        var out = ["// Generated by `routes gen swift` (routes \(version)) from \(plan.rootPath)"]
        if plan.importedPaths.isEmpty {
            out[0] += "."
        } else {
            out[0] += ","
            out.append("// which imports " + plan.importedPaths.joined(separator: ", ") + ".")
        }
        out.append("// Do not edit: edit the .routes files and generate again.")
        return out
    }

    static func libraryNote(project: Project, file: FileID) -> String {
        let name = displayName(project, file)
        return """
            // Generated by `routes gen swift` (routes \(version)) from \(name).
            // Do not edit: edit the .routes files and generate again.
            //
            // \(name) declares no `root`: its declarations are generated in the file of each
            // program that imports it.

            """
    }
}
