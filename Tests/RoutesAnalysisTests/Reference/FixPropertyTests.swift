import Foundation
import RoutesAnalysis
import RoutesIDE
import RoutesModel
import RoutesSyntax
import Testing
import TestSupport

/// The property of every quick fix (docs/dev/architecture.md, Fixes): applied alone, it
/// removes its diagnostic and adds no error. Checked for every fix offered for every
/// diagnostic of every fixture under `Tests/Fixtures`, every example, and generated programs
/// (the reference's, with mistakes planted in them), each fix applied to the files in memory
/// and the whole workspace analysed again from scratch.
///
/// Lives beside the generators of random programs (it needs them and RoutesIDE).
@Suite struct FixPropertyTests {
    /// A set of files analysed together: a fixture file alone, a fixture folder, an example app.
    struct Input: CustomTestStringConvertible, Sendable {
        var name: String
        /// Path relative to the workspace → text.
        var files: [String: String]
        var testDescription: String { name }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every fixture: a folder with an expectation beside it is one workspace; any other
    /// `.routes` file is one on its own. The examples: each app folder, and each file of
    /// `Examples/Diagnostics`.
    static let inputs: [Input] = {
        var out: [Input] = []
        let fm = FileManager.default
        func routesFiles(under dir: URL) -> [String: String] {
            var files: [String: String] = [:]
            guard let e = fm.enumerator(atPath: dir.path) else { return files }
            while let p = e.nextObject() as? String {
                if p.hasSuffix(".routes") { files[p] = try? String(contentsOf: dir.appendingPathComponent(p), encoding: .utf8) }
            }
            return files.compactMapValues { $0 }
        }
        func walk(_ dir: URL, _ name: String) {
            let entries = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
            for entry in entries {
                let url = dir.appendingPathComponent(entry)
                var isDirectory: ObjCBool = false
                _ = fm.fileExists(atPath: url.path, isDirectory: &isDirectory)
                if isDirectory.boolValue {
                    if entry.hasSuffix(".fixed") { continue }
                    if entries.contains(entry + ".expected") {
                        out.append(Input(name: name + entry, files: routesFiles(under: url)))
                    } else {
                        walk(url, name + entry + "/")
                    }
                } else if entry.hasSuffix(".routes"), let text = try? String(contentsOf: url, encoding: .utf8) {
                    out.append(Input(name: name + entry, files: [entry: text]))
                }
            }
        }
        walk(root.appendingPathComponent("Tests/Fixtures"), "Tests/Fixtures/")
        let examples = root.appendingPathComponent("Examples")
        for app in ["Seed", "Shop", "TwoApps"] {
            out.append(Input(name: "Examples/" + app, files: routesFiles(under: examples.appendingPathComponent(app))))
        }
        for (file, text) in routesFiles(under: examples.appendingPathComponent("Diagnostics")).sorted(by: { $0.key < $1.key }) {
            out.append(Input(name: "Examples/Diagnostics/" + file, files: [file: text]))
        }
        return out.filter { !$0.files.isEmpty }
    }()

    @Test func theInputsAreFound() {
        #expect(Self.inputs.count >= 80)
        #expect(Self.inputs.contains { $0.name.hasPrefix("Tests/Fixtures/fix/") })
    }

    @Test(arguments: inputs)
    func everyFixOfAFixtureRemovesItsDiagnosticAndAddsNoError(_ input: Input) {
        let offered = FixProperty.check(input.files, name: input.name)
        // Most fixtures have no fix at all; the fix fixtures must have theirs.
        if input.name.hasPrefix("Tests/Fixtures/fix/") { #expect(offered > 0, "\(input.name): no fix offered") }
    }

    /// Generated programs, each with a few mistakes planted (see `Mistakes`): the fixes of every
    /// rule that has them are met, and each holds.
    @Test func everyFixOfAGeneratedProgramRemovesItsDiagnosticAndAddsNoError() {
        var offered = 0
        var rules = Set<RuleID>()
        for seed in UInt64(0)..<300 {
            let program = ProgramGenerator.generate(seed: seed).text
            let text = Mistakes.plant(in: program, seed: seed)
            offered += FixProperty.check(["App.routes": text], name: "generated program \(seed)", rules: &rules)
        }
        for seed in UInt64(0)..<10 {
            let app = AppGenerator.generate(seed: seed, flags: 12, optionals: 3, screens: 30).text
            offered += FixProperty.check(["App.routes": Mistakes.plant(in: app, seed: seed)], name: "app \(seed)", rules: &rules)
        }
        #expect(offered > 300)
        // Every rule with fixes had some offered (import errors and duplicates of other files
        // come from the fixtures).
        let expected: Set<RuleID> = [.undefinedName, .duplicateDeclaration, .missingDependency, .shadowedBranch,
                                     .unusedDeclaration, .unusedSuppression, .pushInSheet]
        #expect(expected.isSubset(of: rules), "\(expected.subtracting(rules))")
    }

    /// Each rule's documented example, fixed as its documentation says (but `import-error`'s,
    /// whose fix points the import at another file: an example is one file).
    @Test(arguments: Rules.all.filter { !$0.fixes.isEmpty && $0.id != .importError }.map(\.id.rawValue))
    func theDocumentedExampleOfARuleWithFixesHasOne(_ id: String) throws {
        let rule = try #require(Rules.info(RuleID(id)))
        var rules = Set<RuleID>()
        _ = FixProperty.check(["App.routes": rule.documentation.example], name: id, rules: &rules)
        #expect(rules.contains(rule.id), "\(id): no fix offered for its example")
    }
}

enum FixProperty {
    /// A diagnostic's identity across a fix: rule, file and range.
    struct Key: Hashable {
        var rule: RuleID
        var file: String
        var range: Range<Int>
    }

