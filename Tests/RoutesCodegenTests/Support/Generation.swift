import Foundation
import RoutesAnalysis
@testable import RoutesCodegen
import RoutesModel
import RoutesSyntax

/// One program's generated code, with what compiling it needs.
struct GeneratedProgram {
    var label: String
    var namespace: String
    var fileName: String
    var code: String
    var stubs: Stubs
    var plan: ProgramPlan
    var project: Project
    var program: Program
}

enum Generation {
    /// The projects of `.routes` inputs on disk, as `routes lint` would load them (a folder is
    /// searched for `*.routes`).
    static func project(_ inputs: [URL], root: URL) -> Project {
        var entries: [ProjectEntry] = []
        for (group, url) in inputs.enumerated() {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            var files: [URL] = []
            if isDirectory.boolValue {
                let e = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
                while let f = e?.nextObject() as? URL {
                    if f.pathExtension == "routes" { files.append(f.resolvingSymlinksInPath()) }
                }
                files.sort { $0.path < $1.path }
            } else {
                files = [url.resolvingSymlinksInPath()]
            }
            for f in files {
                let display = f.path.hasPrefix(root.path + "/") ? String(f.path.dropFirst(root.path.count + 1)) : f.path
                entries.append(ProjectEntry(canonicalPath: f.path, displayPath: display, group: group, workspaceRoot: root.path))
            }
        }
        return Project(entries: entries, provider: FileSystemProvider())
    }

    /// The generated code of every program of a project that has no errors (and, in
    /// `withErrors`, the roots of those that have).
    /// Whether a problem is the ComposableNavigator target refusing a presentation it cannot
    /// express (a cover, a popover, a placement's own presentation), as documented.
    static func isPresentationRefusal(_ problem: CodegenProblem) -> Bool {
        problem.message.hasPrefix("the ComposableNavigator 0.2.0 target cannot present")
    }

    /// - Parameter refused: called instead of failing when every problem is a presentation
    ///   refusal (nothing is generated then).
    static func programs(of project: Project, label: String, allowProblems: Bool = false,
                         options: SwiftCodegen.Options = .init(), refused: ((String) -> Void)? = nil) throws
        -> (generated: [GeneratedProgram], withErrors: [String]) {
        let session = AnalysisSession.forEditor(project: project)
        let roots = project.programs.map(\.root.file)
        let output = SwiftCodegen.generate(project: project, diagnostics: session.diagnostics,
                                           inputs: roots, options: options)
        let withErrors = output.programsWithErrors.map { project.files[$0.root.file].displayPath }
        var generated: [GeneratedProgram] = []
        if !output.problems.isEmpty {
            if allowProblems { return ([], [label]) }
            if let refused, output.problems.allSatisfy(isPresentationRefusal) {
                refused(label)
                return ([], [])
            }
            throw GenerationFailure(message: "\(label): " + output.problems.map { "\(project.files[$0.file].displayPath): \($0.message)" }.joined(separator: "\n"))
        }
        if !output.programsWithErrors.isEmpty {
            // Generate the others alone.
            for program in project.programs where !output.programsWithErrors.contains(where: { $0.root == program.root }) {
                let one = SwiftCodegen.generate(project: project, diagnostics: session.diagnostics,
                                                inputs: [program.root.file], options: options)
                generated += try collect(one, project: project, label: label, options: options)
            }
            return (generated, withErrors)
        }
        return (try collect(output, project: project, label: label, options: options), withErrors)
    }

    static func collect(_ output: SwiftCodegen.Output, project: Project, label: String,
                        options: SwiftCodegen.Options = .init()) throws -> [GeneratedProgram] {
        try output.files.map { f in
            guard let program = project.programs.first(where: { $0.root.file == f.input }),
                  let plan = SwiftCodegen.plan(project: project, program: program, options: options).plan else {
                throw GenerationFailure(message: "\(label): no plan for \(f.name)")
            }
            var stubs = Stubs()
            stubs.add(project: project, program: program)
            return GeneratedProgram(label: "\(label): \(project.files[f.input].displayPath)", namespace: plan.namespace,
                                    fileName: f.name, code: f.contents, stubs: stubs, plan: plan, project: project, program: program)
        }
    }

    struct GenerationFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Programs in batches that can be compiled as one module: no two with one namespace,
    /// stubs that agree, at most `size` programs.
    static func batches(_ programs: [GeneratedProgram], size: Int) -> [[GeneratedProgram]] {
        var out: [[GeneratedProgram]] = []
        var current: [GeneratedProgram] = []
        var stubs = Stubs()
        var namespaces = Set<String>()
        for p in programs {
            if current.count == size || namespaces.contains(p.namespace) || !stubs.isCompatible(with: p.stubs) || !p.stubs.isCompatible(with: stubs) {
                if !current.isEmpty { out.append(current) }
                current = []
                stubs = Stubs()
                namespaces = []
            }
            current.append(p)
            stubs.merge(p.stubs)
            namespaces.insert(p.namespace)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Removes the folder `write` made.
    static func remove(_ files: [URL]) {
        if let first = files.first { try? FileManager.default.removeItem(at: first.deletingLastPathComponent()) }
    }

    /// Writes a batch (each program's file, and the stubs of all) to a new folder.
    static func write(_ batch: [GeneratedProgram], extra: [String: String] = [:], stubAccess: String = "") throws -> [URL] {
        let dir = try Swiftc.temporaryDirectory("batch")
        var files: [URL] = []
        var stubs = Stubs()
        for (k, p) in batch.enumerated() {
            let url = dir.appendingPathComponent(String(format: "%04d-", k) + p.fileName)
            try p.code.write(to: url, atomically: true, encoding: .utf8)
            files.append(url)
            stubs.merge(p.stubs)
        }
        let stubURL = dir.appendingPathComponent("Stubs.swift")
        try stubs.source(access: stubAccess).write(to: stubURL, atomically: true, encoding: .utf8)
        files.append(stubURL)
        for (name, text) in extra.sorted(by: { $0.key < $1.key }) {
            let url = dir.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url)
        }
        return files
    }
}
