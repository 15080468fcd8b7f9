import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Context-aware completion (README.md, `routes lsp`, Features), read from the tokens before
/// the cursor and the recovered syntax tree around them, so that it works on the half-written
/// text an editor sends while the user types.
///
/// The context is decided by the last significant token before the word being completed
/// (see ``IDE/wordRange(project:file:offset:)``), `P`, and the node that owns it:
///
/// | P | completes |
/// |---|---|
/// | `screen` of a `screen` builder or of `if screen` | screens |
/// | `wildcard` | screens, those without parameters first |
/// | `from` of a `dependency`/`optional` | screens |
/// | `conditional` | flags |
/// | `let` of `if let` | optionals |
/// | `if` | `let`, `screen` |
/// | `uses`, or `,` in a uses list | dependencies and optionals: in scope at that node on every way first, then the others with the reason; names already listed left out |
/// | `{` of a block or `anyOf` | builder keywords and named builders (a builder position) |
/// | the end of an `anyOf` branch | a builder position, plus `uses` (and `as`, on its line) after a screen's name and `else` after an `if`'s block |
/// | the end of a block's builder | `uses` (and `as`, on its line) after a screen's name, `else` after an `if`'s or `conditional`'s block |
/// | `as` after a screen node's name | `push`, `sheet`, `cover`, `popover` |
/// | the end of a declaration, or nothing | declaration keywords (plus `push`/`sheet`/`cover`/`popover`, `from` on the same line) |
///
/// Inside the string of an `import`, the files and folders of the folder typed so far
/// (`ImportPaths.swift`). Nothing in comments or other strings, inside a declaration's head,
/// or where a new name is being declared. Items are filtered by the part of the word before
/// the cursor (a case-insensitive subsequence match) and sorted by `sortText`.
enum Completion {
    enum Context: Equatable {
        case none
        /// Declaration keywords, after the given continuation keywords of the declaration
        /// before the cursor.
        case topLevel(continuations: [String])
        /// Builder keywords and named builders, with extra keywords continuing the builder
        /// before the cursor (`uses`, `else`); `extrasFirst` when they are the likelier choice.
        case builderPosition(extras: [String], extrasFirst: Bool)
        /// Only keywords continuing the builder before the cursor.
        case continuation([String])
        case screens(wildcard: Bool)
        case flags
        case optionals
        /// `usesClause` and its `screenBuilder`: syntax node indices.
        case uses(clause: Int, screen: Int)
        /// Inside a link path element's parentheses, where a label goes.
        case linkLabels(element: Int)
        /// After `label:` in a link's path: the pattern's placeholders.
        case linkPlaceholders(declaration: Int)
        /// After `if`.
        case ifKind
    }

    /// The words a presentation starts with, in a declaration or after a placement's `as`.
    static let presentationKeywords = ["push", "sheet", "cover", "popover"]
    static let builderKeywords = ["screen", "anyOf", "conditional", "if let", "if screen", "wildcard", "empty"]
    static let declarationKeywords = ["import", "screen", "dependency", "optional", "flag", "builder", "root", "link"]

    // MARK: Word

    /// The identifier or keyword token the cursor is in or right after.
    static func wordToken(_ q: TreeQuery, _ offset: Int) -> Int? {
        guard !q.tokens.isEmpty else { return nil }
        let index = q.tree.tokenIndex(at: offset)
        let token = q.tokens[index]
        if token.start < offset && offset <= token.end && token.kind.isWord { return index }
        if token.start >= offset && index > 0 && q.tokens[index - 1].end == offset && q.tokens[index - 1].kind.isWord { return index - 1 }
        return nil
    }

    static func wordRange(_ q: TreeQuery, _ offset: Int) -> Range<Int> {
        if let path = importPath(q, offset) { return path.typed }
        return wordToken(q, offset).map { q.tokens[$0].range } ?? offset..<offset
    }

