import Foundation
import Testing
import TestSupport
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// In-process rule tests with the expected diagnostics written under the code, as comments:
///
///     screen Home uses store
///     //               ^^^^^ error: missing-dependency
///
/// An annotation is a line holding `//`, spaces, then carets: the carets' columns (bytes)
/// mark the range on the nearest line above that is not an annotation (one caret also marks
/// an empty range at its column). After the carets come the severity and the rule id, and
/// optionally ` — ` and a text the message must contain. Every diagnostic of the files must be
/// annotated, and every annotation must be found.
enum RuleFixture {
    struct Expectation: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var start: Int
        var end: Int
        var severity: String
        var rule: String
        var description: String { "\(file):\(line + 1):\(start + 1)-\(end + 1) \(severity): \(rule)" }
    }

    /// Checks the files (by name; the first in name order that declares `root`, and every
    /// other, are linted together) against their annotations.
    static func check(_ files: [String: String], limits: AnalysisLimits = .standard, settings: RuleSettings? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let paths = files.keys.sorted()
        let provider = MemoryProvider(files: Dictionary(uniqueKeysWithValues: files.map { ("/ws/" + $0.key, $0.value) }))
        let project = Project(entries: paths.enumerated().map { i, name in
            ProjectEntry(canonicalPath: "/ws/" + name, displayPath: name, group: i, workspaceRoot: "/ws")
        }, provider: provider)
        let diagnostics = AnalysisSession.forDiagnostics(project: project, limits: limits,
                                          settings: settings.map { ["/ws": $0] } ?? [:]).diagnostics
        var expected: [Expectation] = []
        var messages: [Expectation: String] = [:]
        for name in paths {
            var lastCode = -1
            for (i, line) in files[name]!.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let bytes = Array(line.utf8)
                guard let slash = line.range(of: "//"), line[..<slash.lowerBound].allSatisfy({ $0 == " " }),
                      let caret = bytes.firstIndex(of: UInt8(ascii: "^")),
                      bytes[(line.utf8.distance(from: line.utf8.startIndex, to: slash.upperBound))..<caret].allSatisfy({ $0 == 0x20 })
                else {
                    lastCode = i
                    continue
                }
                var end = caret
                while end < bytes.count && bytes[end] == UInt8(ascii: "^") { end += 1 }
                let rest = String(decoding: bytes[end...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                let parts = rest.components(separatedBy: " — ")
                let head = parts[0].split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                guard head.count == 2, lastCode >= 0 else {
                    Issue.record("\(name):\(i + 1): an annotation needs `severity: rule-id` under a code line", sourceLocation: sourceLocation)
                    continue
                }
                let e = Expectation(file: name, line: lastCode, start: caret, end: end, severity: head[0], rule: head[1])
                expected.append(e)
                if parts.count > 1 { messages[e] = parts[1...].joined(separator: " — ") }
            }
        }
        var found: [Expectation] = []
        var foundMessages: [Expectation: String] = [:]
        for d in diagnostics {
            let file = project.files[d.file]
            let s = file.text.position(of: d.range.lowerBound, encoding: .utf8)
            let e = file.text.position(of: d.range.upperBound, encoding: .utf8)
            let end = e.line == s.line ? max(e.column, s.column + 1) : file.text.lineRange(s.line).count
            let x = Expectation(file: file.displayPath, line: s.line, start: s.column, end: end, severity: d.severity.rawValue, rule: d.rule.rawValue)
            found.append(x)
            foundMessages[x] = d.message
        }
        let missing = expected.filter { !found.contains($0) }
        let unexpected = found.filter { !expected.contains($0) }
        #expect(missing.isEmpty && unexpected.isEmpty, """
            annotated but not reported: \(missing)
            reported but not annotated: \(unexpected.map { "\($0) — \(foundMessages[$0] ?? "")" })
            """, sourceLocation: sourceLocation)
        for (e, text) in messages {
            guard let message = foundMessages[e] else { continue }
            #expect(message.contains(text), "\(e): «\(message)» does not say «\(text)»", sourceLocation: sourceLocation)
        }
    }

    static func check(_ source: String, limits: AnalysisLimits = .standard, settings: RuleSettings? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        check(["App.routes": source], limits: limits, settings: settings, sourceLocation: sourceLocation)
    }
}
