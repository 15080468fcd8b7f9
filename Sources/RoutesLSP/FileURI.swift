/// `file:` URIs and paths (RFC 8089, as editors send them).
enum FileURI {
    /// The path of a `file://` URI, percent-decoded; nil for other schemes.
    static func path(_ uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = uri.dropFirst("file://".count)
        // `file://host/path`: only an empty host or localhost names this machine.
        if !rest.hasPrefix("/") {
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let host = rest[..<slash]
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = rest[slash...]
        }
        if let queryStart = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<queryStart] }
        var bytes: [UInt8] = []
        var it = Array(rest.utf8)[...]
        while let byte = it.popFirst() {
            if byte == UInt8(ascii: "%"), it.count >= 2, let high = hex(it[it.startIndex]), let low = hex(it[it.startIndex + 1]) {
                bytes.append(high << 4 | low)
                it = it.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `file://` URI of an absolute path, percent-encoding what RFC 3986 requires.
    static func uri(_ path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (character.isLetter || character.isNumber || "-._~/!$&'()*+,;=:@".utf8.contains(byte)) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).paddedHex
            }
        }
        return out
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}

private extension String {
    var paddedHex: String { count == 1 ? "0" + self : self }
}