    /// The range an item may replace instead of inserting at ``wordRange(_:_:)``: that range,
    /// extended over the identifier or keyword the cursor stands at the start of.
    static func replaceRange(_ q: TreeQuery, _ offset: Int) -> Range<Int> {
        if let path = importPath(q, offset) { return path.segment }
        let word = wordRange(q, offset)
        guard word.isEmpty, !q.tokens.isEmpty else { return word }
        let index = q.tree.tokenIndex(at: offset)
        let token = q.tokens[index]
        return token.start == offset && token.kind.isWord ? token.range : word
    }

    // MARK: Items

    static func items(session: AnalysisSession, file: FileID, offset: Int, snippets: Bool,
                      directories: (any DirectoryLister)?) -> [CompletionItem] {
        let project = session.project
        guard project.files.indices.contains(file) else { return [] }
        let query = TreeQuery(project.files[file].syntax)
        let cursor = query.clamp(offset)
        var items: [CompletionItem]
        if let path = importPath(query, cursor) {
            let filter = Filter(typed: query.source.bytes[path.typed])
            items = importItems(project: project, file: file, folder: path.folder, filter: filter, directories: directories)
        } else {
            if query.isInsideCommentOrString(cursor) { return [] }
            let word = wordRange(query, cursor)
            let ctx = context(query, pos: word.lowerBound)
            let filter = Filter(typed: query.source.bytes[word.lowerBound..<cursor])
            items = build(ctx, session: session, file: file, q: query, word: word, filter: filter, snippets: snippets)
            items.removeAll { !filter.matches($0.label) }
        }
        // Sorted through indices: moving the items themselves costs more than comparing.
        let keys = items.map { $0.sortText ?? $0.label }
        let order = items.indices.sorted { i, j in
            keys[i] != keys[j] ? keys[i] < keys[j] : items[i].label < items[j].label
        }
        return order.map { items[$0] }
    }

    /// Editors' filtering: the typed part of the word must be a case-insensitive subsequence of
    /// the label that starts with the label's first character.
    struct Filter {
        let typed: [UInt8]
        init<C: Collection>(typed: C) where C.Element == UInt8 {
            self.typed = typed.map(Filter.lower)
        }
        static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
        func matches(_ label: String) -> Bool {
            guard let first = typed.first else { return true }
            var matched = 0
            var isFirst = true
            for byte in label.utf8 {
                let lowered = Filter.lower(byte)
                if isFirst {
                    guard lowered == first else { return false }
                    isFirst = false
                    matched = 1
                    continue
                }
                if matched < typed.count && lowered == typed[matched] { matched += 1 }
            }
            return !isFirst && matched == typed.count
        }
    }

    // MARK: Context

    static func context(_ q: TreeQuery, pos: Int) -> Context {
        guard let previous = q.previousToken(before: pos) else { return .topLevel(continuations: []) }
        let path = q.ancestors(ofToken: previous)
        let owner = path[path.count - 1]
        let ownerKind = q.kind(owner)
        let parent = path.count >= 2 ? path[path.count - 2] : 0
        if let link = linkContext(q, previous: previous, path: path, pos: pos) { return link }
        if ownerKind == .presentation, q.tokens[previous].kind == .identifier, q.source.text(q.tokens[previous].range) == "as" {
            return .continuation(presentationKeywords)
        }

        switch q.tokens[previous].kind {
        case .kwScreen:
            if ownerKind == .screenBuilder || ownerKind == .ifScreenBuilder { return .screens(wildcard: false) }
            if ownerKind == .screenDecl { return .none }
        case .kwWildcard:
            if ownerKind == .wildcardBuilder { return .screens(wildcard: true) }
        case .kwConditional:
            if ownerKind == .conditionalBuilder { return .flags }
        case .kwLet:
            if ownerKind == .ifLetBuilder { return .optionals }
        case .kwIf:
            if ownerKind == .ifLetBuilder || ownerKind == .ifScreenBuilder { return .ifKind }
        case .kwFrom:
            return ownerKind == .fromClause ? .screens(wildcard: false) : .none
        case .kwUses, .comma:
            if ownerKind == .usesClause && q.kind(parent) == .screenBuilder { return .uses(clause: owner, screen: parent) }
            return .none
        case .kwDependency, .kwOptional, .kwFlag, .kwBuilder, .kwImport:
            // A name (or a path) is being declared.
            if q.kind(owner) != .error { return .none }
        default:
            break
        }
        return structural(q, p: previous, path: path, pos: pos)
    }

