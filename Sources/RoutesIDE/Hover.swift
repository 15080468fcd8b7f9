import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Hover: Markdown for a name (declaration or use), a parameter label, an import string or a
/// keyword. For a declared name: the declaration as one line of source in a ```routes
/// block, its doc comment, then what the analysis knows about it.
enum Hover {
    /// The tree shown for a builder or `root` is cut to this many nodes.
    static let treeLimits = RoutingTree.Limits(maxNodes: 40, maxDepth: 12, maxCounted: 10_000)

    static func info(session: AnalysisSession, file: FileID, offset: Int) -> HoverInfo? {
        let project = session.project
        guard let (target, _) = NameTarget.find(project: project, file: file, offset: offset) else { return nil }
        switch target {
        case .symbol(let referenced, let range, let isDeclaration):
            let markdown = symbol(session: session, referenced, file: file, range: range, isDeclaration: isDeclaration)
            return HoverInfo(markdown: markdown, range: range)
        case .unresolved:
            return nil
        case .parameter(let screen, let index, let range):
            let decl = project.declaration(screen)
            let parameter = decl.parameters[index]
            let markdown = code("\(parameter.label.text): \(parameter.type.isEmpty ? "?" : parameter.type)")
                + "\n\nParameter of screen `\(decl.name.text)`: a path literal may give it, e.g. `\(decl.name.text)(\(parameter.label.text): …)`."
            return HoverInfo(markdown: markdown, range: range)
        case .importString(let index, let range):
            return HoverInfo(markdown: importText(project, file: file, index: index), range: range)
        case .keyword(let token):
            guard let text = keywordText(project.files[file].syntax, token: token) else { return nil }
            return HoverInfo(markdown: text, range: project.files[file].syntax.tokens[token].range)
        }
    }

    static func code(_ text: String) -> String {
        "```routes\n\(text.hasSuffix("\n") ? text : text + "\n")```"
    }

    static func symbol(session: AnalysisSession, _ s: Symbol, file: FileID, range: Range<Int>, isDeclaration: Bool) -> String {
        let project = session.project
        let decl = project.declaration(s)
        var sections = [code(DeclarationText.line(decl))]
        var more: [String] = []
        if let doc = decl.doc, !doc.isEmpty { more.append(doc) }
        switch decl.kind {
        case .screen:
            let model = project.files[file].model
            let placement = isDeclaration ? nil : model.node(namedAt: range)
            if let placement, let own = model.nodes[placement].presentation {
                more.append(Self.presentationText(own) + " here (`as \(own.sourceText)`; declared `\(decl.presentation.sourceText)`).")
            } else {
                more.append(Self.presentationText(decl.presentation) + ".")
            }
            let example: AnalysisSession.ScreenExample
            if let node = placement, case .screen = model.nodes[node].kind {
                example = session.example(screenNode: node, file: file)
            } else {
                example = session.example(screen: s)
            }
            more.append(exampleText(example))
        case .builder, .root:
            let tree: RoutingTree
            if decl.kind == .root, let program = project.programs.first(where: { $0.root == s }) {
                tree = RoutingTree(program: program, project: project, limits: treeLimits)
            } else {
                tree = RoutingTree(builder: s, project: project, limits: treeLimits)
            }
            if tree.nodes.isEmpty {
                more.append("Builds nothing yet (its block holds no builder).")
            } else {
                more.append("Builds:\n\n" + code(tree.text))
            }
        case .dependency, .optional:
            more.append(scopeText(decl))
            if !isDeclaration, let here = scopeHere(session: session, s, file: file, range: range) {
                more.append(here)
            }
        case .flag:
            let uses = project.uses(of: s).count
            more.append("A runtime condition: `conditional \(decl.name.text) { A } else { B }` builds with A when it is true, with B when it is false.")
            more.append(uses == 0 ? "Not tested anywhere yet." : "Tested in \(uses) place\(uses == 1 ? "" : "s").")
        case .link:
            more.append(linkText(session: session, s))
        }
        if !more.isEmpty { sections.append(more.joined(separator: "\n\n")) }
        return sections.joined(separator: "\n\n---\n\n")
    }

    /// What a link opens, and when: the condition under which its path is built, per
    /// program that holds it.
    static func linkText(session: AnalysisSession, _ s: Symbol) -> String {
        let project = session.project
        var lines = ["A deep link: a URL that matches the pattern opens the path."]
        for program in project.programs where program.files.contains(s.file) {
            guard let link = session.links(ofProgramRootedAt: program.root)?.links.first(where: { $0.symbol == s }) else { continue }
            let place = project.programs.count > 1 ? " (in the program of \(project.files[program.root.file].displayPath))" : ""
            if let condition = link.condition {
                lines.append(condition == .always ? "The whole path is always built\(place)."
                             : condition == .never ? "**The path is never built whole\(place).**"
                             : "The whole path is built when `\(condition)`\(place).")
                // Where it is not: the path resolved under such an environment, as `routes link`
                // shows it (the placeholders as written).
                if condition != .always, let screens = link.screens, let failing = link.failingEnvironment,
                   let environment = try? ProgramEnvironment(failing, program: program, project: project) {
                    let resolution = Resolution.resolve(screens: screens, texts: link.declaration.elementTexts, program: program,
                                                        project: project, environment: environment)
                    lines.append("Where it is not:\n\n```\n" + resolution.text(project: project) + "```")
                }
            } else if link.typed == nil {
                lines.append("Takes no part in matching while it has an error.")
            }
        }
        return lines.joined(separator: "\n\n")
    }

