import RoutesEncoding
import RoutesJSON

/// The report as one JSON document: each file with its diagnostics, the summary, the fixes
/// applied and the input failures.
enum JSONRenderer {
    static func render(_ report: LintReport) -> String {
        var files: [JSONValue] = []
        for file in report.fileOrder {
            let source = report.file(file)
            let diagnostics: [JSONValue] = (report.diagnostics[file] ?? []).map { d in
                var object: JSONObject = [
                    "rule": .string(d.rule.rawValue),
                    "severity": .string(d.severity.rawValue),
                    "message": .string(d.message),
                    "range": JSONPositions.range(d.range, in: source.text),
                ]
                object["related"] = .array(d.related.map { r in
                    let rf = report.file(r.file)
                    return ["path": .string(rf.displayPath), "range": JSONPositions.range(r.range, in: rf.text), "message": .string(r.message)]
                })
                if d.isUnnecessary { object["tags"] = ["unnecessary"] }
                return .object(object)
            }
            files.append(["path": .string(source.displayPath), "diagnostics": .array(diagnostics)])
        }
        var root: JSONObject = [
            "version": 1,
            "files": .array(files),
            "summary": [
                "files": .int(Int64(report.fileOrder.count)),
                "errors": .int(Int64(report.errorCount)),
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
        // Arguments that cannot be read and config problems, apart from the diagnostics (the
        // summary counts those, as the text's summary line does; the exit status is 2).
        if !report.failures.isEmpty {
            root["errors"] = .array(report.failures.map { f in
                var object: JSONObject = ["path": .string(f.path), "message": .string(f.message)]
                if let position = f.position { object["position"] = ["line": .int(Int64(position.line)), "character": .int(Int64(position.column))] }
                return .object(object)
            })
        }
        return JSON.serialize(.object(root), pretty: true)
    }
}
