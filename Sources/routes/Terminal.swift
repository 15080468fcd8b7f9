#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output helpers: buffered stdout, stderr, and ANSI colour.
enum Terminal {
    /// Ends the process now (inside a `ParsableCommand`, `exit` means argument-parser's).
    static func terminate(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    static func write(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(1, buf.baseAddress! + off, buf.count - off)
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    return
                }
                off += n
            }
        }
    }

    static func writeError(_ s: String) {
        var s = s
        s.withUTF8 { buf in _ = Glibc.write(2, buf.baseAddress, buf.count) }
    }

    /// Whether stdout is a colour-capable terminal (and NO_COLOR is not set).
    static var stdoutSupportsColor: Bool {
        guard isatty(1) != 0 else { return false }
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }
}

/// ANSI styles, applied only when colour is on.
struct Style {
    var enabled: Bool

    func apply(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    func bold(_ t: String) -> String { apply("1", t) }
    func red(_ t: String) -> String { apply("1;31", t) }
    func yellow(_ t: String) -> String { apply("1;33", t) }
    func green(_ t: String) -> String { apply("1;32", t) }
    func cyan(_ t: String) -> String { apply("1;36", t) }
    func dim(_ t: String) -> String { apply("2", t) }
}
