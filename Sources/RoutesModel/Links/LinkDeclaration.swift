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
        /// For a pattern written with escapes: where each byte of its text is written, from
        /// the string's start (see `Lexer.stringValueSources(_:)`).
        var patternSources: [Range<Int32>]?
        var path: [LinkPathElement]

        init(pattern: String?, patternRange: Range<Int>, patternIsVerbatim: Bool, patternSources: [Range<Int32>]?, path: [LinkPathElement]) {
            self.pattern = pattern
            self.patternRange = patternRange
            self.patternIsVerbatim = patternIsVerbatim
            self.patternSources = patternSources
            self.path = path
        }

        func copy() -> Storage {
            Storage(pattern: pattern, patternRange: patternRange, patternIsVerbatim: patternIsVerbatim, patternSources: patternSources, path: path)
        }
    }
    /// The fields, or nil for a link read from `lines` (see ``init(lines:at:)``): then each
    /// field is read from there when asked, and stored here once one is written.
    private var storage: Storage?
    /// The `link` lines of the declaration's file, and where this one's parts are in them.
    private var lines: LinkLines?
    private var lineAt: Int32 = 0

    private mutating func writable() -> Storage {
        if storage == nil, let lines {
            let at = Int(lineAt)
            storage = Storage(pattern: lines.pattern(at: at), patternRange: lines.patternRange(at: at),
                              patternIsVerbatim: true, patternSources: nil, path: lines.path(at: at))
            self.lines = nil
        }
        if !isKnownUniquelyReferenced(&storage!) { storage = storage!.copy() }
        return storage!
    }

    /// The pattern's text (the string decoded), nil when the declaration has none (a syntax
    /// error).
    public var pattern: String? {
        get { storage.map { $0.pattern } ?? lines!.pattern(at: Int(lineAt)) }
        set { writable().pattern = newValue }
    }
    /// The range of the pattern's string literal, quotes included.
    public var patternRange: Range<Int> {
        get { storage?.patternRange ?? lines!.patternRange(at: Int(lineAt)) }
        set { writable().patternRange = newValue }
    }
    /// Whether the string is written without escapes: then a byte of the pattern's text is
    /// at `patternRange.lowerBound + 1 + offset` (see `sourceRange(ofPatternBytes:)`).
    public var patternIsVerbatim: Bool {
        get { storage?.patternIsVerbatim ?? true }
        set { writable().patternIsVerbatim = newValue }
    }
    /// The path's elements (read from the link's line, for a link read from `lines`, at each
    /// call: loops over many links read ``pathCount`` and ``forEachScreen(_:)``).
    public var path: [LinkPathElement] {
        get { storage?.path ?? lines!.path(at: Int(lineAt)) }
        set { writable().path = newValue }
    }
    /// How many elements the path has.
    public var pathCount: Int { storage?.path.count ?? lines!.pathCount(at: Int(lineAt)) }

    /// Calls `body` with the screen of each element of the path, in order.
    public func forEachScreen(_ body: (Name) -> Void) {
        if let storage {
            for element in storage.path { body(element.screen) }
        } else {
            lines!.forEachScreen(at: Int(lineAt), body)
        }
    }

    /// Whether the link was read from its file's `link` lines and holds no fields (see
    /// ``init(lines:at:)``): its pattern's text is then the bytes between its quotes.
    public var isReadFromLine: Bool { storage == nil && lines != nil }

    /// For a link read from its line whose pattern parses (and is ASCII, as such a line's is):
    /// its placeholders in the order of `LinkPattern.placeholders`, as the ranges of their
    /// names in the file and whether each is optional, read without parsing the pattern; nil
    /// for any other link (parse its pattern, ``parsed``).
    public var placeholderNamesInLine: [(name: Range<Int>, isOptional: Bool)]? {
        guard storage == nil, let lines else { return nil }
        return lines.placeholderNames(at: Int(lineAt))
    }

    /// For a link read from its line whose pattern parses: calls `body` with each segment of
    /// the pattern, in order, a literal's bytes or nil for a placeholder, read from the bytes
    /// without parsing (valid only during the call), and returns true; false, calling
    /// nothing, for a link that holds its fields. (`LinkLineTests` checks it against the
    /// pattern parsed.)
    public func forEachPatternSegment(_ body: (UnsafeBufferPointer<UInt8>?) -> Void) -> Bool {
        guard storage == nil, let lines else { return false }
        lines.forEachPatternSegment(at: Int(lineAt), body)
        return true
    }

    /// For a link read from `lines`: calls `body` with the range and the bytes of the screen
    /// of each element of the path, in order, and returns true (the bytes are valid only
    /// during the call); false, calling nothing, for a link that holds its fields.
    func forEachScreenBytes(_ body: (Range<Int>, UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard storage == nil, let lines else { return false }
        lines.forEachScreenBytes(at: Int(lineAt), body)
        return true
    }

    /// Calls `body` with the range of the screen of each element of the path, in order
    /// (what a name's resolution is found by, without its text).
    public func forEachScreenRange(_ body: (Range<Int>) -> Void) {
        if let storage {
            for element in storage.path { body(element.screen.range) }
        } else {
            lines!.forEachScreenRange(at: Int(lineAt), body)
        }
    }

    /// For a link read from its file's `link` lines (see ``init(lines:at:)``): what `body`
    /// makes of the file's bytes and the parts of the path as the lexer read them (ranges in
    /// the file, a string value with its quotes; see `LinkLine.pathParts`), the bytes valid
    /// only during the call; nil for a link that holds its fields. What reads each link's
    /// path once (the link rules) reads it so without making it.
    public func withLineParts<Result>(_ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ parts: inout LinkLine.PathParts) -> Result) -> Result? {
        guard storage == nil, let lines else { return nil }
        return lines.withParts(at: Int(lineAt), body)
    }

    /// The pattern parsed, nil without a pattern: parsed at each call (the link rules parse
    /// each link's once per analysis, on every core, rather than the lowering on one); a
    /// link read from `lines` is parsed from the file's bytes, without a string.
    public var parsed: Result<LinkPattern, LinkPattern.Problem>? {
        if storage == nil, let lines { return lines.parsedPattern(at: Int(lineAt)) }
        return pattern.map { LinkPattern.parse($0) }
    }

    /// `patternSources`: for a pattern written with escapes, where each byte of its text is
    /// written, from the string's start (see `Lexer.stringValueSources(_:)`).
    public init(pattern: String?, patternRange: Range<Int>, patternIsVerbatim: Bool, patternSources: [Range<Int32>]? = nil,
                path: [LinkPathElement]) {
        storage = Storage(pattern: pattern, patternRange: patternRange, patternIsVerbatim: patternIsVerbatim,
                          patternSources: patternSources, path: path)
    }

    /// The link whose parts are at `at` in `lines` (its pattern has no escape).
    init(lines: LinkLines, at: Int) {
        self.lines = lines
        lineAt = Int32(at)
    }

    public static func == (a: LinkDeclaration, b: LinkDeclaration) -> Bool {
        if let x = a.storage, let y = b.storage, x === y { return true }
        if let x = a.lines, let y = b.lines, x === y, a.lineAt == b.lineAt { return true }
        return a.pattern == b.pattern && a.patternRange == b.patternRange && a.patternIsVerbatim == b.patternIsVerbatim
            && a.storage?.patternSources == b.storage?.patternSources && a.path == b.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(patternRange)
        hasher.combine(patternIsVerbatim)
        hasher.combine(storage?.patternSources)
        hasher.combine(path)
    }

    /// The pattern, when it parses (parsed at each call).
    public var parsedPattern: LinkPattern? {
        if case .success(let pattern) = parsed { return pattern }
        return nil
    }

    /// Where bytes `range` of the pattern's text are in the file: from the first character
    /// (or escape) that gave them to the last.
    public func sourceRange(ofPatternBytes range: Range<Int>) -> Range<Int> {
        let patternRange = self.patternRange
        if !patternIsVerbatim {
            guard let sources = storage?.patternSources, !sources.isEmpty else { return patternRange }
            let base = patternRange.lowerBound
            let first = range.lowerBound < sources.count ? Int(sources[range.lowerBound].lowerBound) : Int(sources[sources.count - 1].upperBound)
            let last = range.isEmpty ? first : Int(sources[min(range.upperBound, sources.count) - 1].upperBound)
            return min(base + first, patternRange.upperBound)..<min(base + max(first, last), patternRange.upperBound)
        }
        guard patternRange.count >= 2 else { return patternRange }
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

/// The `link` lines of one file as the lexer read them (`LinkLine`): the file's text and the
/// parts of each line. A lint's model keeps them in place of each link's pattern and path
/// (see `Lowerer.lowerLinkLine`), which are read from them when asked: the lowering then
/// makes no string or array per link, and most are never asked for (a lint reads each
/// link's screens twice, and its pattern and path once, each on the core that judges it).
final class LinkLines: Sendable {
    let bytes: [UInt8]
    let parts: [Int32]

    init(bytes: [UInt8], parts: [Int32]) {
        self.bytes = bytes
        self.parts = parts
    }

    func patternRange(at index: Int) -> Range<Int> { LinkLine.head(parts, at: index).pattern }

    /// The pattern's text: the bytes between the quotes (the form has no escape).
    func pattern(at index: Int) -> String {
        String(decoding: bytes[LinkLine.text(ofPattern: patternRange(at: index))], as: UTF8.self)
    }

    /// The pattern parsed from the bytes between the quotes.
    func parsedPattern(at index: Int) -> Result<LinkPattern, LinkPattern.Problem> {
        let text = LinkLine.text(ofPattern: patternRange(at: index))
        return bytes.withUnsafeBufferPointer { LinkPattern.parse(utf8: UnsafeBufferPointer(rebasing: $0[text])) }
    }

    /// The parts of the line at `index`, told to `visitor`.
    private func replay<Visitor: LinkLineVisitor>(at index: Int, _ visitor: inout Visitor) {
        var at = index
        let replayed = LinkLine.replay(parts, from: &at, lineStart: Int(parts[index]), &visitor)
        assert(replayed, "the parts of a line read before")
    }

    func path(at index: Int) -> [LinkPathElement] {
        bytes.withUnsafeBufferPointer { bytes in
            var parts = LinkLineParts(bytes: bytes)
            replay(at: index, &parts)
            return parts.path
        }
    }

    func pathCount(at index: Int) -> Int { LinkLine.elementCount(parts, at: index) }

    func withParts<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>, inout LinkLine.PathParts) -> Result) -> Result {
        var path = LinkLine.pathParts(parts, at: index)
        return bytes.withUnsafeBufferPointer { body($0, &path) }
    }

    func forEachScreen(at index: Int, _ body: (Name) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            let reader = LinkLineParts(bytes: bytes)
            LinkLine.forEachScreen(parts, at: index) { range in body(Name(text: reader.text(range), range: range)) }
        }
    }

    func forEachScreenRange(at index: Int, _ body: (Range<Int>) -> Void) { LinkLine.forEachScreen(parts, at: index, body) }

    func placeholderNames(at index: Int) -> [(name: Range<Int>, isOptional: Bool)]? {
        let text = LinkLine.text(ofPattern: patternRange(at: index))
        return bytes.withUnsafeBufferPointer {
            LinkPattern.placeholderNames(utf8: UnsafeBufferPointer(rebasing: $0[text]), offset: text.lowerBound)
        }
    }

    func forEachPatternSegment(at index: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        let text = LinkLine.text(ofPattern: patternRange(at: index))
        bytes.withUnsafeBufferPointer { bytes in
            LinkPattern.forEachSegment(utf8: UnsafeBufferPointer(rebasing: bytes[text]), body)
        }
    }

    func forEachScreenBytes(at index: Int, _ body: (Range<Int>, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            LinkLine.forEachScreen(parts, at: index) { range in body(range, UnsafeBufferPointer(rebasing: bytes[range])) }
        }
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

/// The parts of a `link` line as `LinkLine.read` tells them (see `Lowerer.lowerLinkLine`,
/// `LinkLines`).
/// The path and each element's arguments get room for their count when a replay tells it
/// (`expect(elements:)`, `expect(arguments:)`): thousands of links hold a few of each, and
/// room reserved ahead for more would be held as long as the model.
struct LinkLineParts: LinkLineVisitor {
    let bytes: UnsafeBufferPointer<UInt8>
    var name = 0..<0
    var pattern = 0..<0
    var path: [LinkPathElement] = []
    var screen: Name? = nil
    var arguments: [LinkArgument] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The text of bytes the reader read (ASCII).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func head(name: Range<Int>, pattern: Range<Int>) {
        self.name = name
        self.pattern = pattern
    }

    mutating func expect(elements count: Int) { path.reserveCapacity(count) }

    mutating func element(screen range: Range<Int>) {
        screen = Name(text: text(range), range: range)
        arguments = []
    }

    mutating func expect(arguments count: Int) { arguments.reserveCapacity(count) }

    mutating func argument(label: Range<Int>, value range: Range<Int>, kind: TokenKind) {
        let value: LinkValue
        switch kind {
        case .string: value = .string(text(range.lowerBound + 1..<range.upperBound - 1))
        case .number: value = .number(text(range))
        case .kwTrue: value = .bool(true)
        case .kwFalse: value = .bool(false)
        default: value = .placeholder(Name(text: text(range), range: range))
        }
        // (Without a count told, room for two at once: most elements with arguments have one
        // or two.)
        if arguments.capacity == 0 { arguments.reserveCapacity(2) }
        arguments.append(LinkArgument(label: Name(text: text(label), range: label), value: value, valueRange: range))
    }

    mutating func endElement(at end: Int) {
        guard let screen else { return }
        if path.capacity == 0 { path.reserveCapacity(4) }
        path.append(LinkPathElement(screen: screen, arguments: arguments, range: screen.range.lowerBound..<end))
    }
}
