import RoutesSyntax

/// Turns a syntax tree into the PathBuilder model (as rust-analyzer lowers its AST to HIR).
/// Whatever a syntax error left incomplete becomes `.missing` or is left out; nothing here
/// reports syntax errors again.
public enum Lowering {
    /// - Parameter keeps: what the model keeps (``Project/Keeps``): without doc comments,
    ///   they are left out; without signatures, the screens' parameters and the Swift types
    ///   of dependencies and optionals are (a screen's parameters are checked, and
    ///   `Declaration.hasParameters` says whether it has some).
    /// - Parameter keepingParameters: whether the screens' parameters are kept even when
    ///   `keeps` leaves signatures out (a project with links, see `Project`).
    public static func lower(_ tree: SyntaxTree, file: FileID = 0, keeps: Project.Keeps = .everything,
                             keepingParameters: Bool = false) -> FileModel {
        Lowerer.with(tree, file: file) { lowerer in
            lowerer.keepsDocs = keeps.docComments
            lowerer.keepsSignatures = keeps.signatures
            lowerer.keepsParameters = keeps.signatures || keepingParameters
            lowerer.lowerFile()
            if !tree.diagnostics.isEmpty { lowerer.skipNamesOfDeclarationsWithErrors(tree.diagnostics) }
            // Reserved at one model node per syntax node: most syntax nodes are names, lists
            // and blocks, and the model is kept for as long as the file is.
            lowerer.model.nodes.dropUnusedCapacity()
            return lowerer.model
        }
    }

    /// The parameters of the screens of `tree` declared at `starts` (the first byte of each
    /// declaration, ``Declaration/range``), each declaration lowered alone: what a model that
    /// left them out (``Project/Keeps/signatures``) is asked for.
    static func screenParameters(_ tree: SyntaxTree, file: FileID, at starts: Set<Int>) -> [Int: [Parameter]] {
        Lowerer.with(tree, file: file) { lowerer in lowerer.screenParameters(at: starts) }
    }
}

/// Lowers over the tree's tokens, nodes and bytes as raw buffers, and names nodes by their
/// index in the tree: this walks every node of every file, and going through `SyntaxNode`
/// views (each holding the tree) and the tree's arrays cost a retain and a release per step.
struct Lowerer {
    typealias Node = SyntaxTree.NodeData

    let file: FileID
    private let tokens: UnsafeBufferPointer<Token>
    private let nodes: UnsafeBufferPointer<Node>
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The parts of the tree's `linkLine` tokens as the lexer read them, and where the next
    /// line's are.
    private let linkLineParts: [Int32]
    private var linkLinePartsAt = 0
    /// The source's bytes, for `linkLines`.
    private let source: [UInt8]
    /// The `link` lines the links of a lint's model are read from (see `lowerLinkLine`),
    /// made at the first.
    private var linkLines: LinkLines? = nil
    var model = FileModel()
    /// The branches of the `anyOf`s being lowered.
    private var branchStack: [NodeID] = []
    /// Whether declarations get their doc comments (see `Lowering.lower`).
    var keepsDocs = true
    /// Whether screens get their parameters, and dependencies and optionals their types (see
    /// `Lowering.lower`).
    var keepsSignatures = true
    /// Whether screens get their parameters (see `Lowering.lower`).
    var keepsParameters = true

    /// Runs `body` with a lowerer of `tree` (valid only inside `body`).
    static func with<R>(_ tree: SyntaxTree, file: FileID, _ body: (inout Lowerer) -> R) -> R {
        tree.tokens.withUnsafeBufferPointer { tokens in
            tree.nodes.withUnsafeBufferPointer { nodes in
                tree.source.bytes.withUnsafeBufferPointer { bytes in
                    var lowerer = Lowerer(file: file, tokens: tokens, nodes: nodes, bytes: bytes, source: tree.source.bytes,
                                          linkLineParts: tree.linkLineParts)
                    return body(&lowerer)
                }
            }
        }
    }

    private init(file: FileID, tokens: UnsafeBufferPointer<Token>, nodes: UnsafeBufferPointer<Node>,
                 bytes: UnsafeBufferPointer<UInt8>, source: [UInt8], linkLineParts: [Int32]) {
        self.file = file
        self.tokens = tokens
        self.nodes = nodes
        self.bytes = bytes
        self.source = source
        self.linkLineParts = linkLineParts
    }

    // MARK: The tree, by node index

