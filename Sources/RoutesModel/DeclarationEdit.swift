import RoutesSyntax

/// The project after an edit inside one declaration (see
/// ``Project/applyingDeclarationEdit(file:range:replacement:newSource:)``).
public struct ProjectDeclarationEdit: Sendable {
    /// The new project; nil when the edit changed what the rest of the project sees of the
    /// declaration otherwise than by its name (its kind, parameter labels or presentation),
    /// or renamed it where a name is declared twice or an import failed, so that every file's
    /// names must be resolved again. ``tree`` and ``model`` are right either way. (A rename
    /// resolves again the names of the files that see the declaration that may now stand for
    /// something else: see ``NodeSplice/resolvedAgain``.)
    public var project: Project?
    /// The edited file's new tree and model.
    public var tree: SyntaxTree
    public var model: FileModel
    /// Where positions of the old text are in the new one.
    public var shift: TriviaEdit
    /// Which nodes of the file the edited declaration's new nodes replaced.
    public var nodes: NodeSplice
    /// Whether every analysis result of the old project holds for the new one, positions moved
    /// by ``shift``: the declaration is a screen, dependency, optional or flag whose kind, name,
    /// parameter labels, presentation and `from` are unchanged. The analyses read nothing else
    /// of such a declaration (not its types, not its doc comment).
    public var keepsAnalysis: Bool
}

extension Project {
    /// The project after an edit of `file` inside one top-level declaration that leaves it one
    /// declaration without errors (``SyntaxTree/applyingDeclarationEdit(_:_:newSource:)``):
    /// only that declaration is parsed, lowered and name-resolved again; everything else is
    /// kept, positions moved. Nil when the edit is not such an edit (then the caller builds the
    /// project again).
    public func applyingDeclarationEdit(file f: FileID, range: Range<Int>, replacement: [UInt8], newSource: SourceText) -> ProjectDeclarationEdit? {
        // Where a failed import leaves names undefined, its error counts them: resolved again whole.
        guard keptEveryScope, files.indices.contains(f), !closures[f].contains(where: { g in failedImports.contains { $0.file == g } }),
              case let tree = files[f].syntax, let edit = tree.applyingDeclarationEdit(range, replacement, newSource: newSource) else { return nil }
        let old = files[f].model
        // An import changes which files the project has: not done here.
        guard tree.nodes[edit.node].kind != .importDecl, edit.tree.nodes[edit.node].kind != .importDecl,
              let i = Self.declarationIndex(startingAt: edit.oldRange.lowerBound, in: old) else { return nil }
        let fresh = Lowerer.with(edit.tree, file: f) { l in
            l.lowerDeclaration(edit.node)
            return l.model
        }
        guard fresh.imports.isEmpty, fresh.declarations.count == 1 else { return nil }
        let shift = edit.shift
        let (model, a, b) = Self.model(old, replacing: i, with: fresh, oldRange: edit.oldRange, shift: shift, file: f)
        let splice = NodeSplice(file: f, old: a..<b, count: fresh.nodes.count)
        let before = old.declarations[i], declaration = model.declarations[i]
        let sameShape = before.kind == declaration.kind && before.presentation == declaration.presentation
            && before.parameters.map(\.label.text) == declaration.parameters.map(\.label.text)
        let sameName = before.name.text == declaration.name.text && declaration.name.range == shift.map(before.name.range)
        guard sameShape else {
            return ProjectDeclarationEdit(project: nil, tree: edit.tree, model: model, shift: shift, nodes: splice, keepsAnalysis: false)
        }
        guard sameName else {
            let renamed = renaming(file: f, tree: edit.tree, model: model, shift: shift, oldRange: edit.oldRange,
                                   lowering: fresh.diagnostics, name: before.name.range,
                                   renamed: (Symbol(file: f, declaration: i), before.name.text, declaration.name.text, declaration.kind))
            return ProjectDeclarationEdit(project: renamed?.project, tree: edit.tree, model: model, shift: shift,
                                          nodes: NodeSplice(file: f, old: a..<b, count: fresh.nodes.count,
                                                            resolvedAgain: renamed?.files ?? [], resolvedNodes: renamed?.nodes ?? []),
                                          keepsAnalysis: false)
        }
        let sameFrom: Bool
        switch (before.from, declaration.from) {
        case (nil, nil): sameFrom = true
        case let (x?, y?): sameFrom = x.text == y.text && y.range == shift.map(x.range)
        default: sameFrom = false
        }
        let project = resolvingAgain(declaration: i, nodes: a..<(a + fresh.nodes.count), of: f, tree: edit.tree, model: model,
                                     oldRange: edit.oldRange, shift: shift, lowering: fresh.diagnostics, oldName: before.name.range)
        let keepsAnalysis = sameFrom && declaration.kind != .builder && declaration.kind != .root
        return ProjectDeclarationEdit(project: project, tree: edit.tree, model: model, shift: shift, nodes: splice, keepsAnalysis: keepsAnalysis)
    }

