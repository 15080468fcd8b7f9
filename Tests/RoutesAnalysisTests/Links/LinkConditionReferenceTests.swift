import Testing
import TestSupport
import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The condition of each link's path, and `unbuildable-link`, against enumeration: on
/// generated programs with links added, every environment of the program's flags and
/// optionals is tried with the preview's resolution (`Resolution.resolve`), and the path is
/// built whole in exactly the environments the condition holds in.
@Suite struct LinkConditionReferenceTests {
    @Test func conditionsAgreeWithEveryEnvironment() throws {
        var judged = 0, sometimes = 0, never = 0, always = 0
        for seed in UInt64(0)..<400 {
            let generated = ProgramGenerator.generate(seed: seed)
            guard !generated.plantedCycle else { continue }
            var rng = SplitMix64(seed: seed &* 31 &+ 7)
            let names = ["Home", "Detail", "Settings", "Profile", "Modal"].filter { generated.text.contains("screen \($0)") }
            var links: [String] = []
            for index in 0..<4 {
                let length = Int(rng.next() % 3) + 1
                let path = (0..<length).map { _ -> String in
                    let name = names[Int(rng.next() % UInt64(names.count))]
                    return generated.text.contains("screen \(name)(id: String)") ? "\(name)(id: v)" : name
                }
                let usesPlaceholder = path.contains { $0.hasSuffix("(id: v)") }
                links.append("link l\(index) \"/l\(index)\(usesPlaceholder ? "/{v}" : "")\" -> \(path.joined(separator: "/"))")
            }
            let text = generated.text + "\n" + links.joined(separator: "\n") + "\n"
            let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                                  provider: MemoryProvider(files: ["/ws/App.routes": text]))
            // Programs with errors (a cycle the generator did not plant, say) are not judged.
            guard !project.diagnostics.contains(where: { $0.severity == .error }), let program = project.programs.first else { continue }
            let session = AnalysisSession.forEditor(project: project)
            guard !session.diagnostics.contains(where: { $0.rule.rawValue == "builder-cycle" || $0.rule.rawValue == "analysis-limit" }),
                  let programLinks = session.links(ofProgramRootedAt: program.root) else { continue }
            let flags = project.files[0].model.declarations.filter { $0.kind == .flag }.map(\.name.text)
            let optionals = project.files[0].model.declarations.filter { $0.kind == .optional }.map(\.name.text)
            let variables = flags.count + optionals.count
            for link in programLinks.links {
                guard let condition = link.condition, let screens = link.screens else { continue }
                judged += 1
                var builtSomewhere = false, builtEverywhere = true
                // Per term, whether some environment holds it alone; per literal of a term,
                // whether the term without it holds somewhere the condition does not.
                let terms: [[LinkCondition.Literal]]
                if case .terms(let t) = condition { terms = t } else { terms = [] }
                var alone = [Bool](repeating: false, count: terms.count)
                var needed = terms.map { [Bool](repeating: false, count: $0.count) }
                for bits in 0..<(1 << variables) {
                    var environment = RoutesAnalysis.Environment()
                    for (index, flag) in flags.enumerated() { environment.flags[flag] = bits & (1 << index) != 0 }
                    for (index, optional) in optionals.enumerated() { environment.optionals[optional] = bits & (1 << (flags.count + index)) != 0 }
                    let resolution = Resolution.resolve(screens: screens, program: program, project: project,
                                                        environment: try ProgramEnvironment(environment, program: program, project: project))
                    let built = resolution.firstNotBuilt == nil
                    let holds = Self.holds(condition, flags: environment.flags, optionals: environment.optionals)
                    #expect(built == holds, "seed \(seed), \(link.name) under \(environment): built \(built), condition `\(condition)`\n\(text)")
                    builtSomewhere = builtSomewhere || built
                    builtEverywhere = builtEverywhere && built
                    let value = { (literal: LinkCondition.Literal) in (environment.flags[literal.name] ?? environment.optionals[literal.name]) == literal.holds }
                    let holding = terms.indices.filter { terms[$0].allSatisfy(value) }
                    if holding.count == 1 { alone[holding[0]] = true }
                    if !holds {
                        for (t, term) in terms.enumerated() {
                            for (l, _) in term.enumerated() where !needed[t][l] {
                                needed[t][l] = term.indices.allSatisfy { $0 == l || value(term[$0]) }
                            }
                        }
                    }
                }
                // The terms are irredundant: none is implied by the others, and no literal
                // can be dropped from one.
                #expect(alone.allSatisfy { $0 }, "seed \(seed), \(link.name): a redundant term in `\(condition)`")
                #expect(needed.allSatisfy { $0.allSatisfy { $0 } }, "seed \(seed), \(link.name): a literal that can be dropped in `\(condition)`")
                let pathRange = link.declaration.path.first!.range.lowerBound..<link.declaration.path.last!.range.upperBound
                let reported = session.diagnostics.contains { diagnostic in
                    diagnostic.rule.rawValue == "unbuildable-link" && pathRange.contains(diagnostic.range.lowerBound)
                }
                #expect(reported == !builtSomewhere, "seed \(seed), \(link.name): unbuildable-link \(reported), built somewhere \(builtSomewhere)")
                if builtEverywhere { always += 1 } else if builtSomewhere { sometimes += 1 } else { never += 1 }
            }
        }
        // The programs exercise every outcome.
        #expect(judged >= 300 && always >= 30 && sometimes >= 30 && never >= 30, "judged \(judged): always \(always), sometimes \(sometimes), never \(never)")
    }

    /// A term that holds a literal's opposite where another term holds the literal and
    /// nothing else of its own loses it: `pro && !st || st` is written `pro || st`.
    @Test func aTermLosesALiteralAnotherTermMakesRedundant() throws {
        let text = """
            screen Home
            screen X
            flag pro
            optional st: St
            root { screen Home { anyOf { conditional pro { screen X } else { empty } if let st { screen X } } } }
            link x "/x" -> Home/X
            """
        let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                              provider: MemoryProvider(files: ["/ws/App.routes": text]))
        let program = try #require(project.programs.first)
        let links = try #require(AnalysisSession.forEditor(project: project).links(ofProgramRootedAt: program.root))
        #expect(links.links.first?.condition?.description == "pro || st")
    }

    /// A path whose screens are each built under `f_i || g_i`: its condition has 2^k terms
    /// of k literals, none redundant (merging the diagram's 2^k paths pairwise, as conditions
    /// were once made, took minutes at k = 8).
    @Test func aConditionOfManyTermsIsWrittenWhole() throws {
        let k = 10
        func body(_ i: Int) -> String {
            if i == k { return "empty" }
            let inner = "screen S\(i) { \(body(i + 1)) }"
            return "conditional f\(i) { \(inner) } else { conditional g\(i) { \(inner) } else { empty } }"
        }
        var text = (0..<k).map { "screen S\($0)\nflag f\($0)\nflag g\($0)\n" }.joined()
        text += "root { \(body(0)) }\n"
        text += "link deep \"/deep\" -> \((0..<k).map { "S\($0)" }.joined(separator: "/"))\n"
        let project = Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                              provider: MemoryProvider(files: ["/ws/App.routes": text]))
        let program = try #require(project.programs.first)
        let links = try #require(AnalysisSession.forEditor(project: project).links(ofProgramRootedAt: program.root))
        guard case .terms(let terms) = try #require(links.links.first?.condition) else {
            Issue.record("not a disjunction: \(String(describing: links.links.first?.condition))")
            return
        }
        #expect(terms.count == 1 << k)
        // Each term picks f_i or g_i for every i (`!f_i && g_i` would hold a literal too many).
        for term in terms {
            #expect(term.count == k && term.allSatisfy(\.holds) && Set(term.map { $0.name.dropFirst() }).count == k, "\(term)")
        }
    }

    /// Whether a condition holds under an environment.
    static func holds(_ condition: LinkCondition, flags: [String: Bool], optionals: [String: Bool]) -> Bool {
        switch condition {
        case .always: return true
        case .never: return false
        case .terms(let terms):
            return terms.contains { term in term.allSatisfy { literal in (flags[literal.name] ?? optionals[literal.name]) == literal.holds } }
        }
    }
}
