/// What the names of one file resolve to, keyed by each name's start offset: an open-addressing
/// hash table with a multiplicative hash. It replaces `[Int: Symbol]`, whose seeded SipHash
/// was a tenth of an edit's cost in the language server (every name is inserted again when
/// positions move) and of name resolution in a lint.
public struct ResolutionTable: Sendable, Sequence {
    /// One slot: a start offset (`-1`: empty) and the symbol, packed in 12 bytes.
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var key: Int32
        @usableFromInline var file: Int32
        @usableFromInline var declaration: Int32
    }

    @usableFromInline var slots: [Slot]
    @usableFromInline var shift: UInt64
    public private(set) var count = 0

    /// A table for about `capacity` names (it grows past that). A table is kept at most three
    /// quarters full: lookups are of names it holds, which linear probing finds in a couple
    /// of steps at that load, and a program's root file resolves every name it mentions.
    public init(capacity: Int = 0) {
        var bits = 3
        while (1 << bits) * 3 < capacity * 4 { bits += 1 }
        slots = Array(repeating: Slot(key: -1, file: 0, declaration: 0), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    @inlinable @inline(__always) func slot(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inlinable public subscript(offset: Int) -> Symbol? {
        get {
            guard offset >= 0 && offset <= Int(Int32.max) else { return nil }
            let key = Int32(truncatingIfNeeded: offset)
            let mask = slots.count - 1
            return slots.withUnsafeBufferPointer { slotBuffer in
                var i = slot(offset)
                while true {
                    let entry = slotBuffer[i]
                    if entry.key == key { return Symbol(file: Int(entry.file), declaration: Int(entry.declaration)) }
                    if entry.key < 0 { return nil }
                    i = (i + 1) & mask
                }
            }
        }
        set {
            // Offsets come from files under `SourceLimits.maxFileBytes`.
            guard offset >= 0 && offset <= Int(Int32.max) else { return }
            if let symbol = newValue {
                insert(Int32(truncatingIfNeeded: offset), symbol)
            } else {
                remove(Int32(truncatingIfNeeded: offset))
            }
        }
    }

    /// Empties the slot of `key`, moving back each later slot of its run that could then be
    /// found nowhere (linear probing's deletion without markers).
    @usableFromInline mutating func remove(_ key: Int32) {
        let mask = slots.count - 1
        var i = slot(Int(key))
        while slots[i].key != key {
            if slots[i].key < 0 { return }
            i = (i + 1) & mask
        }
        var hole = i
        var j = (i + 1) & mask
        while slots[j].key >= 0 {
            let home = slot(Int(slots[j].key))
            // Slot j may fill the hole unless its home lies cyclically in (hole, j].
            let homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !homeBetween {
                slots[hole] = slots[j]
                hole = j
            }
            j = (j + 1) & mask
        }
        slots[hole] = Slot(key: -1, file: 0, declaration: 0)
        count -= 1
    }

    @usableFromInline mutating func insert(_ key: Int32, _ symbol: Symbol) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        let value = Slot(key: key, file: Int32(truncatingIfNeeded: symbol.file), declaration: Int32(truncatingIfNeeded: symbol.declaration))
        var i = slot(Int(key))
        while true {
            let slotKey = slots[i].key
            if slotKey == key {
                slots[i] = value
                return
            }
            if slotKey < 0 {
                slots[i] = value
                count += 1
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Reads a slot of every cache line, in order (which the processor streams ahead of the
    /// reads), so that lookups afterwards find their slots in the cache; returns a sum of what
    /// it read, for the caller to keep.
    public func touchEveryCacheLine() -> Int {
        slots.withUnsafeBufferPointer { slotBuffer in
            var sum: Int32 = 0
            var i = 0
            while i < slotBuffer.count {
                sum &+= slotBuffer[i].key
                i += 64 / MemoryLayout<Slot>.stride
            }
            return Int(sum)
        }
    }

    private mutating func grow() {
        var bigger = ResolutionTable(capacity: slots.count)
        for (offset, symbol) in self { bigger[offset] = symbol }
        self = bigger
    }

    public struct Iterator: IteratorProtocol {
        let slots: [Slot]
        var i = 0
        public mutating func next() -> (key: Int, value: Symbol)? {
            while i < slots.count {
                let entry = slots[i]
                i += 1
                if entry.key >= 0 { return (Int(entry.key), Symbol(file: Int(entry.file), declaration: Int(entry.declaration))) }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(slots: slots) }
    public var underestimatedCount: Int { count }
}
