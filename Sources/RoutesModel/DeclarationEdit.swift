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
    /// parameter labels, presentation and `from` are unchanged, or a link whose name is. The
    /// analyses of the tree read nothing else of such a declaration (not its types, not its
    /// doc comment, not a link).
    public var keepsAnalysis: Bool
    /// Whether the link rules must be judged again (over the kept analyses): the edited
    /// declaration is a link, or a screen (whose parameters' types type a link's placeholders).
    public var changesLinks = false
}

extension Project {
    /// The project after an edit of `file` inside one top-level declaration that leaves it one
    /// declaration without errors (``SyntaxTree/applyingDeclarationEdit(_:_:newSource:)``):
    /// only that declaration is parsed, lowered and name-resolved again; everything else is
    /// kept, positions moved. Nil when the edit is not such an edit (then the caller builds the
    /// project again).
    public func applyingDeclarationEdit(file f: FileID, range: Range<Int>, replacement: [UInt8], newSource: SourceText) -> ProjectDeclarationEdit? {
        // Where a failed or broken import leaves names undefined, its error stands for them: resolved again whole.
        guard keptEveryScope, files.indices.contains(f),
              !closures[f].contains(where: { seen in files[seen].model.hasBrokenImport || failedImports.contains { $0.file == seen } }),
              case let tree = files[f].syntax, let edit = tree.applyingDeclarationEdit(range, replacement, newSource: newSource) else { return nil }
        let old = files[f].model
        // An import changes which files the project has: not done here.
        guard tree.nodes[edit.node].kind != .importDecl, edit.tree.nodes[edit.node].kind != .importDecl,
              let index = Self.declarationIndex(startingAt: edit.oldRange.lowerBound, in: old) else { return nil }
        let fresh = Lowerer.with(edit.tree, file: f) { lowerer in
            lowerer.lowerDeclaration(edit.node)
            return lowerer.model
        }
        guard fresh.imports.isEmpty, fresh.declarations.count == 1 else { return nil }
        let shift = edit.shift
        let (model, start, end) = Self.model(old, replacing: index, with: fresh, oldRange: edit.oldRange, shift: shift, file: f)
        let splice = NodeSplice(file: f, old: start..<end, count: fresh.nodes.count)
        let before = old.declarations[index], declaration = model.declarations[index]
        let sameShape = before.kind == declaration.kind && before.presentation == declaration.presentation
            && before.parameters.map(\.label.text) == declaration.parameters.map(\.label.text)
        let sameName = before.name.text == declaration.name.text && declaration.name.range == shift.map(before.name.range)
        guard sameShape else {
            return ProjectDeclarationEdit(project: nil, tree: edit.tree, model: model, shift: shift, nodes: splice, keepsAnalysis: false)
        }
        guard sameName else {
            let renamed = renaming(file: f, tree: edit.tree, model: model, shift: shift, oldRange: edit.oldRange,
                                   lowering: fresh.diagnostics, name: before.name.range,
                                   renamed: (Symbol(file: f, declaration: index), before.name.text, declaration.name.text, declaration.kind))
            return ProjectDeclarationEdit(project: renamed?.project, tree: edit.tree, model: model, shift: shift,
                                          nodes: NodeSplice(file: f, old: start..<end, count: fresh.nodes.count,
                                                            resolvedAgain: renamed?.files ?? [], resolvedNodes: renamed?.nodes ?? []),
                                          keepsAnalysis: false)
        }
        let sameFrom: Bool
        switch (before.from, declaration.from) {
        case (nil, nil): sameFrom = true
        case let (was?, now?): sameFrom = was.text == now.text && now.range == shift.map(was.range)
        default: sameFrom = false
        }
        let project = resolvingAgain(declaration: index, nodes: start..<(start + fresh.nodes.count), of: f, tree: edit.tree, model: model,
                                     oldRange: edit.oldRange, shift: shift, lowering: fresh.diagnostics, oldName: before.name.range)
        let keepsAnalysis = sameFrom && declaration.kind != .builder && declaration.kind != .root
        return ProjectDeclarationEdit(project: project, tree: edit.tree, model: model, shift: shift, nodes: splice, keepsAnalysis: keepsAnalysis,
                                      changesLinks: project.hasLinks && (declaration.kind == .link || declaration.kind == .screen))
    }

