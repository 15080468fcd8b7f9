@testable import RoutesAnalysis
import Testing
import TestSupport

/// The hand-made tables of the link rules against the standard library's: the same answers
/// over random insertions and lookups, growth and colliding slots included.
@Suite struct LinkTablesTests {
    @Test func anIntTableAnswersAsADictionary() {
        var generator = SplitMix64(seed: 7)
        for round in 0..<20 {
            var table = IntTable()
            var reference: [Int64: Int32] = [:]
            // Small key ranges make repeated keys; wide ones make runs of collisions.
            let range: ClosedRange<Int64> = round % 2 == 0 ? 0...200 : 0...(Int64(1) << 40)
            for _ in 0..<2_000 {
                let key = Int64.random(in: range, using: &generator)
                if Bool.random(using: &generator) {
                    let value = Int32.random(in: 0...Int32.max, using: &generator)
                    table.set(key, value)
                    reference[key] = value
                }
                #expect(table[key] == reference[key])
                let other = Int64.random(in: range, using: &generator)
                #expect(table[other] == reference[other])
            }
            #expect(table.count == reference.count)
        }
    }

    @Test func literalsAreNumberedByTheirBytes() {
        var generator = SplitMix64(seed: 11)
        var literals = LinkOverlap.Literals()
        var reference: [[UInt8]: Int32] = [:]
        // Texts that `String` equates but whose bytes differ get numbers of their own.
        let texts = ["é", "e\u{301}", "a", "", "%20", "items", "Items"] + (0..<500).map { "s\($0)" }
        for _ in 0..<5_000 {
            let text = texts.randomElement(using: &generator)!
            let bytes = Array(text.utf8)
            let number = literals.number(text)
            if let known = reference[bytes] { #expect(number == known, "\(text)") } else { reference[bytes] = number }
            #expect(Array(literals.texts[Int(number)].utf8) == bytes)
        }
        #expect(literals.texts.count == reference.count)
    }
}
