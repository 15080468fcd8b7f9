import Testing
@testable import RoutesModel

/// The model of a million-line program holds hundreds of thousands of names, declarations
/// and nodes: their sizes are part of what the lint and the server hold.
@Suite struct ModelLayoutTests {
    @Test func sizes() {
        #expect(MemoryLayout<Name>.stride == 24)
        #expect(MemoryLayout<Name?>.stride == 24)
        #expect(MemoryLayout<Declaration>.stride <= 56)
        #expect(MemoryLayout<BuilderNode>.stride <= 64)
        #expect(MemoryLayout<Symbol>.stride == 8)
        // Thousands of links hold a few elements and arguments each.
        #expect(MemoryLayout<LinkPathElement>.stride <= 40)
        #expect(MemoryLayout<LinkArgument>.stride <= 64)
    }

    /// Offsets read back as written, up to the largest file a project reads.
    @Test func offsetsRoundTrip() {
        let s = Symbol(file: 70_000, declaration: 1 << 24)
        #expect(s.file == 70_000 && s.declaration == 1 << 24)
        #expect(Symbol(file: 1, declaration: 9) < Symbol(file: 2, declaration: 0))
        let end = SourceLimits.maxFileBytes
        var name = Name(text: "Home", range: (end - 4)..<end)
        #expect(name.range == (end - 4)..<end)
        name.range = 3..<7
        #expect(name.range == 3..<7)
        var d = Declaration(kind: .builder, name: name, range: 0..<end)
        #expect(d.range == 0..<end && d.body == nil)
        d.body = 0
        #expect(d.body == 0)
        d.body = end
        #expect(d.body == end)
        d.body = nil
        #expect(d.body == nil)
        var n = BuilderNode(kind: .empty, range: 5..<end, head: 5..<10)
        #expect(n.range == 5..<end && n.head == 5..<10)
        n.head = 6..<11
        #expect(n.head == 6..<11 && n.range == 5..<end)
    }

    /// A declaration is a value: a copy keeps its doc comment, type and `from` when the
    /// other's change (they are held out of line, shared until written).
    @Test func detailsAreValues() {
        var a = Declaration(kind: .dependency, name: Name(text: "store", range: 11..<16), range: 0..<40, doc: "The store.")
        a.type = "Store"
        a.from = Name(text: "Home", range: 30..<34)
        let b = a
        a.doc = "Another."
        a.type = nil
        a.from = nil
        #expect(b.doc == "The store." && b.type == "Store" && b.from?.text == "Home" && b.from?.range == 30..<34)
        #expect(a.doc == "Another." && a.type == nil && a.from == nil)
        var c = b
        c.from = Name(text: "List", range: 30..<34)
        #expect(b.from?.text == "Home" && c.from?.text == "List" && c.doc == "The store.")
        let plain = Declaration(kind: .flag, name: Name(text: "beta", range: 5..<9), range: 0..<9)
        #expect(plain.doc == nil && plain.type == nil && plain.from == nil)
    }
}