    /// File model `old` with its declaration i replaced by the one declaration of `fresh`
    /// (lowered alone), everything after it moved by `shift`; and the range a..<b of the old
    /// declaration's nodes (lowering appends each declaration's nodes after the ones before
    /// it): the new one's go there, the later ones move up or down.
    private static func model(_ old: FileModel, replacing i: Int, with fresh: FileModel, oldRange: Range<Int>, shift: TriviaEdit,
                              file f: FileID) -> (model: FileModel, a: Int, b: Int) {
        let a = (old.declarations[..<i].last(where: { $0.body != nil })?.body).map { $0 + 1 } ?? 0
        let b = old.declarations[i].body.map { $0 + 1 } ?? a
        let renumber = fresh.nodes.count - (b - a)
        var model = FileModel()
        model.imports = old.imports.map { Import(path: $0.path, range: shift.map($0.range)) }
        // Copied once, then changed in place: only what follows the declaration moves.
        var declaration = fresh.declarations[0]
        declaration.body = declaration.body.map { $0 + a }
        model.declarations = old.declarations
        model.declarations[i] = declaration
        for k in (i + 1)..<model.declarations.count { model.declarations[k].move(shift, renumber: renumber) }
        model.nodes = old.nodes
        model.nodes.replaceSubrange(a..<b, with: fresh.nodes.map { node in
            var node = node
            node.kind.renumber(a)
            return node
        })
        for k in (a + fresh.nodes.count)..<model.nodes.count { model.nodes[k].move(shift, renumber: renumber) }
        // Lowering reports only inside declarations (parameter labels).
        model.diagnostics = old.diagnostics.filter { !oldRange.contains($0.range.lowerBound) }.map { $0.shifted(shift, in: f) }
            + fresh.diagnostics
        return (model, a, b)
    }

