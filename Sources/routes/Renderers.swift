import RoutesAnalysis
import RoutesEncoding
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// `path:LINE:COL: severity: message [rule]`, the source line with a caret underline, then
/// notes; a summary line at the end. LINE and COL are 1-based, COL in Unicode scalars.
struct TextRenderer {
    let report: LintReport
    let style: Style

    func render() -> String {
        var out = ""
        for item in report.fixed ?? [] {
            out += style.bold("\(item.path):\(item.line + 1):\(item.column + 1):") + " " + style.green("fixed") + ": "
                + item.title + " " + style.dim("[\(item.rule.rawValue)]") + "\n"
        }
        for f in report.fileOrder {
            for d in report.diagnostics[f] ?? [] { out += render(d) }
        }
        out += style.bold(report.summary) + "\n"
        return out
    }

    func location(_ file: FileID, _ offset: Int) -> String {
        let source = report.file(file)
        let p = source.text.position(of: offset, encoding: .scalars)
        return "\(source.displayPath):\(p.line + 1):\(p.column + 1)"
    }

    func render(_ d: Diagnostic) -> String {
        let severity = d.severity == .error ? style.red("error") : style.yellow("warning")
        var out = style.bold(location(d.file, d.range.lowerBound) + ":") + " \(severity): "
            + style.bold(d.message) + " " + style.dim("[\(d.rule.rawValue)]") + "\n"
        out += snippet(d.file, d.range)
        for r in d.related {
            out += style.bold(location(r.file, r.range.lowerBound) + ":") + " " + style.cyan("note") + ": \(r.message)\n"
        }
        return out
    }

    /// The source line and a `^~~~` underline of the range's part on that line. Tabs are
    /// kept in the underline so that it lines up.
    func snippet(_ file: FileID, _ range: Range<Int>) -> String {
        let text = report.file(file).text
        let line = text.line(containing: range.lowerBound)
        let lineRange = text.lineRange(line)
        let lineText = text.text(lineRange)
        var pad = ""
        for ch in text.text(lineRange.lowerBound..<min(range.lowerBound, lineRange.upperBound)).unicodeScalars {
            pad += ch == "\t" ? "\t" : " "
        }
        let end = min(range.upperBound, lineRange.upperBound)
        let width = max(0, text.columnWidth(from: min(range.lowerBound, end), to: end, encoding: .scalars))
        let underline = "^" + String(repeating: "~", count: max(0, width - 1))
        return lineText + "\n" + pad + style.green(underline) + "\n"
    }
}

enum JSONRenderer {
    static func render(_ report: LintReport) -> String {
        var files: [JSONValue] = []
        for f in report.fileOrder {
            let source = report.file(f)
            let diagnostics: [JSONValue] = (report.diagnostics[f] ?? []).map { d in
                var o: JSONObject = [
                    "rule": .string(d.rule.rawValue),
                    "severity": .string(d.severity.rawValue),
                    "message": .string(d.message),
                    "range": JSONPositions.range(d.range, in: source.text),
                ]
                o["related"] = .array(d.related.map { r in
                    let rf = report.file(r.file)
                    return ["path": .string(rf.displayPath), "range": JSONPositions.range(r.range, in: rf.text), "message": .string(r.message)]
                })
                if d.isUnnecessary { o["tags"] = ["unnecessary"] }
                return .object(o)
            }
            files.append(["path": .string(source.displayPath), "diagnostics": .array(diagnostics)])
        }
        var root: JSONObject = [
            "version": 1,
            "files": .array(files),
            "summary": [
                "files": .int(Int64(report.fileOrder.count)),
                "errors": .int(Int64(report.errorCount + report.failures.count)),
                "warnings": .int(Int64(report.warningCount)),
            ],
        ]
        if let fixed = report.fixed {
            root["fixed"] = .array(fixed.map { item in
                ["path": .string(item.path), "rule": .string(item.rule.rawValue), "title": .string(item.title),
                 "range": ["start": ["line": .int(Int64(item.range.start.line)), "character": .int(Int64(item.range.start.column))],
                           "end": ["line": .int(Int64(item.range.end.line)), "character": .int(Int64(item.range.end.column))]]]
            })
            if case .object(var summary)? = root["summary"] {
                summary["fixed"] = .int(Int64(fixed.count))
                root["summary"] = .object(summary)
            }
        }
        // Arguments that cannot be read and config problems: each an error of its own.
        if !report.failures.isEmpty {
            root["errors"] = .array(report.failures.map { f in
                var o: JSONObject = ["path": .string(f.path), "message": .string(f.message)]
                if let p = f.position { o["position"] = ["line": .int(Int64(p.line)), "character": .int(Int64(p.column))] }
                return .object(o)
            })
        }
        return JSON.serialize(.object(root), pretty: true)
    }
}

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

/// GitHub Actions workflow commands: one `::error` or `::warning` annotation per diagnostic
/// (file, line and column 1-based, columns in Unicode scalars, rule id in the title), one
/// `::error` per argument that cannot be read or config problem, and the summary line.
enum GitHubRenderer {
    static func render(_ report: LintReport) -> String {
        var out = ""
        for d in report.all {
            let f = report.file(d.file)
            let s = f.text.position(of: d.range.lowerBound, encoding: .scalars)
            let e = f.text.position(of: d.range.upperBound, encoding: .scalars)
            let properties = [
                "file=\(property(f.displayPath))",
                "line=\(s.line + 1)", "col=\(s.column + 1)", "endLine=\(e.line + 1)", "endColumn=\(e.column + 1)",
                "title=\(property(d.rule.rawValue))",
            ]
            out += "::\(d.severity == .error ? "error" : "warning") \(properties.joined(separator: ","))::\(data(d.message))\n"
        }
        for failure in report.failures {
            var properties = ["file=\(property(failure.path))"]
            if let p = failure.position { properties += ["line=\(p.line + 1)", "col=\(p.column + 1)"] }
            out += "::error \(properties.joined(separator: ","))::\(data(failure.message))\n"
        }
        out += report.summary + "\n"
        return out
    }

    /// A message, escaped as workflow commands require.
    static func data(_ s: String) -> String { escape(s, property: false) }

    /// A property value: a message's escapes, and `:` and `,` too.
    static func property(_ s: String) -> String { escape(s, property: true) }

    private static func escape(_ s: String, property: Bool) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension SARIFRenderer {
    /// A rule's `reportingDescriptor`: its summary, its documentation as the full description
    /// and its fix as the help, from the registry.
    static func sarifRule(_ r: RuleInfo) -> JSONValue {
        let d = r.documentation
        let full = d.what + " " + d.why
        let markdown = "\(d.what)\n\n\(d.why)\n\n```routes\n\(d.example)\n```\n\n\(d.fix)"
        return [
            "id": .string(r.id.rawValue),
            "name": .string(r.id.rawValue),
            "shortDescription": ["text": .string(r.summary)],
            "fullDescription": ["text": .string(full)],
            "help": ["text": .string(d.fix), "markdown": .string(markdown)],
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
