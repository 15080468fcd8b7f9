/// A `link` declaration written on one line in its plain form, read straight from the bytes:
/// a lint, which lowers a file and then lets its tree go, reads such a line as one token
/// (`TokenKind.linkLine`) and one node rather than some twenty tokens, their parser events and
/// eight nodes (`SyntaxTree.parse(_:file:maxDepth:readingLinkLines:)`), and the model reads
/// the line's parts again from its bytes with the same reader (`LinkLineVisitor`).
///
/// The form is a subset of what the parser reads without an error, on one line from its
/// first byte:
///
///     link NAME "PATTERN" -> Screen(label: value, …)/Screen…
///
/// names are ASCII words (the link's name, the screens and placeholder values are not
/// keywords; a label may be one, as in the parser); the pattern and string values are
/// printable ASCII without `\` or `"`; a value is a name, `true`, `false`, a number
/// (`-`, digits, maybe a fraction) or such a string; spaces and tabs may stand between the
/// parts, and only spaces or tabs may follow the last one on its line. Anything else (a
/// comment after the path, an escape, a line break inside the declaration, non-ASCII text)
/// is read token by token as before: a line the reader turns down costs only the look.
public enum LinkLine {
    /// The end of the declaration that starts at `start` (the `l` of `link`, at the start of
    /// a line), after its last non-blank byte, when the line holds one in the plain form;
    /// `visitor` hears its path's parts, in order, as they are read (hear them only from a
    /// line known to be one: a line turned down may have told some first).
    @inline(__always)
    public static func read<Visitor: LinkLineVisitor>(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                                                      _ visitor: inout Visitor) -> Int? {
        var reader = Reader(bytes: bytes, position: start)
        return reader.declaration(&visitor)
    }

    /// Whether a `link` line may start at `start`: the word `link` and a blank, at the start
    /// of a line (the lexer asks this first, at each `l` that starts a line).
    @inline(__always)
    static func mayStart(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        start + 5 < bytes.count && (start == 0 || bytes[start - 1] == 0x0A || bytes[start - 1] == 0x0D)
            && bytes[start + 1] == UInt8(ascii: "i") && bytes[start + 2] == UInt8(ascii: "n")
            && bytes[start + 3] == UInt8(ascii: "k") && (bytes[start + 4] == 0x20 || bytes[start + 4] == 0x09)
    }

    /// Tags of a recording (positions are not negative).
    private static let elementTag: Int32 = -1, argumentTag: Int32 = -2, endElementTag: Int32 = -3, endTag: Int32 = -4

    /// The parts of the lines read, in order, as the reader told them: per line its start,
    /// the name's and the pattern's ranges, then per element its screen's range, each
    /// argument's label and value ranges and kind, and its end (what `replay` tells again).
    struct Recording: LinkLineVisitor {
        private(set) var parts: [Int32] = []

        /// Starts a line of a text of `size` bytes; the returned mark lets `discard(from:)`
        /// drop it if it is turned down.
        @inline(__always) mutating func begin(lineStart: Int, size: Int) -> Int {
            // (A line of the form takes about one part per two bytes, a few more for short
            // names: room for a text of such lines at the first, as growing it would copy it.)
            if parts.capacity == 0 { parts.reserveCapacity(max(64, (size - lineStart) / 2)) }
            let mark = parts.count
            parts.append(Int32(truncatingIfNeeded: lineStart))
            return mark
        }
        @inline(__always) mutating func end() { parts.append(LinkLine.endTag) }
        @inline(__always) mutating func discard(from mark: Int) { parts.removeSubrange(mark...) }

