/// The declarations visible by name in one file: an open-addressing table keyed by the
/// name's bytes, with a hash of those bytes (eight at a time, see `hash(utf8:)`), in place
/// of `[String: Symbol]`, whose seeded SipHash was most of building every file's scope and of
/// resolving every name of every file (a program's root file sees every declaration of the
/// program). Iterates as a dictionary does, in no particular order.
///
/// The names are kept once, in the order they were added (`entries`, 24 bytes each); the
/// table holds, per slot, 8 bytes: the upper half of the name's hash (which also places it)
/// and the entry. A table is kept at most three quarters full (as `ResolutionTable` is), so a
/// name costs 35 to 45 bytes, not the 64 to 128 of a table of whole entries (a program's root
/// file sees every name of the program, so the scopes of a large lint are a visible part of
/// its peak).
///
/// A scope may be laid over the scope of the one file its file imports (``init(over:)``):
/// the names of that scope come first and are shared, not copied, so that the hundreds of
/// files importing one shared file do not each hold a table of its names.
public struct Scope: Sendable, Sequence {
    /// The scope this one is laid over (its names win), boxed so that a scope can hold one.
    @usableFromInline final class Base: Sendable {
        @usableFromInline let scope: Scope
        init(_ scope: Scope) { self.scope = scope }

        /// `scope.entry(name)`, for a name whose key is `key`: read in place, not through a
        /// copy of the scope (which retained and released each of its arrays, on a counter
        /// that every thread resolving a file over this scope shares).
        @inlinable func entry(_ name: String, key: UInt32) -> (symbol: Symbol, kind: DeclarationKind)? {
            scope.entry(name, key: key)
        }