    /// Checks every fix of every diagnostic of the files; returns how many there were.
    @discardableResult
    static func check(_ files: [String: String], name: String) -> Int {
        var rules = Set<RuleID>()
        return check(files, name: name, rules: &rules)
    }

    /// The same, adding the rules whose fixes were offered to `rules`.
    static func check(_ files: [String: String], name: String, rules: inout Set<RuleID>) -> Int {
        let (project, session) = analyse(files)
        let context = FixContext(session: session)
        var offered = 0
        for d in session.diagnostics {
            let fixes = IDE.fixes(for: d, context: context)
            if !fixes.isEmpty { rules.insert(d.rule) }
            for fix in fixes {
                offered += 1
                verify(fix, d, project, session, files, name)
            }
        }
        return offered
    }

    static func verify(_ fix: Fix, _ d: Diagnostic, _ project: Project, _ session: AnalysisSession,
                       _ files: [String: String], _ name: String) {
        var fixed = files
        func path(_ f: FileID) -> String { String(project.files[f].path.dropFirst("/ws/".count)) }
        for (f, edits) in fix.edits {
            fixed[path(f)] = String(decoding: IDE.apply(edits, to: project.files[f].text.bytes), as: UTF8.self)
        }
        let (after, afterSession) = analyse(fixed)
        let before = Set(session.diagnostics.filter { $0.severity == .error && $0 != d }.map {
            Key(rule: $0.rule, file: path($0.file), range: fix.map($0.range, in: $0.file))
        })
        let target = Key(rule: d.rule, file: path(d.file), range: fix.map(d.range, in: d.file))
        let what = "\(name): «\(fix.title)» for \(d.rule) «\(d.message)»"
        // Text moved as it is that means the same wherever it stands (a `link` moved out of
        // a block): an error of its own there, other than a syntax error, is what its old
        // place hid, not one the fix made.
        let ownTexts = fix.moves.filter(\.keepsItsMeaning).map { (file: path($0.file), range: fix.map($0.source, in: $0.file)) }
        for e in afterSession.diagnostics {
            let key = Key(rule: e.rule, file: String(after.files[e.file].path.dropFirst("/ws/".count)), range: e.range)
            // (The same words too, numbers aside: a zero-width error where the fix inserts is
            // another one when it says another thing.)
            #expect(key != target || Diagnostic.withoutNumbers(e.message) != Diagnostic.withoutNumbers(d.message),
                    "\(what): the diagnostic is still there\n\(changed(files, fixed))")
            if e.severity == .error {
                let own = e.rule != .syntaxError && ownTexts.contains {
                    $0.file == key.file && $0.range.lowerBound <= e.range.lowerBound && e.range.upperBound <= $0.range.upperBound
                }
                #expect(before.contains(key) || own, "\(what): a new error «\(e.message)»\n\(changed(files, fixed))")
            }
        }
    }

    /// The files in memory under `/ws`, each an entry, analysed from scratch.
    static func analyse(_ files: [String: String]) -> (Project, AnalysisSession) {
        let names = files.keys.sorted()
        var paths: [String: String] = [:]
        for (n, t) in files { paths["/ws/" + n] = t }
        let project = Project(entries: names.enumerated().map { i, n in
            ProjectEntry(canonicalPath: "/ws/" + n, displayPath: n, group: i, workspaceRoot: "/ws")
        }, provider: MemoryProvider(files: paths))
        return (project, AnalysisSession.forEditor(project: project))
    }

    /// The files a fix changed, after it (for a failure's message).
    static func changed(_ before: [String: String], _ after: [String: String]) -> String {
        after.keys.sorted().filter { before[$0] != after[$0] }.map { "--- \($0)\n\(after[$0]!)" }.joined(separator: "\n")
    }
}

/// Mistakes planted in a generated program, so that the fixes of the names and hygiene rules
/// are met too: a name misspelt, an undeclared screen, a declaration written twice, an unused
/// flag, a suppression that suppresses nothing.
enum Mistakes {
    static func plant(in text: String, seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed &+ 0x5EED)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declarations = lines.indices.filter { i in
            ["screen ", "dependency ", "optional ", "flag "].contains { lines[i].hasPrefix($0) }
        }
        let body = lines.indices.filter { !declarations.contains($0) && !lines[$0].isEmpty }
        // A misspelt use: a declared name inside the builders loses its last letter.
        if rng.below(100) < 60, !body.isEmpty {
            let names = declarations.compactMap { lines[$0].split(separator: " ").dropFirst().first.map { String($0.prefix { $0.isLetter || $0.isNumber }) } }
            let i = body[rng.below(body.count)]
            if let n = names.first(where: { n in n.count > 3 && lines[i].contains(" \(n)") }) {
                if let r = lines[i].range(of: " \(n)") { lines[i].replaceSubrange(r, with: " " + n.dropLast()) }
            }
        }
        // An undeclared screen in a nesting.
        if rng.below(100) < 30, let i = body.first(where: { lines[$0].hasSuffix("screen Home") }) {
            lines[i] += " { screen Inbox }"
        }
        // A declaration written twice.
        if rng.below(100) < 30, !declarations.isEmpty {
            let i = declarations[rng.below(declarations.count)]
            lines.insert(lines[i], at: i + 1)
        }
        // An unused flag with a doc comment, and a suppression that suppresses nothing.
        if rng.below(100) < 40 { lines.insert(contentsOf: ["/// Never tested.", "flag unusedFlag"], at: 0) }
        if rng.below(100) < 30, !lines.isEmpty {
            let i = rng.below(lines.count)
            if !lines[i].isEmpty { lines[i] += " // routes:ignore push-in-sheet, builder-cycle" }
        }
        return lines.joined(separator: "\n")
    }
}