    /// The text of a byte range (clamped to the source).
    private func text(_ range: Range<Int>) -> String {
        let lo = max(0, min(range.lowerBound, bytes.count))
        let hi = max(lo, min(range.upperBound, bytes.count))
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self)
    }

    /// The bytes node i covers (for no tokens, the empty range where its first would start).
    private func range(_ i: Int) -> Range<Int> {
        let start = Int(nodes[i].tokenStart), end = Int(nodes[i].tokenEnd)
        if start >= end {
            let at = start < tokens.count ? tokens[start].start : bytes.count
            return at..<at
        }
        return tokens[start].start..<tokens[end - 1].end
    }

    /// Whether node i's tokens before its block compare a name with `nil` by `==` (`if draft
    /// == nil {`, or `nil == draft`: an unknown token `==` next to the word `nil`).
    private func comparesEqualToNil(_ i: Int, before block: Int?) -> Bool {
        let end = block.map { Int(nodes[$0].tokenStart) } ?? Int(nodes[i].tokenEnd)
        var sawEquals = false, sawNil = false
        for token in Int(nodes[i].tokenStart)..<end {
            let t = tokens[token]
            if t.kind == .unknown && text(t.start..<t.end) == "==" { sawEquals = true }
            if t.kind == .identifier && text(t.start..<t.end) == "nil" { sawNil = true }
        }
        return sawEquals && sawNil
    }

    /// The first child of node i of a kind.
    private func firstChild(_ i: Int, _ kind: SyntaxKind) -> Int? {
        var j = i + 1
        let end = Int(nodes[i].subtreeEnd)
        while j < end {
            if nodes[j].kind == kind { return j }
            j = Int(nodes[j].subtreeEnd)
        }
        return nil
    }

    /// The first child of node i that is a builder.
    private func firstBuilder(_ i: Int) -> Int? {
        var j = i + 1
        let end = Int(nodes[i].subtreeEnd)
        while j < end {
            if nodes[j].kind.isBuilder { return j }
            j = Int(nodes[j].subtreeEnd)
        }
        return nil
    }

    /// Calls `body` with each non-trivia token node i owns directly (not through a child
    /// node); stops when it returns false.
    private func forEachDirectToken(_ i: Int, _ body: (Int) -> Bool) {
        var token = Int(nodes[i].tokenStart)
        let end = Int(nodes[i].tokenEnd)
        var child = i + 1
        let subtreeEnd = Int(nodes[i].subtreeEnd)
        while token < end {
            if child < subtreeEnd && Int(nodes[child].tokenStart) <= token {
                // A child node (an empty one takes no tokens) is stepped over.
                if nodes[child].tokenEnd > nodes[child].tokenStart { token = Int(nodes[child].tokenEnd) }
                child = Int(nodes[child].subtreeEnd)
                continue
            }
            if !tokens[token].kind.isSkipped && !body(token) { return }
            token += 1
        }
    }

    /// What a `presentation` node says (`sheet(allowsPush: false)`, or a placement's `as
    /// cover`): nil when its word is missing (a syntax error was reported).
    private func presentation(_ i: Int) -> Presentation? {
        var style: Presentation.Style? = nil
        var isPush = false
        var allowsPush = true
        forEachDirectToken(i) { token in
            switch tokens[token].kind {
            case .kwPush where style == nil: isPush = true
            case .kwSheet where style == nil && !isPush: style = .sheet
            case .identifier where style == nil && !isPush:
                let word = text(tokens[token].range)
                if word == "cover" { style = .cover } else if word == "popover" { style = .popover }
            case .kwFalse: allowsPush = false
            default: break
            }
            return true
        }
        if isPush { return .push }
        return style.map { Presentation(style: $0, allowsPush: allowsPush) }
    }

    private func firstDirectToken(_ i: Int) -> Int? {
        var first: Int? = nil
        forEachDirectToken(i) { first = $0; return false }
        return first
    }

    private func firstToken(_ i: Int, _ kind: TokenKind) -> Int? {
        var found: Int? = nil
        forEachDirectToken(i) { token in
            if tokens[token].kind == kind { found = token; return false }
            return true
        }
        return found
    }

    // MARK: Pieces

    private func name(_ token: Int?) -> Name? {
        guard let token else { return nil }
        let range = tokens[token].range
        return Name(text: text(range), range: range)
    }

    private func identifier(in i: Int) -> Name? {
        name(firstToken(i, .identifier))
    }

    /// The `///` lines right before token `first` (blank lines allowed, a `//` comment or
    /// another token ends them).
    func docComment(beforeToken first: Int) -> String? {
        // The lines' first token, going back; then their text, forwards, in one string.
        var index = first - 1
        var earliest = first
        var count = 0
        while index >= 0 {
            let kind = tokens[index].kind
            if kind == .docComment {
                earliest = index
                count += 1
            } else if kind != .whitespace && kind != .byteOrderMark {
                break
            }
            index -= 1
        }
        if count == 0 { return nil }
        /// A line without its `///` and one space after it.
        func lineText(_ line: Token) -> Range<Int> {
            var start = line.start + 3
            if start < line.end && bytes[start] == UInt8(ascii: " ") { start += 1 }
            return min(start, line.end)..<line.end
        }
        if count == 1 { return text(lineText(tokens[earliest])) }
        var out: [UInt8] = []
        for index in earliest..<first where tokens[index].kind == .docComment {
            if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineText(tokens[index])]))
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func docComment(before i: Int) -> String? {
        keepsDocs ? docComment(beforeToken: Int(nodes[i].tokenStart)) : nil
    }

    /// The type as written, normalized: no trivia; `: ` and `, ` after colons and commas,
    /// ` -> ` and ` & ` around arrows and ampersands, one space between words
    /// (`any Store`, `async throws`) and after an attribute (`@Sendable (Int) -> Void`).
    private func typeText(_ node: Int) -> String {
        // Most types are one name: its text as it is.
        var only: Int? = nil
        var several = false
        forEachDirectToken(node) { token in
            if only == nil { only = token } else { several = true }
            return !several
        }
        if !several, let only, Int(nodes[node].subtreeEnd) == node + 1, tokens[only].kind != .colon {
            return text(tokens[only].range)
        }
        func isWord(_ kind: TokenKind) -> Bool { kind == .identifier || kind == .attribute || kind.isKeyword }
        var out: [UInt8] = []
        /// `any (P & Q)`, `inout [Int]`: a word that prefixes a type keeps its space.
        func prefixesType(_ token: Token) -> Bool {
            let word = text(token.range)
            return word == "any" || word == "some" || word == "inout" || word == "borrowing" || word == "consuming" || word == "sending"
        }
        var previous: TokenKind? = nil
        var previousToken: Token? = nil
        for index in Int(nodes[node].tokenStart)..<Int(nodes[node].tokenEnd) {
            let token = tokens[index]
            if token.kind.isSkipped { continue }
            defer {
                previous = token.kind
                previousToken = token
            }
            switch token.kind {
            case .colon: out.append(contentsOf: ": ".utf8)
            case .comma: out.append(contentsOf: ", ".utf8)
            case .arrow: out.append(contentsOf: " -> ".utf8)
            case .ampersand: out.append(contentsOf: " & ".utf8)
            default:
                if let previous,
                   (isWord(previous) && isWord(token.kind)) || (previous == .attribute && (token.kind == .lParen || token.kind == .lBracket))
                    || (previous == .rParen && token.kind == .identifier)
                    || (previous == .identifier && (token.kind == .lParen || token.kind == .lBracket) && previousToken.map(prefixesType) == true) {
                    out.append(UInt8(ascii: " "))
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Declarations

    mutating func lowerFile() {
        // At most one model node per syntax node: no regrowing (and copying) while appending.
        model.nodes.reserveCapacity(nodes.count)
        var declarations = 0
        var j = 1
        let end = nodes.isEmpty ? 0 : Int(nodes[0].subtreeEnd)
        while j < end {
            declarations += 1
            j = Int(nodes[j].subtreeEnd)
        }
        model.declarations.reserveCapacity(declarations)
        j = 1
        while j < end {
            lowerDeclaration(j)
            j = Int(nodes[j].subtreeEnd)
        }
        collectSkippedNames()
    }

    /// See `Lowering.screenParameters(_:file:at:)`.
    mutating func screenParameters(at starts: Set<Int>) -> [Int: [Parameter]] {
        var found: [Int: [Parameter]] = [:]
        found.reserveCapacity(starts.count)
        var j = 1
        let end = nodes.isEmpty ? 0 : Int(nodes[0].subtreeEnd)
        // (Only the parameters are read: no doc comments; the model is emptied once, after.)
        let keptDocs = keepsDocs
        keepsDocs = false
        while j < end && found.count < starts.count {
            if nodes[j].kind == .screenDecl, case let start = range(j).lowerBound, starts.contains(start) {
                let before = model.declarations.count
                lowerDeclaration(j)
                found[start] = model.declarations.count > before ? model.declarations[before].parameters : []
            }
            j = Int(nodes[j].subtreeEnd)
        }
        keepsDocs = keptDocs
        model = FileModel()
        return found
    }

    /// The names of the declarations that hold a syntax error (`dependency api:` while its
    /// type is being typed), as names the file mentions (see ``FileModel/skippedNames``): a
    /// declaration half written is not reported unused or never placed, and so gets no fix
    /// that deletes it.
    mutating func skipNamesOfDeclarationsWithErrors(_ errors: [Diagnostic]) {
        var starts = errors.map(\.range.lowerBound)
        starts.sort()
        for declaration in model.declarations where declaration.kind != .root {
            let range = declaration.range
            // The first error at or after the declaration's start; in it when before its end
            // (or at its end: a token missing after its last).
            var low = 0, high = starts.count
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] < range.lowerBound { low = mid + 1 } else { high = mid }
            }
            if low < starts.count && starts[low] <= range.upperBound { model.skippedNames.append(declaration.name.text) }
        }
    }

    /// The identifiers inside the tree's error nodes (see ``FileModel/skippedNames``).
    mutating func collectSkippedNames() {
        var node = 1
        while node < nodes.count {
            guard nodes[node].kind == .error else {
                node += 1
                continue
            }
            for token in Int(nodes[node].tokenStart)..<Int(nodes[node].tokenEnd) where tokens[token].kind == .identifier {
                model.skippedNames.append(text(tokens[token].range))
            }
            node = Int(nodes[node].subtreeEnd)
        }
    }

    /// Lowers top-level node `child` of the tree (by index): appends its import or
    /// declaration (and a builder's or root's nodes, after every node lowered before).
    mutating func lowerDeclaration(_ child: Int) {
        switch nodes[child].kind {
        case .importDecl:
            // A malformed string was reported already; resolving it would only add noise.
            if let string = firstToken(child, .string), !tokens[string].isMalformed {
                let token = tokens[string]
                model.imports.append(Import(path: Lexer.stringValue(text(token.range)[...].utf8), range: token.range))
            } else {
                model.hasBrokenImport = true
            }
        case .screenDecl:
            guard let name = identifier(in: child) else { return }
            var declaration = Declaration(kind: .screen, name: name, range: range(child), doc: docComment(before: child))
            if let list = firstChild(child, .parameterList) {
                var parameter = list + 1
                let end = Int(nodes[list].subtreeEnd)
                while parameter < end {
                    defer { parameter = Int(nodes[parameter].subtreeEnd) }
                    // A parameter without a label (a syntax error, reported) is left out.
                    guard nodes[parameter].kind == .parameter, let first = firstDirectToken(parameter), tokens[first].kind.isLabel,
                          let label = self.name(first) else { continue }
                    let type = keepsParameters ? firstChild(parameter, .type).map(typeText) ?? "" : ""
                    // Screens have few parameters: a scan beats hashing.
                    if let earlier = declaration.parameters.first(where: { $0.label.text == label.text }) {
                        model.diagnostics.append(DuplicateDeclaration.diagnostic(
                            .parameter(label: label.text, screen: name.text), file: file, range: label.range,
                            firstFile: file, firstRange: earlier.label.range))
                        continue
                    }
                    declaration.parameters.append(Parameter(label: label, type: type))
                }
                if !keepsParameters && !declaration.parameters.isEmpty {
                    declaration.parameters = []
                    declaration.parametersLeftOut = true
                }
            }
            if let presentation = firstChild(child, .presentation), let read = self.presentation(presentation) {
                declaration.presentation = read
            }
            model.declarations.append(declaration)
        case .dependencyDecl, .optionalDecl:
            guard let name = identifier(in: child) else { return }
            var declaration = Declaration(kind: nodes[child].kind == .dependencyDecl ? .dependency : .optional,
                                          name: name, range: range(child), doc: docComment(before: child))
            if keepsSignatures { declaration.type = firstChild(child, .type).map(typeText) }
            // Read from a line without its keyword (reported): `dependency` or `optional`.
            // (A misspelt keyword, `dependecy`, kept in an error node first, says which.)
            let misspelt = firstChild(child, .error).map { nodes[$0].tokenStart == nodes[child].tokenStart } ?? false
            if firstToken(child, .kwDependency) == nil && firstToken(child, .kwOptional) == nil && !misspelt { declaration.kindGuessed = true }
            if let from = firstChild(child, .fromClause) {
                declaration.from = identifier(in: from)
            }
            model.declarations.append(declaration)
        case .flagDecl:
            guard let name = identifier(in: child) else { return }
            model.declarations.append(Declaration(kind: .flag, name: name, range: range(child), doc: docComment(before: child)))
        case .builderDecl:
            guard let name = identifier(in: child) else {
                // A builder without a usable name (reported): what its block names was meant
                // to be used, and is not reported unused or never placed for that mistake.
                for token in Int(nodes[child].tokenStart)..<Int(nodes[child].tokenEnd) where tokens[token].kind == .identifier {
                    model.skippedNames.append(text(tokens[token].range))
                }
                return
            }
            var declaration = Declaration(kind: .builder, name: name, range: range(child), doc: docComment(before: child))
            declaration.body = firstChild(child, .block).map { lowerBlock($0) }
            model.declarations.append(declaration)
        case .rootDecl:
            // Its keyword misspelt (`roots {`) or left out (a line that starts with `{`), both
            // reported: the name is where the keyword is written, or the `{`.
            guard let keyword = firstToken(child, .kwRoot) ?? (firstChild(child, .error) ?? firstChild(child, .block)).flatMap(firstDirectToken)
            else { return }
            let name = Name(text: "root", range: tokens[keyword].range)
            var declaration = Declaration(kind: .root, name: name, range: range(child), doc: docComment(before: child))
            declaration.body = lowerBlock(firstChild(child, .block))
            model.declarations.append(declaration)
        case .linkDecl:
            let first = Int(nodes[child].tokenStart)
            if first < Int(nodes[child].tokenEnd) && tokens[first].kind == .linkLine {
                model.declarations.append(lowerLinkLine(child, tokens[first]))
                return
            }
            // The first identifier is the word `link` itself; the second, the name.
            var seen = 0
            var second = -1
            forEachDirectToken(child) { token in
                if tokens[token].kind == .identifier {
                    seen += 1
                    if seen == 2 { second = token }
                }
                return seen < 2
            }
            guard second >= 0, let name = self.name(second) else { return }
            var declaration = Declaration(kind: .link, name: name, range: range(child), doc: docComment(before: child))
            declaration.link = lowerLink(child)
            model.declarations.append(declaration)
        default:
            return
        }
    }

    // MARK: Links

    /// The pattern and path of `link NAME "PATTERN" -> PATH`. A malformed string gives no
    /// pattern (the lexer reported it); an argument without a value is left out (the parser
    /// reported it).
    private func lowerLink(_ declaration: Int) -> LinkDeclaration {
        var pattern: String? = nil
        var patternRange = range(declaration).lowerBound..<range(declaration).lowerBound
        var verbatim = false
        var sources: [Range<Int32>]? = nil
        if let string = firstToken(declaration, .string) {
            let token = tokens[string]
            patternRange = token.range
            if !token.isMalformed {
                // Most patterns have no escape (no backslash): their bytes between the quotes
                // are their text. (Parsed by the link rules, see `ProjectLinks`.)
                let lo = max(0, min(token.range.lowerBound + 1, bytes.count))
                let hi = max(lo, min(token.range.upperBound - 1, bytes.count))
                let inner = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
                verbatim = !inner.contains(0x5C)
                if verbatim {
                    pattern = String(decoding: inner, as: UTF8.self)
                } else {
                    pattern = Lexer.stringValue(text(token.range)[...].utf8)
                    sources = Lexer.stringValueSources(text(token.range)[...].utf8).map { Int32($0.lowerBound)..<Int32($0.upperBound) }
                }
            }
        }
        var path: [LinkPathElement] = []
        if let list = firstChild(declaration, .linkPath) {
            forEachChild(list) { element in
                guard nodes[element].kind == .pathElement, let screen = identifier(in: element) else { return }
                var arguments: [LinkArgument] = []
                forEachChild(element) { argument in
                    guard nodes[argument].kind == .pathArgument, let argumentValue = linkArgument(argument) else { return }
                    arguments.append(argumentValue)
                }
                if path.isEmpty { path.reserveCapacity(4) }
                path.append(LinkPathElement(screen: screen, arguments: arguments, range: range(element)))
            }
        }
        return LinkDeclaration(pattern: pattern, patternRange: patternRange, patternIsVerbatim: verbatim, patternSources: sources, path: path)
    }

    /// A `link` declaration read as one token (`LinkLine`): its name, and a link read from
    /// the parts the lexer read (`LinkLines`), whose pattern and path are made only when
    /// asked (else the same declaration as `lowerLink` makes of its tokens, read again from
    /// its bytes).
    private mutating func lowerLinkLine(_ node: Int, _ line: Token) -> Declaration {
        let at = linkLinePartsAt
        let name: Range<Int>
        let link: LinkDeclaration
        if let end = LinkLine.recordEnd(linkLineParts, from: at, lineStart: line.start) {
            linkLinePartsAt = end
            if linkLines == nil { linkLines = LinkLines(bytes: source, parts: linkLineParts) }
            name = LinkLine.head(linkLineParts, at: at).name
            link = LinkDeclaration(lines: linkLines!, at: at)
        } else {
            var parts = LinkLineParts(bytes: bytes)
            _ = LinkLine.read(bytes, from: line.start, &parts)
            name = parts.name
            link = LinkDeclaration(pattern: text(LinkLine.text(ofPattern: parts.pattern)), patternRange: parts.pattern,
                                   patternIsVerbatim: true, path: parts.path)
        }
        var declaration = Declaration(kind: .link, name: Name(text: text(name), range: name), range: line.range,
                                      doc: docComment(before: node))
        declaration.link = link
        return declaration
    }

    /// `label: value`, nil without a value.
    private func linkArgument(_ argument: Int) -> LinkArgument? {
        // The first three tokens: label, `:`, value.
        var first = -1, third = -1, count = 0
        forEachDirectToken(argument) { token in
            count += 1
            if count == 1 { first = token }
            if count == 3 { third = token }
            return count < 3
        }
        guard count == 3, let label = name(first) else { return nil }
        let valueToken = tokens[third]
        let written = text(valueToken.range)
        let value: LinkValue
        switch valueToken.kind {
        case .string:
            guard !valueToken.isMalformed else { return nil }
            value = .string(Lexer.stringValue(written[...].utf8))
        case .number: value = .number(written)
        case .kwTrue: value = .bool(true)
        case .kwFalse: value = .bool(false)
        case .identifier: value = .placeholder(Name(text: written, range: valueToken.range))
        default: return nil
        }
        return LinkArgument(label: label, value: value, valueRange: valueToken.range)
    }

    /// Calls `body` with each child node of node i.
    private func forEachChild(_ i: Int, _ body: (Int) -> Void) {
        var child = i + 1
        let end = Int(nodes[i].subtreeEnd)
        while child < end {
            body(child)
            child = Int(nodes[child].subtreeEnd)
        }
    }

    // MARK: Builders

    private mutating func add(_ kind: BuilderNode.Kind, _ node: Int, headThrough last: Int?) -> NodeID {
        let range = range(node)
        var head = range
        if let first = firstDirectToken(node) {
            let end = last.map { tokens[$0].end } ?? tokens[first].end
            head = tokens[first].start..<max(end, tokens[first].end)
        }
        model.nodes.append(BuilderNode(kind: kind, range: range, head: head))
        return model.nodes.count - 1
    }

    private mutating func missing(at node: Int?) -> NodeID {
        let range = node.map(range) ?? 0..<0
        model.nodes.append(BuilderNode(kind: .missing, range: range, head: range))
        return model.nodes.count - 1
    }

    private mutating func lowerBlock(_ block: Int?) -> NodeID {
        guard let block, let builder = firstBuilder(block) else {
            return missing(at: block)
        }
        return lowerBuilder(builder)
    }

    /// The builder of an `else` clause: its block, or the `if` written after `else` by mistake.
    private mutating func lowerElse(_ clause: Int?) -> NodeID? {
        guard let clause else { return nil }
        if let builder = firstBuilder(clause) {
            return lowerBuilder(builder)
        }
        return lowerBlock(firstChild(clause, .block))
    }

    /// The error node right after node i (only blanks and comments between them) when the
    /// text it skipped holds a `{`: a block the parser could not read as node i's.
    private func skippedBlock(after i: Int) -> Int? {
        let next = Int(nodes[i].subtreeEnd)
        guard next < nodes.count, nodes[next].kind == .error else { return nil }
        let from = Int(nodes[i].tokenEnd), start = Int(nodes[next].tokenStart), end = Int(nodes[next].tokenEnd)
        guard from <= start, (from..<start).allSatisfy({ tokens[$0].kind.isTrivia }) else { return nil }
        return (start..<end).contains { tokens[$0].kind == .lBrace } ? next : nil
    }

    private mutating func lowerBuilder(_ node: Int) -> NodeID {
        let nameToken = firstToken(node, .identifier)
        let name = name(nameToken)
        switch nodes[node].kind {
        case .screenBuilder:
            // The nesting first: a file's lists follow its nodes' order (`BuilderNode.Span`).
            var nesting = firstChild(node, .block).map { lowerBlock($0) }
            if nesting == nil, let skipped = skippedBlock(after: node) {
                // `screen Home uses: store { … }`: the nesting was in the text skipped after
                // the error, and is a hole (what it builds is unknown), not none.
                nesting = missing(at: skipped)
            }
            let first = model.useNames.count
            if let clause = firstChild(node, .usesClause) {
                // Appended to while held apart from `self`: a closure that changed `self` while
                // `self` is read would be given a copy of it, and every append would copy the list.
                var names: [Name] = []
                swap(&names, &model.useNames)
                forEachDirectToken(clause) { token in
                    if tokens[token].kind == .identifier, let use = self.name(token) { names.append(use) }
                    return true
                }
                swap(&names, &model.useNames)
            }
            let uses = BuilderNode.Span(first..<model.useNames.count)
            let id = add(.screen(name, uses: uses, nesting: nesting), node, headThrough: nameToken)
            if let clause = firstChild(node, .presentation) { model.nodes[id].presentation = presentation(clause) }
            return id
        case .anyOfBuilder:
            var builders: [Int] = []
            var j = node + 1
            let end = Int(nodes[node].subtreeEnd)
            while j < end {
                if nodes[j].kind.isBuilder { builders.append(j) }
                j = Int(nodes[j].subtreeEnd)
            }
            // The branches wait on a stack while they are lowered (their own lists come first).
            let waiting = branchStack.count
            for builder in builders { branchStack.append(lowerBuilder(builder)) }
            let first = model.branchIDs.count
            model.branchIDs.append(contentsOf: branchStack[waiting...])
            branchStack.removeSubrange(waiting...)
            return add(.anyOf(BuilderNode.Span(first..<model.branchIDs.count)), node, headThrough: nil)
        case .conditionalBuilder:
            let then = lowerBlock(firstChild(node, .block))
            let els = lowerElse(firstChild(node, .elseClause)) ?? missing(at: nil)
            return add(.conditional(name, then: then, else: els), node, headThrough: nameToken)
        case .ifLetBuilder, .ifScreenBuilder:
            let block = firstChild(node, .block)
            var then = lowerBlock(block)
            var els = lowerElse(firstChild(node, .elseClause))
            let withoutLet = nodes[node].kind == .ifLetBuilder && firstToken(node, .kwLet) == nil
            if withoutLet && comparesEqualToNil(node, before: block) {
                // `if draft == nil { A } else { B }` (a syntax error): A where `draft` is
                // absent, B where it is present, as `if let draft { B } else { A }` builds.
                let at = range(block ?? node).lowerBound
                model.nodes.append(BuilderNode(kind: .empty, range: at..<at, head: at..<at))
                (then, els) = (els ?? model.nodes.count - 1, then)
            }
            let kind: BuilderNode.Kind = nodes[node].kind == .ifLetBuilder
                ? .ifLet(name, then: then, else: els) : .ifScreen(name, then: then, else: els)
            let id = add(kind, node, headThrough: nameToken)
            if withoutLet { model.nodes[id].anyCondition = true }
            return id
        case .wildcardBuilder:
            let body = lowerBlock(firstChild(node, .block))
            let id = add(.wildcard(name, body: body), node, headThrough: nameToken)
            if firstChild(node, .error) != nil { model.nodes[id].argumentsSkipped = true }
            return id
        case .emptyBuilder:
            return add(.empty, node, headThrough: nil)
        case .referenceBuilder:
            guard let name else { return missing(at: node) }
            return add(.reference(name), node, headThrough: nameToken)
        default:
            return missing(at: node)
        }
    }
}
