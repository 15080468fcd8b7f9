import RoutesModel
import RoutesSyntax
import Testing
import TestSupport

/// A lint reads each `link` line in the plain form as one token (`LinkLine`, and
/// `SyntaxTree.parse(_:file:maxDepth:readingLinkLines:)`): the file's errors and its lowered
/// model must be those of the parse token by token. Checked over every fixture and example,
/// lines made for each part of the form and each way out of it, and random lines.
@Suite struct LinkLineTests {
    /// Parses `text` both ways; expects the same errors and model. Returns how many lines
    /// were read as one token.
    @discardableResult
    static func check(_ text: [UInt8], name: String) -> Int {
        let full = SyntaxTree.parse(SourceText(bytes: text))
        let lined = SyntaxTree.parse(SourceText(bytes: text), readingLinkLines: true)
        #expect(full.diagnostics == lined.diagnostics, "\(name): errors")
        let a = Lowering.lower(full), b = Lowering.lower(lined)
        #expect(a.declarations.count == b.declarations.count, "\(name): declarations")
        for (x, y) in zip(a.declarations, b.declarations) {
            #expect(x.kind == y.kind && x.name == y.name && x.range == y.range && x.doc == y.doc, "\(name): \(x.name.text)")
            #expect(x.link == y.link, "\(name): the link \(x.name.text)")
            if let l = x.link, let m = y.link {
                // A link read from the lexer's parts (`LinkLines`) answers the loops' questions
                // as the lowered one does, hashes the same, and holds its fields once written.
                #expect(l.pathCount == m.pathCount && m.pathCount == l.path.count, "\(name): \(x.name.text)'s elements")
                var screens: [Name] = [], ranges: [Range<Int>] = []
                m.forEachScreen { screens.append($0) }
                m.forEachScreenRange { ranges.append($0) }
                #expect(screens == l.path.map(\.screen) && ranges == l.path.map(\.screen.range), "\(name): \(x.name.text)'s screens")
                #expect(l.hashValue == m.hashValue, "\(name): \(x.name.text)'s hash")
                #expect(l.parsed == m.parsed, "\(name): \(x.name.text)'s pattern parsed")
                var written = m
                written.patternIsVerbatim = m.patternIsVerbatim
                #expect(written == l && written.path == l.path && written.pattern == l.pattern, "\(name): \(x.name.text) once written")
            }
            #expect(x.parameters == y.parameters && x.body == y.body, "\(name): \(x.name.text)'s parameters or body")
        }
        #expect(String(describing: a.imports) == String(describing: b.imports), "\(name): imports")
        #expect(String(describing: a.nodes) == String(describing: b.nodes), "\(name): nodes")
        #expect(a.skippedNames == b.skippedNames, "\(name): skipped names")
        // The parts the lexer recorded are each line's, in order, as a reading of the line
        // tells them (the model takes them instead of reading the line again).
        let lines = lined.tokens.filter { $0.kind == .linkLine }
        var at = 0
        for line in lines {
            var replayed = Heard(), read = Heard()
            let start = at
            #expect(LinkLine.replay(lined.linkLineParts, from: &at, lineStart: line.start, &replayed), "\(name): parts of the line at \(line.start)")
            _ = text.withUnsafeBufferPointer { LinkLine.read($0, from: line.start, &read) }
            #expect(replayed.log == read.log && !read.log.isEmpty, "\(name): parts of the line at \(line.start)")
            // The path's parts one at a time, as the replay tells them after the head.
            var iterated: [String] = []
            var parts = LinkLine.pathParts(lined.linkLineParts, at: start)
            while let part = parts.next() {
                switch part {
                case .element(let screen): iterated.append("element \(screen)")
                case .argument(let label, let value, let kind): iterated.append("argument \(label) \(value) \(kind)")
                case .endElement(let end): iterated.append("end \(end)")
                }
            }
            #expect(iterated == Array(replayed.log.dropFirst()), "\(name): path parts of the line at \(line.start)")
        }
        #expect(at == lined.linkLineParts.count, "\(name): parts left over")
        return lines.count
    }

    /// What a visitor hears, in order.
    struct Heard: LinkLineVisitor {
        var log: [String] = []
        mutating func head(name: Range<Int>, pattern: Range<Int>) { log.append("head \(name) \(pattern)") }
        mutating func element(screen: Range<Int>) { log.append("element \(screen)") }
        mutating func argument(label: Range<Int>, value: Range<Int>, kind: TokenKind) { log.append("argument \(label) \(value) \(kind)") }
        mutating func endElement(at end: Int) { log.append("end \(end)") }
    }

    static let tree = "screen A(id: Int, tab: String)\nscreen B\nroot { screen A { screen B } }\n"

    @Test(arguments: FixPropertyTests.inputs)
    func aFixtureOrExampleLowersTheSame(_ input: FixPropertyTests.Input) {
        for (file, text) in input.files { Self.check(Array(text.utf8), name: "\(input.name)/\(file)") }
    }

