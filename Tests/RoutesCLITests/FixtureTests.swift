import Foundation
import Testing

/// One fixture: `Tests/Fixtures/<feature>/<case>.routes` (or a directory `<case>/` of
/// files checked together, with its own routes.json if it has one) with `<case>.expected`
/// beside it: the exact output of `routes lint --color never <case>` run in the feature
/// directory, then what it wrote on stderr (after `[stderr]`, when anything), then `[exit N]`.
/// An optional `<case>.args` replaces the input argument: the arguments, one per line.
/// Run with `UPDATE_EXPECT=1` to rewrite the expectations, then review the diff.
/// (`Tests/Fixtures/fix/` holds the fixtures of `--fix`, whose layout is `FixFixture`'s.)
struct Fixture: CustomTestStringConvertible, Sendable {
    let feature: String
    let name: String
    let input: String  // file or directory name inside the feature directory

    var testDescription: String { "\(feature)/\(name)" }
    var directory: URL { Support.fixtures.appendingPathComponent(feature) }
    var expectedURL: URL { directory.appendingPathComponent(name + ".expected") }

    var extraArguments: [String] {
        let url = directory.appendingPathComponent(name + ".args")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    static let all: [Fixture] = {
        let fm = FileManager.default
        var result: [Fixture] = []
        let features = (try? fm.contentsOfDirectory(atPath: Support.fixtures.path)) ?? []
        // `fmt/` holds the formatter's fixtures (`<case>.routes` and `<case>.formatted`),
        // checked by `FormatterFixtureTests` and `FormatCommandTests`, and `fix/` those of
        // `routes lint --fix` (`FixFixtureTests`): not by `routes lint` alone.
        // `link-command/` those of `routes link` and `routes links` (`LinkCommandFixtureTests`).
        for feature in features.sorted() where feature != "fmt" && feature != FixFixture.feature && feature != "link-command" {
            let dir = Support.fixtures.appendingPathComponent(feature)
            let entries = (try? fm.contentsOfDirectory(atPath: dir.path)) ?? []
            for entry in entries.sorted() {
                var isDir: ObjCBool = false
                _ = fm.fileExists(atPath: dir.appendingPathComponent(entry).path, isDirectory: &isDir)
                if isDir.boolValue {
                    result.append(Fixture(feature: feature, name: entry, input: entry))
                } else if entry.hasSuffix(".routes") {
                    result.append(Fixture(feature: feature, name: String(entry.dropLast(7)), input: entry))
                }
            }
        }
        return result
    }()
}

@Suite struct FixtureTests {
    @Test func fixturesExist() {
        #expect(Fixture.all.count >= 30)
    }

    @Test(arguments: Fixture.all)
    func lintOutputMatchesExpectation(_ fixture: Fixture) throws {
        let arguments = fixture.extraArguments.isEmpty ? [fixture.input] : fixture.extraArguments
        let result = try Support.run(["lint", "--color", "never"] + arguments,
                                     in: fixture.directory)
        let actual = result.stdout + (result.stderr.isEmpty ? "" : "[stderr]\n" + result.stderr) + "[exit \(result.status)]\n"
        if ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1" {
            try actual.write(to: fixture.expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOf: fixture.expectedURL, encoding: .utf8)
        #expect(expected != nil, "missing \(fixture.expectedURL.path); run with UPDATE_EXPECT=1")
        #expect(actual == expected, "stderr: \(result.stderr)")
    }
}
