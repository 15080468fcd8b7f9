#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesAnalysis
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// A project's `routes.json`, at its workspace root: JSON (read through json-c) with `//` and
/// `/* */` comments allowed, as in swift-format's and editors' settings files.
///
/// ```json
/// {
///   // Generated files are not linted.
///   "exclude": ["Generated", "Legacy/**"],
///   "rules": { "<rule id>": "off" | "warning" | "error" },
///   "denyWarnings": true,
///   "swiftTarget": "swiftui"
/// }
/// ```
public struct ProjectConfig: Sendable, Hashable {
    /// Globs of files and folders that a folder's scan leaves out (files named on the command
    /// line, and imports, are still read).
    public var exclude: [Glob] = []
    /// Each rule's setting, where not its default.
    public var rules = RuleSettings()
    /// Whether warnings fail the lint (as `--deny-warnings`).
    public var denyWarnings = false
    /// The library `routes gen swift` writes for, when `--target` does not say:
    /// `composable-navigator` or `swiftui` (one of `swiftTargets`).
    public var swiftTarget: String? = nil

    /// The values of `swiftTarget`.
    public static let swiftTargets = ["composable-navigator", "swiftui"]

    public init() {}

    /// Whether a file (relative to the root) is excluded.
    public func excludes(_ relativePath: String) -> Bool { exclude.contains { $0.matches(relativePath) } }