    /// The project with file f's new tree and model, after an edit of its declaration i that
    /// kept its name and kind: the scopes stay (the other declarations' names resolve as
    /// before), and the names of the edited declaration (`nodes` of the new model) are
    /// resolved again.
    private func resolvingAgain(declaration i: Int, nodes: Range<Int>, of f: FileID, tree: SyntaxTree, model: FileModel,
                                oldRange: Range<Int>, shift: TriviaEdit, lowering: [Diagnostic], oldName: Range<Int>) -> Project {
        var p = self
        let file = files[f]
        p.files[f] = SourceFile(id: file.id, path: file.path, displayPath: file.displayPath, group: file.group,
                                workspaceRoot: file.workspaceRoot, syntax: tree, model: model)
        var resolved = ResolutionTable(capacity: resolutions[f].count + nodes.count)
        for (offset, symbol) in resolutions[f] where !oldRange.contains(offset) {
            resolved[shift.map(offset)] = symbol
        }
        var guessed: [Int: Symbol] = [:]
        for (offset, symbol) in guesses[f] where !oldRange.contains(offset) {
            guessed[shift.map(offset)] = symbol
        }
        var nameDiagnostics: [Diagnostic] = []
        p.resolveNames(in: f, declarations: i..<(i + 1), nodes: nodes, into: &resolved, guesses: &guessed, &nameDiagnostics)
        p.resolutions[f] = resolved
        p.guesses[f] = guessed
        // Every diagnostic moves, except those of the old declaration that came from its
        // contents (lowering, names), which are made again; a duplicate of its name stays.
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count + nameDiagnostics.count)
        for d in diagnostics {
            if d.file == f && oldRange.contains(d.range.lowerBound) {
                // The name checks of its contents are made again below; of its duplicates,
                // only the one of its name stays (a parameter's is lowered again).
                switch d.rule {
                case UndefinedName.id, WrongKind.id, InvalidWildcard.id: continue
                case DuplicateDeclaration.id where d.range != oldName: continue
                default: break
                }
            }
            kept.append(d.shifted(shift, in: f))
        }
        kept += lowering
        kept += nameDiagnostics
        p.diagnostics = kept
        return p
    }

    /// The project after an edit of file f inside one declaration that renamed it and kept
    /// its kind, parameter labels and presentation (`model`: the file's new model): the scopes
    /// of the files that see the declaration (those whose closure holds f) are made again (or
    /// renamed in), the edited file's names are resolved again, and in the other files that
    /// see it the names that may now stand for something else: the old and the new name, and
    /// every undefined name (the renamed declaration may now be, or no longer be, what it most
    /// likely meant). Everything else is kept. Nil where a rename could change more than
    /// those names (a name declared twice, before or after, is reported by whichever scope
    /// finds it; a failed import counts the names it leaves undefined): then every file is
    /// resolved again.
    private func renaming(file f: FileID, tree: SyntaxTree, model: FileModel, shift: TriviaEdit, oldRange: Range<Int>,
                          lowering: [Diagnostic], name: Range<Int>,
                          renamed: (symbol: Symbol, old: String, new: String, kind: DeclarationKind))
        -> (project: Project, files: [FileID], nodes: [[Int]])? {
        guard !diagnostics.contains(where: { $0.rule == DuplicateDeclaration.id }) else { return nil }
        let seeing = files.indices.filter { closures[$0].contains(f) }
        guard !seeing.contains(where: { g in closures[g].contains { h in failedImports.contains { $0.file == h } } }) else { return nil }
        var p = self
        let file = files[f]
        p.files[f] = SourceFile(id: file.id, path: file.path, displayPath: file.displayPath, group: file.group,
                                workspaceRoot: file.workspaceRoot, syntax: tree, model: model)
        // A scope laid over another's comes after it (its closure is one file longer).
        // A scope laid over no other is renamed in place (the program's root file sees every
        // name of the program: hashing them all again was most of a rename).
        for g in seeing.sorted(by: { closures[$0].count < closures[$1].count }) {
            if p.scopes[g].depth == 0, p.scopeBase(of: g) == nil,
               p.scopes[g].rename(renamed.old, to: renamed.new, renamed.symbol, kind: renamed.kind) {
                continue
            }
            let (scope, duplicates, _) = p.scope(of: g)
            guard duplicates.isEmpty else { return nil }
            p.scopes[g] = scope
        }
        // Per file that sees the declaration, other than f: where its undefined names start.
        var undefined: [FileID: Set<Int>] = [:]
        for g in seeing where g != f { undefined[g] = [] }
        for d in diagnostics where d.rule == UndefinedName.id && d.file != f { undefined[d.file]?.insert(d.range.lowerBound) }
        var nameDiagnostics: [Diagnostic] = []
        // Per file other than f: where the names resolved again start (their diagnostics are
        // made again).
        var redone: [FileID: Set<Int>] = [:]
        var nodes: [[Int]] = []
        for g in seeing {
            if g == f {
                let r = p.resolveNames(in: g)
                p.resolutions[g] = r.resolutions
                p.guesses[g] = r.guesses
                nameDiagnostics += r.diagnostics
                nodes.append(Array(model.nodes.indices))
                continue
            }
            let gModel = p.files[g].model
            let undefinedHere = undefined[g] ?? []
            func mayChange(_ n: Name) -> Bool {
                n.text == renamed.old || n.text == renamed.new || undefinedHere.contains(n.range.lowerBound)
            }
            var resolved = p.resolutions[g]
            var guessed = p.guesses[g]
            var starts = Set<Int>()
            func forget(_ n: Name) {
                resolved[n.range.lowerBound] = nil
                guessed[n.range.lowerBound] = nil
                starts.insert(n.range.lowerBound)
            }
            for i in gModel.declarations.indices {
                guard let from = gModel.declarations[i].from, mayChange(from) else { continue }
                forget(from)
                p.resolveNames(in: g, declarations: i..<(i + 1), nodes: 0..<0, into: &resolved, guesses: &guessed, &nameDiagnostics)
            }
            var mine: [Int] = []
            for i in gModel.nodes.indices {
                var hit = false
                gModel.forEachNameUse(declarations: 0..<0, nodes: i..<(i + 1)) { n, _ in if mayChange(n) { hit = true } }
                guard hit else { continue }
                gModel.forEachNameUse(declarations: 0..<0, nodes: i..<(i + 1)) { n, _ in forget(n) }
                p.resolveNames(in: g, declarations: 0..<0, nodes: i..<(i + 1), into: &resolved, guesses: &guessed, &nameDiagnostics)
                mine.append(i)
            }
            p.resolutions[g] = resolved
            p.guesses[g] = guessed
            redone[g] = starts
            nodes.append(mine)
        }
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count + nameDiagnostics.count)
        for d in diagnostics {
            switch d.rule {
            case UndefinedName.id, WrongKind.id, InvalidWildcard.id:
                if d.file == f { continue }
                if let starts = redone[d.file], starts.contains(d.range.lowerBound) { continue }
            default:
                break
            }
            // The old declaration's lowering diagnostics (a parameter label written twice) are
            // made again with it.
            if d.file == f && oldRange.contains(d.range.lowerBound) && d.range != name { continue }
            kept.append(d.file == f ? d.shifted(shift, in: f) : d)
        }
        p.diagnostics = kept + lowering + nameDiagnostics
        return (p, seeing, nodes)
    }

    /// The index of the declaration whose range starts at `offset` (declarations are in
    /// source order).
    static func declarationIndex(startingAt offset: Int, in model: FileModel) -> Int? {
        var lo = 0, hi = model.declarations.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if model.declarations[mid].range.lowerBound < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo < model.declarations.count && model.declarations[lo].range.lowerBound == offset ? lo : nil
    }
}

