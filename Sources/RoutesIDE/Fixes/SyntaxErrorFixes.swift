import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `SyntaxError` (listed in `SyntaxError.fixes`): the one clear repair
/// the parser found for a mistake (`SyntaxError.Repair`): a `,` between two names of a `uses`
/// list, `else { empty }` after a `conditional`'s block, an `as` inserted or removed, a
/// `uses` inserted, a misspelt keyword spelt right, `root` before the routing tree's block,
/// the `}`s of the blocks a file ends in, `let` or `screen` after an `if` testing an
/// optional or a screen (or `conditional` for an `if` testing a flag), a `link` written
/// inside a block moved out of it. Safe, and offered only when the
/// program analysed with it has no error it did not have (a file with syntax errors is
/// always checked, see `FixRegistry.needsCheck`).
enum SyntaxErrorFixes: RuleFixes {
    static let rule = RuleID.syntaxError

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let repair = d.detail?.value(as: SyntaxError.Repair.self) else { return [] }
        let bytes = context.project.files[d.file].text.bytes
        switch repair {
        case .insertComma:
            // Where the diagnostic is: zero-width right after the name before the one it
            // names (or, over that name, after the name before it on the same line).
            var end = d.range.lowerBound
            if !d.range.isEmpty {
                while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
                guard end < d.range.lowerBound else { return [] }
            }
            return [Fix(title: "Insert the missing `,`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: end..<end, newText: ",")]])]
        case .insertElseEmpty:
            let at = d.range.lowerBound
            return [Fix(title: "Add `else { empty }`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: at..<at, newText: " else { empty }")]])]
        case .insertAs, .insertAsIfPresentation:
            let at = d.range.lowerBound
            return [Fix(title: "Insert `as`", applicability: repair == .insertAs ? .safe : .unsafe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: at..<at, newText: "as ")]])]
        case .insertUses:
            let at = d.range.lowerBound
            return [Fix(title: "Insert `uses`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: at..<at, newText: " uses")]])]
        case .replaceWithKeyword(let keyword):
            // A `,` for a `;` takes the blanks before it (`uses a ; b` becomes `uses a, b`).
            var start = d.range.lowerBound
            if keyword == "," {
                while start > 0 && (bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09) { start -= 1 }
                if start == 0 || bytes[start - 1] == 0x0A || bytes[start - 1] == 0x0D { start = d.range.lowerBound }
            }
            let title = keyword.allSatisfy { $0 == " " } ? "Replace with plain spaces"
                : "Replace with `\(keyword.drop { $0 == " " })`"
            return [Fix(title: title, applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: start..<d.range.upperBound, newText: keyword)]])]
        case .insertRoot:
            // (In a file that another imports, the block may be a library's stray text, and a
            // `root` there would be a second one in the importer's program.)
            let at = d.range.lowerBound
            let imported = !context.project.importers(of: d.file).isEmpty
            return [Fix(title: "Insert `root`", applicability: imported ? .unsafe : .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: at..<at, newText: "root ")]])]
        case .colonForEquals:
            var start = d.range.lowerBound
            while start > 0 && (bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09) { start -= 1 }
            return [Fix(title: "Replace `=` with `:`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: start..<d.range.upperBound, newText: ":")]])]
        case .remove, .removeUnsafely:
            return [Fix(title: "Remove `\(oneLine(bytes[d.range]))`", applicability: repair == .remove ? .safe : .unsafe,
                        isPreferred: true, diagnostic: d, edits: [d.file: [removal(of: d.range, in: bytes)]])]
        case .removeComma:
            let at = d.range.lowerBound
            guard at > 0 && bytes[at - 1] == UInt8(ascii: ",") else { return [] }
            return [Fix(title: "Remove the `,`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [removal(of: (at - 1)..<at, in: bytes)]])]
        case .closeBlocks(let braces):
            guard !braces.isEmpty, braces.allSatisfy({ $0 < bytes.count && bytes[$0] == UInt8(ascii: "{") }) else { return [] }
            let fixText = FixText(context.project.files[d.file])
            let newline = Array(fixText.newline.utf8)
            var text: [UInt8] = bytes.last.map { $0 == 0x0A || $0 == 0x0D } ?? true ? [] : newline
            for brace in braces {
                text += Array(fixText.indentation(brace).utf8)
                text += [UInt8(ascii: "}")] + newline
            }
            let title = braces.count == 1 ? "Close the block with `}` at the end of the file"
                : "Close the \(braces.count) open blocks with `}` at the end of the file"
            return [Fix(title: title, applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: bytes.count..<bytes.count, newText: String(decoding: text, as: UTF8.self))]])]
        case .insert(let text):
            let at = d.range.lowerBound
            return [Fix(title: "Insert `\(text)`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: at..<at, newText: text)]])]
        case .testWithoutLet:
            // The name after `if` and its kind: an optional is tested with `if let`, a screen
            // with `if screen`, a flag with `conditional` (offered only when the `conditional` has its `else`: the
            // check drops a fix that adds an error).
            var name = d.range.lowerBound
            while name < bytes.count && (bytes[name] == 0x20 || bytes[name] == 0x09) { name += 1 }
            let ifStart = d.range.lowerBound - 2
            guard ifStart >= 0, bytes[ifStart..<d.range.lowerBound].elementsEqual("if".utf8), name > d.range.lowerBound,
                  let s = context.project.resolutions[d.file][name] else { return [] }
            switch context.project.kind(of: s) {
            case .optional:
                return [Fix(title: "Insert `let`", applicability: .safe, isPreferred: true, diagnostic: d,
                            edits: [d.file: [TextEdit(range: d.range.lowerBound..<d.range.lowerBound, newText: " let")]])]
            case .screen:
                return [Fix(title: "Insert `screen`", applicability: .safe, isPreferred: true, diagnostic: d,
                            edits: [d.file: [TextEdit(range: d.range.lowerBound..<d.range.lowerBound, newText: " screen")]])]
            case .flag:
                // A `conditional` has an `else`: `else { empty }` after the block when the
                // `if` had none (it built nothing there either).
                var edits = [TextEdit(range: ifStart..<d.range.lowerBound, newText: "conditional")]
                let model = context.project.files[d.file].model
                if let node = model.nodes.firstIndex(where: { $0.range.lowerBound == ifStart }) {
                    if case .ifLet(_, _, nil) = model.nodes[node].kind, model.nodes[node].range.upperBound <= bytes.count,
                       model.nodes[node].range.upperBound > 0, bytes[model.nodes[node].range.upperBound - 1] == UInt8(ascii: "}") {
                        let end = model.nodes[node].range.upperBound
                        edits.append(TextEdit(range: end..<end, newText: " else { empty }"))
                    }
                }
                let title = edits.count == 1 ? "Replace `if` with `conditional`" : "Replace `if` with `conditional`, and add `else { empty }`"
                return [Fix(title: title, applicability: .safe, isPreferred: true, diagnostic: d, edits: [d.file: edits])]
            default:
                return []
            }
        case .moveLinkOutOfBlock:
            // The link's lines (with the doc comment above them) go after the top-level
            // declaration whose block holds it, on lines of their own, the first without its
            // indentation, after what follows that declaration's `}` on its line (a comment);
            // with them, every other link written in that block, in their order (moved one
            // per round, each would land before the one moved before it).
            let declarations = context.project.files[d.file].model.declarations
            guard let holder = declarations.first(where: { $0.range.contains(d.range.lowerBound) }),
                  holder.range.upperBound <= bytes.count else { return [] }
            var links: [(start: Int, end: Int)] = []
            for other in context.session.diagnostics where other.file == d.file && other.rule == .syntaxError
                && holder.range.contains(other.range.lowerBound) {
                if case .moveLinkOutOfBlock(let end)? = other.detail?.value(as: SyntaxError.Repair.self) {
                    links.append((other.range.lowerBound, end))
                }
            }
            links.sort { $0.start < $1.start }
            guard links.contains(where: { $0.start == d.range.lowerBound }) else { return [] }
            let fixText = FixText(context.project.files[d.file])
            let newline = fixText.newline
            var edits: [TextEdit] = []
            var moved = ""
            // Each link's text, moved as it is (its first line's indentation left behind).
            var linkTexts: [(source: Range<Int>, offset: Int)] = []
            for link in links {
                guard link.end <= bytes.count, link.end > link.start else { return [] }
                // The doc comment lines right above the link, each without its indentation.
                let first = fixText.docLinesStart(above: link.start)
                var line = first
                while line < fixText.lineStart(link.start) {
                    var start = line
                    while bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
                    moved += newline + trimmed(start, toTheLineOf: start)
                    line = fixText.nextLineStart(line)
                }
                let removedEnd = fixText.nextLineStart(link.end)
                guard removedEnd < holder.range.upperBound else { return [] }
                moved += newline
                let text = trimmed(link.start, toTheLineOf: link.end)
                linkTexts.append((link.start..<(link.start + text.utf8.count), moved.utf8.count))
                moved += text
                edits.append(TextEdit(range: first..<removedEnd, newText: ""))
            }
            // The text from `start` to the end of the line holding `offset`, without the
            // blanks that end it.
            func trimmed(_ start: Int, toTheLineOf offset: Int) -> String {
                var end = fixText.lineEnd(offset)
                while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            let at = fixText.lineEnd(holder.range.upperBound)
            edits.append(TextEdit(range: at..<at, newText: moved))
            let title = links.count == 1 ? "Move the link out of the block" : "Move the \(links.count) links out of the block"
            let moves = linkTexts.map { TextMove(file: d.file, source: $0.source, destination: at, offset: $0.offset, keepsItsMeaning: true) }
            return [Fix(title: title, applicability: .safe, isPreferred: true, diagnostic: d, edits: [d.file: edits], moves: moves)]
        case .removeAs:
            // `as` and the blanks after it, up to the presentation.
            var end = d.range.upperBound
            while end < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x09) { end += 1 }
            return [Fix(title: "Remove `as`", applicability: .safe, isPreferred: true, diagnostic: d,
                        edits: [d.file: [TextEdit(range: d.range.lowerBound..<end, newText: "")]])]
        }
    }

    /// The edit that removes `range` and leaves its line's layout whole: at the end of the
    /// line, with the blanks around it (no trailing blank is left); between two blanks, with
    /// those after it (one is left); between two other characters, one blank for it, so that
    /// nothing is glued (`uses a,{` becomes `uses a {`, `screen A;// c` becomes `screen A // c`),
    /// but for none inside brackets or before a `,` (`(id: String;)` becomes `(id: String)`).
    static func removal(of range: Range<Int>, in bytes: [UInt8]) -> TextEdit {
        func isBlank(_ i: Int) -> Bool { bytes[i] == 0x20 || bytes[i] == 0x09 }
        var start = range.lowerBound, end = range.upperBound
        var after = end
        while after < bytes.count && isBlank(after) { after += 1 }
        let blankBefore = start > 0 && isBlank(start - 1)
        if after == bytes.count || bytes[after] == 0x0A || bytes[after] == 0x0D {
            while start > 0 && isBlank(start - 1) { start -= 1 }
            return TextEdit(range: start..<after, newText: "")
        }
        let afterOpening = start > 0 && "([".utf8.contains(bytes[start - 1])
        if after > end {
            // (Right after a `(`, with the blanks after it: `(_ id: String)` is `(id: String)`.)
            return TextEdit(range: start..<(blankBefore || start == 0 || afterOpening ? after : end), newText: "")
        }
        let startsLine = start == 0 || bytes[start - 1] == 0x0A || bytes[start - 1] == 0x0D
        // No blank inside brackets or before a `,` (`(id: String;)` is `(id: String)`), nor
        // the blanks before what is removed there (`(title: String? = nil)` is `(title: String?)`).
        let bracketed = ")],".utf8.contains(bytes[after]) || afterOpening
        if blankBefore && ")],".utf8.contains(bytes[after]) {
            while start > 0 && isBlank(start - 1) { start -= 1 }
            return TextEdit(range: start..<end, newText: "")
        }
        return TextEdit(range: start..<end, newText: blankBefore || startsLine || bracketed ? "" : " ")
    }

    /// Removed text as a fix's title shows it: on one line (a line break and the blanks
    /// around it are one blank, none inside brackets: `(\n  id: String\n)` is
    /// `(id: String)`), and at most 60 characters.
    static func oneLine(_ text: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            let byte = text[i]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                out.append(byte)
                i += 1
                continue
            }
            var end = i
            var breaks = false
            while end < text.endIndex && [0x20, 0x09, 0x0A, 0x0D].contains(text[end]) {
                if text[end] == 0x0A || text[end] == 0x0D { breaks = true }
                end += 1
            }
            if !breaks {
                out.append(contentsOf: text[i..<end])
            } else if !(out.last == UInt8(ascii: "(") || out.last == UInt8(ascii: "[") || end < text.endIndex && (text[end] == UInt8(ascii: ")") || text[end] == UInt8(ascii: "]"))) {
                out.append(0x20)
            }
            i = end
        }
        let shown = String(decoding: out, as: UTF8.self)
        return shown.count > 60 ? String(shown.prefix(59)) + "…" : shown
    }
}
