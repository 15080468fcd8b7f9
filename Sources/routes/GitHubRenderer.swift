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
