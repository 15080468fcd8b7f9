import RoutesModel
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
        _ = FileDescriptor.writeAll(s, to: 1)
    }

    static func writeError(_ s: String) {
        var text = s
        text.withUTF8 { buf in _ = Glibc.write(2, buf.baseAddress, buf.count) }
    }

    /// Whether stdout is a colour-capable terminal (and NO_COLOR is not set).
    static var stdoutSupportsColor: Bool {
        guard isatty(1) != 0 else { return false }
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }
}

extension Terminal {
    /// Writes `text` to a file (created or replaced), through a temporary file beside it and a
    /// rename, so that a reader never sees half a report; false with `errno` set on failure.
    static func writeFile(_ path: String, _ text: String) -> Bool {
        let temporary = path + ".routes-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        let ok = FileDescriptor.writeAll(text, to: fd)
        let saved = errno
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let why = ok ? errno : saved
            unlink(temporary)
            errno = why
            return false
        }
        return true
    }
}