    /// File model `old` with its declaration `index` replaced by the one declaration of
    /// `fresh` (lowered alone), everything after it moved by `shift`; and the range
    /// start..<end of the old declaration's nodes (lowering appends each declaration's nodes
    /// after the ones before it): the new one's go there, the later ones move up or down.
    private static func model(_ old: FileModel, replacing index: Int, with fresh: FileModel, oldRange: Range<Int>, shift: TriviaEdit,
                              file f: FileID) -> (model: FileModel, start: Int, end: Int) {
        let start = (old.declarations[..<index].last(where: { $0.body != nil })?.body).map { $0 + 1 } ?? 0
        let end = old.declarations[index].body.map { $0 + 1 } ?? start
        let renumber = fresh.nodes.count - (end - start)
        var model = FileModel()
        model.imports = old.imports.map { Import(path: $0.path, range: shift.map($0.range)) }
        // Copied once, then changed in place: only what follows the declaration moves.
        var declaration = fresh.declarations[0]
        declaration.body = declaration.body.map { $0 + start }
        model.declarations = old.declarations
        model.declarations[index] = declaration
        for later in (index + 1)..<model.declarations.count { model.declarations[later].move(shift, renumber: renumber) }
        // The lists of the old declaration's nodes lie together, between those of the nodes
        // before and after it (`BuilderNode.Span`): the new ones go there.
        let (usesStart, branchesStart) = old.listEnds(before: start)
        let (usesEnd, branchesEnd) = old.listEnds(before: end)
        let usesMoved = fresh.useNames.count - (usesEnd - usesStart)
        let branchesMoved = fresh.branchIDs.count - (branchesEnd - branchesStart)
        model.nodes = old.nodes
        model.nodes.replaceSubrange(start..<end, with: fresh.nodes.map { node in
            var node = node
            node.kind.renumber(start, uses: usesStart, branches: branchesStart)
            return node
        })
        for later in (start + fresh.nodes.count)..<model.nodes.count {
            model.nodes[later].move(shift, renumber: renumber, uses: usesMoved, branches: branchesMoved)
        }
        model.useNames = old.useNames
        model.useNames.replaceSubrange(usesStart..<usesEnd, with: fresh.useNames)
        for later in (usesStart + fresh.useNames.count)..<model.useNames.count { model.useNames[later].range = shift.map(model.useNames[later].range) }
        model.branchIDs = old.branchIDs
        model.branchIDs.replaceSubrange(branchesStart..<branchesEnd, with: fresh.branchIDs.map { $0 + start })
        if renumber != 0 {
            for later in (branchesStart + fresh.branchIDs.count)..<model.branchIDs.count { model.branchIDs[later] += renumber }
        }
        // Lowering reports only inside declarations (parameter labels).
        model.diagnostics = old.diagnostics.filter { !oldRange.contains($0.range.lowerBound) }.map { $0.shifted(shift, in: f) }
            + fresh.diagnostics
        return (model, start, end)
    }

