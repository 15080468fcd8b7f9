import Foundation
import Testing

/// The examples of the language guide (`docs/language.md`) and of `README.md`, checked
/// against the built `routes`, so that the documentation cannot go stale. The convention, as
/// the guide states it in "How this guide is tested":
///
/// - A fenced block marked `routes` is a whole file. The HTML comment on the line before its
///   fence says what it is and what linting it gives: `<!-- file: Shop.routes; lint: clean -->`.
///   `file` names it (default `App.routes`; a folder is made as needed); `lint` is `clean` (no
///   diagnostic at all) or the rule ids of every diagnostic `routes lint FILE` reports, in
///   output order (`lint: syntax-error` is exactly one syntax error). A block without `lint`
///   must be followed by an output block that runs `routes lint` on it. A block of another
///   language with a `file` (a `routes.json`) is written as that file, and not linted.
/// - A fenced block whose first line starts with `$ routes ` is the output of that command:
///   each `$ routes …` line is run, and the lines after it, up to the next `$ ` line, are
///   exactly what it prints (standard output, then standard error).
/// - The files of a level-2 section (`## …`) are written, in order, to a fresh folder that
///   holds a copy of `Examples/`; its commands run there, after the blocks before them.
///
/// `UPDATE_EXPECT=1 swift test --filter GuideTests` rewrites the output blocks with what the
/// commands print now; review the diff before committing.
@Suite struct GuideTests {
    static let documents = ["docs/language.md", "README.md", "docs/formatting.md"]

    /// A fenced block of a document.
    struct Block {
        /// The fence's info string (`routes`, `sh`, empty).
        var info: String
        /// Line index (0-based) of the first line inside the fence, and the lines inside it.
        var firstLine: Int
        var lines: [String]
        /// The `key: value` fields of the HTML comment right before the fence.
        var fields: [String: String]
    }

    /// A level-2 section and its fenced blocks.
    struct Section {
        var title: String
        var blocks: [Block] = []
    }

