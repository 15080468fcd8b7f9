import Foundation
import Testing

/// The fixtures of `routes link` and `routes links`: in `Tests/Fixtures/link-command/`, each
/// `<case>.args` holds a command's arguments (one per line, the subcommand first), run in
/// that folder, and `<case>.expected` its standard output, then what it wrote on stderr (after
/// `[stderr]`), then `[exit N]`. Run with `UPDATE_EXPECT=1` to rewrite the expectations,
/// then review the diff.
@Suite struct LinkCommandFixtureTests {
    static let directory = Support.fixtures.appendingPathComponent("link-command")

    static let cases: [String] = {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter { $0.hasSuffix(".args") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func casesExist() {
        #expect(Self.cases.count >= 8)
    }

    @Test(arguments: cases)
    func commandOutputMatchesExpectation(_ name: String) throws {
        let argumentsText = try String(contentsOf: Self.directory.appendingPathComponent(name + ".args"), encoding: .utf8)
        let arguments = argumentsText.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let result = try Support.run(arguments, in: Self.directory)
        let actual = result.stdout + (result.stderr.isEmpty ? "" : "[stderr]\n" + result.stderr) + "[exit \(result.status)]\n"
        let expectedURL = Self.directory.appendingPathComponent(name + ".expected")
        if ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOf: expectedURL, encoding: .utf8)
        #expect(expected != nil, "missing \(expectedURL.path); run with UPDATE_EXPECT=1")
        #expect(actual == expected)
    }
}