        /// `scope.entry(utf8:key:)`, read in place.
        func entry(utf8 name: UnsafeBufferPointer<UInt8>, key: UInt32) -> (symbol: Symbol, kind: DeclarationKind)?? {
            scope.entry(utf8: name, key: key)
        }
    }
    /// A slot of the table: the upper half of the name's hash, and its entry (-1: empty).
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var key: UInt32
        @usableFromInline var entry: Int32
    }
    /// A name and what it stands for: the declaration's file, and its index with its kind in
    /// the top three bits (so that resolving a name need not read the declaration).
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var name: String
        @usableFromInline var file: Int32
        @usableFromInline var packed: UInt32

        init(name: String, _ symbol: Symbol, kind: DeclarationKind) {
            self.name = name
            file = Int32(truncatingIfNeeded: symbol.file)
            packed = UInt32(truncatingIfNeeded: symbol.declaration) & Self.declarationMask
                | UInt32(Self.kinds.firstIndex(of: kind)!) << 29
        }

        @usableFromInline static let declarationMask: UInt32 = (1 << 29) - 1
        @usableFromInline static let kinds = DeclarationKind.allCases

        @inlinable var symbol: Symbol { Symbol(file: Int(file), declaration: Int(packed & Self.declarationMask)) }
        @inlinable var kind: DeclarationKind { Self.kinds[Int(packed >> 29)] }
    }

    @usableFromInline var slots: [Slot]
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var base: Base? = nil
    /// The renames since the table was made (see `rename`), kept beside it so that a rename
    /// does not copy a table that the project before the edit shares.
    @usableFromInline var renames: Renames? = nil

    /// Names a rename added (they win over the table) and names it took away from the table.
    @usableFromInline struct Renames: Sendable {
        @usableFromInline var added: [String: Entry] = [:]
        @usableFromInline var removed: Set<String> = []
    }
    /// How many renamed names a scope keeps beside its table before it makes the table again.
    static let maxRenames = 64
    /// How many scopes this one is laid over (0: none).
    public private(set) var depth = 0
    /// The number of names, with those of the scope it is laid over.
    public private(set) var count = 0

    /// A scope with room for about `capacity` names (it grows past that).
    public init(capacity: Int = 0) {
        var size = 8
        while size * 3 < capacity * 4 { size *= 2 }
        slots = Array(repeating: Slot(key: 0, entry: -1), count: size)
        entries.reserveCapacity(capacity)
    }

    /// A scope laid over `base`: the names of `base` first, then those added (room for about
    /// `capacity` of them).
    public init(over base: Scope, capacity: Int = 0) {
        self.init(capacity: capacity)
        self.base = Base(base)
        depth = base.depth + 1
        count = base.count
    }

    public var isEmpty: Bool { count == 0 }

    @inlinable static func hash(_ name: String) -> UInt64 {
        // Over the bytes in place (a small string's on the stack): a name's bytes read one by
        // one through the view cost some 300 instructions a name.
        if let hashed = name.utf8.withContiguousStorageIfAvailable({ Self.hash(utf8: $0) }) { return hashed }
        // (A string without contiguous UTF-8, bridged: its bytes copied out first.)
        let bytes = Array(name.utf8)
        return bytes.withUnsafeBufferPointer { Self.hash(utf8: $0) }
    }

    /// The hash of a name given as its UTF-8 bytes: eight bytes at a time (`WordHash`; one by
    /// one, each byte's multiply waited on the one before), then mixed.
    @inlinable static func hash(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        let hash = WordHash.fold(0xCBF2_9CE4_8422_2325 ^ UInt64(truncatingIfNeeded: raw.count), raw, from: 0)
        return hash &* 0x9E37_79B9_7F4A_7C15
    }

    /// The upper half of a name's hash: what a slot keeps, and where the name's probe starts.
    @inlinable static func key(_ name: String) -> UInt32 { UInt32(truncatingIfNeeded: hash(name) >> 32) }

    /// The declaration the name stands for in this file, if any.
    @inlinable public subscript(name: String) -> Symbol? { entry(name)?.symbol }

    /// The declaration the name stands for in this file and its kind, if any.
    @inlinable public func entry(_ name: String) -> (symbol: Symbol, kind: DeclarationKind)? {
        entry(name, key: Self.key(name))
    }

    /// `entry(name)` for a name whose key (`key(_:)`) is known: a scope laid over others
    /// hashes a name once.
    @inlinable func entry(_ name: String, key: UInt32) -> (symbol: Symbol, kind: DeclarationKind)? {
        // (The base read without a retain: this scope holds it, and a base shared by the
        // scopes of hundreds of files is asked on every core at once, its count a line the
        // cores would pass back and forth.)
        if let found = base?.entry(name, key: key) { return found }
        if let renames {
            if let renamed = renames.added[name] { return (renamed.symbol, renamed.kind) }
            if renames.removed.contains(name) { return nil }
        }
        return tableEntry(key: key) { $0 == name }
    }

    /// The entry of this scope's own table whose key is `key` and whose name `matches`.
    @inlinable func tableEntry(key: UInt32, _ matches: (String) -> Bool) -> (symbol: Symbol, kind: DeclarationKind)? {
        slots.withUnsafeBufferPointer { slotBuffer in
            entries.withUnsafeBufferPointer { entryBuffer in
                let mask = slotBuffer.count - 1
                var i = Int(key) & mask
                while true {
                    let slot = slotBuffer[i]
                    if slot.entry < 0 { return nil }
                    if slot.key == key {
                        let found = entryBuffer[Int(slot.entry)]
                        if matches(found.name) { return (found.symbol, found.kind) }
                    }
                    i = (i + 1) & mask
                }
            }
        }
    }

    /// `entry(name)` for a name given as its UTF-8 bytes, without making a string of them (the
    /// thousands of screen names of a lint's links): nil when the scope holds renames, which
    /// are keyed by string (then ask `entry(_:)`).
    func entry(utf8 name: UnsafeBufferPointer<UInt8>) -> (symbol: Symbol, kind: DeclarationKind)?? {
        entry(utf8: name, key: UInt32(truncatingIfNeeded: Self.hash(utf8: name) >> 32))
    }

    /// `entry(utf8:)` for a name whose key is known.
    func entry(utf8 name: UnsafeBufferPointer<UInt8>, key: UInt32) -> (symbol: Symbol, kind: DeclarationKind)?? {
        if base != nil {
            // (Read without a retain: see `entry(_:key:)`.)
            switch base.unsafelyUnwrapped.entry(utf8: name, key: key) {
            case nil: return nil
            case let found?? : return found
            case .some(nil): break
            }
        }
        if renames != nil { return nil }
        return .some(tableEntry(key: key) { Self.equal($0, name) })
    }

    /// Whether `text`'s UTF-8 bytes are `bytes`.
    private static func equal(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == bytes.count else { return false }
        // (Byte by byte: the generic `elementsEqual` costs several times more.)
        let same = utf8.withContiguousStorageIfAvailable { text in
            for i in 0..<text.count where text[i] != bytes[i] { return false }
            return true
        }
        return same ?? utf8.elementsEqual(bytes)
    }

    /// Adds `name` for `symbol` unless the name is there already: then returns the symbol it
    /// has (the first declaration wins) and changes nothing.
    public mutating func insertIfAbsent(_ name: String, _ symbol: Symbol, kind: DeclarationKind) -> Symbol? {
        let key = Self.key(name)
        if let found = base?.entry(name, key: key) { return found.symbol }
        if renames != nil { foldRenames() }
        if (entries.count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var i = Int(key) & mask
        while true {
            let slot = slots[i]
            if slot.entry < 0 {
                slots[i] = Slot(key: key, entry: Int32(truncatingIfNeeded: entries.count))
                entries.append(Entry(name: name, symbol, kind: kind))
                count += 1
                return nil
            }
            if slot.key == key && entries[Int(slot.entry)].name == name { return entries[Int(slot.entry)].symbol }
            i = (i + 1) & mask
        }
    }

    /// Renames the declaration `symbol` from `old` to `new` in a scope laid over no other,
    /// where `old` stands for it and `new` for nothing: what the scope would be were it built
    /// again with the renamed declaration, as long as no name is declared twice (then the
    /// order of declarations decides, and the caller builds it again). False, with nothing
    /// changed, otherwise. The table stays as it is (the scope before the edit shares it):
    /// the rename is noted beside it, until there are `maxRenames` such names.
    public mutating func rename(_ old: String, to new: String, _ symbol: Symbol, kind: DeclarationKind) -> Bool {
        guard base == nil, old != new, entry(new) == nil, let current = entry(old), current.symbol == symbol else { return false }
        var updated = renames ?? Renames()
        renames = nil
        updated.added[old] = nil
        updated.removed.insert(old)
        updated.added[new] = Entry(name: new, symbol, kind: kind)
        renames = updated
        if updated.added.count > Self.maxRenames { foldRenames() }
        return true
    }

    /// Makes the table again with the renames in it.
    private mutating func foldRenames() {
        guard renames != nil else { return }
        var fresh = Scope(capacity: count)
        for (name, symbol) in self {
            guard let kind = entry(name)?.kind else { continue }
            _ = fresh.insertIfAbsent(name, symbol, kind: kind)
        }
        slots = fresh.slots
        entries = fresh.entries
        renames = nil
    }

    /// Doubles the table, placing each slot again by its key (no name is hashed again).
    private mutating func grow() {
        var bigger = Array(repeating: Slot(key: 0, entry: -1), count: slots.count * 2)
        let mask = bigger.count - 1
        for slot in slots where slot.entry >= 0 {
            var i = Int(slot.key) & mask
            while bigger[i].entry >= 0 { i = (i + 1) & mask }
            bigger[i] = slot
        }
        slots = bigger
    }

    public struct Iterator: IteratorProtocol {
        var base: [Iterator]
        let entries: [Entry]
        let renames: Renames?
        var added: Dictionary<String, Entry>.Iterator?
        var i = 0
        public mutating func next() -> (key: String, value: Symbol)? {
            if !base.isEmpty {
                if let next = base[0].next() { return next }
                base = []
            }
            while i < entries.count {
                let entry = entries[i]
                i += 1
                // A name renamed away, or given by a rename (then it comes below).
                if let renames, renames.removed.contains(entry.name) || renames.added[entry.name] != nil { continue }
                return (entry.name, entry.symbol)
            }
            if let (name, entry) = added?.next() { return (name, entry.symbol) }
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(base: base.map { [$0.scope.makeIterator()] } ?? [], entries: entries, renames: renames,
                 added: renames?.added.makeIterator())
    }
    public var underestimatedCount: Int { count }
}
