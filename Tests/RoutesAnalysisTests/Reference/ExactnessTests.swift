#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// A finding as compared: rule, file and primary range (messages and related locations are
/// the product's to word).
struct FindingKey: Hashable, Comparable, Sendable {
    var rule: RuleID
    var file: FileID
    var lower: Int
    var upper: Int

    static func < (a: FindingKey, b: FindingKey) -> Bool {
        (a.file, a.lower, a.upper, a.rule.rawValue) < (b.file, b.lower, b.upper, b.rule.rawValue)
    }
}

/// The generated corpus with the reference's findings, computed once and shared by the tests.
struct CorpusEntry: Sendable {
    var program: GeneratedProgram
    var project: Project
    var reference: ReferenceReport
}

enum Corpus {
    static let size: UInt64 = 1000

    /// The corpus and the seconds it took to generate, parse and check it with the reference.
    static let built: (entries: [CorpusEntry], seconds: Double) = {
        let clock = ContinuousClock()
        let start = clock.now
        let entries = (0..<size).map { seed in
            let program = ProgramGenerator.generate(seed: seed)
            let project = ReferenceSupport.project(program.text)
            return CorpusEntry(program: program, project: project, reference: ReferenceChecker.check(project))
        }
        return (entries, seconds(clock.now - start))
    }()

    static var entries: [CorpusEntry] { built.entries }
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// One line per finding: `line:col rule: message  «text at the range»`.
func describe(_ rule: RuleID, _ file: FileID, _ range: Range<Int>, _ message: String, in project: Project) -> String {
    let pos = ReferenceSupport.position(range.lowerBound, in: project, file: file)
    let text = project.files[file].text.text(range)
    return "  \(pos) \(rule.rawValue): \(message)  «\(text)»"
}

@Suite struct ReferenceExactnessTests {
    @Test func generatedProgramsAreValidAndDeterministic() {
        var bad = 0
        for entry in Corpus.entries {
            let problems = entry.project.diagnostics
            if !problems.isEmpty {
                bad += 1
                if bad <= 3 {
                    let lines = problems.map { describe($0.rule, $0.file, $0.range, $0.message, in: entry.project) }
                    Issue.record("seed \(entry.program.seed) does not parse cleanly:\n\(lines.joined(separator: "\n"))\n\(ReferenceSupport.numbered(entry.program.text))")
                }
            }
        }
        #expect(bad == 0)
        #expect(ProgramGenerator.generate(seed: 42).text == ProgramGenerator.generate(seed: 42).text)
        #expect(ProgramGenerator.generate(seed: 42).text != ProgramGenerator.generate(seed: 43).text)
    }

    /// The comparison below cannot pass vacuously: over the corpus the reference finds every
    /// rule in a good number of programs.
    @Test func everyRuleFiresInTheCorpus() {
        var counts: [RuleID: Int] = [:]
        var diverging = 0
        var planted = 0
        var maxStates = 0
        var maxLength = 0
        for entry in Corpus.entries {
            for rule in Set(entry.reference.findings.map(\.rule)) { counts[rule, default: 0] += 1 }
            if entry.reference.resolutionDiverges { diverging += 1 }
            if entry.program.plantedCycle { planted += 1 }
            maxStates = max(maxStates, entry.reference.maxStates)
            maxLength = max(maxLength, entry.reference.maxPathLength)
        }
        let table = ReferenceChecker.rules.sorted { $0.rawValue < $1.rawValue }
            .map { "  \($0.rawValue): \(counts[$0, default: 0]) programs" }
            .joined(separator: "\n")
        print("""
            reference corpus: \(Corpus.size) programs in \(Corpus.built.seconds) s (generate + parse + reference)
            \(table)
              programs with a planted back-reference: \(planted); where some resolution never finishes: \(diverging)
              most resolution states in one environment: \(maxStates); longest path needed: \(maxLength) elements
            """)
        for rule in ReferenceChecker.rules {
            #expect(counts[rule, default: 0] >= 15, "only \(counts[rule, default: 0]) programs have \(rule.rawValue)")
        }
    }