        @inline(__always) private mutating func append(_ range: Range<Int>) {
            parts.append(Int32(truncatingIfNeeded: range.lowerBound))
            parts.append(Int32(truncatingIfNeeded: range.upperBound))
        }
        @inline(__always) mutating func head(name: Range<Int>, pattern: Range<Int>) {
            append(name)
            append(pattern)
        }
        @inline(__always) mutating func element(screen: Range<Int>) {
            parts.append(LinkLine.elementTag)
            append(screen)
        }
        @inline(__always) mutating func argument(label: Range<Int>, value: Range<Int>, kind: TokenKind) {
            parts.append(LinkLine.argumentTag)
            append(label)
            append(value)
            parts.append(Int32(kind.rawValue))
        }
        @inline(__always) mutating func endElement(at end: Int) {
            parts.append(LinkLine.endElementTag)
            parts.append(Int32(truncatingIfNeeded: end))
        }
    }

    /// Tells `visitor` the parts of the line that starts at `lineStart` as `read` told them,
    /// from `parts` (a tree's ``SyntaxTree/linkLineParts``) at `index`, which moves past them:
    /// false, with `index` unmoved, when the parts there are not that line's (then read the
    /// line).
    public static func replay<Visitor: LinkLineVisitor>(_ parts: [Int32], from index: inout Int, lineStart: Int,
                                                        _ visitor: inout Visitor) -> Bool {
        guard index + 5 <= parts.count, parts[index] == Int32(truncatingIfNeeded: lineStart) else { return false }
        var i = index + 1
        @inline(__always) func range() -> Range<Int> {
            defer { i += 2 }
            return Int(parts[i])..<Int(parts[i + 1])
        }
        let name = range()
        visitor.head(name: name, pattern: range())
        visitor.expect(elements: elementCount(parts, from: i))
        while i < parts.count {
            switch parts[i] {
            case elementTag:
                i += 1
                visitor.element(screen: range())
                visitor.expect(arguments: argumentCount(parts, from: i))
            case argumentTag:
                i += 1
                let label = range()
                let value = range()
                let kind = TokenKind(rawValue: UInt8(truncatingIfNeeded: parts[i]))!
                i += 1
                visitor.argument(label: label, value: value, kind: kind)
            case endElementTag:
                visitor.endElement(at: Int(parts[i + 1]))
                i += 2
            case endTag:
                index = i + 1
                return true
            default:
                return false
            }
        }
        return false
    }

    /// Where the parts of the line that starts at `lineStart` end, when they start at `index`
    /// of `parts` (a tree's ``SyntaxTree/linkLineParts``): the index after them; nil when the
    /// parts there are not that line's. (What `replay` moves past, without telling them.)
    public static func recordEnd(_ parts: [Int32], from index: Int, lineStart: Int) -> Int? {
        guard index + 5 <= parts.count, parts[index] == Int32(truncatingIfNeeded: lineStart) else { return nil }
        return walk(parts, from: index + 5)
    }

    /// The range of a plain pattern's text: its string's range without the quotes.
    public static func text(ofPattern string: Range<Int>) -> Range<Int> { (string.lowerBound + 1)..<(string.upperBound - 1) }

    /// The ranges of the name and of the pattern's string (quotes included) of the line whose
    /// parts start at `index` (as `recordEnd` found them).
    public static func head(_ parts: [Int32], at index: Int) -> (name: Range<Int>, pattern: Range<Int>) {
        (Int(parts[index + 1])..<Int(parts[index + 2]), Int(parts[index + 3])..<Int(parts[index + 4]))
    }

    /// Calls `body` with the range of the screen of each element of the line whose parts
    /// start at `index` (as `recordEnd` found them), in order.
    public static func forEachScreen(_ parts: [Int32], at index: Int, _ body: (Range<Int>) -> Void) {
        _ = walk(parts, from: index + 5) { tag in body(Int(parts[tag + 1])..<Int(parts[tag + 2])) }
    }

    /// How many elements the line whose parts start at `index` has.
    public static func elementCount(_ parts: [Int32], at index: Int) -> Int { elementCount(parts, from: index + 5) }

    /// The parts of the path of the line whose parts start at `index` (as `recordEnd` found
    /// them), one at a time: what `replay` tells a visitor after the head, for a reader in
    /// another module (where a generic visitor's calls are not specialized, and cost more
    /// than the reading).
    public static func pathParts(_ parts: [Int32], at index: Int) -> PathParts { PathParts(parts: parts, position: index + 5) }

