import Foundation
import Testing
import RoutesAnalysis
@testable import RoutesCodegen
import RoutesEncoding
import RoutesJSON
import RoutesModel

/// The generated code builds what the checker says the program builds. Small random
/// programs (every screen node tagged with a dependency of its own, so that the content
/// method called names the node) are generated, linked with the stand-in into one
/// executable, and asked for every path of up to 4 elements under every environment; each
/// element is compared with `routes tree --path … --format json` (the same JSON, made in
/// process; a sample through the CLI too): built or not, the node, the presentation, the
/// screen a wildcard put in its place. The dependencies each view receives are checked too:
/// a value `from P` comes from the latest element before it that a `screen P` built.
@Suite(.serialized) struct DifferentialTests {
    struct Query {
        var program: Int
        var flags: [(String, Bool)]
        var optionals: [(String, Bool)]
        var path: [Symbol]
        var expected: JSONValue
        var environment: ProgramEnvironment
    }

    static let programCount = 100

    @Test func generatedCodeBuildsWhatTheCheckerResolves() throws {
        let programs = RandomPrograms.make(Self.programCount, shape: .differential, firstSeed: 10_000)
        var generated: [GeneratedProgram] = []
        for (k, p) in programs.enumerated() {
            let project = RandomPrograms.project(p.text, name: String(format: "/ws/D%03d.routes", k))
            // Every other program with its content protocol in parts of one view type.
            let found = try Generation.programs(of: project, label: "seed \(p.seed)",
                                                options: .init(viewTypesPerProtocol: k % 2 == 1 ? 1 : 500))
            try #require(found.generated.count == 1)
            generated += found.generated
        }

        // Every path of up to 4 elements under every environment, extended only while the
        // checker builds all of it (an element after one not built is not built either).
        var queries: [Query] = []
        for (k, g) in generated.enumerated() {
            let env = try ProgramEnvironment(Environment(), program: g.program, project: g.project)
            let flags = env.flags.map(\.name), optionals = env.optionals.map(\.name)
            let screens = g.plan.screens.map(\.symbol)
            let bits = flags.count + optionals.count
            for mask in 0..<(1 << bits) {
                let f = flags.enumerated().map { ($1, mask & (1 << $0) != 0) }
                let o = optionals.enumerated().map { ($1, mask & (1 << (flags.count + $0)) != 0) }
                let environment = try ProgramEnvironment(
                    Environment(flags: Dictionary(uniqueKeysWithValues: f), optionals: Dictionary(uniqueKeysWithValues: o)),
                    program: g.program, project: g.project)
                var frontier: [[Symbol]] = [[]]
                for _ in 1...4 {
                    var next: [[Symbol]] = []
                    for prefix in frontier {
                        for s in screens {
                            let path = prefix + [s]
                            let r = Resolution.resolve(screens: path, program: g.program, project: g.project, environment: environment)
                            queries.append(Query(program: k, flags: f, optionals: o, path: path,
                                                 expected: TreeJSON.resolution(r, project: g.project), environment: environment))
                            if r.elements.allSatisfy(\.built) { next.append(path) }
                        }
                    }
                    frontier = next
                }
            }
        }

        let files = try Generation.write(generated, extra: ["main.swift": Harness.common(generated)]
            .merging(Dictionary(uniqueKeysWithValues: generated.map { ("\(Harness.harnessName($0)).swift", Harness.program($0)) }), uniquingKeysWith: { a, _ in a }))
        let executable = try Swiftc.temporaryDirectory("differential").appendingPathComponent("differential")
        defer {
            Generation.remove(files)
            Generation.remove([executable])
        }
        try Swiftc.compile(files, module: "Differential", product: .executable(executable))

        func name(_ g: GeneratedProgram, _ s: Symbol) -> String { g.project.declaration(s).name.text }
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
        var builtElements = 0, checkedValues = 0, wildcards = 0
        for (q, answer) in zip(queries, answers) {
            let g = generated[q.program]
            let got = answer.components(separatedBy: " | ")
            let elements = q.expected["elements"]?.arrayValue ?? []
            func fail(_ why: String) {
                let path = q.path.map { name(g, $0) }.joined(separator: "/")
                mismatches.append("seed program \(q.program) (\(g.label)), path \(path), \(q.environment.summary): \(why)\n\(g.project.files[0].text.text(0..<g.project.files[0].text.count))")
            }
            guard got.count == elements.count else {
                fail("\(got.count) elements built, expected \(elements.count)")
                continue
            }
            // Which element each screen that provides values last built (for `from` values).
            var lastBuilt: [String: Int] = [:]
            for (i, (e, line)) in zip(elements, got).enumerated() {
                let built = e["built"]?.boolValue ?? false
                if !built {
                    if line != "-" { fail("element \(i + 1) built (\(line)), but the checker builds nothing") }
                    continue
                }
                guard line != "-" else {
                    fail("element \(i + 1) not built, but the checker builds it at \(e["node"].map { JSON.serialize($0) } ?? "?")")
                    continue
                }
                builtElements += 1
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                let method = g.plan.contentMethods[Int(parts[0])!]
                let node = TreeJSON.location(method.example, project: g.project)
                if node != e["node"] { fail("element \(i + 1) built by \(JSON.serialize(node)), the checker says \(JSON.serialize(e["node"] ?? .null))") }
                if .string(parts[2]) != e["presentation"] { fail("element \(i + 1) presented as \(parts[2]), the checker says \(e["presentation"].map { JSON.serialize($0) } ?? "?")") }
                let screen = name(g, q.path[i])
                let builtAs: JSONValue? = parts[1] == screen ? nil : .string(parts[1])
                if builtAs != e["builtAs"] { fail("element \(i + 1) built as \(parts[1]), the checker says \(e["builtAs"].map { JSON.serialize($0) } ?? screen)") }
                if builtAs != nil { wildcards += 1 }
                // The dependencies received.
                let values = parts.count > 3 && !parts[3].isEmpty ? parts[3].split(separator: ",").map { $0.split(separator: "=").map(String.init) } : []
                for kv in values {
                    guard let s = g.project.scopes[g.program.root.file][kv[0]] else { continue }
                    let d = g.project.declaration(s)
                    let value = kv[1]
                    checkedValues += 1
                    if let from = d.from?.text {
                        guard let k = lastBuilt[from] else {
                            fail("element \(i + 1) received \(kv[0])=\(value), but no \(from) was built before it")
                            continue
                        }
                        let provider = g.plan.screens.first { name(g, $0.symbol) == from }!
                        let index = provider.parameters.isEmpty ? "?" : "\(k)"
                        if d.kind == .dependency && value != "\(kv[0])@\(from)#\(index)" {
                            fail("element \(i + 1) received \(kv[0])=\(value), expected the value of the \(from) at element \(k + 1): \(kv[0])@\(from)#\(index)")
                        }
                        if d.kind == .optional && !value.hasPrefix("\(kv[0])@\(from)#") {
                            fail("element \(i + 1) received \(kv[0])=\(value), not a value provided by \(from)")
                        }
                    } else if value != "env:\(kv[0])" {
                        fail("element \(i + 1) received \(kv[0])=\(value), expected env:\(kv[0])")
                    }
                }
                lastBuilt[parts[1]] = i
            }
            if mismatches.count > 5 { break }
        }
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) mismatches (stopped after 6), the first:\n\(mismatches.prefix(3).joined(separator: "\n\n"))")
        }

        // The in-process JSON is what `routes tree --path … --format json` prints: a sample
        // through the CLI.
        var sampled = 0
        for (k, p) in programs.prefix(8).enumerated() {
            let dir = try Swiftc.temporaryDirectory("tree")
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = String(format: "D%03d.routes", k)
            try p.text.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
            let g = generated[k]
            for q in queries.filter({ $0.program == k }).suffix(3) {
                var arguments = ["tree", file, "--format", "json", "--path", q.path.map { name(g, $0) }.joined(separator: "/")]
                for (f, v) in q.flags { arguments += ["--flag", "\(f)=\(v)"] }
                for (o, v) in q.optionals { arguments += ["--optional", "\(o)=\(v ? "present" : "absent")"] }
                let r = try Swiftc.run(Swiftc.routesBinary, arguments, in: dir)
                let printed = try JSON.parse(String(r.output.drop { $0 != "{" }))
                #expect(printed == q.expected, "routes \(arguments.joined(separator: " ")) printed \(r.output)")
                sampled += 1
            }
        }
        #expect(sampled >= 20)
        // The comparison covered what it should.
        #expect(queries.count > 3_000, "\(queries.count) queries")
        #expect(builtElements > 5_000, "\(builtElements) built elements compared")
        #expect(checkedValues > 2_000, "\(checkedValues) dependency values checked")
        #expect(wildcards > 100, "\(wildcards) elements built by a wildcard")
        #expect(generated.filter { $0.plan.contentParts.count > 1 }.count >= 30, "programs with the content protocol in parts")
        let recursive = generated.filter { !$0.plan.recursiveCalls.isEmpty }.count
        let providing = generated.filter { $0.code.contains("let (view") }.count
        #expect(recursive >= 10, "\(recursive) programs with recursion")
        #expect(providing >= 10, "\(providing) programs whose screens provide values to their nestings")
        print("differential: \(generated.count) programs (\(recursive) recursive, \(providing) with provided values), \(queries.count) paths, \(builtElements) built elements, \(checkedValues) dependency values, \(wildcards) wildcard elements")
    }
}