    /// The project with file f's new tree and model, after an edit of its declaration `index`
    /// that kept its name and kind: the scopes stay (the other declarations' names resolve as
    /// before), and the names of the edited declaration (`nodes` of the new model) are
    /// resolved again.
    private func resolvingAgain(declaration index: Int, nodes: Range<Int>, of f: FileID, tree: SyntaxTree, model: FileModel,
                                oldRange: Range<Int>, shift: TriviaEdit, lowering: [Diagnostic], oldName: Range<Int>) -> Project {
        var project = self
        let edited = files[f]
        project.files[f] = SourceFile(id: edited.id, path: edited.path, displayPath: edited.displayPath, group: edited.group,
                                      workspaceRoot: edited.workspaceRoot, syntax: tree, model: model)
        project.noteLinks(of: f)
        var resolved = ResolutionTable(capacity: resolutions[f].count + nodes.count)
        for (offset, symbol) in resolutions[f] where !oldRange.contains(offset) {
            resolved[shift.map(offset)] = symbol
        }
        var guessed: [Int: Symbol] = [:]
        for (offset, symbol) in guesses[f] where !oldRange.contains(offset) {
            guessed[shift.map(offset)] = symbol
        }
        var nameDiagnostics: [Diagnostic] = []
        project.resolveNames(in: f, declarations: index..<(index + 1), nodes: nodes, into: &resolved, guesses: &guessed, &nameDiagnostics)
        project.resolutions[f] = resolved
        project.guesses[f] = guessed
        // Every diagnostic moves, except those of the old declaration that came from its
        // contents (lowering, names), which are made again; a duplicate of its name stays.
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count + nameDiagnostics.count)
        for diagnostic in diagnostics {
            if diagnostic.file == f && oldRange.contains(diagnostic.range.lowerBound) {
                // The name checks of its contents are made again below; of its duplicates,
                // only the one of its name stays (a parameter's is lowered again).
                switch diagnostic.rule {
                case UndefinedName.id, WrongKind.id, InvalidWildcard.id: continue
                case DuplicateDeclaration.id where diagnostic.range != oldName: continue
                default: break
                }
            }
            kept.append(diagnostic.shifted(shift, in: f))
        }
        kept += lowering
        kept += nameDiagnostics
        project.diagnostics = kept
        return project
    }

    /// The project after an edit of file f inside one declaration that renamed it and kept
    /// its kind, parameter labels and presentation (`model`: the file's new model): the scopes
    /// of the files that see the declaration (those whose closure holds f) are made again (or
    /// renamed in), the edited file's names are resolved again, and in the other files that
    /// see it the names that may now stand for something else: the old and the new name, and
    /// every undefined name (the renamed declaration may now be, or no longer be, what it most
    /// likely meant), and in the files that do not see it the undefined names written as its
    /// old or new name (a file that imports them may see it). Everything else is kept. Nil
    /// where a rename could change more than
    /// those names (a name declared twice, before or after, is reported by whichever scope
    /// finds it; a failed import counts the names it leaves undefined): then every file is
    /// resolved again.
    private func renaming(file f: FileID, tree: SyntaxTree, model: FileModel, shift: TriviaEdit, oldRange: Range<Int>,
                          lowering: [Diagnostic], name: Range<Int>,
                          renamed: (symbol: Symbol, old: String, new: String, kind: DeclarationKind))
        -> (project: Project, files: [FileID], nodes: [[Int]])? {
        guard !diagnostics.contains(where: { $0.rule == DuplicateDeclaration.id }) else { return nil }
        let seeing = files.indices.filter { closures[$0].contains(f) }
        guard !seeing.contains(where: { seer in
            closures[seer].contains { seen in files[seen].model.hasBrokenImport || failedImports.contains { $0.file == seen } }
        }) else { return nil }
        var project = self
        let edited = files[f]
        project.files[f] = SourceFile(id: edited.id, path: edited.path, displayPath: edited.displayPath, group: edited.group,
                                      workspaceRoot: edited.workspaceRoot, syntax: tree, model: model)
        project.noteLinks(of: f)
        // A scope laid over another's comes after it (its closure is one file longer).
        // A scope laid over no other is renamed in place (the program's root file sees every
        // name of the program: hashing them all again was most of a rename).
        for file in seeing.sorted(by: { closures[$0].count < closures[$1].count }) {
            if project.scopes[file].depth == 0, project.scopeBase(of: file) == nil,
               project.scopes[file].rename(renamed.old, to: renamed.new, renamed.symbol, kind: renamed.kind) {
                continue
            }
            let (scope, duplicates, _) = project.scope(of: file)
            guard duplicates.isEmpty else { return nil }
            project.scopes[file] = scope
        }
        // Per file that sees the declaration, other than f: where its undefined names start.
        var undefined: [FileID: Set<Int>] = [:]
        for file in seeing where file != f { undefined[file] = [] }
        // And the files that do not see it, where an undefined name is its old or new name:
        // what the files importing them see of that name may have changed (the declaration an
        // `UndefinedName` error names when nothing in scope is close).
        var unseeing: [FileID] = []
        for diagnostic in diagnostics where diagnostic.rule == UndefinedName.id && diagnostic.file != f {
            if undefined[diagnostic.file] == nil {
                guard let finding = diagnostic.detail?.value(as: UndefinedName.Finding.self),
                      finding.name == renamed.old || finding.name == renamed.new else { continue }
                unseeing.append(diagnostic.file)
                undefined[diagnostic.file] = []
            }
            undefined[diagnostic.file]!.insert(diagnostic.range.lowerBound)
        }
        let unseeingSet = Set(unseeing)
        var nameDiagnostics: [Diagnostic] = []
        // Per file other than f: where the names resolved again start (their diagnostics are
        // made again).
        var redone: [FileID: Set<Int>] = [:]
        var nodes: [[Int]] = []
        for file in seeing + unseeing.sorted() {
            if file == f {
                let resolution = project.resolveNames(in: file)
                project.resolutions[file] = resolution.resolutions
                project.guesses[file] = resolution.guesses
                nameDiagnostics += resolution.diagnostics
                nodes.append(Array(model.nodes.indices))
                continue
            }
            let fileModel = project.files[file].model
            let undefinedHere = undefined[file] ?? []
            let seesIt = !unseeingSet.contains(file)
            func mayChange(_ use: Name) -> Bool {
                undefinedHere.contains(use.range.lowerBound)
                    ? seesIt || use.text == renamed.old || use.text == renamed.new
                    : seesIt && (use.text == renamed.old || use.text == renamed.new)
            }
            var resolved = project.resolutions[file]
            var guessed = project.guesses[file]
            var starts = Set<Int>()
            func forget(_ use: Name) {
                resolved[use.range.lowerBound] = nil
                guessed[use.range.lowerBound] = nil
                starts.insert(use.range.lowerBound)
            }
            // The names declarations mention: a `from`, the screens of a link's path.
            for i in fileModel.declarations.indices {
                var hit = false
                fileModel.forEachNameUse(declarations: i..<(i + 1), nodes: 0..<0) { use, _, _ in if mayChange(use) { hit = true } }
                guard hit else { continue }
                fileModel.forEachNameUse(declarations: i..<(i + 1), nodes: 0..<0) { use, _, _ in forget(use) }
                project.resolveNames(in: file, declarations: i..<(i + 1), nodes: 0..<0, into: &resolved, guesses: &guessed, &nameDiagnostics)
            }
            var mine: [Int] = []
            for node in fileModel.nodes.indices {
                var hit = false
                fileModel.forEachNameUse(declarations: 0..<0, nodes: node..<(node + 1)) { use, _, _ in if mayChange(use) { hit = true } }
                guard hit else { continue }
                fileModel.forEachNameUse(declarations: 0..<0, nodes: node..<(node + 1)) { use, _, _ in forget(use) }
                project.resolveNames(in: file, declarations: 0..<0, nodes: node..<(node + 1), into: &resolved, guesses: &guessed, &nameDiagnostics)
                mine.append(node)
            }
            project.resolutions[file] = resolved
            project.guesses[file] = guessed
            redone[file] = starts
            nodes.append(mine)
        }
        var kept: [Diagnostic] = []
        kept.reserveCapacity(diagnostics.count + nameDiagnostics.count)
        for diagnostic in diagnostics {
            switch diagnostic.rule {
            case UndefinedName.id, WrongKind.id, InvalidWildcard.id:
                if diagnostic.file == f { continue }
                if let starts = redone[diagnostic.file], starts.contains(diagnostic.range.lowerBound) { continue }
            default:
                break
            }
            // The old declaration's lowering diagnostics (a parameter label written twice) are
            // made again with it.
            if diagnostic.file == f && oldRange.contains(diagnostic.range.lowerBound) && diagnostic.range != name { continue }
            kept.append(diagnostic.file == f ? diagnostic.shifted(shift, in: f) : diagnostic)
        }
        project.diagnostics = kept + lowering + nameDiagnostics
        return (project, seeing + unseeing.sorted(), nodes)
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
    mutating func move(_ edit: TriviaEdit, renumber: Int) {
        name.range = edit.map(name.range)
        range = edit.map(range)
        for i in parameters.indices { parameters[i].label.range = edit.map(parameters[i].label.range) }
        if from != nil { from!.range = edit.map(from!.range) }
        if let moved = link?.moved(edit) { link = moved }
        if renumber != 0, let current = body { body = current + renumber }
    }
}

