import RoutesModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The language server's log: one line per entry, on **stderr** (stdout carries the protocol
/// and nothing else). Lines read `routes lsp: <level>: <message>`.
///
/// The threshold comes from the environment variable `ROUTES_LSP_LOG`
/// (`debug`, `info`, `warning` or `error`; default `info`) and can be changed with ``level``.
/// Problems with the client's input (bad framing, invalid JSON, invalid JSON-RPC) are logged as
/// warnings; every request and notification, with its duration, at `debug`.
public enum Log {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private final class Threshold: @unchecked Sendable {
        private let lock = ConditionLock()
        private var value: Level
        init() {
            if let raw = getenv("ROUTES_LSP_LOG"), let level = Level(name: String(cString: raw)) {
                value = level
            } else {
                value = .info
            }
        }
        var level: Level {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    private static let threshold = Threshold()

    /// Entries below this level are not written.
    public static var level: Level {
        get { threshold.level }
        set { threshold.level = newValue }
    }

    public static func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public static func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public static func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public static func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// Writes `message` at `level` if the threshold allows. One `write(2)` per line, so lines
    /// from different threads do not interleave.
    public static func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= threshold.level else { return }
        _ = FileDescriptor.writeAll("routes lsp: \(level.name): \(message())\n", to: 2)
    }
}