    /// A problem in a config file, with where it is.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        /// Byte offset in the file (0 when the file could not be read).
        public var offset: Int
        /// 0-based line and column (columns in Unicode scalars).
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(path):\(line + 1):\(column + 1): \(message)" }
    }

    /// The keys a config may have.
    public static let keys = ["exclude", "rules", "denyWarnings", "swiftTarget", "$schema"]

    /// A config as read: its settings, or the problems that keep it from being used (then the
    /// defaults apply).
    public enum Loaded: Sendable, Hashable {
        case success(ProjectConfig)
        case failure([Problem])

        /// The config, or the defaults when it has problems.
        public var config: ProjectConfig {
            if case .success(let config) = self { return config }
            return ProjectConfig()
        }

        public var problems: [Problem] {
            if case .failure(let problems) = self { return problems }
            return []
        }
    }

    /// Reads and checks the config at `path`: the config, or every problem found in it.
    public static func load(_ path: String) -> Loaded {
        var st = stat()
        if lstat(path, &st) == 0, stat(path, &st) != 0 {
            return .failure([Problem(path: path, offset: 0, line: 0, column: 0,
                                     message: "cannot read it: a symbolic link that leads nowhere, or loops")])
        }
        switch FileSystemProvider().read(path) {
        case .failure(let why):
            return .failure([Problem(path: path, offset: 0, line: 0, column: 0, message: "cannot read it: \(why)")])
        case .success(let bytes):
            return parse(bytes, path: path)
        }
    }

    /// Checks config text (see `load`).
    public static func parse(_ bytes: [UInt8], path: String) -> Loaded {
        let text = SourceText(bytes: bytes)
        func problem(_ offset: Int, _ message: String) -> Problem {
            let position = text.position(of: offset, encoding: .scalars)
            return Problem(path: path, offset: offset, line: position.line, column: position.column, message: message)
        }
        var unclosed: Int? = nil
        let plain = blankingComments(text.bytes, unclosed: &unclosed)
        if let at = unclosed { return .failure([problem(at, "this `/*` comment is not closed")]) }
        if plain.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return .failure([problem(0, "the file is empty: write `{}` for a project with the defaults")])
        }
        let value: JSONValue
        do {
            value = try JSON.parse(bytes: plain)
        } catch {
            return .failure([problem(min(error.offset, text.bytes.count), "not valid JSON: \(error.message)")])
        }
        guard case .object(let object) = value, let layout = Located.parse(plain) else {
            return .failure([problem(firstNonBlank(plain), "the config must be a JSON object (`{ … }`)")])
        }
        var reader = MemberReader(plain: plain, problem: problem)
        var seen = Set<String>()
        for entry in layout.members {
            if !seen.insert(entry.key).inserted {
                reader.problems.append(problem(entry.keyRange.lowerBound, "`\(entry.key)` is set twice"))
                continue
            }
            guard keys.contains(entry.key) else {
                let close = Suggestion.closest(to: entry.key, among: keys).map { "; did you mean `\($0)`?" } ?? ""
                reader.problems.append(problem(entry.keyRange.lowerBound, "unknown key `\(entry.key)`\(close) (the keys are `exclude`, `rules`, `denyWarnings` and `swiftTarget`)"))
                continue
            }
            guard let value = reader.parsedValue(of: entry.value) ?? object[entry.key] else { continue }
            switch entry.key {
            case "exclude": reader.readExclude(value, at: entry.value)
            case "rules": reader.readRules(value, at: entry.value)
            case "denyWarnings": reader.readDenyWarnings(value, at: entry.value)
            case "swiftTarget": reader.readSwiftTarget(value, at: entry.value)
            default: break  // `$schema`: for editors
            }
        }
        return reader.problems.isEmpty ? .success(reader.config) : .failure(reader.problems)
    }

    /// Reads the members of a config's object into a config, collecting the problems.
    private struct MemberReader {
        /// The config's text with its comments blanked.
        let plain: [UInt8]
        /// A problem at an offset of the text.
        let problem: (Int, String) -> Problem
        var config = ProjectConfig()
        var problems: [Problem] = []

        /// json-c keeps the last of a key written twice: each member's value is read from its
        /// own text, so that the first is checked as written and the second reported.
        func parsedValue(of located: Located) -> JSONValue? { try? JSON.parse(bytes: Array(plain[located.range])) }

        /// `"exclude": ["Generated", "Legacy/**"]`.
        mutating func readExclude(_ value: JSONValue, at located: Located) {
            guard case .array(let items) = value else {
                problems.append(problem(located.range.lowerBound, "`exclude` takes a list of globs: `[\"Generated\", \"Legacy/**\"]`"))
                return
            }
            for (index, item) in items.enumerated() {
                guard case .string(let glob) = item, !glob.isEmpty else {
                    problems.append(problem(located.elements[index].range.lowerBound, "each `exclude` entry is a glob string"))
                    continue
                }
                config.exclude.append(Glob(glob))
            }
        }

        /// `"rules": { "<rule id>": "off" | "warning" | "error" }`.
        mutating func readRules(_ value: JSONValue, at located: Located) {
            guard case .object = value else {
                problems.append(problem(located.range.lowerBound, "`rules` takes an object of rule ids and settings: `{\"\(RuleID.unusedDeclaration)\": \"off\"}`"))
                return
            }
            var ruleSeen = Set<String>()
            for rule in located.members {
                if !ruleSeen.insert(rule.key).inserted {
                    problems.append(problem(rule.keyRange.lowerBound, "`\(rule.key)` is set twice"))
                    continue
                }
                guard let info = Rules.info(RuleID(rule.key)) else {
                    let close = Suggestion.closest(to: rule.key, among: Rules.all.map(\.id.rawValue)).map { "; did you mean `\($0)`?" } ?? ""
                    problems.append(problem(rule.keyRange.lowerBound, "unknown rule `\(rule.key)`\(close) (`routes rules` lists them)"))
                    continue
                }
                guard case .string(let written) = parsedValue(of: rule.value), let setting = RuleSetting(rawValue: written) else {
                    problems.append(problem(rule.value.range.lowerBound, "a rule's setting is \"off\", \"warning\" or \"error\""))
                    continue
                }
                guard RuleSettings.allows(setting, for: info.id) else {
                    problems.append(problem(rule.value.range.lowerBound, "`\(info.id)` is always an error: it cannot be set to \"\(written)\""))
                    continue
                }
                config.rules.rules[info.id] = setting
            }
        }

        /// `"denyWarnings": true`.
        mutating func readDenyWarnings(_ value: JSONValue, at located: Located) {
            guard case .bool(let deny) = value else {
                problems.append(problem(located.range.lowerBound, "`denyWarnings` is `true` or `false`"))
                return
            }
            config.denyWarnings = deny
        }

        /// `"swiftTarget": "swiftui"`.
        mutating func readSwiftTarget(_ value: JSONValue, at located: Located) {
            guard case .string(let target) = value, ProjectConfig.swiftTargets.contains(target) else {
                problems.append(problem(located.range.lowerBound, "`swiftTarget` is \"composable-navigator\" or \"swiftui\""))
                return
            }
            config.swiftTarget = target
        }
    }

    private static func firstNonBlank(_ bytes: [UInt8]) -> Int {
        bytes.firstIndex { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) } ?? 0
    }

    /// The text with each comment replaced by spaces (line breaks kept), so that offsets stay;
    /// `unclosed` gets the offset of a `/*` that is not closed.
    static func blankingComments(_ bytes: [UInt8], unclosed: inout Int?) -> [UInt8] {
        var out = bytes
        var index = 0
        while index < out.count {
            switch out[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < out.count && out[index] != UInt8(ascii: "\"") {
                    if out[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "/") where index + 1 < out.count && out[index + 1] == UInt8(ascii: "/"):
                while index < out.count && out[index] != 0x0A && out[index] != 0x0D {
                    out[index] = 0x20
                    index += 1
                }
            case UInt8(ascii: "/") where index + 1 < out.count && out[index + 1] == UInt8(ascii: "*"):
                let start = index
                out[index] = 0x20
                out[index + 1] = 0x20
                index += 2
                while true {
                    guard index < out.count else {
                        unclosed = start
                        return out
                    }
                    if out[index] == UInt8(ascii: "*") && index + 1 < out.count && out[index + 1] == UInt8(ascii: "/") {
                        out[index] = 0x20
                        out[index + 1] = 0x20
                        index += 2
                        break
                    }
                    if out[index] != 0x0A && out[index] != 0x0D { out[index] = 0x20 }
                    index += 1
                }
            default:
                index += 1
            }
        }
        return out
    }
}