    /// In a link's path: a screen after `->` or `/`, a label after `(` or `,`, a placeholder
    /// after `label:`. Past the end of a link, on a later line: nil (what follows the
    /// declaration).
    static func linkContext(_ q: TreeQuery, previous: Int, path: [Int], pos: Int) -> Context? {
        guard let declaration = path.first(where: { q.kind($0) == .linkDecl }) else { return nil }
        let owner = path[path.count - 1]
        switch q.tokens[previous].kind {
        case .arrow, .slash:
            return .screens(wildcard: false)
        case .lParen, .comma:
            return q.kind(owner) == .pathElement || q.kind(owner) == .pathArgument
                ? .linkLabels(element: path.last { q.kind($0) == .pathElement } ?? owner) : Context.none
        case .colon:
            return q.kind(owner) == .pathArgument ? .linkPlaceholders(declaration: declaration) : Context.none
        default:
            if previous == q.lastToken(declaration) && q.lineBreak(after: previous, before: pos) { return nil }
            return Context.none
        }
    }

    /// The context from the structure around `p`: the innermost `{ ... }` still open there.
    static func structural(_ q: TreeQuery, p: Int, path: [Int], pos: Int) -> Context {
        var containerDepth: Int? = nil
        for index in stride(from: path.count - 1, through: 0, by: -1) {
            let node = path[index]
            let kind = q.kind(node)
            guard kind == .block || kind == .anyOfBuilder else { continue }
            if let close = q.closingBrace(node), close <= p { continue }
            guard let open = q.openingBrace(node), open <= p else { continue }
            containerDepth = index
            break
        }
        guard let ci = containerDepth else { return topLevel(q, p: p, path: path, pos: pos) }
        let container = path[ci]
        guard ci + 1 < path.count else {
            // `p` is the container's own `{`.
            return q.tokens[p].kind == .lBrace ? .builderPosition(extras: [], extrasFirst: false) : .none
        }
        let child = path[ci + 1]
        guard q.lastToken(child) == p else { return .none }  // in the middle of a builder
        let sameLine = !q.lineBreak(after: p, before: pos)
        var extras: [String] = []
        var needsElse = false
        // `uses` after a screen's name.
        let owner = path[path.count - 1]
        if q.kind(owner) == .screenBuilder, q.tokens[p].kind == .identifier,
           q.children(owner).allSatisfy({ q.kind($0) != .usesClause && q.kind($0) != .block }) {
            extras.append("uses")
            // `as` (a presentation at this placement) right after the name, on its line.
            if sameLine && q.children(owner).allSatisfy({ q.kind($0) != .presentation }) { extras.append("as") }
        } else if q.kind(owner) == .presentation, path.count >= 2, q.kind(path[path.count - 2]) == .screenBuilder,
                  q.children(path[path.count - 2]).allSatisfy({ q.kind($0) != .usesClause && q.kind($0) != .block }),
                  !q.tree.diagnostics.contains(where: { $0.range.lowerBound == q.tokens[p].end && $0.range.isEmpty }) {
            // After a placement's whole presentation (`screen Detail as sheet`).
            extras.append("uses")
        }
        // `else` after the block of an `if` or a `conditional` that has none.
        if q.tokens[p].kind == .rBrace, path.count >= 2 {
            let blockOwner = path[path.count - 1]
            let decision = path[path.count - 2]
            let dk = q.kind(decision)
            if q.kind(blockOwner) == .block,
               dk == .conditionalBuilder || dk == .ifLetBuilder || dk == .ifScreenBuilder,
               !q.children(decision).contains(where: { q.kind($0) == .elseClause }) {
                extras.append("else")
                needsElse = dk == .conditionalBuilder
            }
        }
        if q.kind(container) == .anyOfBuilder && TreeQuery.builderKinds.contains(q.kind(child)) && !needsElse {
            return .builderPosition(extras: extras, extrasFirst: sameLine)
        }
        return extras.isEmpty ? .none : .continuation(extras)
    }

