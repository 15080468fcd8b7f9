import RoutesModel
import RoutesSyntax

/// The shared parts of the fixes.
enum FixSupport {
    /// How a declaration is written when a fix adds one: `screen Inbox`,
    /// `dependency inboxStore: InboxStore`, `builder detail {\n  empty\n}`.
    static func declarationText(_ kind: DeclarationKind, _ name: String, newline: String) -> String? {
        switch kind {
        case .screen: return "screen \(name)"
        case .dependency, .optional: return "\(kind.rawValue) \(name): \(typeName(name))"
        case .flag: return "flag \(name)"
        case .builder: return "builder \(name) {\(newline)  empty\(newline)}"
        case .root, .link: return nil
        }
    }

    /// A type for a new dependency's name: the name with its first letter capitalised
    /// (`inboxStore`: `InboxStore`).
    static func typeName(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    /// The order in which a file lists its declarations: screens, dependencies, optionals,
    /// flags, builders, root.
    static func order(_ kind: DeclarationKind) -> Int {
        switch kind {
        case .screen: 0
        case .dependency: 1
        case .optional: 2
        case .flag: 3
        case .builder: 4
        case .root: 5
        case .link: 6
        }
    }

    /// The edit that adds `text` (a declaration, without a line break) to `file`: after the
    /// last declaration of its kind, else after the last of a kind listed before it, else
    /// before the first declaration, else at the end; on lines of its own, with the
    /// indentation of the declaration it follows. A builder gets a blank line before it.
    static func insertion(of text: String, kind: DeclarationKind, in file: SourceFile) -> TextEdit {
        let fixText = FixText(file)
        let nl = fixText.newline
        let declarations = file.model.declarations
        let gap = kind == .builder ? nl : ""
        let anchor = declarations.last { $0.kind == kind }
            ?? declarations.last { order($0.kind) < order(kind) && $0.kind != .root }
        if let anchor {
            let end = fixText.lineEnd(anchor.range.upperBound)
            let indent = fixText.indentation(anchor.range.lowerBound)
            return TextEdit(range: end..<end, newText: nl + gap + indent + text)
        }
        if let first = declarations.first {
            // Above the suppression comments right above it too (they are for its line), and
            // after a byte-order mark.
            var start = fixText.suppressionLinesStart(above: fixText.docCommentStart(before: first.range.lowerBound))
            if start == 0 && fixText.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
            return TextEdit(range: start..<start, newText: text + nl + (kind == .builder || kind == .root ? nl : ""))
        }
        let end = fixText.bytes.count
        let needsBreak = end > 0 && fixText.bytes[end - 1] != 0x0A && fixText.bytes[end - 1] != 0x0D
        return TextEdit(range: end..<end, newText: (needsBreak ? nl : "") + text + nl)
    }

    /// The first name `base` followed by a number from 2 that no declaration of the project
    /// has and that is no keyword.
    static func freshName(_ base: String, in project: Project) -> String {
        var taken = Set<String>()
        for file in project.files { for decl in file.model.declarations { taken.insert(decl.name.text) } }
        var suffix = 2
        while taken.contains(base + String(suffix)) || Lexer.keyword(base + String(suffix)) != nil { suffix += 1 }
        return base + String(suffix)
    }

    /// A string literal holding `text`.
    static func stringLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The node of a file's model that holds `node` as a branch, and the branch's position.
    static func anyOfHolding(_ node: NodeID, in model: FileModel) -> (anyOf: NodeID, index: Int)? {
        for (index, candidate) in model.nodes.enumerated() {
            if case .anyOf(let list) = candidate.kind, let branch = model.branches(list).firstIndex(of: node) { return (index, branch) }
        }
        return nil
    }

    /// The edits that wrap the builder at `range` of `file` in builders that hold it in their
    /// blocks, outermost first: `["screen P", "if let d"]` makes `screen P { if let d { … } }`.
    /// A builder standing alone on its lines gets each block on lines of their own and is
    /// indented two more spaces per block; one inside a line is wrapped where it is.
    static func wrapping(_ range: Range<Int>, in prefixes: [String], file: SourceFile) -> [TextEdit] {
        let fixText = FixText(file)
        let nl = fixText.newline
        guard fixText.standsAlone(range) else {
            return [TextEdit(range: range.lowerBound..<range.lowerBound, newText: prefixes.map { $0 + " { " }.joined()),
                    TextEdit(range: range.upperBound..<range.upperBound, newText: String(repeating: " }", count: prefixes.count))]
        }
        let indent = fixText.indentation(range.lowerBound)
        let step = String(repeating: "  ", count: prefixes.count)
        var open = ""
        for (depth, prefix) in prefixes.enumerated() {
            open += prefix + " {" + nl + indent + String(repeating: "  ", count: depth + 1)
        }
        // The comment lines right above the builder go inside with it: they are about it (a
        // `routes:ignore` comment there is for its line).
        let commentStart = fixText.commentBlockStart(above: range.lowerBound)
        let start = commentStart < fixText.lineStart(range.lowerBound) ? commentStart + fixText.indentation(commentStart).utf8.count : range.lowerBound
        var edits = [TextEdit(range: start..<start, newText: open)]
        // The builder's later lines, further in (blank lines stay blank).
        var line = fixText.nextLineStart(start)
        let last = fixText.lineStart(range.upperBound)
        while line <= last && line < fixText.bytes.count {
            if !fixText.lineIsBlank(line) { edits.append(TextEdit(range: line..<line, newText: step)) }
            line = fixText.nextLineStart(line)
        }
        var close = ""
        for depth in (0..<prefixes.count).reversed() { close += nl + indent + String(repeating: "  ", count: depth) + "}" }
        let end = fixText.lineEnd(range.upperBound)
        edits.append(TextEdit(range: end..<end, newText: close))
        return edits
    }

    /// Every name a builder's nodes mention, from node `root` down.
    static func names(under root: NodeID?, in model: FileModel) -> [Name] {
        guard let root else { return [] }
        var out: [Name] = []
        var stack = [root]
        while let nodeID = stack.popLast() {
            let node = model.nodes[nodeID]
            if let name = node.name { out.append(name) }
            if case .screen(_, let uses, _) = node.kind { out += model.uses(uses) }
            stack += node.children(in: model)
        }
        return out
    }
}
