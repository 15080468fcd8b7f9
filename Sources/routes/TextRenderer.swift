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
        for file in report.fileOrder {
            for diagnostic in report.diagnostics[file] ?? [] { out += render(diagnostic) }
        }
        out += style.bold(report.summary) + "\n"
        return out
    }

    func location(_ file: FileID, _ offset: Int) -> String {
        let source = report.file(file)
        let position = source.text.position(of: offset, encoding: .scalars)
        return "\(source.displayPath):\(position.line + 1):\(position.column + 1)"
    }

    func render(_ d: Diagnostic) -> String {
        let severity = d.severity == .error ? style.red("error") : style.yellow("warning")
        var out = style.bold(location(d.file, d.range.lowerBound) + ":") + " \(severity): "
            + style.bold(d.message) + " " + style.dim("[\(d.rule.rawValue)]") + "\n"
        out += snippet(d.file, d.range)
        for related in d.related {
            out += style.bold(location(related.file, related.range.lowerBound) + ":") + " " + style.cyan("note") + ": \(related.message)\n"
        }
        return out
    }

    /// Bytes of a source line past which a snippet shows only the part around the range, and
    /// how many bytes it shows on either side of the range's start.
    static let longLine = 400
    static let snippetContext = 120

    /// `line` with each control character but a tab shown as its symbol (`␀`, `␛`, `␡`), and
    /// a C1 control, a line or paragraph separator or a bidirectional control as U+FFFD, one
    /// scalar for one, so that a file's bytes never reach the terminal as a command (nor
    /// reorder what it shows) and the underline still lines up.
    static func visible(_ line: String) -> String {
        guard line.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0x09: out.append(scalar)
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The source line and a `^~~~` underline of the range's part on that line. Tabs are
    /// kept in the underline so that it lines up. Of a long line, the part around the range,
    /// `…` where it is cut (a diagnostic per token of a long line would otherwise print the
    /// line each time).
    func snippet(_ file: FileID, _ range: Range<Int>) -> String {
        let text = report.file(file).text
        let line = text.line(containing: range.lowerBound)
        var lineRange = text.lineRange(line)
        var (before, after) = ("", "")
        if lineRange.count > Self.longLine {
            let bytes = text.bytes
            func isContinuation(_ at: Int) -> Bool { at < bytes.count && bytes[at] & 0xC0 == 0x80 }
            var start = max(lineRange.lowerBound, range.lowerBound - Self.snippetContext)
            while start > lineRange.lowerBound && isContinuation(start) { start -= 1 }
            var end = min(lineRange.upperBound, max(range.lowerBound, lineRange.lowerBound) + Self.snippetContext)
            while end < lineRange.upperBound && isContinuation(end) { end += 1 }
            if start > lineRange.lowerBound { before = "…" }
            if end < lineRange.upperBound { after = "…" }
            lineRange = start..<max(start, end)
        }
        let lineText = before + Self.visible(text.text(lineRange)) + after
        var pad = before.isEmpty ? "" : " "
        for ch in text.text(lineRange.lowerBound..<min(max(range.lowerBound, lineRange.lowerBound), lineRange.upperBound)).unicodeScalars {
            pad += ch == "\t" ? "\t" : " "
        }
        let end = min(range.upperBound, lineRange.upperBound)
        let width = max(0, text.columnWidth(from: min(range.lowerBound, end), to: end, encoding: .scalars))
        let underline = "^" + String(repeating: "~", count: max(0, width - 1))
        return lineText + "\n" + pad + style.green(underline) + "\n"
    }
}