extension Declaration {
    /// Moves positions by an edit before the declaration and its body by `renumber` nodes.
    mutating func move(_ e: TriviaEdit, renumber: Int) {
        name.range = e.map(name.range)
        range = e.map(range)
        for p in parameters.indices { parameters[p].label.range = e.map(parameters[p].label.range) }
        if from != nil { from!.range = e.map(from!.range) }
        if renumber != 0, let b = body { body = b + renumber }
    }
}

extension BuilderNode {
    /// Moves positions by an edit before the node and its children by `renumber` nodes, in
    /// place (a payload array is copied only when it changes and another model shares it).
    mutating func move(_ e: TriviaEdit, renumber k: Int) {
        range = e.map(range)
        head = e.map(head)
        func moved(_ n: Name?) -> Name? {
            guard var n else { return nil }
            n.range = e.map(n.range)
            return n
        }
        switch kind {
        case .screen(let s, var uses, let nesting):
            kind = .missing  // so that `uses` is not shared with `kind` while it changes
            for u in uses.indices { uses[u].range = e.map(uses[u].range) }
            kind = .screen(moved(s), uses: uses, nesting: k == 0 ? nesting : nesting.map { $0 + k })
        case .anyOf:
            kind.renumber(k)
        case .conditional(let f, let a, let b): kind = .conditional(moved(f), then: a + k, else: b + k)
        case .ifLet(let o, let a, let b): kind = .ifLet(moved(o), then: a + k, else: b.map { $0 + k })
        case .ifScreen(let s, let a, let b): kind = .ifScreen(moved(s), then: a + k, else: b.map { $0 + k })
        case .wildcard(let s, let body): kind = .wildcard(moved(s), body: body + k)
        case .reference(let b): kind = .reference(moved(b)!)
        case .empty, .missing: break
        }
    }
}

extension BuilderNode.Kind {
    /// Moves every child id by `k`.
    mutating func renumber(_ k: Int) {
        guard k != 0 else { return }
        switch self {
        case .screen(let s, let uses, let nesting): self = .screen(s, uses: uses, nesting: nesting.map { $0 + k })
        case .anyOf(var branches):
            self = .missing
            for i in branches.indices { branches[i] += k }
            self = .anyOf(branches)
        case .conditional(let f, let a, let b): self = .conditional(f, then: a + k, else: b + k)
        case .ifLet(let o, let a, let b): self = .ifLet(o, then: a + k, else: b.map { $0 + k })
        case .ifScreen(let s, let a, let b): self = .ifScreen(s, then: a + k, else: b.map { $0 + k })
        case .wildcard(let s, let body): self = .wildcard(s, body: body + k)
        case .empty, .reference, .missing: break
        }
    }
}
