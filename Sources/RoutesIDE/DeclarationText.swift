import RoutesAnalysis
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
            if d.presentation != .push { text += " " + d.presentation.sourceText }
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
            return "link \(d.name.text) \(PathLiteral.quoted(link.pattern ?? "")) -> \(link.pathText)"
        }
    }

    /// One line beside a completion item: `screen (sheet)`, `dependency: AppStore from Home`,
    /// `flag`, `builder`.
    static func detail(_ d: Declaration) -> String {
        switch d.kind {
        case .screen:
            var text = "screen"
            if d.presentation != .push { text += " (\(d.presentation.previewText))" }
            return text
        case .dependency, .optional:
            var text = "\(d.kind.rawValue): \(d.type ?? "?")"
            if let from = d.from { text += " from \(from.text)" }
            return text
        case .flag, .builder, .root:
            return d.kind.rawValue
        case .link:
            return "link " + PathLiteral.quoted(d.link?.pattern ?? "")
        }
    }
}