    /// Every part of the form: one token each.
    @Test func plainLinesAreOneToken() {
        let lines = [
            "link a \"/a/{id}\" -> A(id: id)/B",
            "link a \"/a/{id}?tab={tab?}\" -> A(id: id, tab: tab)/B",
            "link\ta\t\"/a\"\t->\tA(id: 1, tab: \"x y\")",
            "link a\"/a\"->A(id:-1.5,tab:\"\")/B",
            "link a \"/a\" -> A ( id : 0 , tab : \"t\" , ) / B   ",
            "link a \"/a\" -> A()/B",
            "link a \"/a\" -> A(from: true, if: false)",
            "link link \"/a\" -> A(id: id)",
        ]
        for line in lines {
            for end in ["\n", "\r\n", "\r", ""] {
                let text = Self.tree + line + end
                #expect(Self.check(Array(text.utf8), name: line) == 1, "\(line) was not one token")
            }
        }
        // Several in a row, after a comment, a doc comment, a screen with parameters, a
        // string, a name: each one token.
        let several = "import \"x.routes\"\nlink a \"/a\" -> A(id: 1)\n/// The b link.\nlink b \"/b\" -> B\n// c\nlink c \"/c\" -> B\n"
            + "screen C(x: Int)\nlink d \"/d\" -> C(x: 1)\nflag f\nlink e \"/e\" -> B\n" + Self.tree + "link f \"/f\" -> B"
        #expect(Self.check(Array(several.utf8), name: "several") == 6)
    }

    /// Lines outside the form are read token by token, with the same result, errors
    /// included.
    @Test func otherLinesAreReadTokenByToken() {
        let lines = [
            "link a \"/a\" -> A(id: 1) // a comment",
            "link a \"/a\\u{41}\" -> A(id: 1)",
            "link a \"/a\" -> A(id: 1, tab: \"\\n\")",
            "link a \"/é\" -> A(id: 1)",
            "link a \"/a\t\" -> A(id: 1)",
            "link screen \"/a\" -> A(id: 1)",
            "link a \"/a\" -> A(id: screen)",
            "link a \"/a\" -> screen",
            "  link a \"/a\" -> B",
            "link a \"/a\" A(id: 1)",
            "link a \"/a\" -> \"A/B\"",
            "link a \"/a\" -> A\n/B",
            "link a \"/a\" -> A\n(id: 1)",
            "link a \"/a\" -> A(id: 1",
            "link a \"/a\" -> A(id: 1.)",
            "link a \"/a\" -> A(id: 12x)",
            "link a \"/a\" -> A(id: -)",
            "link a \"/a\" -> A(id 1)",
            "link a \"/a\" -> A(id: 1 tab: \"t\")",
            "link a \"/a\" -> A/",
            "link a \"/a\" ->",
            "link a \"/a",
            "link a",
            "link \"/a\" -> B",
        ]
        for line in lines {
            let text = Self.tree + line + "\n"
            #expect(Self.check(Array(text.utf8), name: line) == 0, "\(line) was one token")
        }
        // After a word a type may follow, an open block or an unfinished declaration: the
        // parser may read `link` as part of it, so the line is read token by token.
        for before in ["dependency d: any", "dependency d: some", "optional o: inout", "screen C as", "root {", "screen C(x:", "dependency d: A."] {
            let text = before + "\nlink a \"/a\" -> B\n" + Self.tree
            #expect(Self.check(Array(text.utf8), name: before) == 0, "after \(before)")
        }
    }

    /// Random lines from the pieces of the form and of its ways out, after random lines: the
    /// same errors and model both ways, and a share of them read as one token (a file with a
    /// syntax error anywhere is read token by token).
    @Test func randomLinesLowerTheSame() {
        var generator = SplitMix64(seed: 0x6C69_6E65)
        let pieces = ["link", " ", " ", "\t", "a", "A", "B", "id", "tab", "screen", "true", "-1", "2.5", "\"/a/{id}\"", "\"x\\n\"",
                      "\"é\"", "->", "/", "//", "(", ")", ",", ":", "\n", "{", "}", "any"]
        let befores = ["", "}\n", "flag f\n", "dependency d: any\n", "screen C(x: Int)\n", "root {\n", "/// doc\n", "screen\n"]
        func plain() -> String {
            var line = "link l\(generator.below(9)) \"/p/{id}\" -> A"
            if generator.below(2) == 0 { line += "(id: \(["id", "1", "true", "\"s\""][generator.below(4)]), tab: tab)" }
            if generator.below(2) == 0 { line += "/B" }
            return line
        }
        var read = 0
        for round in 0..<600 {
            var text = Self.tree + befores[generator.below(befores.count)]
            for _ in 0..<(1 + generator.below(3)) {
                if generator.below(3) == 0 {
                    text += (0..<(2 + generator.below(14))).map { _ in pieces[generator.below(pieces.count)] }.joined() + "\n"
                } else {
                    var line = plain()
                    // Maybe one piece put in, or one byte taken out.
                    switch generator.below(4) {
                    case 0:
                        let at = line.index(line.startIndex, offsetBy: generator.below(line.count))
                        line.insert(contentsOf: pieces[generator.below(pieces.count)], at: at)
                    case 1:
                        line.remove(at: line.index(line.startIndex, offsetBy: generator.below(line.count)))
                    default: break
                    }
                    text += line + "\n"
                }
            }
            read += Self.check(Array(text.utf8), name: "random \(round): \(text)")
        }
        #expect(read > 100)
    }
}
