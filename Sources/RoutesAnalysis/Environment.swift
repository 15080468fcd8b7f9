import RoutesModel
import RoutesSyntax

/// An environment as given (docs/language.md#how-a-path-is-built): flags true/false, optionals
/// present (`true`) or absent (`false`). A name that is not given takes the default: flags
/// `true`, optionals present.
public struct Environment: Sendable, Hashable {
    public var flags: [String: Bool]
    /// `true`: present.
    public var optionals: [String: Bool]

    public init(flags: [String: Bool] = [:], optionals: [String: Bool] = [:]) {
        self.flags = flags
        self.optionals = optionals
    }

    public func flag(_ name: String) -> Bool { flags[name] ?? true }
    public func isPresent(_ name: String) -> Bool { optionals[name] ?? true }
}

/// The environment one resolution used: every flag and optional the program declares, with
/// its value and whether it took the default.
public struct ProgramEnvironment: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var name: String
        /// Flags: the value. Optionals: `true` for present.
        public var value: Bool
        /// True when the caller did not give it.
        public var isDefault: Bool
    }

    /// Flags, then optionals, each in declaration order (imported files first).
    public var flags: [Entry]
    public var optionals: [Entry]

    /// The complete environment.
    public var environment: Environment {
        Environment(flags: Dictionary(flags.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }),
                    optionals: Dictionary(optionals.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }

    /// `isLoggedIn=true, detailStore=present (defaults: isLoggedIn, detailStore)`; `none` when
    /// the program declares no flags or optionals.
    public var summary: String {
        let all = flags.map { "\($0.name)=\($0.value)" } + optionals.map { "\($0.name)=\($0.value ? "present" : "absent")" }
        if all.isEmpty { return "none (the program declares no flags or optionals)" }
        let defaults = (flags + optionals).filter(\.isDefault).map(\.name)
        return all.joined(separator: ", ") + (defaults.isEmpty ? "" : " (defaults: \(defaults.joined(separator: ", ")))")
    }

    /// The environment of a program: the given values, defaults for the rest. Every given
    /// name must be a flag (in `flags`) or an optional (in `optionals`) visible from the
    /// program's root file.
    public init(_ given: Environment, program: Program, project: Project) throws(EnvironmentError) {
        let scope = project.names(in: program)
        let order = Dictionary(program.files.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        func declared(_ kind: DeclarationKind) -> [String] {
            scope.filter { project.declaration($0.value).kind == kind }
                .sorted { (order[$0.value.file] ?? .max, $0.value.declaration) < (order[$1.value.file] ?? .max, $1.value.declaration) }
                .map(\.key)
        }
        let flagNames = declared(.flag), optionalNames = declared(.optional)
        func check(_ names: Dictionary<String, Bool>.Keys, _ kind: DeclarationKind, _ candidates: [String]) throws(EnvironmentError) {
            for name in names.sorted() {
                guard let s = scope[name] else {
                    var message = "unknown \(kind.rawValue) `\(name)`"
                    if let suggestion = Suggestion.closest(to: name, among: candidates) {
                        message += "; did you mean `\(suggestion)`?"
                    } else if candidates.isEmpty {
                        message += " (the program declares no \(kind.rawValue)s)"
                    } else {
                        message += " (declared: \(candidates.joined(separator: ", ")))"
                    }
                    throw EnvironmentError(name: name, expected: kind, message: message)
                }
                let actual = project.declaration(s).kind
                if actual != kind {
                    throw EnvironmentError(name: name, expected: kind, message: "`\(name)` is \(actual.withArticle), not \(kind.withArticle)")
                }
            }
        }
        try check(given.flags.keys, .flag, flagNames)
        try check(given.optionals.keys, .optional, optionalNames)
        flags = flagNames.map { Entry(name: $0, value: given.flags[$0] ?? true, isDefault: given.flags[$0] == nil) }
        optionals = optionalNames.map { Entry(name: $0, value: given.optionals[$0] ?? true, isDefault: given.optionals[$0] == nil) }
    }
}

/// A name given for an environment that the program does not declare with that kind.
public struct EnvironmentError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    /// `.flag` or `.optional`: what the caller said the name was.
    public var expected: DeclarationKind
    public var message: String
    public var description: String { message }
}