    /// One part of a recorded path (see ``pathParts(_:at:)``).
    public enum PathPart: Sendable, Equatable {
        /// An element starts, with its screen's name.
        case element(screen: Range<Int>)
        /// `label: value` (see ``LinkLineVisitor/argument(label:value:kind:)``).
        case argument(label: Range<Int>, value: Range<Int>, kind: TokenKind)
        /// The element ends at `end`.
        case endElement(at: Int)
    }

    /// The parts of a recorded path, in order; nil after the last.
    public struct PathParts: IteratorProtocol, Sendable {
        let parts: [Int32]
        var position: Int

        public mutating func next() -> PathPart? {
            guard position < parts.count else { return nil }
            let i = position
            switch parts[i] {
            case elementTag:
                position += 3
                return .element(screen: Int(parts[i + 1])..<Int(parts[i + 2]))
            case argumentTag:
                position += 6
                return .argument(label: Int(parts[i + 1])..<Int(parts[i + 2]), value: Int(parts[i + 3])..<Int(parts[i + 4]),
                                 kind: TokenKind(rawValue: UInt8(truncatingIfNeeded: parts[i + 5]))!)
            case endElementTag:
                position += 2
                return .endElement(at: Int(parts[i + 1]))
            default:
                return nil
            }
        }
    }

    /// How many elements the recorded line whose first element's tag is at `start` has.
    private static func elementCount(_ parts: [Int32], from start: Int) -> Int {
        var count = 0
        _ = walk(parts, from: start) { _ in count += 1 }
        return count
    }

    /// Walks the parts of a line's path from `start` (its first element's tag): each element
    /// is its tag, its screen's range, its arguments, the end's tag and position; each
    /// argument its tag, two ranges and a kind. Calls `element` with the position of each
    /// element's tag; returns the position after the line's end tag, nil when the parts there
    /// are not a path's.
    private static func walk(_ parts: [Int32], from start: Int, _ element: (Int) -> Void = { _ in }) -> Int? {
        var i = start
        while i < parts.count {
            switch parts[i] {
            case elementTag:
                element(i)
                i += 3
            case argumentTag: i += 6
            case endElementTag: i += 2
            case endTag: return i + 1
            default: return nil
            }
        }
        return nil
    }

    /// How many arguments the recorded element whose parts after its screen's range start at
    /// `start` has.
    private static func argumentCount(_ parts: [Int32], from start: Int) -> Int {
        var count = 0
        var i = start
        while i < parts.count && parts[i] == argumentTag {
            count += 1
            i += 6
        }
        return count
    }

    /// The words after which the parser may read a name on the next line as part of what
    /// came before (a type after `any`; a presentation after `as`; a binding after `var`):
    /// a `link` line right after one of them is read token by token.
    static let continuingWords: [[UInt8]] = ["any", "some", "inout", "borrowing", "consuming", "sending", "async", "throws", "as", "var"]
        .map { Array($0.utf8) }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int

        @inline(__always) var atEnd: Bool { position >= bytes.count }
        @inline(__always) func at(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

        @inline(__always) mutating func blanks() {
            while position < bytes.count && (bytes[position] == 0x20 || bytes[position] == 0x09) { position += 1 }
        }

        /// An identifier-shaped word (keyword or not).
        @inline(__always) mutating func word() -> Range<Int>? {
            guard position < bytes.count, Lexer.isIdentStart(bytes[position]) else { return nil }
            let start = position
            position += 1
            while position < bytes.count && Lexer.isIdentContinue(bytes[position]) { position += 1 }
            return start..<position
        }

        /// A word that is not a keyword: a name.
        @inline(__always) mutating func name() -> Range<Int>? {
            guard let range = word(), Lexer.keywordKind(bytes, range.lowerBound, range.count) == nil else { return nil }
            return range
        }

        /// A string of printable ASCII without escapes, quotes included.
        @inline(__always) mutating func string() -> Bool {
            guard at(0x22) else { return false }
            position += 1
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x22 {
                    position += 1
                    return true
                }
                guard byte >= 0x20 && byte < 0x7F && byte != 0x5C else { return false }
                position += 1
            }
            return false
        }

