import Foundation
import Testing
@testable import RoutesCodegen
import RoutesModel

/// The generated code compiles, without a warning, against the stand-in modules (the public
/// signatures of ComposableNavigator 0.2.0 that it calls, and SwiftUI's `View`, each in a
/// module of its own), in Swift 6 mode.
@Suite(.serialized) struct CompileTests {
    static let root = Swiftc.packageRoot

    @Test func theExamplesAndEveryFixtureWithoutErrorsCompile() throws {
        var programs: [GeneratedProgram] = []
        var withErrors: [String] = []
        var refused: [String] = []
        let examples = ["Examples/Seed", "Examples/Shop"]
        for e in examples {
            let project = Generation.project([Self.root.appendingPathComponent(e)], root: Self.root)
            let found = try Generation.programs(of: project, label: e)
            #expect(!found.generated.isEmpty && found.withErrors.isEmpty, "\(e) has no program, or one with errors")
            programs += found.generated
        }
        let fixtures = Self.root.appendingPathComponent("Tests/Fixtures")
        for feature in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted() {
            let dir = fixtures.appendingPathComponent(feature)
            for entry in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                let url = dir.appendingPathComponent(entry)
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                guard isDirectory.boolValue || entry.hasSuffix(".routes") else { continue }
                let project = Generation.project([url], root: isDirectory.boolValue ? url : dir)
                // A codegen fixture that expects no output (`<case>.gen`) has problems on purpose.
                let expectsProblems = entry.hasSuffix(".routes")
                    && FileManager.default.fileExists(atPath: dir.appendingPathComponent(String(entry.dropLast(7)) + ".gen").path)
                // A clean program with a cover, a popover or a placement's own presentation is
                // refused at those places (docs/codegen.md#presentations), never generated wrong.
                let found = try Generation.programs(of: project, label: "\(feature)/\(entry)", allowProblems: expectsProblems,
                                                    refused: { refused.append($0) })
                programs += found.generated
                withErrors += found.withErrors
            }
        }
        // Every valid fixture is generated; the fixtures of error rules are not.
        #expect(programs.count >= 30, "only \(programs.count) programs found")
        #expect(withErrors.count >= 40, "only \(withErrors.count) programs with errors found")
        #expect(refused.count >= 3, "only \(refused) refused for their presentations")
        for (k, batch) in Generation.batches(programs, size: 60).enumerated() {
            let files = try Generation.write(batch)
            defer { Generation.remove(files) }
            do {
                try Swiftc.compile(files, module: "Examples\(k)", product: .checked)
            } catch {
                Issue.record("batch \(k) (\(batch.map(\.label).joined(separator: ", "))) does not compile cleanly:\n\(String(describing: error).prefix(6000))")
            }
        }
    }

    /// With `--access-level public` (and `package`), the examples and the codegen fixtures
    /// compile as a library's public API over public types of the app.
    @Test(arguments: [AccessLevel.public, .package]) func publicDeclarationsCompile(_ access: AccessLevel) throws {
        var programs: [GeneratedProgram] = []
        for e in ["Examples/Seed", "Examples/Shop", "Tests/Fixtures/codegen/recursion.routes", "Tests/Fixtures/codegen/scopes.routes",
                  "Tests/Fixtures/codegen/hidden-type.routes", "Tests/Fixtures/codegen/presentations.routes"] {
            let project = Generation.project([Self.root.appendingPathComponent(e)], root: Self.root)
            programs += try Generation.programs(of: project, label: e, options: .init(access: access)).generated
        }
        #expect(programs.count == 6)
        #expect(programs.allSatisfy { $0.code.contains("\(access.rawValue) static func root") })
        for (k, batch) in Generation.batches(programs, size: 60).enumerated() {
            let files = try Generation.write(batch, stubAccess: "public ")
            defer { Generation.remove(files) }
            do {
                try Swiftc.compile(files, module: "Public\(k)", product: .checked,
                                   extraArguments: access == .package ? ["-package-name", "routes"] : [])
            } catch {
                Issue.record("\(access) batch \(k) does not compile cleanly:\n\(String(describing: error).prefix(6000))")
            }
        }
    }

    /// The generated file imports SwiftUI, whose `View` its content protocol names: the
    /// library does not re-export SwiftUI, and neither does the stand-in, so without that
    /// import the file does not compile.
    @Test func withoutImportingSwiftUITheGeneratedCodeDoesNotCompile() throws {
        let project = Generation.project([Self.root.appendingPathComponent("Examples/Seed")], root: Self.root)
        var seed = try #require(try Generation.programs(of: project, label: "seed").generated.first)
        #expect(seed.code.contains("\n\nimport Foundation\nimport ComposableNavigator\nimport SwiftUI\n\n"))
        seed.code = seed.code.replacingOccurrences(of: "\nimport SwiftUI\n", with: "\n")
        let files = try Generation.write([seed])
        defer { Generation.remove(files) }
        do {
            try Swiftc.compile(files, module: "WithoutSwiftUI", product: .checked)
            Issue.record("the generated code compiled without importing SwiftUI")
        } catch let failure as Swiftc.CompileFailure {
            #expect(failure.output.contains("error: cannot find type 'View' in scope"), "\(failure.output.prefix(3000))")
        }
    }

    /// The app code of `Examples/SeedPackage` (its views, the two conformances and the
    /// wiring to `Root` and `Navigator.Datasource`) compiles with the seed's generated code,
    /// without a warning in Swift 6 mode, and builds what docs/codegen.md says: the
    /// wildcards of the `conditional` root build any first element, a change of the flag
    /// reaches the screens with the new path that follows it, and a link's URL opens its path.
    @Test func theSeedPackageWiringCompilesAndBuildsItsPaths() throws {
        let app = Self.root.appendingPathComponent("Examples/SeedPackage/Sources/SeedApp")
        let project = Generation.project([app.appendingPathComponent("App.routes")], root: Self.root)
        let seed = try #require(try Generation.programs(of: project, label: "seed package").generated.first)
        let sources = try ["App.swift", "Demo.swift"].map { name in
            (name: name, text: try String(contentsOf: app.appendingPathComponent(name), encoding: .utf8))
        }
        let run = try Swiftc.compileAndRun([("App.routes.swift", seed.code), ("main.swift", "for line in seedDemo() { print(line) }\n")] + sources,
                                           module: "SeedApp")
        #expect(run.status == 0)
        #expect(run.output == """
            Home: HomeView (through a wildcard)
            Home/Settings: HomeView (through a wildcard) / SettingsView
            Home/Detail(1)/Detail(2): HomeView (through a wildcard) / DetailView / DetailView
            Home/Detail(1)/Detail(2): HomeView (through a wildcard) / not built  (without a DetailStore)
            Settings: HomeView (through a wildcard)
            Login: LoginView (through a wildcard)  (signed out)
            Home: HomeView (through a wildcard)  (signed in again)
            Home/Detail(42): HomeView (through a wildcard) / DetailView  (opened https://seed.example/items/42)
            Home/Settings: HomeView (through a wildcard) / SettingsView  (opened seed://settings)
            seed://orders/1 matches no link

            """)
    }

    /// A content protocol with more view types than one Swift protocol holds is split into
    /// parts that it composes: the shop (47 screens) in parts of 10 compiles, and so does a
    /// conformance to it.
    @Test func aContentProtocolInPartsCompiles() throws {
        let project = Generation.project([Self.root.appendingPathComponent("Examples/Shop")], root: Self.root)
        let found = try Generation.programs(of: project, label: "shop", options: .init(viewTypesPerProtocol: 10))
        let shop = try #require(found.generated.first)
        #expect(shop.plan.contentParts.map(\.name) == (1...5).map { "AppRoutesContentPart\($0)" })
        #expect(shop.code.contains("typealias AppRoutesContent = AppRoutesContentPart1 & AppRoutesContentPart2 & AppRoutesContentPart3 & AppRoutesContentPart4 & AppRoutesContentPart5"))
        let files = try Generation.write([shop])
        defer { Generation.remove(files) }
        try Swiftc.compile(files, module: "Parts", product: .checked)
    }

    /// 500 random programs: wide `anyOf`s, recursion and mutual recursion, builders under
    /// several parents, every presentation, `from` chains, nested `if let`, Swift keywords as
    /// names, every shape of Swift type. Compiled 100 to a module; the first batch in Swift 5
    /// mode too.
    @Test func fiveHundredRandomProgramsCompileWithoutWarnings() throws {
        let programs = RandomPrograms.make(500, shape: .compile, firstSeed: 1)
        var generated: [GeneratedProgram] = []
        var coverage = Coverage()
        for (k, p) in programs.enumerated() {
            let project = RandomPrograms.project(p.text, name: String(format: "/ws/Program%03d.routes", k))
            let found = try Generation.programs(of: project, label: "seed \(p.seed)")
            #expect(found.generated.count == 1, "seed \(p.seed): \(found.withErrors)")
            generated += found.generated
            if let g = found.generated.first { coverage.add(g) }
        }
        print("coverage of the 500 programs: \(coverage)")
        // The programs exercise what they are meant to.
        #expect(coverage.wideAnyOf >= 30, "\(coverage.wideAnyOf) programs with an anyOf of more than 10 branches")
        #expect(coverage.anyOf25 >= 5, "\(coverage.anyOf25) programs with an anyOf of 25 branches or more")
        #expect(coverage.recursive >= 50, "\(coverage.recursive) programs with recursion")
        #expect(coverage.mutual >= 20, "\(coverage.mutual) programs with mutual recursion")
        #expect(coverage.sharedBuilder >= 100, "\(coverage.sharedBuilder) programs with a builder under several parents")
        #expect(coverage.presentations == ["push", "sheet", "sheetNoPush"], "presentations: \(coverage.presentations)")
        #expect(coverage.providers >= 50, "\(coverage.providers) programs whose screens provide values to their nestings")
        #expect(coverage.fromChains >= 20, "\(coverage.fromChains) programs where a providing screen uses a provided value")
        #expect(coverage.nestedIfLet >= 20, "\(coverage.nestedIfLet) programs with an if let inside an if let")
        #expect(coverage.variants >= 5, "\(coverage.variants) programs with a builder generated for two scopes")
        #expect(coverage.unreachable >= 5, "\(coverage.unreachable) programs with a node never built where it stands")
        for (k, batch) in Generation.batches(generated, size: 100).enumerated() {
            let files = try Generation.write(batch)
            defer { Generation.remove(files) }
            for version in k == 0 ? ["6", "5"] : ["6"] {
                do {
                    try Swiftc.compile(files, module: "Random\(k)", product: .checked, swiftVersion: version)
                } catch {
                    Issue.record("random batch \(k) (Swift \(version)) does not compile cleanly:\n\(String(describing: error).prefix(6000))")
                }
            }
        }
    }
}

/// What a set of generated programs exercises, read from their plans.
struct Coverage {
    var wideAnyOf = 0, anyOf25 = 0, recursive = 0, mutual = 0, sharedBuilder = 0, providers = 0, fromChains = 0
    var nestedIfLet = 0, variants = 0, unreachable = 0
    var presentations = Set<String>()

    mutating func add(_ g: GeneratedProgram) {
        let plan = g.plan
        var widest = 0, mutualHere = false, nested = false, unreachableHere = false
        var callers: [Int: Set<Int>] = [:]  // callee -> calling functions
        func walk(_ b: ProgramPlan.Builder, function f: Int, ifLets: Int) {
            switch b {
            case .screen(_, _, _, _, let nesting): if let nesting { walk(nesting, function: f, ifLets: ifLets) }
            case .anyOf(_, let bs):
                widest = max(widest, bs.count)
                bs.forEach { walk($0, function: f, ifLets: ifLets) }
            case .conditional(_, _, let a, let c):
                walk(a, function: f, ifLets: ifLets)
                walk(c, function: f, ifLets: ifLets)
            case .ifLet(_, _, _, let a, let c):
                if ifLets > 0 { nested = true }
                walk(a, function: f, ifLets: ifLets + 1)
                if let c { walk(c, function: f, ifLets: ifLets) }
            case .ifScreen(_, _, let a, let c):
                walk(a, function: f, ifLets: ifLets)
                if let c { walk(c, function: f, ifLets: ifLets) }
            case .wildcard(_, _, let body): walk(body, function: f, ifLets: ifLets)
            case .call(_, let callee, let site):
                callers[callee, default: []].insert(f)
                if plan.recursiveCalls.contains(site) && callee != f { mutualHere = true }
            case .unreachable: unreachableHere = true
            case .empty: break
            }
        }
        for (f, fn) in plan.functions.enumerated() { walk(fn.body, function: f, ifLets: 0) }
        if widest > 10 { wideAnyOf += 1 }
        if widest >= 25 { anyOf25 += 1 }
        if !plan.recursiveCalls.isEmpty { recursive += 1 }
        if mutualHere { mutual += 1 }
        if callers.values.contains(where: { $0.count > 1 }) { sharedBuilder += 1 }
        if g.code.contains("let (view") { providers += 1 }
        if plan.contentMethods.contains(where: { m in
            !plan.screens[m.screen].provides.isEmpty && m.fields.contains { g.project.declaration($0.symbol).from != nil }
        }) { fromChains += 1 }
        if nested { nestedIfLet += 1 }
        if Set(plan.functions.compactMap(\.builder)).count < plan.functions.count - 1 { variants += 1 }
        if unreachableHere { unreachable += 1 }
        for s in plan.screens { presentations.insert(s.presentation.rawValue) }
    }
}