/// Where the members and elements of valid JSON text are (json-c gives values, not places):
/// a small reader of the structure only, run after json-c accepted the text.
struct Located {
    var range: Range<Int>
    var members: [(key: String, keyRange: Range<Int>, value: Located)] = []
    var elements: [Located] = []

    static func parse(_ bytes: [UInt8]) -> Located? {
        var cursor = 0
        guard let parsed = value(bytes, &cursor), parsed.isObject else { return nil }
        return parsed.located
    }

    private struct Parsed {
        var located: Located
        var isObject: Bool
    }

    private static func skip(_ b: [UInt8], _ i: inout Int) {
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D) { i += 1 }
    }

    private static func string(_ b: [UInt8], _ i: inout Int) -> String {
        let start = i + 1
        i += 1
        while i < b.count && b[i] != UInt8(ascii: "\"") {
            if b[i] == UInt8(ascii: "\\") { i += 1 }
            i += 1
        }
        let raw = b[start..<min(i, b.count)]
        i += 1
        return (try? JSON.parse(bytes: [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]))?.stringValue ?? String(decoding: raw, as: UTF8.self)
    }

    private static func value(_ b: [UInt8], _ i: inout Int) -> Parsed? {
        skip(b, &i)
        guard i < b.count else { return nil }
        let start = i
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, Range<Int>, Located)] = []
            while true {
                skip(b, &i)
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "}") { i += 1; break }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                let keyStart = i
                let key = string(b, &i)
                let keyRange = keyStart..<i
                skip(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let parsed = value(b, &i) else { return nil }
                members.append((key, keyRange, parsed.located))
            }
            var located = Located(range: start..<i)
            located.members = members.map { (key: $0.0, keyRange: $0.1, value: $0.2) }
            return Parsed(located: located, isObject: true)
        case UInt8(ascii: "["):
            i += 1
            var elements: [Located] = []
            while true {
                skip(b, &i)
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "]") { i += 1; break }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                guard let parsed = value(b, &i) else { return nil }
                elements.append(parsed.located)
            }
            var located = Located(range: start..<i)
            located.elements = elements
            return Parsed(located: located, isObject: false)
        case UInt8(ascii: "\""):
            _ = string(b, &i)
            return Parsed(located: Located(range: start..<i), isObject: false)
        default:
            while i < b.count && !",}] \t\r\n".utf8.contains(b[i]) { i += 1 }
            return Parsed(located: Located(range: start..<i), isObject: false)
        }
    }
}