        /// Digits, maybe after a `-`, maybe with a fraction (as the lexer reads a number).
        @inline(__always) mutating func number() -> Bool {
            if at(0x2D) { position += 1 }
            guard position < bytes.count, Lexer.isDigit(bytes[position]) else { return false }
            while position < bytes.count && Lexer.isDigit(bytes[position]) { position += 1 }
            if position + 1 < bytes.count && bytes[position] == 0x2E && Lexer.isDigit(bytes[position + 1]) {
                position += 1
                while position < bytes.count && Lexer.isDigit(bytes[position]) { position += 1 }
            }
            return true
        }

        mutating func declaration<Visitor: LinkLineVisitor>(_ visitor: inout Visitor) -> Int? {
            position += 4  // `link`
            blanks()
            guard let name = name() else { return nil }
            blanks()
            let patternStart = position
            guard string() else { return nil }
            visitor.head(name: name, pattern: patternStart..<position)
            blanks()
            guard at(0x2D), position + 1 < bytes.count, bytes[position + 1] == 0x3E else { return nil }
            position += 2
            blanks()
            while true {
                guard element(&visitor) else { return nil }
                let end = position
                blanks()
                if at(0x2F) {
                    position += 1
                    blanks()
                    continue
                }
                // Only blanks to the end of the line.
                guard atEnd || bytes[position] == 0x0A || bytes[position] == 0x0D else { return nil }
                return end
            }
        }

        /// `Screen` or `Screen(label: value, …)`.
        mutating func element<Visitor: LinkLineVisitor>(_ visitor: inout Visitor) -> Bool {
            guard let screen = name() else { return false }
            visitor.element(screen: screen)
            let afterName = position
            blanks()
            guard at(0x28) else {
                position = afterName
                visitor.endElement(at: afterName)
                return true
            }
            position += 1
            blanks()
            while !at(0x29) {
                guard let label = word() else { return false }
                blanks()
                guard at(0x3A) else { return false }
                position += 1
                blanks()
                let valueStart = position
                let kind: TokenKind
                if at(0x22) {
                    guard string() else { return false }
                    kind = .string
                } else if at(0x2D) || (position < bytes.count && Lexer.isDigit(bytes[position])) {
                    guard number() else { return false }
                    kind = .number
                } else if let value = word() {
                    switch Lexer.keywordKind(bytes, value.lowerBound, value.count) {
                    case nil: kind = .identifier
                    case .kwTrue?: kind = .kwTrue
                    case .kwFalse?: kind = .kwFalse
                    default: return false
                    }
                } else {
                    return false
                }
                visitor.argument(label: label, value: valueStart..<position, kind: kind)
                blanks()
                if at(0x2C) {
                    position += 1
                    blanks()
                } else if !at(0x29) {
                    return false
                }
            }
            position += 1
            visitor.endElement(at: position)
            return true
        }
    }
}

/// What hears the parts of a link's path as `LinkLine.read` reads them.
public protocol LinkLineVisitor {
    /// The link's name, and its pattern's string (quotes included).
    mutating func head(name: Range<Int>, pattern: Range<Int>)
    /// A path element starts, with its screen's name.
    mutating func element(screen: Range<Int>)
    /// `label: value` in the element's parentheses; `kind` is the value's token kind
    /// (`identifier` for a placeholder).
    mutating func argument(label: Range<Int>, value: Range<Int>, kind: TokenKind)
    /// The element ends at `end` (after its `)`, or its name).
    mutating func endElement(at end: Int)
    /// How many elements the path has, told after `head` when known (a replay knows it).
    mutating func expect(elements count: Int)
    /// How many arguments the element has, told after `element` when known.
    mutating func expect(arguments count: Int)
}

extension LinkLineVisitor {
    public mutating func expect(elements count: Int) {}
    public mutating func expect(arguments count: Int) {}
}
