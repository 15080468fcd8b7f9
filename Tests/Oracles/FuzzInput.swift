/// The inputs of the fuzz targets that read `.routes` text, as the targets and the property
/// tests read them.
public enum FuzzInput {
    /// Splits an input into files: the parts between lines `%%%` are `/fuzz/App.routes`,
    /// `/fuzz/F1.routes`, `/fuzz/F2.routes`, … (at most eight), so that mutations can create
    /// imports between them.
    public static func splitFiles(_ data: [UInt8]) -> [(path: String, bytes: [UInt8])] {
        let separator = Array("\n%%%\n".utf8)
        var parts: [[UInt8]] = []
        var start = 0, position = 0
        while position + separator.count <= data.count, parts.count < 7 {
            if data[position] == separator[0] && Array(data[position..<(position + separator.count)]) == separator {
                parts.append(Array(data[start..<position]))
                position += separator.count
                start = position
            } else {
                position += 1
            }
        }
        parts.append(Array(data[start...]))
        return parts.enumerated().map { index, bytes in (index == 0 ? "/fuzz/App.routes" : "/fuzz/F\(index).routes", bytes) }
    }
}
