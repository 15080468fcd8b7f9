/// `link NAME "PATTERN" -> PATH` (docs/language.md#links). `link` is a keyword only here: at
/// the start of a top-level declaration, followed by a pattern (a string), or by a name and a
/// pattern, on its line or on the next ones; or at the top level followed on its line by a
/// name (a declaration still being written). A program may name a builder `link`. The pattern
/// is a string the model reads (`LinkPattern`); the path is parsed here: screen names
/// separated by `/`, each with its arguments, whose values are literals or the names of the
/// pattern's placeholders.
extension Parser {
    /// Whether the current token starts a link declaration, wherever it stands: `link` at
    /// the start of a line, followed by a string, or by a name and a string, on any line
    /// (what no builder can be: a block holds no strings, and inside one `link x` on its own
    /// is two references).
    var atLinkDeclaration: Bool { (at(.linkLine) || current.startsLine) && linkAndPatternFollow }

    /// `link`, then a pattern, or a name and a pattern (a `link` that starts a line in
    /// between starts a declaration of its own).
    private var linkAndPatternFollow: Bool {
        if at(.linkLine) { return true }
        guard at(.identifier), currentIs("link"), pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        if next.kind == .string { return true }
        // (A keyword for the name, `link root "/"`, is one error: see `linkDeclaration`.)
        let keywordName = next.kind.isKeyword && !next.startsLine
        guard next.kind == .identifier || keywordName, !(next.startsLine && token(next, is: "link")), pos + 2 < significant.count else { return false }
        return token(at: pos + 2).kind == .string && (!keywordName || !token(at: pos + 2).startsLine)
    }

    /// Whether the current token starts a link declaration at the top level, where nothing
    /// else begins with a name: `link` and a pattern or a name and a pattern, or `link`
    /// followed on its line by a name (its pattern still to be written).
    var atTopLevelLinkDeclaration: Bool {
        if linkAndPatternFollow { return true }
        guard at(.identifier), currentIs("link"), pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        return !next.startsLine && next.kind == .identifier
    }

    mutating func linkDeclaration() {
        if at(.linkLine) {
            // The whole declaration, read by `LinkLine` (the model reads its parts).
            open(.linkDecl)
            advance()
            close()
            linkLinesRead += 1
            return
        }
        open(.linkDecl)
        advance()  // `link`
        // (The name's text is made only for a message.)
        let linkName = at(.identifier) ? current.range : nil
        // `link "/items" -> Home`: the name is missing (the string is the pattern).
        if at(.string) {
            expected("a link name")
        } else if kind.isKeyword && !current.startsLine && peekKind() == .string && !unwinding {
            // `link root "/" -> Home`: a keyword for the name, one error; the rest reads on.
            keywordAsName("a link name")
        } else {
            name("a link name")
        }
        // A pattern without its closing quote ran to the end of the line (that one error is
        // reported): what the line held after it is not asked for again.
        var patternUnterminated = false
        if at(.string) {
            patternUnterminated = current.isMalformed && (current.range.count < 2 || source.bytes[current.end - 1] != UInt8(ascii: "\""))
            advance()
        } else if (!current.startsLine || at(.arrow)) && !unwinding && !followsCurlyString {
            expected("the link's pattern, a string (`\"/items/{id}\"`)")
        }
        if patternUnterminated && current.startsLine {
            close()
            return
        }
        if at(.arrow) {
            advance()
        } else if !unwinding, !current.startsLine, let (arrow, glued) = arrowWrittenOtherwise {
            // `=> Home`, `–> Home` or `→ Home`: one error, at what stands for the arrow, and the
            // path is read.
            let range = tokens[arrow].start..<(glued ? current.end : tokens[arrow].end)
            if let reported = diagnostics.firstIndex(where: { $0.range.lowerBound == range.lowerBound }) { diagnostics.remove(at: reported) }
            explained.insert(range.lowerBound)
            report(range, "a link's path follows `->`, not `\(source.text(range))`", repair: .replaceWithKeyword("->"))
            if glued { skipAsError() }
        } else if !unwinding {
            if at(.identifier) && !current.startsLine {
                // `link item "/items/{id}" Home/Detail(id: id)`: the path, without its arrow.
                report(previousEnd..<previousEnd, "expected `->` before the path the link opens: `link \(linkName.map { source.text($0) } ?? "name") \"…\" -> \(currentText)…`")
            } else {
                expected("`->` and the path the link opens (`-> Home/Detail(id: id)`)")
                close()
                return
            }
        }
        if at(.string) && !current.startsLine {
            // The string's own text, unquoted, when it is one line of a path's characters.
            let written = currentText.dropFirst().dropLast()
            let shown = !written.isEmpty && currentText.hasSuffix("\"") && !written.contains(where: { "\"\\`\n\r".contains($0) })
                ? String(written) : "Home/Detail(id: id)"
            report(current.range, "a link's path is written without quotes: `-> \(shown)`, screen names separated by `/`")
            skipAsError()
        } else if at(.identifier) && (!current.startsLine || openBraces.isEmpty && !atTopLevelLinkDeclaration) {
            // The path may start on the next line (`->` ends its line), unless a declaration
            // starts there (at the top level, only a link's starts with a name).
            linkPath()
        } else if !unwinding {
            expected("the path the link opens, screen names separated by `/` (`Home/Detail(id: id)`)")
        }
        close()
    }