    /// Outside every block: after a declaration, a new one may start.
    static func topLevel(_ q: TreeQuery, p: Int, path: [Int], pos: Int) -> Context {
        guard path.count >= 2 else { return .topLevel(continuations: []) }
        let declaration = path[1]
        guard q.lastToken(declaration) == p else { return .none }
        if q.lineBreak(after: p, before: pos) { return .topLevel(continuations: []) }
        let end = q.tokens[p].end
        if q.tree.diagnostics.contains(where: { $0.range.lowerBound == end && $0.range.isEmpty }) {
            return .none  // something required is still missing after `p`
        }
        var continuations: [String] = []
        switch q.kind(declaration) {
        case .screenDecl:
            if !q.children(declaration).contains(where: { q.kind($0) == .presentation }) {
                continuations = presentationKeywords
            }
        case .dependencyDecl, .optionalDecl:
            let children = q.children(declaration)
            if children.contains(where: { q.kind($0) == .type }) && !children.contains(where: { q.kind($0) == .fromClause }) {
                continuations = ["from"]
            }
        default:
            break
        }
        return .topLevel(continuations: continuations)
    }

    // MARK: Building items

    static func build(_ ctx: Context, session: AnalysisSession, file: FileID, q: TreeQuery, word: Range<Int>,
                      filter: Filter, snippets: Bool) -> [CompletionItem] {
        let project = session.project
        /// Visible declarations of some kinds whose names pass the filter (unsorted).
        func visible(_ kinds: Set<DeclarationKind>) -> [(String, Symbol, Declaration)] {
            var out: [(String, Symbol, Declaration)] = []
            for (name, symbol) in project.scopes[file] where filter.matches(name) {
                let decl = project.files[symbol.file].model.declarations[symbol.declaration]
                if kinds.contains(decl.kind) { out.append((name, symbol, decl)) }
            }
            return out
        }
        func keywords(_ words: [String], group: String) -> [CompletionItem] {
            words.enumerated().map { i, w in
                keywordItem(w, sortText: group + String(format2(i)), snippets: snippets)
            }
        }

        switch ctx {
        case .none:
            return []
        case .topLevel(let continuations):
            return keywords(continuations, group: "0") + keywords(declarationKeywords, group: "1")
        case .continuation(let words):
            return keywords(words, group: "0")
        case .builderPosition(let extras, let extrasFirst):
            var items = keywords(builderKeywords, group: "1")
            items += visible([.builder]).map { name, _, d in
                nameItem(name, d, sortText: "2" + name)
            }
            items += keywords(extras, group: extrasFirst ? "0" : "3")
            return items
        case .screens(let wildcard):
            return visible([.screen]).map { name, _, d in
                var item = nameItem(name, d, sortText: "0" + name)
                if wildcard && !d.parameters.isEmpty {
                    item.sortText = "1" + name
                    let labels = d.parameters.map(\.label.text).joined(separator: ", ")
                    item.detail = "screen with parameters (\(labels)): a wildcard needs one without"
                }
                return item
            }
        case .flags:
            return visible([.flag]).map { name, _, d in nameItem(name, d, sortText: "0" + name) }
        case .optionals:
            return visible([.optional]).map { name, _, d in nameItem(name, d, sortText: "0" + name) }
        case .ifKind:
            return ["let", "screen"].enumerated().map { i, w in
                var item = CompletionItem(label: w, kind: .keyword, documentation: Keywords.explanation(w == "let" ? "if let" : "if screen"),
                                          sortText: "0" + format2(i))
                if snippets {
                    item.insertText = w == "let" ? "let ${1:optional} {\n\t$0\n}" : "screen ${1:Screen} {\n\t$0\n}"
                    item.isSnippet = true
                }
                return item
            }
        case .uses(let clause, let screen):
            return usesItems(session: session, file: file, q: q, clause: clause, screen: screen, word: word, filter: filter)
        case .linkLabels(let element):
            return linkLabelItems(project: project, file: file, q: q, element: element)
        case .linkPlaceholders(let declaration):
            return linkPlaceholderItems(q: q, declaration: declaration)
        }
    }

