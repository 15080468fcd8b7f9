/// GitHub Actions workflow commands: one `::error` or `::warning` annotation per diagnostic
/// (file, line and column 1-based, columns in Unicode scalars, rule id in the title), one
/// `::error` per argument that cannot be read or config problem, and the summary line.
enum GitHubRenderer {
    static func render(_ report: LintReport) -> String {
        var out = ""
        for diagnostic in report.all {
            let sourceFile = report.file(diagnostic.file)
            let start = sourceFile.text.position(of: diagnostic.range.lowerBound, encoding: .scalars)
            let end = sourceFile.text.position(of: diagnostic.range.upperBound, encoding: .scalars)
            let properties = [
                "file=\(property(sourceFile.displayPath))",
                "line=\(start.line + 1)", "col=\(start.column + 1)", "endLine=\(end.line + 1)", "endColumn=\(end.column + 1)",
                "title=\(property(diagnostic.rule.rawValue))",
            ]
            out += "::\(diagnostic.severity == .error ? "error" : "warning") \(properties.joined(separator: ","))::\(data(diagnostic.message))\n"
        }
        for failure in report.failures {
            var properties = ["file=\(property(failure.path))"]
            if let position = failure.position { properties += ["line=\(position.line + 1)", "col=\(position.column + 1)"] }
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
        for scalar in s.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
