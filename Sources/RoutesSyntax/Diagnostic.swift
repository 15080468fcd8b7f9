/// The severity of a diagnostic.
public enum Severity: String, Sendable, Hashable, Comparable {
    case error
    case warning

    public static func < (a: Severity, b: Severity) -> Bool {
        a == .error && b == .warning
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

/// One finding, worded by its rule. Ranges are byte offsets into the file's (repaired)
/// `SourceText`.
public struct Diagnostic: Sendable, Hashable {
    public var rule: RuleID
    public var severity: Severity
    public var file: FileID
    public var range: Range<Int>
    public var message: String
    public var related: [RelatedLocation]
    /// Editors grey the range out (its rule's `marksUnnecessary`).
    public var isUnnecessary: Bool
    /// The message quotes a line and column of its file, which an edit of whitespace before
    /// it can change (so the analysis is not moved over such an edit, only made again).
    public var quotesPosition: Bool

    /// A diagnostic of `rule`, with its severity.
    public init<R: RuleDefinition>(_ rule: R.Type, file: FileID, range: Range<Int>, message: String,
                                   related: [RelatedLocation] = [], quotesPosition: Bool = false) {
        self.init(rule: R.id, severity: R.severity, file: file, range: range, message: message,
                  related: related, isUnnecessary: R.marksUnnecessary, quotesPosition: quotesPosition)
    }

    public init(rule: RuleID, severity: Severity, file: FileID, range: Range<Int>, message: String,
                related: [RelatedLocation] = [], isUnnecessary: Bool = false, quotesPosition: Bool = false) {
        self.rule = rule
        self.severity = severity
        self.file = file
        self.range = range
        self.message = message
        self.related = related
        self.isUnnecessary = isUnnecessary
        self.quotesPosition = quotesPosition
    }
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
