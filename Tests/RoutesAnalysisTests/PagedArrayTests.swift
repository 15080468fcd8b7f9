import Testing
@testable import RoutesAnalysis

@Suite struct PagedArrayTests {
    /// Across page boundaries, a paged array reads, writes and compares as an array does.
    @Test func behavesAsAnArray() {
        let n = PagedArray<Int>.pageSize * 2 + 17
        var paged = PagedArray<Int>()
        var plain: [Int] = []
        for i in 0..<n {
            paged.append(i * 3)
            plain.append(i * 3)
        }
        #expect(paged.count == n)
        #expect(Array(paged) == plain)
        for i in stride(from: 0, to: n, by: 97) {
            paged[i] += 1
            plain[i] += 1
        }
        #expect(Array(paged) == plain)
        #expect(paged.indices == plain.indices)
        let filled = PagedArray(repeating: 7, count: n)
        #expect(filled.count == n && filled.allSatisfy { $0 == 7 })
        #expect(PagedArray(repeating: 7, count: 0).isEmpty)
    }

    /// A copy is a value: writing one leaves the other as it was, in the page written and
    /// in the others.
    @Test func copiesAreIndependent() {
        var a = PagedArray(repeating: 0, count: PagedArray<Int>.pageSize * 3)
        let b = a
        a[PagedArray<Int>.pageSize + 5] = 1
        #expect(b[PagedArray<Int>.pageSize + 5] == 0)
        #expect(a[PagedArray<Int>.pageSize + 5] == 1)
        #expect(a != b)
        var c = b
        c[PagedArray<Int>.pageSize + 5] = 1
        #expect(a == c)
        a.append(9)
        #expect(b.count == PagedArray<Int>.pageSize * 3 && a.count == b.count + 1)
    }
}
