import RoutesModel

/// How editors show a declaration: one line of source, and a short detail.
enum DeclarationText {
    /// The declaration as one line of source, normalized: `screen Detail(id: String) sheet`,
    /// `dependency settingsStore: SettingsStore from Home`, `builder detail`, `root`.
    static func line(_ d: Declaration) -> String {
        switch d.kind {
        case .screen:
            var s = "screen \(d.name.text)"
            if !d.parameters.isEmpty {
                s += "(" + d.parameters.map { "\($0.label.text): \($0.type.isEmpty ? "?" : $0.type)" }.joined(separator: ", ") + ")"
            }
            switch d.presentation {
            case .push: break
            case .sheet: s += " sheet"
            case .sheetNoPush: s += " sheet(allowsPush: false)"
            }
            return s
        case .dependency, .optional:
            var s = "\(d.kind.rawValue) \(d.name.text): \(d.type.map { $0.isEmpty ? "?" : $0 } ?? "?")"
            if let from = d.from { s += " from \(from.text)" }
            return s
        case .flag: return "flag \(d.name.text)"
        case .builder: return "builder \(d.name.text)"
        case .root: return "root"
        }
    }

    /// One line beside a completion item: `screen (sheet)`, `dependency: AppStore from Home`,
    /// `flag`, `builder`.
    static func detail(_ d: Declaration) -> String {
        switch d.kind {
        case .screen:
            var s = "screen"
            switch d.presentation {
            case .push: break
            case .sheet: s += " (sheet)"
            case .sheetNoPush: s += " (sheet, no push)"
            }
            return s
        case .dependency, .optional:
            var s = "\(d.kind.rawValue): \(d.type ?? "?")"
            if let from = d.from { s += " from \(from.text)" }
            return s
        case .flag, .builder, .root:
            return d.kind.rawValue
        }
    }
}
