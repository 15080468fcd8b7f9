/// The declarations visible by name in one file: an open-addressing table keyed by the
/// name's bytes, with a hash of those bytes (FNV-1a, finished with a multiply), in place of
/// `[String: Symbol]`, whose seeded SipHash was most of building every file's scope and of
/// resolving every name of every file (a program's root file sees every declaration of the
/// program). Iterates as a dictionary does, in no particular order.
public struct Scope: Sendable, Sequence {
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
    public private(set) var count = 0

    /// A scope with room for about `capacity` names (it grows past that).
    public init(capacity: Int = 0) {
        var size = 8
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: Slot(name: "", hash: 0, file: -1, declaration: 0, kind: .screen), count: size)
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
        if (count + 1) * 2 > slots.count { grow() }
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

    private mutating func grow() {
        var bigger = Scope(capacity: slots.count)
        for s in slots where s.file >= 0 {
            _ = bigger.insertIfAbsent(s.name, Symbol(file: Int(s.file), declaration: Int(s.declaration)), kind: s.kind)
        }
        self = bigger
    }

    public struct Iterator: IteratorProtocol {
        let slots: [Slot]
        var i = 0
        public mutating func next() -> (key: String, value: Symbol)? {
            while i < slots.count {
                let s = slots[i]
                i += 1
                if s.file >= 0 { return (s.name, Symbol(file: Int(s.file), declaration: Int(s.declaration))) }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(slots: slots) }
    public var underestimatedCount: Int { count }
}