    static func sections(of text: String) -> (lines: [String], sections: [Section]) {
        let lines = text.components(separatedBy: "\n")
        var sections = [Section(title: "(top)")]
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.hasPrefix("## ") {
                sections.append(Section(title: String(line.dropFirst(3))))
            } else if line.hasPrefix("```") {
                let info = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                var j = i + 1
                while j < lines.count && !lines[j].hasPrefix("```") { j += 1 }
                var fields: [String: String] = [:]
                var k = i - 1
                while k >= 0 && lines[k].trimmingCharacters(in: .whitespaces).isEmpty { k -= 1 }
                if k >= 0, lines[k].hasPrefix("<!--"), lines[k].hasSuffix("-->") {
                    let inner = lines[k].dropFirst(4).dropLast(3)
                    for part in inner.split(separator: ";") {
                        let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                        if pair.count == 2 { fields[pair[0]] = pair[1] }
                    }
                }
                sections[sections.count - 1].blocks.append(Block(info: info, firstLine: i + 1,
                                                                 lines: Array(lines[(i + 1)..<min(j, lines.count)]), fields: fields))
                i = j
            }
            i += 1
        }
        return (lines, sections)
    }

    /// Splits a command line as a POSIX shell would for what the guide writes: words separated
    /// by spaces, with '…' and "…" quoting (backslash escapes inside double quotes).
    static func words(_ command: String) -> [String] {
        var out: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        var chars = Array(command)[...]
        while let c = chars.popFirst() {
            if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"" && c == "\\", let next = chars.first, "\"\\$`".contains(next) {
                    word.append(chars.removeFirst())
                } else {
                    word.append(c)
                }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { out.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { out.append(word) }
        return out
    }

    /// The rule ids of the diagnostics in `routes lint` text output, in order.
    static func rules(inLintOutput output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(": error: ") || line.contains(": warning: "), line.hasSuffix("]"),
                  let open = line.lastIndex(of: "[") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
    }

    @Test(arguments: documents)
    func everyExampleLintsAsItSaysAndEveryOutputIsReal(_ document: String) throws {
        let url = Support.packageRoot.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        var (lines, sections) = Self.sections(of: text)
        let update = ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1"
        var replacements: [(range: Range<Int>, lines: [String])] = []
        var checkedFiles = 0
        for section in sections {
            let workspace = try Support.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: workspace) }
            try FileManager.default.copyItem(at: Support.packageRoot.appendingPathComponent("Examples"),
                                             to: workspace.appendingPathComponent("Examples"))
            var pendingFile: (name: String, line: Int)? = nil
            for block in section.blocks {
                let place = "\(document):\(block.firstLine) (\(section.title))"
                // Another file of the example (a `routes.json`): written, not linted.
                if block.info != "routes", let name = block.fields["file"] {
                    let fileURL = workspace.appendingPathComponent(name)
                    try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try (block.lines.joined(separator: "\n") + "\n").write(to: fileURL, atomically: true, encoding: .utf8)
                    continue
                }
                if block.info == "routes" {
                    if let pending = pendingFile {
                        Issue.record("\(document):\(pending.line): `\(pending.name)` says nothing about linting: give it `lint: …` or follow it with `$ routes lint`")
                    }
                    for key in block.fields.keys where key != "file" && key != "lint" {
                        Issue.record("\(place): unknown field `\(key)` (known: file, lint)")
                    }
                    let name = block.fields["file"] ?? "App.routes"
                    let fileURL = workspace.appendingPathComponent(name)
                    try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try (block.lines.joined(separator: "\n") + "\n").write(to: fileURL, atomically: true, encoding: .utf8)
                    checkedFiles += 1
                    guard let lint = block.fields["lint"] else {
                        pendingFile = (name, block.firstLine)
                        continue
                    }
                    pendingFile = nil
                    let result = try Support.run(["lint", "--color", "never", name], in: workspace)
                    let expected = lint == "clean" ? [] : lint.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    #expect(Self.rules(inLintOutput: result.stdout) == expected,
                            "\(place): `routes lint \(name)` was expected to give \(lint):\n\(result.stdout)\(result.stderr)")
                    #expect(result.status == (result.stdout.contains(": error: ") ? 1 : 0), "\(place): exit status \(result.status)")
                } else if let first = block.lines.first, first.hasPrefix("$ routes ") {
                    var output: [String] = []
                    var index = 0
                    while index < block.lines.count {
                        let command = block.lines[index]
                        guard command.hasPrefix("$ routes ") else {
                            Issue.record("\(place): expected a `$ routes …` line, found \(command)")
                            break
                        }
                        var end = index + 1
                        while end < block.lines.count && !block.lines[end].hasPrefix("$ ") { end += 1 }
                        let arguments = Self.words(String(command.dropFirst("$ routes ".count)))
                        if let pending = pendingFile, arguments.first == "lint", arguments.contains(pending.name) { pendingFile = nil }
                        let result = try Support.run(arguments, in: workspace)
                        let actual = (result.stdout + result.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                        let printed = actual.last == "" ? Array(actual.dropLast()) : actual
                        let expected = Array(block.lines[(index + 1)..<end])
                        if !update {
                            #expect(printed == expected, "\(place): `\(command)` printed:\n\(printed.joined(separator: "\n"))")
                        }
                        output.append(command)
                        output.append(contentsOf: printed)
                        index = end
                    }
                    if update { replacements.append((block.firstLine..<(block.firstLine + block.lines.count), output)) }
                }
            }
            if let pending = pendingFile {
                Issue.record("\(document):\(pending.line): `\(pending.name)` says nothing about linting: give it `lint: …` or follow it with `$ routes lint`")
            }
        }
        #expect(checkedFiles > 0 || document == "README.md")
        if update && !replacements.isEmpty {
            for r in replacements.reversed() { lines.replaceSubrange(r.range, with: r.lines) }
            try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Links to the guide's sections (`docs/language.md#imports-and-programs`) from the
    /// repository's text files name headings that exist.
    @Test func linksToTheGuideNameItsHeadings() throws {
        let guide = try String(contentsOf: Support.packageRoot.appendingPathComponent("docs/language.md"), encoding: .utf8)
        var anchors = Set<String>()
        var inFence = false
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(Self.anchor(title))
        }
        var links = 0
        let fm = FileManager.default
        let roots = ["README.md", "docs", "Examples", "Editors", "Grammar", "Tests/editors", "Tests/lsp", "Tests/grammar"]
        for root in roots {
            let base = Support.packageRoot.appendingPathComponent(root)
            var files: [URL] = [base]
            if let walker = fm.enumerator(at: base, includingPropertiesForKeys: nil) {
                files = walker.compactMap { $0 as? URL }
            }
            for file in files {
                guard ["md", "routes", "el", "vim", "lua", "ts", "json", "py", "yaml", "ebnf", "sublime-syntax"].contains(file.pathExtension),
                      !file.path.contains("/node_modules/"),
                      let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                var rest = text[...]
                while let r = rest.range(of: "language.md#") {
                    let anchor = rest[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                    #expect(anchors.contains(String(anchor)), "\(file.path): no heading `#\(anchor)` in docs/language.md")
                    links += 1
                    rest = rest[r.upperBound...]
                }
            }
        }
        #expect(links > 0)
    }

    /// GitHub's anchor of a heading: lowercased, punctuation other than `-` and `_` dropped,
    /// spaces as `-`.
    static func anchor(_ title: String) -> String {
        String(title.lowercased().compactMap { c -> Character? in
            if c == " " { return "-" }
            if c.isLetter || c.isNumber || c == "-" || c == "_" { return c }
            return nil
        })
    }

    /// The convention's parts, on a small document: what a block says, how commands split.
    @Test func theConventionIsReadAsDocumented() {
        let doc = """
            # Title
            ## One
            <!-- file: lib/A.routes; lint: syntax-error, undefined-name -->
            ```routes
            screen A
            ```

            ```
            $ routes lint lib/A.routes
            out
            ```
            """
        let (_, sections) = Self.sections(of: doc)
        #expect(sections.map(\.title) == ["(top)", "One"])
        #expect(sections[1].blocks.count == 2)
        #expect(sections[1].blocks[0].fields == ["file": "lib/A.routes", "lint": "syntax-error, undefined-name"])
        #expect(sections[1].blocks[0].lines == ["screen A"])
        #expect(sections[1].blocks[1].lines == ["$ routes lint lib/A.routes", "out"])
        #expect(Self.words(#"tree App.routes --path 'Home/Detail(id: "1")' --flag "a=b\"c""#)
            == ["tree", "App.routes", "--path", #"Home/Detail(id: "1")"#, "--flag", #"a=b"c"#])
        #expect(Self.rules(inLintOutput: "A.routes:1:1: error: x [syntax-error]\n  A\nA.routes:2:1: note: y\nB:3:1: warning: z [unused-declaration]\n1 error")
            == ["syntax-error", "unused-declaration"])
        #expect(Self.anchor("Imports and programs") == "imports-and-programs")
        #expect(Self.anchor("`if let`: optionals") == "if-let-optionals")
    }
}
