import RoutesModel
import RoutesSyntax

/// A short label an editor shows inside the text, where the source leaves something implicit.
public struct InlayHint: Sendable, Hashable {
    /// LSP's `InlayHintKind`.
    public enum Kind: Int, Sendable, Hashable {
        case type = 1
        case parameter = 2
    }
    /// Where it is shown (a byte offset: the label goes before the byte there).
    public var offset: Int
    public var label: String
    public var kind: Kind?
    /// Markdown shown on hover.
    public var tooltip: String?

    public init(offset: Int, label: String, kind: Kind? = nil, tooltip: String? = nil) {
        self.offset = offset
        self.label = label
        self.kind = kind
        self.tooltip = tooltip
    }
}

extension IDE {
    /// The most names a `provides` hint lists before `+N`.
    static let providedNamesShown = 3

    /// The hints of the screen nodes of `file` within `range` (README.md, `routes lsp`), in
    /// source order. Two things a screen node leaves implicit, because they are written on
    /// the screen's declaration, possibly in another file:
    ///
    /// - its presentation, after the screen's name, when it is not the default push and the
    ///   node does not give its own (`as …`): `sheet`, `sheet, no push`, `cover`, `popover`
    ///   … (a push onto a screen shown this way starts a modal stack, or is not allowed);
    /// - the dependencies and optionals it provides (`dependency cart: Cart from Home`)
    ///   to what it nests, after its `uses` list, when it nests something:
    ///   `provides cart, session` (at most three names, then `+N`). The tooltip lists them
    ///   with their types.
    ///
    /// Nothing for names that do not resolve to a screen. Only the project is read (no analysis),
    /// so hints are as cheap as a scan of the nodes in `range`.
    public static func inlayHints(project: Project, file: FileID, range: Range<Int>) -> [InlayHint] {
        guard project.files.indices.contains(file) else { return [] }
        let model = project.files[file].model
        let lower = max(0, range.lowerBound), upper = min(range.upperBound, project.files[file].text.count)
        guard lower <= upper else { return [] }
        var provided: [Symbol: [Symbol]]? = nil
        var out: [InlayHint] = []
        for node in model.nodes {
            guard case .screen(let name?, let uses, let nesting) = node.kind,
                  node.range.upperBound >= lower, node.range.lowerBound <= upper,
                  let screen = project.resolve(name, in: file), project.kind(of: screen) == .screen else { continue }
            let decl = project.declaration(screen)
            let nameEnd = name.range.upperBound
            if decl.presentation != .push, node.presentation == nil, (lower...upper).contains(nameEnd) {
                let label = decl.presentation.previewText
                out.append(InlayHint(offset: nameEnd, label: label, kind: .type,
                                     tooltip: "`\(decl.name.text)` is declared `\(DeclarationText.line(decl))`."))
            }
            guard nesting != nil else { continue }
            let headEnd = model.uses(uses).last?.range.upperBound ?? nameEnd
            guard (lower...upper).contains(headEnd) else { continue }
            if provided == nil { provided = providers(project, file: file) }
            guard let names = provided?[screen], !names.isEmpty else { continue }
            let shown = names.prefix(providedNamesShown).map { project.declaration($0).name.text }
            var label = "provides " + shown.joined(separator: ", ")
            if names.count > shown.count { label += " +\(names.count - shown.count)" }
            let lines = names.map { "- " + DeclarationText.line(project.declaration($0)).replacingBackticks() }
            out.append(InlayHint(offset: headEnd, label: label,
                                 tooltip: "In scope in what `\(decl.name.text)` nests:\n\n" + lines.joined(separator: "\n")))
        }
        // In source order; at one offset, the presentation first.
        return out.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    }

    /// For each screen visible in `file`: the dependencies and optionals visible there that it
    /// provides (`from` it), by name.
    static func providers(_ project: Project, file: FileID) -> [Symbol: [Symbol]] {
        var out: [Symbol: [Symbol]] = [:]
        for (_, symbol) in project.scopes[file] {
            let decl = project.declaration(symbol)
            guard decl.kind == .dependency || decl.kind == .optional, let from = decl.from,
                  let screen = project.resolve(from, in: symbol.file), project.kind(of: screen) == .screen else { continue }
            out[screen, default: []].append(symbol)
        }
        for key in out.keys {
            out[key]?.sort { project.declaration($0).name.text < project.declaration($1).name.text }
        }
        return out
    }
}

private extension String {
    /// As Markdown code: `dependency cart: Cart from Home`.
    func replacingBackticks() -> String {
        "`" + self.filter { $0 != "`" } + "`"
    }
}
