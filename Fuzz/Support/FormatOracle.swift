import Oracles

/// The formatter's invariants (`FormatOracle`, shared with the property tests), for any
/// input: files in memory under `/fuzz` (see `FuzzInput.splitFiles`), each formatted whole
/// and, over a range that `probe` chooses, in part.
public func checkFormatting(files: [(path: String, bytes: [UInt8])], probe: Int) {
    let problems = FormatOracle.check(
        files: Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first }),
        entries: files.map(\.path), root: "/fuzz",
        ranges: { size in
            let start = size == 0 ? 0 : probe % size
            return [start..<min(size, start + probe % 97)]
        })
    invariant(problems.isEmpty, problems.joined(separator: "\n"))
}