    /// The state exploration sees exactly what enumerating every path one by one sees, up
    /// to a length (the number of states) that provably covers every state.
    @Test func stateExplorationSeesEveryPath() {
        var compared = 0
        for entry in Corpus.entries.prefix(300) {
            let project = entry.project
            guard let program = project.programs.first,
                  let body = project.declaration(program.root).body else { continue }
            let universe = Universe(project: project, files: program.files)
            let cycles = ReferenceChecker.cycleReferences(project)
            var budget = 400_000
            var complete = true
            let explorer = PathExplorer(universe: universe, rootBody: NodeRef(file: program.root.file, node: body),
                                        cycleReferences: cycles)
            for env in 0..<universe.environmentCount {
                let byStates = Recorder()
                let (states, _) = explorer.exploreStates(universe.environment(env), byStates)
                let byPaths = Recorder()
                if !explorer.explorePaths(universe.environment(env), maxLength: states, budget: &budget, byPaths) {
                    complete = false
                    break
                }
                if byStates.observations != byPaths.observations {
                    Issue.record("seed \(entry.program.seed), environment \(env): states and paths disagree\n\(ReferenceSupport.numbered(entry.program.text))")
                    return
                }
            }
            if complete { compared += 1 }
        }
        print("state exploration = path enumeration on \(compared) of 300 programs (the rest exceed the path budget)")
        #expect(compared >= 150)
    }

