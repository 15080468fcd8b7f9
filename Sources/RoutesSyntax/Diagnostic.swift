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

/// What a rule found, as data for its fixes: a value of a type the rule's file defines (a
/// finding, a suggestion), never words. Fixes read it instead of the message.
public struct DiagnosticDetail: Hashable, @unchecked Sendable {
    // `AnyHashable` is not `Sendable`, but every value stored here is (see `init`).
    private let value: AnyHashable

    public init<T: Hashable & Sendable>(_ value: T) { self.value = AnyHashable(value) }

    /// The value, if it is a `T`.
    public func value<T>(as type: T.Type) -> T? { value.base as? T }
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
    /// The message quotes a line and column (of its file or of another), which an edit of
    /// whitespace before it can change (so the analysis is not moved over such an edit, only
    /// made again).
    public var quotesPosition: Bool
    /// What the rule found, for its fixes (see `DiagnosticDetail`); holds no positions, so a
    /// diagnostic moved over an edit keeps it as it is.
    public var detail: DiagnosticDetail?

    /// A diagnostic of `rule`, with its severity.
    public init<R: RuleDefinition>(_ rule: R.Type, file: FileID, range: Range<Int>, message: String,
                                   related: [RelatedLocation] = [], quotesPosition: Bool = false,
                                   detail: DiagnosticDetail? = nil) {
        self.init(rule: R.id, severity: R.severity, file: file, range: range, message: message,
                  related: related, isUnnecessary: R.marksUnnecessary, quotesPosition: quotesPosition, detail: detail)
    }

    public init(rule: RuleID, severity: Severity, file: FileID, range: Range<Int>, message: String,
                related: [RelatedLocation] = [], isUnnecessary: Bool = false, quotesPosition: Bool = false,
                detail: DiagnosticDetail? = nil) {
        self.detail = detail
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
        var moved = self
        moved.file = id
        moved.related = related.map { location in
            var location = location
            location.file = id
            return location
        }
        return moved
    }
}

extension Diagnostic {
    /// A message with each run of digits replaced by `#`: what two messages are compared by
    /// across an edit, which moves the lines and columns they name.
    public static func withoutNumbers(_ message: String) -> String {
        var out = ""
        var inNumber = false
        for scalar in message.unicodeScalars {
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                if !inNumber { out.append("#") }
                inNumber = true
            } else {
                out.unicodeScalars.append(scalar)
                inNumber = false
            }
        }
        return out
    }
}
