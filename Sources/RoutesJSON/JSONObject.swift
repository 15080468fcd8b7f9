/// A JSON object: key/value pairs that keep their insertion order.
///
/// Keys are unique. Building an object from pairs that repeat a key (``init(_:)``, a dictionary
/// literal, or parsing `{"a":1,"a":2}`) keeps the key at its *first* position with its *last*
/// value — exactly what json-c does — so a lookup returns the last value given for the key.
///
/// Order is part of the value: iteration, ``keys`` and serialization follow it, and two objects
/// are equal only if they hold equal pairs in the same order (so equal objects always serialize
/// to the same text).
///
/// Lookups are linear for small objects and hashed once an object has more than
/// ``indexThreshold`` keys, so building or reading large objects key by key stays linear overall.
public struct JSONObject: Sendable {
    /// One stored pair.
    @usableFromInline
    struct Entry: Sendable, Hashable {
        @usableFromInline var key: String
        @usableFromInline var value: JSONValue
        @inlinable init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Objects with more keys than this keep a key → position index.
    static let indexThreshold = 16

    @usableFromInline var entries: [Entry]
    /// Key → position in `entries`; empty unless `entries.count > indexThreshold`.
    var index: [String: Int]

    /// An empty object.
    public init() {
        entries = []
        index = [:]
    }

    /// An object with the given pairs in order. A repeated key keeps its first position and
    /// takes its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        entries.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Wraps entries whose keys are already known to be distinct (the json-c conversion).
    init(uniqueEntries: [Entry]) {
        entries = uniqueEntries
        index = [:]
        if entries.count > Self.indexThreshold { rebuildIndex() }
    }

    /// The value for `key`, or `nil` if the object has no such key.
    ///
    /// Setting a value replaces the value of an existing key in place (the key keeps its position)
    /// or appends the key at the end. Setting `nil` removes the key; to store JSON `null`, set
    /// `.null`.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return entries[position].value
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    entries[position].value = newValue
                } else {
                    entries.remove(at: position)
                    if entries.count > Self.indexThreshold { rebuildIndex() } else { index = [:] }
                }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
                if !index.isEmpty {
                    index[key] = entries.count - 1
                } else if entries.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }

    /// The values, in key order.
    public var values: [JSONValue] { entries.map(\.value) }

    /// The number of keys.
    public var count: Int { entries.count }

    /// Whether the object has no keys.
    public var isEmpty: Bool { entries.isEmpty }

    private func position(of key: String) -> Int? {
        if index.isEmpty {
            return entries.firstIndex { $0.key == key }
        }
        return index[key]
    }

    private mutating func rebuildIndex() {
        var newIndex = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() { newIndex[entry.key] = position }
        index = newIndex
    }
}

extension JSONObject: Equatable, Hashable {
    /// Equal when both hold equal pairs in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }
}

extension JSONObject: Sequence {
    public typealias Element = (key: String, value: JSONValue)

    /// Iterates the pairs in order.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Entry]>
        public mutating func next() -> Element? {
            guard let entry = base.next() else { return nil }
            return (key: entry.key, value: entry.value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }

    public var underestimatedCount: Int { entries.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keys keep their source order; a repeated key keeps its first position and its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of the object.
    public var description: String { JSON.serialize(.object(self)) }
}
