import Foundation
import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Exactness at the sizes of real apps: feature-flag menus and flag pairs of any declaration
/// order are analysed in full (no `analysis-limit`), and the diagnostics of generated apps with
/// 20 to 200 flags do not change under transformations that cannot change them.
@Suite struct AppScaleTests {
    /// The menu of the report: one screen per flag, then a real mistake (`X` uses `d`, which
    /// only `P` provides, and `P` comes after it), and a flag nothing uses.
    static func menu(_ n: Int, optionals: Bool = false) -> String {
        var lines = ["screen P", "screen X", "dependency d: D from P", "flag unusedFlag"]
        lines += (0..<n).map { "screen S\($0)" }
        lines += (0..<n).map { optionals ? "optional f\($0): F\($0)" : "flag f\($0)" }
        lines.append("root {\n  anyOf {")
        lines += (0..<n).map {
            optionals ? "    if let f\($0) { screen S\($0) uses f\($0) }" : "    conditional f\($0) { screen S\($0) } else { empty }"
        }
        lines.append("    screen X uses d\n    screen P\n  }\n}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nested pairs `conditional x_i { conditional y_i { screen S_i } }`, the flags declared
    /// all xs first, or interleaved.
    static func pairs(_ n: Int, interleaved: Bool) -> String {
        var lines = ["screen P", "screen X", "dependency d: D from P", "flag unusedFlag"]
        lines += (0..<n).map { "screen S\($0)" }
        lines += interleaved ? (0..<n).flatMap { ["flag x\($0)", "flag y\($0)"] }
            : (0..<n).map { "flag x\($0)" } + (0..<n).map { "flag y\($0)" }
        lines.append("root {\n  anyOf {")
        lines += (0..<n).map { "    conditional x\($0) { conditional y\($0) { screen S\($0) } else { empty } } else { empty }" }
        lines.append("    screen X uses d\n    screen P\n  }\n}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func summary(_ project: Project, _ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.rule.rawValue) «\(project.files[$0.file].text.text($0.range))»" }
    }

    static let expected = ["unused-declaration «unusedFlag»", "missing-dependency «d»"]

    @Test(arguments: [20, 60, 200])
    func featureFlagMenusAreAnalysedInFull(_ n: Int) {
        for optionals in [false, true] {
            let project = ReferenceSupport.project(Self.menu(n, optionals: optionals))
            #expect(Self.summary(project, Analysis.check(project)) == Self.expected, "\(n) \(optionals ? "optionals" : "flags")")
        }
    }

    @Test(arguments: [20, 40, 200])
    func nestedFlagPairsAreAnalysedInFullInEitherDeclarationOrder(_ n: Int) {
        for interleaved in [false, true] {
            let project = ReferenceSupport.project(Self.pairs(n, interleaved: interleaved))
            #expect(Self.summary(project, Analysis.check(project)) == Self.expected, "\(n) pairs, interleaved: \(interleaved)")
        }
    }

    /// 500 screens in one menu, each under its own flag.
    @Test func fiveHundredScreensInOneMenu() {
        let project = ReferenceSupport.project(Self.menu(500))
        #expect(Self.summary(project, Analysis.check(project)) == Self.expected)
    }

    // MARK: Metamorphic

    /// A diagnostic without its position: rule, message (a quoted line and column replaced),
    /// the text it points at and the text of its line; comparable across programs whose
    /// declarations moved.
    static func keys(_ program: String, renaming: [String: String] = [:]) -> [String] {
        let project = ReferenceSupport.project(program)
        let lines = program.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = try! NSRegularExpression(pattern: "at [0-9]+:[0-9]+")
        return Analysis.check(project).map { d in
            let text = project.files[d.file].text
            let line = lines[text.position(of: d.range.lowerBound, encoding: .utf8).line].trimmingCharacters(in: .whitespaces)
            let message = position.stringByReplacingMatches(in: d.message, range: NSRange(d.message.startIndex..., in: d.message), withTemplate: "at L:C")
            return Self.rename("\(d.rule.rawValue) | \(message) | \(text.text(d.range)) | \(line)", renaming)
        }.sorted()
    }

    /// Over generated apps of 20 to 200 flags: the same diagnostics when the declarations are
    /// reordered, when the flags are renamed, and when branches that take new screens under new
    /// flags are put in front of an `anyOf`.
    @Test(arguments: [(20, 4, 40), (60, 10, 90), (120, 30, 200), (200, 200, 500)])
    func diagnosticsDoNotDependOnOrderNamesOrIndependentBranches(_ size: (flags: Int, optionals: Int, screens: Int)) {
        var rules = Set<String>()
        for seed in UInt64(0)..<4 {
            let app = AppGenerator.generate(seed: seed, flags: size.flags, optionals: size.optionals, screens: size.screens)
            let original = Self.keys(app.text)
            #expect(!original.contains { $0.hasPrefix("analysis-limit") }, "seed \(seed): \(original.filter { $0.hasPrefix("analysis-limit") })")
            for k in original { rules.insert(String(k.prefix { $0 != " " })) }
            var rng = SplitMix64(seed: seed &+ 1000)
            // Reordered: every declaration may go anywhere (names are visible in the whole file).
            var shuffled = app.declarations
            for i in shuffled.indices.reversed() { shuffled.swapAt(i, rng.below(i + 1)) }
            #expect(Self.keys(AppProgram(declarations: shuffled).text) == original, "seed \(seed), declarations reordered")
            // Renamed: a permutation of the flags' names (the same width, so the same layout).
            var permutation = Array(0..<size.flags)
            for i in permutation.indices.reversed() { permutation.swapAt(i, rng.below(i + 1)) }
            var forward: [String: String] = [:], back: [String: String] = [:]
            for (i, j) in permutation.enumerated() {
                forward[AppGenerator.flag(i)] = AppGenerator.flag(j)
                back[AppGenerator.flag(j)] = AppGenerator.flag(i)
            }
            let renamed = Self.rename(app.text, forward)
            #expect(Self.keys(renamed, renaming: back) == original, "seed \(seed), flags renamed")
            // Independent branches in front of the `anyOf` of `root`.
            var extended = app.declarations
            let root = extended.firstIndex { $0.hasPrefix("root ") }!
            let prefix = (0..<5).map { "      conditional zz\($0) { screen Zz\($0) } else { empty }" }.joined(separator: "\n")
            extended[root] = extended[root].replacingOccurrences(of: "anyOf {\n", with: "anyOf {\n" + prefix + "\n")
            extended += (0..<5).flatMap { ["flag zz\($0)", "screen Zz\($0)"] }
            #expect(Self.keys(AppProgram(declarations: extended).text) == original, "seed \(seed), independent branches added")
        }
        // Not vacuous: the apps have findings of several rules.
        #expect(rules.count >= 3, "\(rules)")
    }

    /// `text` with each flag name `fNNN` replaced as `map` says.
    static func rename(_ text: String, _ map: [String: String]) -> String {
        if map.isEmpty { return text }
        let names = try! NSRegularExpression(pattern: "\\bf[0-9]{3}\\b")
        var out = text
        for m in names.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let r = Range(m.range, in: text)!
            out.replaceSubrange(r, with: map[String(text[r])] ?? String(text[r]))
        }
        return out
    }

    /// The same generator at sizes the brute-force reference can check (every environment,
    /// every path): both agree, as a lint runs the analyses and in each layout.
    @Test func theReferenceAgreesOnSmallApps() {
        var findings = 0
        for seed in UInt64(0)..<60 {
            let app = AppGenerator.generate(seed: seed, flags: 3 + Int(seed % 4), optionals: Int(seed % 3), screens: 8 + Int(seed % 5))
            let project = ReferenceSupport.project(app.text)
            #expect(project.diagnostics.isEmpty, "seed \(seed): \(project.diagnostics.map(\.message))\n\(ReferenceSupport.numbered(app.text))")
            let reference = Set(ReferenceChecker.check(project).findings.map { FindingKey(rule: $0.rule, file: $0.file, lower: $0.range.lowerBound, upper: $0.range.upperBound) })
            findings += reference.count
            for limits in [AnalysisLimits.standard, AnalysisLimits(layout: .conditionsAbove), AnalysisLimits(layout: .elementAbove)] {
                let product = Set(Analysis.check(project, limits: limits).filter { ReferenceChecker.rules.contains($0.rule) }
                    .map { FindingKey(rule: $0.rule, file: $0.file, lower: $0.range.lowerBound, upper: $0.range.upperBound) })
                #expect(product == reference, "seed \(seed), \(limits)\n\(ReferenceSupport.numbered(app.text))")
            }
        }
        #expect(findings > 60, "the small apps have findings to agree on (\(findings))")
    }

    // MARK: Layouts

    /// A menu outgrows the first layout's trial and is analysed with the element above; an
    /// edit analysed on the kept manager starts there, and both equal fresh analyses.
    @Test func aProgramThatNeededTheElementAboveStartsThereAfterAnEdit() {
        let text = Self.menu(40)
        let first = AnalysisSession.forEditor(project: ReferenceSupport.project(text))
        #expect(first.units.map(\.semantics.layout) == [.elementAbove])
        let edited = text.replacingOccurrences(of: "screen X uses d", with: "screen X uses d, nope")
        let second = AnalysisSession.forEditor(project: ReferenceSupport.project(edited), reusing: first)
        #expect(second.managerIdentities == first.managerIdentities, "the edited program runs on its previous manager")
        #expect(second.units.map(\.semantics.layout) == [.elementAbove])
        #expect(KeptManagerTests.diagnostics(second) == KeptManagerTests.diagnostics(AnalysisSession.forEditor(project: ReferenceSupport.project(edited))))
        #expect(second.diagnostics.map(\.rule) == [.unusedDeclaration, .missingDependency, .undefinedName])
    }

    /// A typical program stays in the first layout.
    @Test func aGeneratedAppStaysInTheFirstLayout() {
        let session = AnalysisSession.forEditor(project: ReferenceSupport.project(ProgramGenerator.generate(seed: 3).text))
        #expect(session.units.map(\.semantics.layout) == [.conditionsAbove])
    }
}
