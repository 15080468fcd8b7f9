import RoutesAnalysis
import RoutesJSON
import RoutesSyntax

/// SARIF 2.1.0: one run, every rule listed, columns in UTF-16 code units.
enum SARIFRenderer {
    static func render(_ report: LintReport) -> String {
        let rules = Rules.all
        let driver: JSONValue = [
            "name": "routes",
            "version": .string(Routes.version),
            "informationUri": "https://github.com/routes-lang/routes",
            "rules": .array(rules.map(sarifRule)),
        ]
        let root: JSONValue = [
            "version": "2.1.0",
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "runs": [[
                "tool": ["driver": driver],
                "invocations": [invocation(report)],
                "columnKind": "utf16CodeUnits",
                "artifacts": .array(report.fileOrder.map { ["location": ["uri": .string(uri(report.file($0).displayPath))]] }),
                "results": .array(results(report, rules: rules)),
            ]],
        ]
        return JSON.serialize(root, pretty: true)
    }

    /// A path as a relative URI reference: unreserved characters as they are, every other
    /// byte percent-encoded.
    static func uri(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if character.isLetter && byte < 0x80 || character.isNumber && byte < 0x80 || "-._~/".utf8.contains(byte) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// A `region`: 1-based lines and columns, in UTF-16 code units.
    static func region(_ text: SourceText, _ range: Range<Int>) -> JSONValue {
        let start = text.position(of: range.lowerBound, encoding: .utf16)
        let end = text.position(of: range.upperBound, encoding: .utf16)
        return [
            "startLine": .int(Int64(start.line + 1)), "startColumn": .int(Int64(start.column + 1)),
            "endLine": .int(Int64(end.line + 1)), "endColumn": .int(Int64(end.column + 1)),
        ]
    }

    static func location(_ report: LintReport, _ file: FileID, _ range: Range<Int>) -> JSONValue {
        let source = report.file(file)
        return ["physicalLocation": [
            "artifactLocation": ["uri": .string(uri(source.displayPath))],
            "region": region(source.text, range),
        ]]
    }

    /// One result per diagnostic, with its related locations.
    static func results(_ report: LintReport, rules: [RuleInfo]) -> [JSONValue] {
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        return report.all.map { diagnostic in
            var result: JSONObject = [
                "ruleId": .string(diagnostic.rule.rawValue),
                "ruleIndex": .int(Int64(ruleIndex[diagnostic.rule]!)),
                "level": .string(diagnostic.severity == .error ? "error" : "warning"),
                "message": ["text": .string(diagnostic.message)],
                "locations": [location(report, diagnostic.file, diagnostic.range)],
            ]
            if !diagnostic.related.isEmpty {
                result["relatedLocations"] = .array(diagnostic.related.enumerated().map { index, related in
                    guard case .object(var relatedLocation) = location(report, related.file, related.range) else { return .null }
                    relatedLocation["id"] = .int(Int64(index))
                    relatedLocation["message"] = ["text": .string(related.message)]
                    return .object(relatedLocation)
                })
            }
            return .object(result)
        }
    }

    /// The invocation: arguments that cannot be read and config problems are notifications
    /// that the run did not succeed.
    static func invocation(_ report: LintReport) -> JSONValue {
        let notifications: [JSONValue] = report.failures.map { failure in
            var notification: JSONObject = ["level": "error", "message": ["text": .string(failure.message)]]
            var physical: JSONObject = ["artifactLocation": ["uri": .string(uri(failure.path))]]
            if let position = failure.position {
                physical["region"] = ["startLine": .int(Int64(position.line + 1)), "startColumn": .int(Int64(position.column + 1))]
            }
            notification["locations"] = [["physicalLocation": .object(physical)]]
            return .object(notification)
        }
        return [
            "executionSuccessful": .bool(report.failures.isEmpty),
            "toolExecutionNotifications": .array(notifications),
        ]
    }
}

extension SARIFRenderer {
    /// A rule's `reportingDescriptor`: its summary, its documentation as the full description
    /// and its fix as the help, from the registry.
    static func sarifRule(_ r: RuleInfo) -> JSONValue {
        let docs = r.documentation
        let full = docs.what + " " + docs.why
        let markdown = "\(docs.what)\n\n\(docs.why)\n\n```routes\n\(docs.example)\n```\n\n\(docs.fix)"
        return [
            "id": .string(r.id.rawValue),
            "name": .string(r.id.rawValue),
            "shortDescription": ["text": .string(r.summary)],
            "fullDescription": ["text": .string(full)],
            "help": ["text": .string(docs.fix), "markdown": .string(markdown)],
            "defaultConfiguration": ["level": .string(r.severity == .error ? "error" : "warning")],
            "properties": ["category": .string(r.category.rawValue)],
        ]
    }
}

extension String {
    func leftPadded(_ n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