    /// What a presentation does, as a sentence without its full stop.
    static func presentationText(_ p: Presentation) -> String {
        switch p {
        case .push: return "Presented by push on the current navigation stack"
        case .sheet: return "Presented modally as a sheet, with its own navigation stack"
        case .sheetNoPush: return "Presented modally as a sheet on which nothing can be pushed"
        case .cover: return "Presented full screen as a cover, with its own navigation stack"
        case .coverNoPush: return "Presented full screen as a cover on which nothing can be pushed"
        case .popover: return "Presented as a popover (a sheet on compact widths), with its own navigation stack"
        case .popoverNoPush: return "Presented as a popover (a sheet on compact widths) on which nothing can be pushed"
        }
    }

    static func exampleText(_ example: AnalysisSession.ScreenExample) -> String {
        switch example {
        case .reached(let path, let flags, let optionals):
            var env = flags.map { "`\($0.0)=\($0.1)`" }
            env += optionals.map { "`\($0.0)=\($0.1 ? "present" : "absent")`" }
            let environment = env.isEmpty ? "in any environment" : "with " + env.joined(separator: ", ")
            return "**Example:** the path `\(path.joined(separator: "/"))` reaches it \(environment)."
        case .unreachable(let why):
            return "**Unreachable:** \(why.hasSuffix(".") ? String(why.dropLast()) : why)."
        case .notAnalysed(let why):
            return "**Not analysed:** \(why)."
        }
    }

    static func scopeText(_ d: Declaration) -> String {
        let name = d.name.text
        switch (d.kind, d.from) {
        case (.dependency, nil):
            return "Always in scope: any screen may use it."
        case (.dependency, let provider?):
            return "Provided by a `\(provider.text)` screen to what is built after it (not to `\(provider.text)` itself): in scope where an earlier path element was built by `screen \(provider.text)`."
        case (_, nil):
            return "May be nil: in scope only inside `if let \(name) { }`."
        case (_, let provider?):
            return "Provided by a `\(provider.text)` screen to what is built after it, and may be nil: in scope only inside `if let \(name) { }`, which itself needs a `\(provider.text)` before it."
        }
    }

    /// At a name in a `uses` list: whether it is in scope at that screen node.
    static func scopeHere(session: AnalysisSession, _ s: Symbol, file: FileID, range: Range<Int>) -> String? {
        let model = session.project.files[file].model
        guard let node = model.nodes.firstIndex(where: { n in
            if case .screen(_, let uses, _) = n.kind { return model.uses(uses).contains { $0.range == range } }
            return false
        }) else { return nil }
        guard let status = session.scope(atNode: node, file: file).first(where: { $0.symbol == s })?.status else { return nil }
        switch status {
        case .inScope: return "**Here:** in scope on every way this screen node is built."
        case .notInScope(let why): return "**Here:** not in scope on every way: \(why)."
        case .unknown: return "**Here:** this node is in no program's routing tree, so no way to it is known."
        }
    }

    static func importText(_ project: Project, file: FileID, index: Int) -> String {
        let imp = project.files[file].model.imports[index]
        var text = code("import \(PathLiteral.quoted(imp.path))")
        guard index < project.importTargets[file].count, let target = project.importTargets[file][index] else {
            return text + "\n\n---\n\nThis file could not be loaded."
        }
        let imported = project.files[target]
        var counts: [DeclarationKind: Int] = [:]
        for decl in imported.model.declarations { counts[decl.kind, default: 0] += 1 }
        let parts: [String] = DeclarationKind.allCases.compactMap { k in
            guard let count = counts[k] else { return nil }
            if k == .root { return "`root`" }
            let plural = k == .dependency ? (count == 1 ? "dependency" : "dependencies") : k.rawValue + (count == 1 ? "" : "s")
            return "\(count) \(plural)"
        }
        text += "\n\n---\n\n`\(imported.displayPath)`"
        text += parts.isEmpty ? ": declares nothing." : ": declares " + parts.joined(separator: ", ") + "."
        return text
    }

    static func keywordText(_ tree: SyntaxTree, token t: Int) -> String? {
        let query = TreeQuery(tree)
        let kind = query.tokens[t].kind
        if kind == .identifier {
            let text = query.source.text(query.tokens[t].range)
            return Keywords.isContextual(text) ? Keywords.explanation(text) : nil
        }
        guard let word = Lexer.keywordText[kind] else { return nil }
        let path = query.ancestors(ofToken: t)
        let owner = query.kind(path[path.count - 1])
        var key = word
        switch kind {
        case .kwScreen:
            if owner == .screenDecl { key = "screen-declaration" } else if owner == .ifScreenBuilder { key = "if screen" }
        case .kwIf:
            key = owner == .ifScreenBuilder ? "if screen" : owner == .ifLetBuilder ? "if let" : "if"
        case .kwLet:
            key = "if let"
        default:
            break
        }
        return Keywords.explanation(key)
    }
}