extension FileModel {
    /// Where the lists of node `id` and the nodes after it begin in `useNames` and
    /// `branchIDs`: the ends of the last lists of the nodes before it.
    func listEnds(before id: NodeID) -> (uses: Int, branches: Int) {
        var uses: Int?, branches: Int?
        var i = id - 1
        while i >= 0 && (uses == nil || branches == nil) {
            switch nodes[i].kind {
            case .screen(_, let span, _) where uses == nil: uses = span.range.upperBound
            case .anyOf(let span) where branches == nil: branches = span.range.upperBound
            default: break
            }
            i -= 1
        }
        return (uses ?? 0, branches ?? 0)
    }
}

extension BuilderNode {
    /// Moves positions by an edit before the node, its children by `renumber` nodes and its
    /// lists by `uses` names and `branches` branches (the names and branches themselves are
    /// its file's, moved there).
    mutating func move(_ edit: TriviaEdit, renumber offset: Int, uses: Int = 0, branches: Int = 0) {
        range = edit.map(range)
        head = edit.map(head)
        func moved(_ name: Name?) -> Name? {
            guard var name else { return nil }
            name.range = edit.map(name.range)
            return name
        }
        switch kind {
        case .screen(let screen, let span, let nesting):
            kind = .screen(moved(screen), uses: span.moved(by: uses), nesting: offset == 0 ? nesting : nesting.map { $0 + offset })
        case .anyOf(let span):
            kind = .anyOf(span.moved(by: branches))
        case .conditional(let flag, let then, let otherwise):
            kind = .conditional(moved(flag), then: then + offset, else: otherwise + offset)
        case .ifLet(let optional, let then, let otherwise):
            kind = .ifLet(moved(optional), then: then + offset, else: otherwise.map { $0 + offset })
        case .ifScreen(let screen, let then, let otherwise):
            kind = .ifScreen(moved(screen), then: then + offset, else: otherwise.map { $0 + offset })
        case .wildcard(let screen, let body): kind = .wildcard(moved(screen), body: body + offset)
        case .reference(let builder): kind = .reference(moved(builder)!)
        case .empty, .missing: break
        }
    }
}

extension BuilderNode.Kind {
    /// Moves every child id by `offset`, and the lists by `uses` names and `branches`
    /// branches (an `anyOf`'s branch ids are its file's, moved there).
    mutating func renumber(_ offset: Int, uses: Int, branches: Int) {
        switch self {
        case .screen(let screen, let span, let nesting):
            self = .screen(screen, uses: span.moved(by: uses), nesting: nesting.map { $0 + offset })
        case .anyOf(let span):
            self = .anyOf(span.moved(by: branches))
        case .conditional(let flag, let then, let otherwise):
            self = .conditional(flag, then: then + offset, else: otherwise + offset)
        case .ifLet(let optional, let then, let otherwise):
            self = .ifLet(optional, then: then + offset, else: otherwise.map { $0 + offset })
        case .ifScreen(let screen, let then, let otherwise):
            self = .ifScreen(screen, then: then + offset, else: otherwise.map { $0 + offset })
        case .wildcard(let screen, let body): self = .wildcard(screen, body: body + offset)
        case .empty, .reference, .missing: break
        }
    }
}