    /// The product's analyses against the reference over 1000 generated programs: as a lint
    /// runs them (the first layout, the other where it runs out), in each layout alone, and
    /// with the conditions in the order of the last attempt.
    @Test(arguments: [AnalysisLimits.standard, AnalysisLimits(layout: .conditionsAbove), AnalysisLimits(layout: .elementAbove),
                      AnalysisLimits(layout: .elementAbove, ordering: .lastTest)])
    func analysisMatchesReference(_ limits: AnalysisLimits) {
        struct Mismatch {
            var entry: CorpusEntry
            var onlyProduct: [Diagnostic]
            var onlyReference: [ReferenceFinding]
            var product: [Diagnostic]
        }
        var mismatches: [Mismatch] = []
        var productSeconds = 0.0
        let clock = ContinuousClock()
        for entry in Corpus.entries {
            let start = clock.now
            let product = Analysis.check(entry.project, limits: limits).filter { ReferenceChecker.rules.contains($0.rule) }
            productSeconds += seconds(clock.now - start)
            func key(_ d: Diagnostic) -> FindingKey { FindingKey(rule: d.rule, file: d.file, lower: d.range.lowerBound, upper: d.range.upperBound) }
            func key(_ f: ReferenceFinding) -> FindingKey { FindingKey(rule: f.rule, file: f.file, lower: f.range.lowerBound, upper: f.range.upperBound) }
            let productKeys = Set(product.map(key))
            let referenceKeys = Set(entry.reference.findings.map(key))
            if productKeys != referenceKeys {
                mismatches.append(Mismatch(
                    entry: entry,
                    onlyProduct: product.filter { !referenceKeys.contains(key($0)) }.sorted { key($0) < key($1) },
                    onlyReference: entry.reference.findings.filter { !productKeys.contains(key($0)) },
                    product: product.sorted { key($0) < key($1) }))
            }
        }
        print("Analysis.check took \(productSeconds) s over \(Corpus.size) programs")
        guard !mismatches.isEmpty else { return }

        var missing: [RuleID: Int] = [:]
        var extra: [RuleID: Int] = [:]
        for m in mismatches {
            for d in m.onlyProduct { extra[d.rule, default: 0] += 1 }
            for f in m.onlyReference { missing[f.rule, default: 0] += 1 }
        }
        let summary = ReferenceChecker.rules.sorted { $0.rawValue < $1.rawValue }.compactMap { rule -> String? in
            let (a, b) = (missing[rule, default: 0], extra[rule, default: 0])
            return a + b == 0 ? nil : "  \(rule.rawValue): \(a) only in the reference (product misses them), \(b) only in the product"
        }
        // Kinds of disagreement, so that a reader can take them one kind at a time.
        func involvesCycle(_ m: Mismatch) -> Bool {
            m.entry.reference.resolutionDiverges || m.entry.reference.findings.contains { $0.rule == .builderCycle }
                || m.product.contains { $0.rule == .builderCycle }
        }
        func insideQuietBuilder(_ m: Mismatch) -> Bool {
            m.onlyReference.isEmpty && m.onlyProduct.allSatisfy { d in
                m.entry.reference.quietBuilders.contains { $0.file == d.file && $0.range.contains(d.range.lowerBound) }
            }
        }
        let kinds: [(name: String, members: [Mismatch])] = [
            ("with a builder-cycle (docs/language.md#after-an-error: warnings whose cause involves a cycle are not reported; errors are)",
             mismatches.filter(involvesCycle)),
            ("only warnings inside builders every reference to which lies in a reported place (outermost cause once: docs/decisions.md#one-warning-per-cause)",
             mismatches.filter { !involvesCycle($0) && insideQuietBuilder($0) }),
            ("other", mismatches.filter { !involvesCycle($0) && !insideQuietBuilder($0) }),
        ]
        var report = """
            Analysis.check disagrees with the reference on \(mismatches.count) of \(Corpus.size) programs.
            \(summary.joined(separator: "\n"))

            """
        for kind in kinds where !kind.members.isEmpty {
            let seeds = kind.members.prefix(50).map { String($0.entry.program.seed) }.joined(separator: ", ")
            report += "\(kind.members.count) programs \(kind.name):\n  seeds \(seeds)\(kind.members.count > 50 ? ", …" : "")\n"
        }
        report += "(set ROUTES_REFERENCE_SHOW=N to print N more programs in full; ROUTES_REFERENCE_SEEDS=a,b,c to print those)\n"
        let show = getenv("ROUTES_REFERENCE_SHOW").flatMap { Int(String(cString: $0)) } ?? 0
        let chosen = getenv("ROUTES_REFERENCE_SEEDS").map { String(cString: $0).split(separator: ",").compactMap { UInt64($0) } }
        // By default: the first two of each kind, "other" first.
        let defaultShown = kinds.reversed().flatMap { $0.members.prefix(2) } + mismatches.prefix(show)
        var shownSeeds = Set<UInt64>()
        let shown = (chosen.map { seeds in mismatches.filter { seeds.contains($0.entry.program.seed) } } ?? defaultShown)
            .filter { shownSeeds.insert($0.entry.program.seed).inserted }
        for m in shown {
            let p = m.entry.project
            let ref = m.entry.reference
            let notes = [
                m.entry.program.plantedCycle ? "a back-reference was planted" : nil,
                ref.resolutionDiverges ? "some resolution reaches a builder-cycle" : nil,
            ].compactMap { $0 }
            report += """

                ── seed \(m.entry.program.seed)\(notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
                \(ReferenceSupport.numbered(m.entry.program.text))
                only in the product (Analysis.check):
                \(m.onlyProduct.isEmpty ? "  (none)" : m.onlyProduct.map { describe($0.rule, $0.file, $0.range, $0.message, in: p) }.joined(separator: "\n"))
                only in the reference:
                \(m.onlyReference.isEmpty ? "  (none)" : m.onlyReference.map { describe($0.rule, $0.file, $0.range, $0.message, in: p) }.joined(separator: "\n"))
                all of the product:
                \(m.product.isEmpty ? "  (none)" : m.product.map { describe($0.rule, $0.file, $0.range, $0.message, in: p) }.joined(separator: "\n"))
                all of the reference:
                \(ref.findings.isEmpty ? "  (none)" : ref.findings.map { describe($0.rule, $0.file, $0.range, $0.message, in: p) }.joined(separator: "\n"))

                """
        }
        Issue.record(Comment(rawValue: report))
    }
}

/// Editors ask `AnalysisSession.scope(atNode:file:)` whether a dependency is in scope at a
/// node (completion, hover). It answers with its own, target-directed flows; here it must agree
/// with the checker's `missing-dependency` errors (which agree with the reference above) at
/// every `uses` entry of every generated program.
@Suite struct ScopeQueryAgreementTests {
    @Test(arguments: [AnalysisLimits(layout: .conditionsAbove), AnalysisLimits(layout: .elementAbove)])
    func scopeAtAUsingNodeAgreesWithMissingDependency(_ limits: AnalysisLimits) {
        var compared = 0, notInScope = 0
        for entry in Corpus.entries {
            let project = entry.project
            let session = AnalysisSession.forEditor(project: project, limits: limits)
            let missing = Set(session.diagnostics.filter { $0.rule == .missingDependency }.map { FindingKey(rule: $0.rule, file: $0.file, lower: $0.range.lowerBound, upper: $0.range.upperBound) })
            for file in project.files {
                for (id, node) in file.model.nodes.enumerated() {
                    guard case .screen(_, let span, _) = node.kind, !span.isEmpty else { continue }
                    let uses = file.model.uses(span)
                    let statuses = session.scope(atNode: id, file: file.id)
                    for name in uses {
                        guard let symbol = project.resolve(name, in: file.id),
                              let status = statuses.first(where: { $0.symbol == symbol })?.status else { continue }
                        if case .unknown = status { continue }
                        compared += 1
                        let reported = missing.contains(FindingKey(rule: .missingDependency, file: file.id, lower: name.range.lowerBound, upper: name.range.upperBound))
                        var isOut = false
                        if case .notInScope = status { isOut = true; notInScope += 1 }
                        #expect(isOut == reported, "seed \(entry.program.seed): `\(name.text)` at \(ReferenceSupport.position(name.range.lowerBound, in: project, file: file.id)): scope says \(status), missing-dependency \(reported ? "reported" : "not reported")\n\(ReferenceSupport.numbered(entry.program.text))")
                    }
                }
            }
        }
        print("scope query vs missing-dependency: \(compared) uses entries compared, \(notInScope) out of scope")
        // Not vacuous: many entries compared, a good share of them out of scope.
        #expect(compared > 500)
        #expect(notInScope > 50)
    }
}
