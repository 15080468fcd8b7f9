import Foundation
import Testing
import RoutesAnalysis
@testable import RoutesCodegen
import RoutesEncoding
import RoutesJSON
import RoutesModel

/// The SwiftUI target's resolver (`AppRoutes.resolve(_:in:)`) builds what the checker says a
/// path builds. Random programs (covers, popovers and placements' own presentations
/// included) are generated for the target, linked into one executable, and asked for every
/// path of up to 4 elements under every environment; each element is compared with
/// `routes tree --path … --format json` (the same JSON, made in process): built or not, the
/// node, the presentation in force, the screen a wildcard put in its place, and where the
/// build stops.
@Suite(.serialized) struct SwiftUIResolverTests {
    static let programCount = 100

    /// A program for the target, with the numbering of its `screen` nodes.
    struct Generated {
        var program: GeneratedProgram
        var nodes: [NodeRef]
        var target: SwiftUITarget
    }

    static func generate(_ text: String, name: String, label: String) throws -> Generated {
        let project = RandomPrograms.project(text, name: name)
        let found = try Generation.programs(of: project, label: label, options: .init(target: .swiftUI))
        let g = try #require(found.generated.first, "\(label): nothing generated")
        let target = SwiftUITarget(plan: g.plan, project: g.project, access: .internal)
        return Generated(program: g, nodes: target.nodes, target: target)
    }