    /// The labels of a path element's screen that it does not give yet, in declared order.
    static func linkLabelItems(project: Project, file: FileID, q: TreeQuery, element: Int) -> [CompletionItem] {
        guard let first = q.firstToken(element), q.tokens[first].kind == .identifier,
              let screen = project.scopes[file][q.source.text(q.tokens[first].range)], project.declaration(screen).kind == .screen else { return [] }
        var given = Set<String>()
        for argument in q.children(element) where q.kind(argument) == .pathArgument {
            if let label = q.firstToken(argument) { given.insert(q.source.text(q.tokens[label].range)) }
        }
        return project.parameters(of: screen).enumerated().compactMap { index, parameter in
            guard !given.contains(parameter.label.text) else { return nil }
            var item = CompletionItem(label: parameter.label.text, kind: .label, detail: parameter.type, sortText: "0" + format2(index))
            item.insertText = parameter.label.text + ": "
            return item
        }
    }

    /// The placeholders of a link's pattern.
    static func linkPlaceholderItems(q: TreeQuery, declaration: Int) -> [CompletionItem] {
        var pattern: String? = nil
        var token = q.firstToken(declaration)
        while let current = token, current < Int(q.tree.nodes[declaration].tokenEnd) {
            if q.tokens[current].kind == .string {
                pattern = Lexer.stringValue(q.source.text(q.tokens[current].range)[...].utf8)
                break
            }
            token = current + 1
        }
        guard let pattern, case .success(let parsed) = LinkPattern.parse(pattern) else { return [] }
        return parsed.placeholders.enumerated().map { index, name in
            CompletionItem(label: name, kind: .placeholder, detail: "placeholder of the pattern", sortText: "0" + format2(index))
        }
    }

    static func format2(_ i: Int) -> String { i < 10 ? "0\(i)" : "\(i)" }

    static func usesItems(session: AnalysisSession, file: FileID, q: TreeQuery, clause: Int, screen: Int,
                          word: Range<Int>, filter: Filter) -> [CompletionItem] {
        let project = session.project
        // The name being edited (the cursor at its start, in it or at its end) is not listed:
        // it is offered like the others.
        let cursor = word.isEmpty ? word.lowerBound : -1
        var listed = Set<String>()
        for token in q.directTokens(clause) where q.tokens[token].kind == .identifier && q.tokens[token].range != word
            && q.tokens[token].start != cursor {
            listed.insert(q.source.text(q.tokens[token].range))
        }
        let model = project.files[file].model
        let statuses: [(symbol: Symbol, status: AnalysisSession.ScopeStatus)]
        if let node = model.node(startingAt: q.range(screen).lowerBound, kind: .screenBuilder) {
            statuses = session.scope(atNode: node, file: file)
        } else {
            statuses = project.scopes[file].compactMap { _, s in
                let kind = project.declaration(s).kind
                return kind == .dependency || kind == .optional ? (s, .unknown) : nil
            }
        }
        var items: [CompletionItem] = []
        for (symbol, status) in statuses {
            let decl = project.declaration(symbol)
            let name = decl.name.text
            guard !listed.contains(name), filter.matches(name) else { continue }
            var item = nameItem(name, decl, sortText: "0" + name)
            if case .notInScope(let why) = status {
                item.sortText = "1" + name
                item.detail = "not in scope: \(why)"
            }
            items.append(item)
        }
        return items
    }

    static func nameItem(_ name: String, _ d: Declaration, sortText: String) -> CompletionItem {
        let kind: CompletionItem.Kind
        switch d.kind {
        case .screen: kind = .screen
        case .builder, .root: kind = .builder
        case .dependency: kind = .dependency
        case .optional: kind = .optional
        case .flag: kind = .flag
        case .link: kind = .link
        }
        return CompletionItem(label: name, kind: kind, detail: DeclarationText.detail(d), documentation: d.doc,
                              sortText: sortText)
    }

    static func keywordItem(_ word: String, sortText: String, snippets: Bool) -> CompletionItem {
        var item = CompletionItem(label: word, kind: .keyword, documentation: Keywords.explanation(word), sortText: sortText)
        if snippets, let snippet = Keywords.snippet(word) {
            item.insertText = snippet
            item.isSnippet = true
        }
        return item
    }
}
