/// The severity of a diagnostic.
public enum Severity: String, Sendable, Hashable, Comparable {
    case error
    case warning

    public static func < (a: Severity, b: Severity) -> Bool {
        a == .error && b == .warning
    }
}

/// Every rule the tools report, with its stable id (SPEC §5). Find where one is computed by
/// grepping its id.
public enum Rule: String, Sendable, Hashable, CaseIterable {
    case syntaxError = "syntax-error"
    case undefinedName = "undefined-name"
    case wrongKind = "wrong-kind"
    case duplicateDeclaration = "duplicate-declaration"
    case importError = "import-error"
    case builderCycle = "builder-cycle"
    case invalidWildcard = "invalid-wildcard"
    case missingDependency = "missing-dependency"
    case unreachableScreen = "unreachable-screen"
    case shadowedBranch = "shadowed-branch"
    case wildcardMismatch = "wildcard-mismatch"
    case pushInSheet = "push-in-sheet"
    case unusedDeclaration = "unused-declaration"
    case analysisLimit = "analysis-limit"

    public var id: String { rawValue }

    public var defaultSeverity: Severity {
        switch self {
        case .syntaxError, .undefinedName, .wrongKind, .duplicateDeclaration, .importError,
            .builderCycle, .invalidWildcard, .missingDependency, .analysisLimit:
            return .error
        case .unreachableScreen, .shadowedBranch, .wildcardMismatch, .pushInSheet, .unusedDeclaration:
            return .warning
        }
    }

    /// One line, for SARIF and `--help`-style listings.
    public var summary: String {
        switch self {
        case .syntaxError: return "The text does not parse."
        case .undefinedName: return "A name is not declared in the file or its imports."
        case .wrongKind: return "A name is used as the wrong kind of declaration."
        case .duplicateDeclaration: return "A name, or root, is declared twice in one import closure."
        case .importError: return "An imported file is missing, unreadable, outside the workspace, or closes an import cycle."
        case .builderCycle: return "A named builder reaches itself again before it builds an element."
        case .invalidWildcard: return "A wildcard names a screen that has parameters."
        case .missingDependency: return "A screen uses a dependency that is not in scope on every way it is built."
        case .unreachableScreen: return "A screen node, or a declared screen, that no path under any environment reaches."
        case .shadowedBranch: return "An anyOf branch whose elements an earlier branch always builds first."
        case .wildcardMismatch: return "A wildcard whose builder cannot build its screen: it builds nothing."
        case .pushInSheet: return "A pushed screen that always follows a sheet that does not allow pushes."
        case .unusedDeclaration: return "A dependency, optional, flag or builder that no used builder mentions."
        case .analysisLimit: return "A program's routing conditions are too entangled to check exactly within the analysis's limits."
        }
    }
}

/// Identifies a source file inside one analysis (an index into its file table).
public typealias FileID = Int

/// A place in a file, with a message saying what it shows.
public struct RelatedLocation: Sendable, Hashable {
    public var file: FileID
    public var range: Range<Int>
    public var message: String
    public init(file: FileID, range: Range<Int>, message: String) {
        self.file = file
        self.range = range
        self.message = message
    }
}

/// One finding. Ranges are byte offsets into the file's (repaired) `SourceText`.
public struct Diagnostic: Sendable, Hashable {
    public var rule: Rule
    public var severity: Severity
    public var file: FileID
    public var range: Range<Int>
    public var message: String
    public var related: [RelatedLocation]

    public init(_ rule: Rule, file: FileID, range: Range<Int>, message: String,
                related: [RelatedLocation] = [], severity: Severity? = nil) {
        self.rule = rule
        self.severity = severity ?? rule.defaultSeverity
        self.file = file
        self.range = range
        self.message = message
        self.related = related
    }

    /// True for `unused-declaration`: editors grey such code out.
    public var isUnnecessary: Bool { rule == .unusedDeclaration }
}

extension Diagnostic {
    /// The diagnostic of a file's own tree or model, for the file under another id: it and
    /// its related locations (which are all in the same file) name the new id.
    public func inFile(_ id: FileID) -> Diagnostic {
        var d = self
        d.file = id
        d.related = d.related.map { r in
            var r = r
            r.file = id
            return r
        }
        return d
    }
}
