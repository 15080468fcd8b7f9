import Foundation
import Testing

/// One fixture of `routes lint --fix`: `Tests/Fixtures/fix/<rule>/<case>.routes` (or a folder
/// `<case>/` of files fixed together) with, beside it, `<case>.fixed` (the file after the fix;
/// a folder `<case>.fixed/` for a folder) and `<case>.expected` (what the lint printed on
/// standard output, then on standard error after `[stderr]`, then `[exit N]`). The case is
/// copied to a fresh folder and `routes lint --color never` runs there with the arguments of
/// `<case>.args` (one per line), by default `--fix <case>`. Run with `UPDATE_EXPECT=1` to
/// rewrite the expectations, then review the diff.
struct FixFixture: CustomTestStringConvertible, Sendable {
    static let feature = "fix"

    let rule: String
    let name: String
    /// The file or folder name of the case.
    let input: String

    var testDescription: String { "\(rule)/\(name)" }
    var directory: URL { Support.fixtures.appendingPathComponent(Self.feature).appendingPathComponent(rule) }
    var inputURL: URL { directory.appendingPathComponent(input) }
    var fixedURL: URL { directory.appendingPathComponent(name + ".fixed") }
    var expectedURL: URL { directory.appendingPathComponent(name + ".expected") }
    var isFolder: Bool { !input.hasSuffix(".routes") }

    var arguments: [String] {
        let url = directory.appendingPathComponent(name + ".args")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return ["--fix", input] }
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    static let all: [FixFixture] = {
        let fm = FileManager.default
        let root = Support.fixtures.appendingPathComponent(feature)
        var out: [FixFixture] = []
        for rule in ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let dir = root.appendingPathComponent(rule)
            for entry in ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() {
                var isFolder: ObjCBool = false
                _ = fm.fileExists(atPath: dir.appendingPathComponent(entry).path, isDirectory: &isFolder)
                if entry.hasSuffix(".routes") {
                    out.append(FixFixture(rule: rule, name: String(entry.dropLast(7)), input: entry))
                } else if isFolder.boolValue && !entry.hasSuffix(".fixed") {
                    out.append(FixFixture(rule: rule, name: entry, input: entry))
                }
            }
        }
        return out
    }()

    /// Every file of a folder, by relative path (a file alone under its own name).
    static func contents(of url: URL) -> [String: String] {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [:] }
        guard isFolder.boolValue else {
            return [url.lastPathComponent: (try? String(contentsOf: url, encoding: .utf8)) ?? ""]
        }
        var out: [String: String] = [:]
        if let e = fm.enumerator(atPath: url.path) {
            while let p = e.nextObject() as? String {
                var d: ObjCBool = false
                if fm.fileExists(atPath: url.appendingPathComponent(p).path, isDirectory: &d), !d.boolValue {
                    out[p] = (try? String(contentsOf: url.appendingPathComponent(p), encoding: .utf8)) ?? ""
                }
            }
        }
        return out
    }
}

@Suite struct FixFixtureTests {
    @Test func everyRuleWithFixesHasFixtures() throws {
        let result = try Support.run(["rules", "--format", "json"])
        let rules = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let fixable = (rules["rules"] as? [[String: Any]] ?? []).filter { ($0["fixable"] as? String) != "none" }.compactMap { $0["id"] as? String }
        #expect(!fixable.isEmpty)
        #expect(Set(FixFixture.all.map(\.rule)) == Set(fixable))
    }

    @Test(arguments: FixFixture.all)
    func fixingGivesTheExpectedFilesAndOutput(_ fixture: FixFixture) throws {
        let work = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let copy = work.appendingPathComponent(fixture.input)
        try FileManager.default.copyItem(at: fixture.inputURL, to: copy)
        let result = try Support.run(["lint", "--color", "never"] + fixture.arguments, in: work)
        let output = result.stdout + (result.stderr.isEmpty ? "" : "[stderr]\n" + result.stderr) + "[exit \(result.status)]\n"
        // The temporary folder's path never shows: paths are printed as given.
        let fixed = FixFixture.contents(of: copy)
        if ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1" {
            try output.write(to: fixture.expectedURL, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: fixture.fixedURL)
            try FileManager.default.copyItem(at: copy, to: fixture.fixedURL)
            return
        }
        #expect(output == (try? String(contentsOf: fixture.expectedURL, encoding: .utf8)),
                "missing or different \(fixture.expectedURL.path); run with UPDATE_EXPECT=1")
        let expected = FixFixture.contents(of: fixture.fixedURL)
        #expect(!expected.isEmpty, "missing \(fixture.fixedURL.path)")
        // A file alone is compared under its own name (the `.fixed` file's name differs).
        if fixture.isFolder {
            #expect(fixed == expected)
        } else {
            #expect(fixed.values.first == expected.values.first)
        }
        // Nothing else was left in the folder (no temporary file of the rewrite).
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(left == [fixture.input], "\(left)")
    }
}
