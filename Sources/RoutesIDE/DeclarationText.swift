import RoutesModel

/// How editors show a declaration: one line of source, and a short detail.
enum DeclarationText {
    /// The declaration as one line of source, normalized: `screen Detail(id: String) sheet`,
    /// `dependency settingsStore: SettingsStore from Home`, `builder detail`, `root`.
    static func line(_ d: Declaration) -> String {
        switch d.kind {
        case .screen:
            var text = "screen \(d.name.text)"
            if !d.parameters.isEmpty {
                text += "(" + d.parameters.map { "\($0.label.text): \($0.type.isEmpty ? "?" : $0.type)" }.joined(separator: ", ") + ")"
            }
            switch d.presentation {
            case .push: break
            case .sheet: text += " sheet"
            case .sheetNoPush: text += " sheet(allowsPush: false)"
            }
            return text
        case .dependency, .optional:
            var text = "\(d.kind.rawValue) \(d.name.text): \(d.type.map { $0.isEmpty ? "?" : $0 } ?? "?")"
            if let from = d.from { text += " from \(from.text)" }
            return text
        case .flag: return "flag \(d.name.text)"
        case .builder: return "builder \(d.name.text)"
        case .root: return "root"
        case .link:
            guard let link = d.link else { return "link \(d.name.text)" }
            return "link \(d.name.text) \(stringLiteral(link.pattern ?? "")) -> \(pathText(link))"
        }
    }

    /// One line beside a completion item: `screen (sheet)`, `dependency: AppStore from Home`,
    /// `flag`, `builder`.
    static func detail(_ d: Declaration) -> String {
        switch d.kind {
        case .screen:
            var text = "screen"
            switch d.presentation {
            case .push: break
            case .sheet: text += " (sheet)"
            case .sheetNoPush: text += " (sheet, no push)"
            }
            return text
        case .dependency, .optional:
            var text = "\(d.kind.rawValue): \(d.type ?? "?")"
            if let from = d.from { text += " from \(from.text)" }
            return text
        case .flag, .builder, .root:
            return d.kind.rawValue
        case .link:
            return "link " + stringLiteral(d.link?.pattern ?? "")
        }
    }

    /// A link's path as source: `Home/Detail(id: id)`.
    static func pathText(_ link: LinkDeclaration) -> String {
        link.path.map { element in
            guard !element.arguments.isEmpty else { return element.screen.text }
            return element.screen.text + "(" + element.arguments.map { "\($0.label.text): \(valueText($0.value))" }.joined(separator: ", ") + ")"
        }.joined(separator: "/")
    }

    static func valueText(_ value: LinkValue) -> String {
        switch value {
        case .string(let text): return stringLiteral(text)
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .placeholder(let name): return name.text
        }
    }

    /// A string as a literal of the language: quotes and backslashes escaped.
    static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for character in text {
            if character == "\"" || character == "\\" { literal.append("\\") }
            literal.append(character)
        }
        return literal + "\""
    }
}
