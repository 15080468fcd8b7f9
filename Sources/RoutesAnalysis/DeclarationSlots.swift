import RoutesModel
import RoutesSyntax

/// Per declaration of the graph's files, a number (a builder's index, a screen's element
/// code, a condition's variable) tagged with what it numbers, or none: one flat array of four
/// bytes a declaration, the files' runs one after another, read for nearly every name the
/// graph resolves. (One table for the three kinds: a declaration has one kind.)
struct DeclarationSlots {
    /// What a number numbers: its tag in the two low bits.
    enum Kind: Int32 {
        case builder = 1, screen, condition
    }

    private var values: [Int32] = []
    private var start: [Int] = [0]
    private var files = FileIndex([])

    /// Empty: every symbol reads as none.
    init() {}

    init(_ project: Project, files: FileIndex) {
        self.files = files
        var total = 0
        for f in files.files {
            total += project.files[f].model.declarations.count
            start.append(total)
        }
        values = [Int32](repeating: -1, count: total)
    }

    subscript(_ s: Symbol, kind kind: Kind) -> Int? {
        get {
            guard let position = files.position(s.file), s.declaration >= 0 else { return nil }
            let slot = start[position] + s.declaration
            guard slot < start[position + 1] else { return nil }
            let value = values[slot]
            return value < 0 || value & 3 != kind.rawValue ? nil : Int(value >> 2)
        }
        set {
            values[start[files.position(s.file)!] + s.declaration] = newValue.map { Int32(truncatingIfNeeded: $0) << 2 | kind.rawValue } ?? -1
        }
    }
}
