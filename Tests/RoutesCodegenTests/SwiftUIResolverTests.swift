import Foundation
import Testing
import RoutesAnalysis
@testable import RoutesCodegen
import RoutesEncoding
import RoutesJSON
import RoutesModel

/// The SwiftUI target's resolver (`AppRoutes.resolve(_:in:)`) builds what the checker says a
/// path builds, and its views show it. 100 random programs (covers, popovers and placements'
/// own presentations included) are generated for the target, linked into one executable,
/// and asked for every path of up to 4 elements under every environment; each element is
/// compared with `routes tree --path … --format json` (the same JSON, made in process):
/// built or not, the node, the presentation in force, the screen a wildcard put in its
/// place, and where the build stops and why (the reason word for word); then what the views
/// show of the same paths (stacks, pushes, presentations, the values each view receives, the
/// path after a back gesture and a swipe down), as the test-only SwiftUI stand-in records it.
@Suite struct SwiftUIResolverTests {
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
        let diagnostics = AnalysisSession.forEditor(project: project).diagnostics.filter { $0.severity == .error }
            .map { "\($0.rule) \(project.files[$0.file].text.text($0.range)): \($0.message)" }
        let g = try #require(found.generated.first, "\(label): nothing generated: \(diagnostics)\n\(text)")
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
            } else if let range = lines[i].range(of: #"screen [A-Za-z_][A-Za-z0-9_]*"#, options: .regularExpression),
                      !lines[i].contains("if screen"), (i + seed) % 3 == 0 {
                lines[i].insert(contentsOf: " as " + words[(placed + seed) % words.count], at: range.upperBound)
                placed += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func theResolverAndTheViewsAgreeWithTheChecker() throws {
        let programs = RandomPrograms.make(Self.programCount, shape: .differential, firstSeed: 30_000)
        var generated: [Generated] = []
        for (k, p) in programs.enumerated() {
            let text = Self.withPresentations(p.text, seed: k)
            generated.append(try Self.generate(text, name: String(format: "/ws/S%03d.routes", k), label: "seed \(p.seed)"))
        }

        let queries = try Self.queries(generated)
        var sources = ["main.swift": Self.main(generated.map(\.program))]
        for g in generated {
            sources["\(g.program.namespace)Harness.swift"] = Self.harness(g)
            sources["\(g.program.namespace)Views.swift"] = Self.viewsHarness(g)
        }
        let files = try Generation.write(generated.map(\.program), extra: sources)
        let executable = try Swiftc.temporaryDirectory("resolver").appendingPathComponent("resolver")
        defer {
            Generation.remove(files)
            Generation.remove([executable])
        }
        try Swiftc.compile(files, module: "Resolver", product: .executable(executable))

        let input = Self.input(queries, generated)
        for part in ["resolve", "views"] {
            let run = try Swiftc.run(executable, [part], stdin: input)
            try #require(run.status == 0, "the harness failed: \(run.output.prefix(2000))")
            let answers = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            try #require(answers.count >= queries.count, "\(answers.count) answers to \(queries.count) queries")
            if part == "resolve" {
                try Self.compare(queries, answers, generated)
            } else {
                Self.compareViews(queries, answers, generated)
            }
        }
    }

    struct Query {
        var program: Int
        var flags: [(String, Bool)]
        var optionals: [(String, Bool)]
        var path: [Symbol]
        var expected: JSONValue
    }

    /// Every path of up to 4 elements under every environment, extended only while the checker
    /// builds all of it.
    static func queries(_ generated: [Generated]) throws -> [Query] {
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
        return queries
    }

    /// The queries as the harnesses read them: `program flags optionals path`, a line each.
    static func input(_ queries: [Query], _ generated: [Generated]) -> String {
        queries.map { q -> String in
            let g = generated[q.program]
            func list(_ a: [(String, Bool)]) -> String { a.isEmpty ? "-" : a.map { "\($0.0)=\($0.1 ? 1 : 0)" }.joined(separator: ",") }
            let path = q.path.enumerated().map { "\(g.program.project.declaration($1).name.text)#\($0)" }.joined(separator: ",")
            return "\(q.program) \(list(q.flags)) \(list(q.optionals)) \(path)"
        }.joined(separator: "\n") + "\n"
    }

    static func compare(_ queries: [Query], _ answers: [String], _ generated: [Generated]) throws {
        func name(_ g: Generated, _ s: Symbol) -> String { g.program.project.declaration(s).name.text }
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
                    if i == 0 || elements[i - 1]["built"]?.boolValue == true {
                        stops += 1
                        // Where the build stops, the reason is the checker's, word for word.
                        if !line.hasPrefix("- ") {
                            fail("element \(i + 1) built (\(line)), but the checker builds nothing")
                        } else if String(line.dropFirst(2)) != e["reason"]?.stringValue {
                            fail("element \(i + 1) not built because \(line.dropFirst(2)), the checker says because \(e["reason"]?.stringValue ?? "?")")
                        }
                    } else if line != "-" {
                        fail("element \(i + 1) built (\(line)), but the checker builds nothing")
                    }
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

    /// The views show the built prefix of the navigator's path, as the checker resolves it:
    /// consecutive pushes in one `NavigationStack`, each sheet, cover or popover presented
    /// from the stack before it with a stack of its own (none when it allows no pushes),
    /// nothing from the first element not built, nor from a push where nothing can be pushed.
    /// Each view receives the values its `uses` names (`env:x` from the environment, `x@P#k`
    /// from the latest P before it); a back gesture and a swipe down shorten the path.
    static func compareViews(_ queries: [Query], _ answers: [String], _ generated: [Generated]) {
        var mismatches: [String] = []
        var presented = 0, noStack = 0, backs = 0, dismissals = 0, values = 0
        for (q, answer) in zip(queries, answers) {
            let g = generated[q.program]
            let project = g.program.project
            func name(_ s: Symbol) -> String { project.declaration(s).name.text }
            let elements = q.expected["elements"]?.arrayValue ?? []
            // The shown prefix: built, and not a push where nothing can be pushed.
            var shown: [(label: String, presentation: String)] = []
            var canPush = true
            for (i, e) in elements.enumerated() {
                guard e["built"]?.boolValue == true, case .string(let p)? = e["presentation"] else { break }
                if p != "push" || shown.isEmpty {
                    canPush = !p.hasSuffix("NoPush")
                } else if !canPush {
                    break
                }
                let screen = name(q.path[i])
                let builtAs = e["builtAs"]?.stringValue
                let hasParameter = builtAs == nil && g.program.plan.screens.contains { name($0.symbol) == screen && !$0.parameters.isEmpty }
                shown.append(("\(builtAs ?? screen)#\(hasParameter ? "\(i)" : "?")", p))
            }
            var starts: [Int] = []
            for (i, s) in shown.enumerated() where i == 0 || s.presentation != "push" { starts.append(i) }
            let segments = starts.enumerated().map { k, start in start..<(k + 1 < starts.count ? starts[k + 1] : shown.count) }
            var expected = ""
            for (k, segment) in segments.enumerated() {
                if k > 0 {
                    let p = shown[segment.lowerBound].presentation
                    expected += p.hasPrefix("sheet") ? " sheet " : p.hasPrefix("cover") ? " fullScreenCover " : " popover "
                    presented += 1
                }
                if shown[segment.lowerBound].presentation.hasSuffix("NoPush") {
                    expected += shown[segment.lowerBound].label
                    noStack += 1
                } else {
                    expected += "[" + shown[segment].map(\.label).joined(separator: " > ") + "]"
                }
            }
            // After a back gesture: the innermost stack with a pushed element loses its last one
            // (and what is presented from it); after a swipe down, the innermost presentation goes.
            let back = segments.last(where: { $0.count > 1 && !shown[$0.lowerBound].presentation.hasSuffix("NoPush") })
                .map { String($0.upperBound - 1) } ?? "-"
            let dismiss = segments.count > 1 ? String(segments.last!.lowerBound) : "-"
            let parts = answer.components(separatedBy: " | ")
            func fail(_ why: String) {
                let path = q.path.map(name).joined(separator: "/")
                mismatches.append("program \(q.program) (\(g.program.label)), path \(path), flags \(q.flags), optionals \(q.optionals): \(why)\n\(project.files[0].text.string)")
            }
            guard parts.count == 4 else {
                fail("the answer \(answer)")
                continue
            }
            if parts[0] != expected { fail("shows \(parts[0]), expected \(expected)") }
            if parts[1] != back { fail("after a back gesture the path has \(parts[1]) elements, expected \(back)") }
            if parts[2] != dismiss { fail("after a swipe down the path has \(parts[2]) elements, expected \(dismiss)") }
            if back != "-" { backs += 1 }
            if dismiss != "-" { dismissals += 1 }
            // The values each shown view received.
            for (i, received) in parts[3].split(separator: ";", omittingEmptySubsequences: false).enumerated() where !received.isEmpty {
                for kv in received.split(separator: ",") {
                    let pair = kv.split(separator: "=").map(String.init)
                    guard pair.count == 2, let s = project.scopes[g.program.program.root.file][pair[0]] else { continue }
                    values += 1
                    let d = project.declaration(s)
                    if let from = d.from?.text {
                        // The latest element before i that a `screen <from>` built.
                        let k = (0..<i).last { j in (elements[j]["builtAs"]?.stringValue ?? name(q.path[j])) == from }
                        guard let k else {
                            fail("element \(i + 1) received \(pair[0])=\(pair[1]), but no \(from) was built before it")
                            continue
                        }
                        let hasParameter = g.program.plan.screens.contains { name($0.symbol) == from && !$0.parameters.isEmpty }
                            && elements[k]["builtAs"] == nil
                        if pair[1] != "\(pair[0])@\(from)#\(hasParameter ? "\(k)" : "?")" {
                            fail("element \(i + 1) received \(pair[0])=\(pair[1]), expected the value of the \(from) at element \(k + 1)")
                        }
                    } else if pair[1] != "env:\(pair[0])" {
                        fail("element \(i + 1) received \(pair[0])=\(pair[1]), expected env:\(pair[0])")
                    }
                }
            }
            if mismatches.count > 5 { break }
        }
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) mismatches (stopped after 6), the first:\n\(mismatches.prefix(3).joined(separator: "\n\n"))")
        }
        #expect(queries.count > 1_000, "\(queries.count) paths")
        #expect(presented > 300, "\(presented) presentations shown")
        #expect(noStack > 30, "\(noStack) presentations without a stack")
        #expect(backs > 100 && dismissals > 300, "\(backs) back gestures, \(dismissals) swipes down")
        #expect(values > 1_000, "\(values) values received")
        print("SwiftUI views: \(generated.count) programs, \(queries.count) paths, \(presented) presentations, \(noStack) without a stack, \(backs) back gestures, \(dismissals) swipes down, \(values) values")
    }

    /// How many random programs `theGeneratedCodeCompilesCleanly` compiles, small and large:
    /// `ROUTES_SWIFTUI_PROGRAMS` (`500,60` in CI, whose `.ci/run` sets it), else 60 and 10,
    /// so that `make test` stays short (each program costs about 0.4 s of compiler time per
    /// language mode).
    static let compiledPrograms: (small: Int, large: Int) = {
        let parts = (ProcessInfo.processInfo.environment["ROUTES_SWIFTUI_PROGRAMS"] ?? "").split(separator: ",").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (60, 10)
    }()

    /// The generated code compiles without a warning in Swift 5 and Swift 6 modes: the
    /// examples, every clean fixture, small random programs (recursion, `from` chains, nested
    /// `if let`, covers, popovers and placements' own presentations) and large ones (wide
    /// `anyOf`s of up to 25 branches, Swift keywords as names, every shape of Swift type).
    @Test(arguments: ["5", "6"]) func theGeneratedCodeCompilesCleanly(_ version: String) throws {
        var programs: [GeneratedProgram] = []
        let root = Swiftc.packageRoot
        for e in ["Examples/Seed", "Examples/Shop"] {
            let project = Generation.project([root.appendingPathComponent(e)], root: root)
            programs += try Generation.programs(of: project, label: e, options: .init(target: .swiftUI)).generated
        }
        let fixtures = root.appendingPathComponent("Tests/Fixtures")
        for feature in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted() {
            let dir = fixtures.appendingPathComponent(feature)
            for entry in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                let url = dir.appendingPathComponent(entry)
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                guard isDirectory.boolValue || entry.hasSuffix(".routes") else { continue }
                let project = Generation.project([url], root: isDirectory.boolValue ? url : dir)
                // Fixtures whose problems are not the ComposableNavigator target's (names, types) stay refused.
                programs += try Generation.programs(of: project, label: "\(feature)/\(entry)", allowProblems: true,
                                                    options: .init(target: .swiftUI)).generated
            }
        }
        let fixed = programs.count
        #expect(fixed >= 40, "\(fixed) examples and fixtures generated")
        let (small, large) = Self.compiledPrograms
        for (k, p) in RandomPrograms.make(small, shape: .differential, firstSeed: 41_000).enumerated() {
            let text = Self.withPresentations(p.text, seed: k)
            programs.append(try Self.generate(text, name: String(format: "/ws/S%03d.routes", k), label: "seed \(p.seed)").program)
        }
        for (k, p) in RandomPrograms.make(large, shape: .compile, firstSeed: 42_000).enumerated() {
            let text = Self.withPresentations(p.text, seed: k)
            programs.append(try Self.generate(text, name: String(format: "/ws/L%03d.routes", k), label: "seed \(p.seed)").program)
        }
        #expect(programs.count == fixed + small + large)
        print("SwiftUI compile (Swift \(version)): \(fixed) examples and fixtures, \(small) small and \(large) large random programs")
        for (k, batch) in Generation.batches(programs, size: 100).enumerated() {
            let files = try Generation.write(batch)
            defer { Generation.remove(files) }
            // Swift 5 mode has no isolation diagnostics after type checking: type-checked only.
            try Swiftc.compile(files, module: "SwiftUITarget\(k)", product: version == "5" ? .typechecked : .checked, swiftVersion: version)
        }
    }

    /// The reader example (`Examples/ReaderPackage`, the plugin with this target): its wiring
    /// and its demo compile against the stand-in, and what the views show follows the path,
    /// a shared URL, a change of the environment (a subscription) and a swipe down.
    @Test func theReaderExampleFollowsItsPathAndItsEnvironment() throws {
        let root = Swiftc.packageRoot
        let package = root.appendingPathComponent("Examples/ReaderPackage")
        let project = Generation.project([package.appendingPathComponent("Sources/ReaderApp/Reader.routes")], root: package)
        var reader = try #require(try Generation.programs(of: project, label: "reader", options: .init(target: .swiftUI)).generated.first)
        reader.stubs = Stubs()  // the app declares its types (`ArticleStore`)
        let app = try String(contentsOf: package.appendingPathComponent("Sources/ReaderApp/App.swift"), encoding: .utf8)
        let demo = try String(contentsOf: package.appendingPathComponent("Sources/ReaderDemo/main.swift"), encoding: .utf8)
            .replacingOccurrences(of: "import ReaderApp\n", with: "")
        let files = try Generation.write([reader], extra: ["App.swift": app, "main.swift": demo])
        let executable = try Swiftc.temporaryDirectory("reader").appendingPathComponent("reader")
        defer {
            Generation.remove(files)
            Generation.remove([executable])
        }
        try Swiftc.compile(files, module: "Reader", product: .executable(executable))
        let shown = try Swiftc.run(executable, []).output.split(separator: "\n").filter { $0.contains("shows:") || $0.contains("resolved:") }
        #expect(shown == [
            "  shows: [Library]",
            "  shows: [Library]",
            "  shows: [Library > Article 42]",
            "  shows: [Library > Article 42] sheet [Article 7] sheet [Comments]",
            "  resolved: Library (push), Article (push), Article (sheet(allowsPush: true)), Comments (sheet(allowsPush: true))",
            "  shows: [Library > Article 42] sheet [Article 7]",
        ])
    }

    /// `--codable`: the screens and the path elements are `Codable`, and a path survives a
    /// round trip through JSON; a parameter type that is not `Codable` is the compiler's error.
    @Test func codablePathsRoundTrip() throws {
        let root = Swiftc.packageRoot
        let project = Generation.project([root.appendingPathComponent("Examples/Seed")], root: root)
        let seed = try #require(try Generation.programs(of: project, label: "seed", options: .init(target: .swiftUI, codable: true)).generated.first)
        #expect(seed.code.contains("enum Element: Hashable, Codable"))
        let main = """
            import Foundation
            let path: [AppRoutes.Element] = [.home(AppRoutes.Home()), .detail(AppRoutes.Detail(id: "42"))]
            let data = try! JSONEncoder().encode(path)
            print(try! JSONDecoder().decode([AppRoutes.Element].self, from: data) == path ? "same" : "different")

            """
        let files = try Generation.write([seed], extra: ["main.swift": main])
        let executable = try Swiftc.temporaryDirectory("codable").appendingPathComponent("codable")
        defer {
            Generation.remove(files)
            Generation.remove([executable])
        }
        try Swiftc.compile(files, module: "Codable", product: .executable(executable))
        #expect(try Swiftc.run(executable, []).output == "same\n")

        // A screen whose parameter is not `Codable` (the stand-in types are only `Hashable`).
        let text = "screen Home\nscreen Detail(id: Stub.ID)\nroot { screen Home { screen Detail } }\n"
        let other = RandomPrograms.project(text, name: "/ws/Uncodable.routes")
        let g = try #require(try Generation.programs(of: other, label: "uncodable", options: .init(target: .swiftUI, codable: true)).generated.first)
        let uncodable = try Generation.write([g])
        defer { Generation.remove(uncodable) }
        #expect(throws: Swiftc.CompileFailure.self) { try Swiftc.compile(uncodable, module: "Uncodable", product: .checked) }
    }

    // MARK: The harness of the views

    static func viewsHarness(_ g: Generated) -> String {
        let plan = g.program.plan, project = g.program.project, ns = plan.namespace
        func name(_ s: Symbol) -> String { project.declaration(s).name.text }
        var lines = ["@_spi(Inspection) import SwiftUI", "", "enum \(ns)ViewHarness {"]
        lines.append("    final class Environment: \(plan.environmentProtocol) {")
        lines.append("        var flags: [String: Bool] = [:]")
        lines.append("        var optionals: [String: Bool] = [:]")
        for m in plan.environment {
            let d = project.declaration(m.symbol)
            switch d.kind {
            case .flag: lines.append("        var \(m.name): Bool { flags[\"\(d.name.text)\"] ?? false }")
            case .optional: lines.append("        var \(m.name): String? { optionals[\"\(d.name.text)\"] ?? false ? \"env:\(d.name.text)\" : nil }")
            default: lines.append("        var \(m.name): String { \"env:\(d.name.text)\" }")
            }
        }
        lines.append("    }")
        lines.append("")
        lines.append("    struct Content: \(plan.contentProtocol) {")
        lines.append("        let environment: Environment")
        for m in plan.contentMethods {
            let s = plan.screens[m.screen]
            let index = s.parameters.isEmpty ? "?" : "\\(screen.i)"
            let screenName = name(s.symbol)
            var params = "_ screen: \(ns).\(s.typeName)"
            if let deps = m.depsType { params += ", using deps: \(ns).\(deps)" }
            let values = m.fields.map { "\(name($0.symbol))=\\(deps.\($0.name))" }.sorted().joined(separator: ",")
            let label = "Label(text: \"\(screenName)#\(index){\(values)}\")"
            if s.provides.isEmpty {
                lines.append("        func \(m.name)(\(params)) -> Label { \(label) }")
            } else {
                let types = s.provides.map { "\(plan.name($0)): \(plan.itemTypes[$0]!)" }.joined(separator: ", ")
                let provided = s.provides.map { item -> String in
                    let n = name(item.symbol)
                    let value = "\"\(n)@\(screenName)#\(index)\""
                    return project.declaration(item.symbol).kind == .optional ? "environment.optionals[\"\(n)\"] ?? false ? \(value) : nil" : value
                }
                lines.append("        func \(m.name)(\(params)) -> (\(m.viewLabel): Label, \(types)) {")
                lines.append("            (\(label), \(provided.joined(separator: ", ")))")
                lines.append("        }")
            }
        }
        lines.append("    }")
        lines.append("")
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
        lines.append("    @MainActor static func show(_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) async -> String {")
        lines.append("        let environment = Environment()")
        lines.append("        environment.flags = flags")
        lines.append("        environment.optionals = optionals")
        lines.append("        let content = Content(environment: environment)")
        lines.append("        let elements = path.map { element($0.0, $0.1) }")
        lines.append("        func render(_ navigator: \(ns)Navigator) async -> Hierarchy {")
        lines.append("            await Hierarchy.render(\(ns).RootView(navigator: navigator, environment: environment, content: content))")
        lines.append("        }")
        lines.append("        let (shown, values) = split(await render(\(ns)Navigator(path: elements)).text)")
        lines.append("        let backNavigator = \(ns)Navigator(path: elements)")
        lines.append("        let back = await render(backNavigator).goBack() ? \"\\(backNavigator.path.count)\" : \"-\"")
        lines.append("        let dismissNavigator = \(ns)Navigator(path: elements)")
        lines.append("        let dismiss = await render(dismissNavigator).dismissTop() ? \"\\(dismissNavigator.path.count)\" : \"-\"")
        lines.append("        return \"\\(shown) | \\(back) | \\(dismiss) | \\(values.joined(separator: \";\"))\"")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: The harness

    /// The harness's `main`: queries, a line each, `program flags optionals path` (see
    /// `input`); with the argument `resolve`, the resolver's answer (an entry per element,
    /// `node screen presentation` or `-`), with `views` what the views show (see
    /// `viewsHarness`).
    static func main(_ programs: [GeneratedProgram]) -> String {
        """
        @_spi(Inspection) import SwiftUI

        /// A shown screen's view: its label and the values it received, in braces (which the
        /// harness takes out of what is shown).
        struct Label: View {
            let text: String
            var body: some View { Text(verbatim: text) }
        }

        typealias Resolve = (_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) -> [String]
        typealias Show = @MainActor (_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) async -> String
        let resolvers: [Resolve] = [\(programs.map { "\($0.namespace)Harness.resolve" }.joined(separator: ", "))]
        let views: [Show] = [\(programs.map { "\($0.namespace)ViewHarness.show" }.joined(separator: ", "))]

        /// What the views show, without the values, then the values, a list per view.
        @MainActor func split(_ text: String) -> (shown: String, values: [String]) {
            var shown = "", values: [String] = [], current = "", inside = false
            for c in text {
                if c == "{" { inside = true; current = "" } else if c == "}" { inside = false; values.append(current) } else if inside { current.append(c) } else { shown.append(c) }
            }
            return (shown, values)
        }

        @MainActor func run() async {
            let showing = CommandLine.arguments.dropFirst().first == "views"
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
                let (k, flags, optionals) = (Int(parts[0])!, assignments(parts[1]), assignments(parts[2]))
                print(showing ? await views[k](flags, optionals, path) : resolvers[k](flags, optionals, path).joined(separator: " | "))
            }
        }

        await run()

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
        lines.append("            out.append(\"- \" + stop.reason)")
        lines.append("            out += Array(repeating: \"-\", count: path.count - out.count)")
        lines.append("        }")
        lines.append("        return out")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