    /// Each program as random presentations make it: a `sheet` of the generated program
    /// becomes a `cover` or a `popover`, and some placements get an `as …` of their own.
    static func withPresentations(_ text: String, seed: Int) -> String {
        var words = ["sheet", "cover", "popover"]
        let modal = words[seed % 3]
        words = ["push", "sheet(allowsPush: false)", "cover", "popover(allowsPush: false)"]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var placed = 0
        for i in lines.indices {
            if lines[i].hasPrefix("screen ") {
                lines[i] = lines[i].replacingOccurrences(of: " sheet", with: " " + modal)
            } else if let range = lines[i].range(of: #"screen [A-Za-z]+"#, options: .regularExpression),
                      !lines[i].contains("if screen"), (i + seed) % 3 == 0 {
                lines[i].insert(contentsOf: " as " + words[(placed + seed) % words.count], at: range.upperBound)
                placed += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func theResolverBuildsWhatTheCheckerResolves() throws {
        let programs = RandomPrograms.make(Self.programCount, shape: .differential, firstSeed: 30_000)
        var generated: [Generated] = []
        for (k, p) in programs.enumerated() {
            let text = Self.withPresentations(p.text, seed: k)
            generated.append(try Self.generate(text, name: String(format: "/ws/S%03d.routes", k), label: "seed \(p.seed)"))
        }

        struct Query {
            var program: Int
            var flags: [(String, Bool)]
            var optionals: [(String, Bool)]
            var path: [Symbol]
            var expected: JSONValue
        }
        var queries: [Query] = []
        for (k, g) in generated.enumerated() {
            let program = g.program
            let env = try ProgramEnvironment(Environment(), program: program.program, project: program.project)
            let flags = env.flags.map(\.name), optionals = env.optionals.map(\.name)
            let screens = program.plan.screens.map(\.symbol)
            let bits = flags.count + optionals.count
            for mask in 0..<(1 << bits) {
                let f = flags.enumerated().map { ($1, mask & (1 << $0) != 0) }
                let o = optionals.enumerated().map { ($1, mask & (1 << (flags.count + $0)) != 0) }
                let environment = try ProgramEnvironment(
                    Environment(flags: Dictionary(uniqueKeysWithValues: f), optionals: Dictionary(uniqueKeysWithValues: o)),
                    program: program.program, project: program.project)
                var frontier: [[Symbol]] = [[]]
                for _ in 1...4 {
                    var next: [[Symbol]] = []
                    for prefix in frontier {
                        for s in screens {
                            let path = prefix + [s]
                            let r = Resolution.resolve(screens: path, program: program.program, project: program.project, environment: environment)
                            queries.append(Query(program: k, flags: f, optionals: o, path: path,
                                                 expected: TreeJSON.resolution(r, project: program.project)))
                            if r.elements.allSatisfy(\.built) { next.append(path) }
                        }
                    }
                    frontier = next
                }
            }
        }

        var sources = ["main.swift": Self.main(generated.map(\.program))]
        for g in generated { sources["\(g.program.namespace)Harness.swift"] = Self.harness(g) }
        let files = try Generation.write(generated.map(\.program), extra: sources)
        let executable = try Swiftc.temporaryDirectory("resolver").appendingPathComponent("resolver")
        defer {
            Generation.remove(files)
            Generation.remove([executable])
        }
        try Swiftc.compile(files, module: "Resolver", product: .executable(executable))

        func name(_ g: Generated, _ s: Symbol) -> String { g.program.project.declaration(s).name.text }
        let input = queries.map { q -> String in
            let g = generated[q.program]
            func list(_ a: [(String, Bool)]) -> String { a.isEmpty ? "-" : a.map { "\($0.0)=\($0.1 ? 1 : 0)" }.joined(separator: ",") }
            let path = q.path.enumerated().map { "\(name(g, $1))#\($0)" }.joined(separator: ",")
            return "\(q.program) \(list(q.flags)) \(list(q.optionals)) \(path)"
        }.joined(separator: "\n") + "\n"
        let run = try Swiftc.run(executable, [], stdin: input)
        try #require(run.status == 0, "the harness failed: \(run.output.prefix(2000))")
        let answers = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(answers.count >= queries.count, "\(answers.count) answers to \(queries.count) queries")

        var mismatches: [String] = []
        var built = 0, stops = 0, wildcards = 0, modal = 0
        for (q, answer) in zip(queries, answers) {
            let g = generated[q.program]
            let got = answer.components(separatedBy: " | ")
            let elements = q.expected["elements"]?.arrayValue ?? []
            func fail(_ why: String) {
                let path = q.path.map { name(g, $0) }.joined(separator: "/")
                mismatches.append("program \(q.program) (\(g.program.label)), path \(path), flags \(q.flags), optionals \(q.optionals): \(why)\n\(g.program.project.files[0].text.string)")
            }
            guard got.count == elements.count else {
                fail("\(got.count) answers, expected \(elements.count)")
                continue
            }
            for (i, (e, line)) in zip(elements, got).enumerated() {
                if !(e["built"]?.boolValue ?? false) {
                    if line != "-" { fail("element \(i + 1) built (\(line)), but the checker builds nothing") }
                    if i == 0 || elements[i - 1]["built"]?.boolValue == true { stops += 1 }
                    continue
                }
                guard line != "-" else {
                    fail("element \(i + 1) not built, but the checker builds it at \(e["node"].map { JSON.serialize($0) } ?? "?")")
                    continue
                }
                built += 1
                let parts = line.split(separator: " ").map(String.init)
                let node = TreeJSON.location(g.nodes[Int(parts[0])!], project: g.program.project)
                if node != e["node"] { fail("element \(i + 1) built by \(JSON.serialize(node)), the checker says \(JSON.serialize(e["node"] ?? .null))") }
                if .string(parts[2]) != e["presentation"] { fail("element \(i + 1) presented as \(parts[2]), the checker says \(e["presentation"].map { JSON.serialize($0) } ?? "?")") }
                if parts[2] != "push" { modal += 1 }
                let screen = name(g, q.path[i])
                let builtAs: JSONValue? = parts[1] == screen ? nil : .string(parts[1])
                if builtAs != e["builtAs"] { fail("element \(i + 1) built as \(parts[1]), the checker says \(e["builtAs"].map { JSON.serialize($0) } ?? screen)") }
                if builtAs != nil { wildcards += 1 }
            }
            if mismatches.count > 5 { break }
        }
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) mismatches (stopped after 6), the first:\n\(mismatches.prefix(3).joined(separator: "\n\n"))")
        }
        // The comparison covered what it should.
        #expect(queries.count > 3_000, "\(queries.count) queries")
        #expect(built > 5_000, "\(built) built elements compared")
        #expect(stops > 2_000, "\(stops) stops compared")
        #expect(wildcards > 100, "\(wildcards) elements built by a wildcard")
        #expect(modal > 500, "\(modal) elements presented otherwise than by push")
        let placements = generated.filter { $0.program.code.contains("allowsPush: false") }.count
        #expect(placements >= 30, "\(placements) programs with a presentation that allows no pushes")
        print("SwiftUI resolver: \(generated.count) programs, \(queries.count) paths, \(built) built elements, \(stops) stops, \(wildcards) wildcard elements, \(modal) presented modally")
    }

    /// The generated code compiles without a warning in Swift 5 and Swift 6 modes.
    @Test(arguments: ["5", "6"]) func theGeneratedCodeCompilesCleanly(_ version: String) throws {
        var programs: [GeneratedProgram] = []
        let root = Swiftc.packageRoot
        for e in ["Examples/Seed", "Examples/Shop", "Tests/Fixtures/codegen/recursion.routes", "Tests/Fixtures/codegen/scopes.routes",
                  "Tests/Fixtures/codegen/wide-anyof.routes", "Tests/Fixtures/codegen/presentations-refused.routes"] {
            let project = Generation.project([root.appendingPathComponent(e)], root: root)
            programs += try Generation.programs(of: project, label: e, options: .init(target: .swiftUI)).generated
        }
        for (k, p) in RandomPrograms.make(60, shape: .differential, firstSeed: 31_000).enumerated() {
            let text = Self.withPresentations(p.text, seed: k)
            programs.append(try Self.generate(text, name: String(format: "/ws/C%03d.routes", k), label: "seed \(p.seed)").program)
        }
        #expect(programs.count == 66)
        for (k, batch) in Generation.batches(programs, size: 70).enumerated() {
            let files = try Generation.write(batch)
            defer { Generation.remove(files) }
            try Swiftc.compile(files, module: "SwiftUITarget\(k)", product: .checked, swiftVersion: version)
        }
    }

    // MARK: The harness

    static func main(_ programs: [GeneratedProgram]) -> String {
        """
        typealias Resolve = (_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) -> [String]
        let programs: [Resolve] = [\(programs.map { "\($0.namespace)Harness.resolve" }.joined(separator: ", "))]

        // A query a line: `program flags optionals path` (see SwiftUIResolverTests); the answer:
        // one entry per element, `node screen presentation`, or `-` when it is not built.
        while let line = readLine() {
            let parts = line.split(separator: " ").map(String.init)
            func assignments(_ s: String) -> [String: Bool] {
                s == "-" ? [:] : Dictionary(uniqueKeysWithValues: s.split(separator: ",").map {
                    let kv = $0.split(separator: "=")
                    return (String(kv[0]), kv[1] == "1")
                })
            }
            let path = parts[3].split(separator: ",").map { e -> (String, Int) in
                let kv = e.split(separator: "#")
                return (String(kv[0]), Int(kv[1])!)
            }
            print(programs[Int(parts[0])!](assignments(parts[1]), assignments(parts[2]), path).joined(separator: " | "))
        }

        """
    }

    static func harness(_ g: Generated) -> String {
        let plan = g.program.plan, project = g.program.project, ns = plan.namespace
        func name(_ s: Symbol) -> String { project.declaration(s).name.text }
        var lines = ["enum \(ns)Harness {"]
        lines.append("    static func element(_ name: String, _ index: Int) -> \(ns).Element {")
        lines.append("        switch name {")
        for (k, s) in plan.screens.enumerated() {
            let args = s.parameters.isEmpty ? "" : "i: index"
            lines.append("        case \"\(name(s.symbol))\": return .\(g.target.caseNames[k])(\(ns).\(s.typeName)(\(args)))")
        }
        lines.append("        default: fatalError(name)")
        lines.append("        }")
        lines.append("    }")
        lines.append("")
        lines.append("    static func style(_ p: \(ns).Presentation) -> String {")
        lines.append("        switch p {")
        lines.append("        case .push: return \"push\"")
        for style in ["sheet", "cover", "popover"] {
            lines.append("        case .\(style)(let allowsPush): return allowsPush ? \"\(style)\" : \"\(style)NoPush\"")
        }
        lines.append("        }")
        lines.append("    }")
        lines.append("")
        lines.append("    static func resolve(_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) -> [String] {")
        let arguments = g.target.conditions.map { c -> String in
            let decl = project.declaration(c.symbol)
            let table = decl.kind == .flag ? "flags" : "optionals"
            return "\(c.name.filter { $0 != "`" }): \(table)[\"\(decl.name.text)\"] ?? false"
        }
        lines.append("        let conditions = \(ns).Conditions(\(arguments.joined(separator: ", ")))")
        lines.append("        let r = \(ns).resolve(path.map { element($0.0, $0.1) }, in: conditions)")
        lines.append("        var out = r.steps.map { \"\\($0.node.id) \\(($0.builtAs ?? $0.element).screenName) \\(style($0.node.presentation))\" }")
        lines.append("        if let stop = r.stop {")
        lines.append("            precondition(stop.index == out.count && !stop.reason.isEmpty)")
        lines.append("            out += Array(repeating: \"-\", count: path.count - out.count)")
        lines.append("        }")
        lines.append("        return out")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
