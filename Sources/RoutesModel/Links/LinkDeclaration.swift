import RoutesSyntax

/// What a `link` declaration says (docs/language.md#links): its pattern, as written, and the
/// path it opens. A declaration of kind `.link` holds one (``Declaration/link``).
public struct LinkDeclaration: Sendable, Hashable {
    /// The fields, held by reference: a link is copied whole from the model into the link
    /// rules' tables and their results, and a copy is then one retain instead of one per
    /// string and array. Written only when no other link holds it (a value, as an array is).
    private final class Storage: @unchecked Sendable {
        var pattern: String?
        var patternRange: Range<Int>
        var patternIsVerbatim: Bool
        var path: [LinkPathElement]

        init(pattern: String?, patternRange: Range<Int>, patternIsVerbatim: Bool, path: [LinkPathElement]) {
            self.pattern = pattern
            self.patternRange = patternRange
            self.patternIsVerbatim = patternIsVerbatim
            self.path = path
        }

        func copy() -> Storage {
            Storage(pattern: pattern, patternRange: patternRange, patternIsVerbatim: patternIsVerbatim, path: path)
        }
    }
    private var storage: Storage

    private mutating func writable() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The pattern's text (the string decoded), nil when the declaration has none (a syntax
    /// error).
    public var pattern: String? {
        _read { yield storage.pattern }
        set { writable().pattern = newValue }
    }
    /// The range of the pattern's string literal, quotes included.
    public var patternRange: Range<Int> {
        _read { yield storage.patternRange }
        set { writable().patternRange = newValue }
    }
    /// Whether the string is written without escapes: then a byte of the pattern's text is
    /// at `patternRange.lowerBound + 1 + offset` (see `sourceRange(ofPatternBytes:)`).
    public var patternIsVerbatim: Bool {
        _read { yield storage.patternIsVerbatim }
        set { writable().patternIsVerbatim = newValue }
    }
    public var path: [LinkPathElement] {
        _read { yield storage.path }
        set { writable().path = newValue }
    }
    /// The pattern parsed, nil without a pattern: parsed at each call (the link rules parse
    /// each link's once per analysis, on every core, rather than the lowering on one).
    public var parsed: Result<LinkPattern, LinkPattern.Problem>? { pattern.map { LinkPattern.parse($0) } }

    public init(pattern: String?, patternRange: Range<Int>, patternIsVerbatim: Bool, path: [LinkPathElement]) {
        storage = Storage(pattern: pattern, patternRange: patternRange, patternIsVerbatim: patternIsVerbatim, path: path)
    }

    public static func == (a: LinkDeclaration, b: LinkDeclaration) -> Bool {
        a.storage === b.storage
            || (a.pattern == b.pattern && a.patternRange == b.patternRange && a.patternIsVerbatim == b.patternIsVerbatim
                && a.path == b.path)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(patternRange)
        hasher.combine(patternIsVerbatim)
        hasher.combine(path)
    }

    /// The pattern, when it parses (parsed at each call).
    public var parsedPattern: LinkPattern? {
        if case .success(let pattern) = parsed { return pattern }
        return nil
    }

    /// Where bytes `range` of the pattern's text are in the file: exactly when the string is
    /// written without escapes, else the whole string.
    public func sourceRange(ofPatternBytes range: Range<Int>) -> Range<Int> {
        guard patternIsVerbatim, patternRange.count >= 2 else { return patternRange }
        let start = patternRange.lowerBound + 1
        let end = patternRange.upperBound - 1
        return min(start + range.lowerBound, end)..<min(start + range.upperBound, end)
    }

    /// Every name the path mentions as a placeholder, with where.
    public var placeholderUses: [Name] {
        path.flatMap { $0.arguments.compactMap { argument in
            if case .placeholder(let name) = argument.value { return name }
            return nil
        } }
    }

    /// The link's range moved by a trivia edit (see `TriviaEdit.map(_:)`).
    func moved(_ edit: TriviaEdit) -> LinkDeclaration {
        var moved = self
        moved.patternRange = edit.map(patternRange)
        moved.path = path.map { $0.moved(edit) }
        return moved
    }
}

/// One element of a link's path: `Detail(id: id, tab: "info")`.
public struct LinkPathElement: Sendable, Hashable {
    public var screen: Name
    public var arguments: [LinkArgument]
    // (In 32 bits a bound, as a name's: thousands of links hold a few elements each.)
    private var stored: Range32
    /// The element, its arguments included.
    public var range: Range<Int> {
        get { stored.range }
        set { stored = Range32(newValue) }
    }

    public init(screen: Name, arguments: [LinkArgument], range: Range<Int>) {
        self.screen = screen
        self.arguments = arguments
        stored = Range32(range)
    }

    func moved(_ edit: TriviaEdit) -> LinkPathElement {
        LinkPathElement(screen: screen.shifted(edit), arguments: arguments.map { $0.moved(edit) }, range: edit.map(range))
    }
}

/// `label: value` in a link's path.
public struct LinkArgument: Sendable, Hashable {
    public var label: Name
    public var value: LinkValue
    // (In 32 bits a bound, as a name's; the argument's range is the label's start through
    // the value's end, not held apart: thousands of links hold a few arguments each.)
    private var storedValueRange: Range32
    /// The argument, label through value.
    public var range: Range<Int> { label.range.lowerBound..<storedValueRange.upperBound }
    /// The value's range.
    public var valueRange: Range<Int> {
        get { storedValueRange.range }
        set { storedValueRange = Range32(newValue) }
    }

    public init(label: Name, value: LinkValue, valueRange: Range<Int>) {
        self.label = label
        self.value = value
        storedValueRange = Range32(valueRange)
    }

    func moved(_ edit: TriviaEdit) -> LinkArgument {
        let value: LinkValue
        if case .placeholder(let name) = self.value { value = .placeholder(name.shifted(edit)) } else { value = self.value }
        return LinkArgument(label: label.shifted(edit), value: value, valueRange: edit.map(valueRange))
    }
}

/// The value of an argument of a link's path: a literal, or a placeholder of its pattern.
public enum LinkValue: Sendable, Hashable {
    /// The decoded string.
    case string(String)
    /// The number as written.
    case number(String)
    case bool(Bool)
    case placeholder(Name)
}
