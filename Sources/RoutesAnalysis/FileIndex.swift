import RoutesModel
import RoutesSyntax

/// A set of files of a project, increasing, each with its position: the index of its entry
/// in per-file arrays. The lookup table spans the files' ids from the first to the last
/// (a program's files are loaded together, so the span is usually about the set's size).
struct FileIndex {
    let files: [FileID]
    private let first: Int
    private let positions: [Int32]

    init(_ files: [FileID]) {
        let sorted = Set(files).sorted()
        self.files = sorted
        first = sorted.first ?? 0
        var positions = [Int32](repeating: -1, count: sorted.isEmpty ? 0 : sorted[sorted.count - 1] - first + 1)
        for (position, f) in sorted.enumerated() { positions[f - first] = Int32(position) }
        self.positions = positions
    }

    /// The position of a file of the set, nil for another file.
    @inline(__always) func position(_ f: FileID) -> Int? {
        let i = f - first
        guard i >= 0 && i < positions.count else { return nil }
        let position = positions[i]
        return position < 0 ? nil : Int(position)
    }

    func contains(_ f: FileID) -> Bool { position(f) != nil }
}