    /// `Home/Detail(id: id)/Settings`.
    mutating func linkPath() {
        open(.linkPath)
        pathElement()
        while at(.slash) || atDotBetweenScreens {
            if at(.dot) {
                // `Home.Cart`: one error, and the `.` is read as the `/` it stands for.
                let shown = token(at: pos - 1).kind == .identifier ? ": `\(text(at: pos - 1))/\(peekText())`" : ", not `.`"
                report(current.range, "the screens of a path are separated by `/`\(shown)", repair: .replaceWithKeyword("/"))
                skipAsError()
            } else {
                advance()
            }
            // (A line that starts a link declaration after a trailing `/` is that declaration.)
            if at(.identifier) && !(current.startsLine && atTopLevelLinkDeclaration) {
                pathElement()
            } else {
                expected("a screen name after `/`")
                break
            }
        }
        close()
    }

    /// At a `.` glued between a path's screen (or its arguments' `)`) and an UpperCamel name
    /// (`Home.Cart`), on one line.
    var atDotBetweenScreens: Bool {
        guard at(.dot), !unwinding, pos + 1 < significant.count, pos > 0 else { return false }
        let next = token(at: pos + 1), before = token(at: pos - 1)
        return next.kind == .identifier && next.start == current.end && before.end == current.start
            && next.start < source.bytes.count && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(source.bytes[next.start])
    }

    /// `Detail(id: id, tab: "info")`.
    mutating func pathElement() {
        open(.pathElement)
        advance()  // the screen's name
        if at(.lParen) {
            let paren = Int(significant[pos])
            advance()
            while !at(.rParen) {
                if atEOF || atBlockCloser(blockHasBuilder: false) || at(.lBrace) || at(.rBrace) || atLinkDeclaration {
                    expected("`)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
                    break
                }
                pathArgument()
                if at(.comma) {
                    advance()
                } else if !at(.rParen) {
                    if kind.isLabel && peekKind() == .colon {
                        expected("`,` between arguments")
                    } else {
                        unexpected("`,` or `)`")
                        skipInParens()
                        break
                    }
                }
            }
            if at(.rParen) { advance() }
        }
        close()
    }

    /// Whether the pattern of the link being read (the string before its `->`) has a
    /// placeholder `{name}` or `{name?}`.
    func patternHasPlaceholder(named name: String) -> Bool {
        var back = pos - 1
        // (Within the declaration: its path is short.)
        while back > 0 && pos - back < 256 {
            let before = token(at: back)
            if before.kind == .arrow {
                let pattern = token(at: back - 1)
                guard pattern.kind == .string else { return false }
                let text = source.text(pattern.range)
                return text.contains("{\(name)}") || text.contains("{\(name)?}")
            }
            if before.kind == .eof || (before.startsLine && before.kind != .string && !before.kind.isLabel) { return false }
            back -= 1
        }
        return false
    }

    /// Where a link's `->` is written otherwise: `=>`, `–>` or `—>` (an unknown `=` or dash
    /// glued to the current `>`: `glued`) or `→` (an unknown token right before the current
    /// token): the unknown token's index.
    var arrowWrittenOtherwise: (token: Int, glued: Bool)? {
        guard let last = unknownTokens(before: pos).last else { return nil }
        let text = text(ofToken: last)
        // (`–>` and `—>`: a dash that a keyboard or an editor made of `-`.)
        if (text == "=" || text == "–" || text == "—") && at(.rAngle) && tokens[last].end == current.start { return (last, true) }
        if text == "→" || text == "⇒" { return (last, false) }
        return nil
    }

    /// `label: value`.
    mutating func pathArgument() {
        open(.pathArgument)
        if kind.isLabel && peekKind() == .colon {
            advance()
            advance()
            switch kind {
            case .string, .number, .kwTrue, .kwFalse:
                advance()
            case .identifier where !(current.startsLine && atLinkDeclaration):
                // (A `link` at the start of the next line begins the next declaration.)
                advance()
            case .rParen, .comma:
                if !followsCurlyString { expected("a value: a string, a number, `true`, `false`, or a placeholder of the pattern") }
            default:
                if kind.isLabel, !current.startsLine, !unwinding, patternHasPlaceholder(named: currentText) {
                    // `"/t/{from}" -> T(from: from)`: a keyword cannot stand for a placeholder.
                    report(current.range, "`\(currentText)` is a keyword, and a keyword cannot name a placeholder: rename it in the pattern and here (`{\(currentText)Value}` and `\(currentText)Value`)")
                } else {
                    unexpected("a value: a string, a number, `true`, `false`, or a placeholder of the pattern")
                }
            }
        } else if kind.isLabel, pos + 1 < significant.count, !token(at: pos + 1).startsLine, !unwinding,
                  [.string, .number, .kwTrue, .kwFalse, .identifier].contains(token(at: pos + 1).kind),
                  let eq = unknownTokens(before: pos + 1).first(where: { text(ofToken: $0) == "=" }) {
            // `Detail(id = id)`: `=` for `:`. One error, at the `=`, and the argument is read.
            let label = currentText
            advance()
            explain(unknown: eq, "a path's argument is written `label: value`: `\(label): \(currentText)`", repair: .colonForEquals)
            advance()
        } else {
            report(current.range, "expected an argument (`label: value`), found \(describeCurrent())")
            skipAsError()
        }
        close()
    }
}
