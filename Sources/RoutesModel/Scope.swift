/// The declarations visible by name in one file: an open-addressing table keyed by the
/// name's bytes, with a hash of those bytes (FNV-1a, finished with a multiply), in place of
/// `[String: Symbol]`, whose seeded SipHash was most of building every file's scope and of
/// resolving every name of every file (a program's root file sees every declaration of the
/// program). Iterates as a dictionary does, in no particular order.
///
/// A scope may be laid over the scope of the one file its file imports (``init(over:)``):
/// the names of that scope come first and are shared, not copied, so that the hundreds of
/// files importing one shared file do not each hold a table of its names.
public struct Scope: Sendable, Sequence {
    /// The scope this one is laid over (its names win), boxed so that a scope can hold one.
    @usableFromInline final class Base: Sendable {
        @usableFromInline let scope: Scope
        init(_ scope: Scope) { self.scope = scope }
    }
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var name: String
        @usableFromInline var hash: UInt32
        /// -1: an empty slot.
        @usableFromInline var file: Int32
        @usableFromInline var declaration: Int32
        /// Kept here so that resolving a name need not read the declaration.
        @usableFromInline var kind: DeclarationKind
    }

    @usableFromInline var slots: [Slot]
    @usableFromInline var base: Base? = nil
    /// The renames since the table was made (see `rename`), kept beside it so that a rename
    /// does not copy a table that the project before the edit shares.
    @usableFromInline var renames: Renames? = nil

    /// Names a rename added (they win over the table) and names it took away from the table.
    @usableFromInline struct Renames: Sendable {
        @usableFromInline var added: [String: Slot] = [:]
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
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: Slot(name: "", hash: 0, file: -1, declaration: 0, kind: .screen), count: size)
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
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h &* 0x9E37_79B9_7F4A_7C15
    }

    /// The declaration the name stands for in this file, if any.
    @inlinable public subscript(name: String) -> Symbol? { entry(name)?.symbol }

    /// The declaration the name stands for in this file and its kind, if any.
    @inlinable public func entry(_ name: String) -> (symbol: Symbol, kind: DeclarationKind)? {
        if let base, let found = base.scope.entry(name) { return found }
        if let renames {
            if let s = renames.added[name] { return (Symbol(file: Int(s.file), declaration: Int(s.declaration)), s.kind) }
            if renames.removed.contains(name) { return nil }
        }
        let h = Self.hash(name)
        let key = UInt32(truncatingIfNeeded: h >> 32)
        return slots.withUnsafeBufferPointer { p in
            let mask = p.count - 1
            var i = Int(truncatingIfNeeded: h) & mask
            while true {
                let s = p[i]
                if s.file < 0 { return nil }
                if s.hash == key && s.name == name { return (Symbol(file: Int(s.file), declaration: Int(s.declaration)), s.kind) }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds `name` for `symbol` unless the name is there already: then returns the symbol it
    /// has (the first declaration wins) and changes nothing.
    public mutating func insertIfAbsent(_ name: String, _ symbol: Symbol, kind: DeclarationKind) -> Symbol? {
        if let base, let found = base.scope.entry(name) { return found.symbol }
        if renames != nil { foldRenames() }
        if (count - (base?.scope.count ?? 0) + 1) * 2 > slots.count { grow() }
        let h = Self.hash(name)
        let key = UInt32(truncatingIfNeeded: h >> 32)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            if slots[i].file < 0 {
                slots[i] = Slot(name: name, hash: key, file: Int32(truncatingIfNeeded: symbol.file),
                                declaration: Int32(truncatingIfNeeded: symbol.declaration), kind: kind)
                count += 1
                return nil
            }
            if slots[i].hash == key && slots[i].name == name {
                return Symbol(file: Int(slots[i].file), declaration: Int(slots[i].declaration))
            }
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
        var r = renames ?? Renames()
        renames = nil
        r.added[old] = nil
        r.removed.insert(old)
        r.added[new] = Slot(name: new, hash: 0, file: Int32(truncatingIfNeeded: symbol.file),
                            declaration: Int32(truncatingIfNeeded: symbol.declaration), kind: kind)
        renames = r
        if r.added.count > Self.maxRenames { foldRenames() }
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
        renames = nil
    }

    private mutating func grow() {
        var bigger = Scope(capacity: slots.count)
        for s in slots where s.file >= 0 {
            _ = bigger.insertIfAbsent(s.name, Symbol(file: Int(s.file), declaration: Int(s.declaration)), kind: s.kind)
        }
        slots = bigger.slots
    }

    public struct Iterator: IteratorProtocol {
        var base: [Iterator]
        let slots: [Slot]
        let renames: Renames?
        var added: Dictionary<String, Slot>.Iterator?
        var i = 0
        public mutating func next() -> (key: String, value: Symbol)? {
            if !base.isEmpty {
                if let e = base[0].next() { return e }
                base = []
            }
            while i < slots.count {
                let s = slots[i]
                i += 1
                guard s.file >= 0 else { continue }
                // A name renamed away, or given by a rename (then it comes below).
                if let renames, renames.removed.contains(s.name) || renames.added[s.name] != nil { continue }
                return (s.name, Symbol(file: Int(s.file), declaration: Int(s.declaration)))
            }
            if let (name, s) = added?.next() { return (name, Symbol(file: Int(s.file), declaration: Int(s.declaration))) }
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(base: base.map { [$0.scope.makeIterator()] } ?? [], slots: slots, renames: renames,
                 added: renames?.added.makeIterator())
    }
    public var underestimatedCount: Int { count }
}
