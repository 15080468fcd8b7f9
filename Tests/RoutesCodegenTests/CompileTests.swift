import Foundation
import Testing
import RoutesCodegen
import RoutesModel

/// The generated code compiles, without a warning, against the stand-in module (the public
/// signatures of ComposableNavigator 0.2.0 that it calls), in Swift 6 mode.
@Suite(.serialized) struct CompileTests {
    static let root = Swiftc.packageRoot

    @Test func theExamplesAndEveryFixtureWithoutErrorsCompile() throws {
        var programs: [GeneratedProgram] = []
        var withErrors: [String] = []
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
                let found = try Generation.programs(of: project, label: "\(feature)/\(entry)", allowProblems: expectsProblems)
                programs += found.generated
                withErrors += found.withErrors
            }
        }
        // Every valid fixture is generated; the fixtures of error rules are not.
        #expect(programs.count >= 30, "only \(programs.count) programs found")
        #expect(withErrors.count >= 40, "only \(withErrors.count) programs with errors found")
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

    /// 500 random programs: wide `anyOf`s, recursion and mutual recursion, builders under
    /// several parents, every presentation, `from` chains, nested `if let`, Swift keywords as
    /// names, every shape of Swift type. Compiled 100 to a module; the first batch in Swift 5
    /// mode too.
    @Test func fiveHundredRandomProgramsCompileWithoutWarnings() throws {
        let programs = RandomPrograms.make(500, shape: .compile, firstSeed: 1)
        var generated: [GeneratedProgram] = []
        var wide = 0, recursive = 0, variants = 0, providers = 0, unreachable = 0
        for (k, p) in programs.enumerated() {
            let project = RandomPrograms.project(p.text, name: String(format: "/ws/Program%03d.routes", k))
            let found = try Generation.programs(of: project, label: "seed \(p.seed)")
            #expect(found.generated.count == 1, "seed \(p.seed): \(found.withErrors)")
            generated += found.generated
            if let g = found.generated.first {
                if g.code.contains("PathBuilders.anyOf(\n") && g.code.components(separatedBy: "PathBuilders.anyOf(").count > 2 && p.text.contains("anyOf {") { wide += p.text.split(separator: "\n").count > 40 ? 1 : 0 }
                if !g.plan.recursiveCalls.isEmpty { recursive += 1 }
                if Set(g.plan.functions.compactMap(\.builder)).count < g.plan.functions.count - 1 { variants += 1 }
                if g.code.contains("let (view") { providers += 1 }
                if g.code.contains("is never built") { unreachable += 1 }
            }
        }
        // The programs exercise what they are meant to.
        #expect(recursive >= 50, "\(recursive) programs with recursion")
        #expect(providers >= 50, "\(providers) programs whose screens provide values to their nestings")
        #expect(variants >= 5, "\(variants) programs with a builder generated for two scopes")
        #expect(unreachable >= 5, "\(unreachable) programs with a node never built where it stands")
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
