/// An array held in pages of 4,096 elements, each copied on write on its own.
///
/// A graph patched over an edit starts as a copy of the graph of the snapshot before, which
/// stays alive while the new one is analysed, and changes the few nodes the edit resolved
/// again. Held in one buffer, that copy duplicated every node (the memory and the time to
/// copy them); held in pages, it duplicates the pages those nodes are in.
struct PagedArray<Element>: RandomAccessCollection, MutableCollection {
    static var pageBits: Int { 12 }
    static var pageSize: Int { 1 << pageBits }

    private var pages: [ContiguousArray<Element>] = []
    private(set) var count = 0

    init() {}

    init(repeating value: Element, count: Int) {
        var left = count
        while left > 0 {
            let size = Swift.min(left, Self.pageSize)
            pages.append(ContiguousArray(repeating: value, count: size))
            left -= size
        }
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var indices: Range<Int> { 0..<count }
    @inline(__always) func index(after i: Int) -> Int { i + 1 }
    @inline(__always) func index(before i: Int) -> Int { i - 1 }

    /// Out of range traps: a page's own bounds check catches an index past the last
    /// element (the last page is as long as what it holds).
    subscript(i: Int) -> Element {
        @inline(__always) get { pages[i &>> Self.pageBits][i & (Self.pageSize - 1)] }
        @inline(__always) _modify { yield &pages[i &>> Self.pageBits][i & (Self.pageSize - 1)] }
    }

    mutating func append(_ element: Element) {
        if count & (Self.pageSize - 1) == 0 {
            var page = ContiguousArray<Element>()
            page.reserveCapacity(Self.pageSize)
            pages.append(page)
        }
        pages[pages.count - 1].append(element)
        count += 1
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }
}

extension PagedArray: Sendable where Element: Sendable {}

extension PagedArray: Equatable where Element: Equatable {
    static func == (a: PagedArray, b: PagedArray) -> Bool {
        a.count == b.count && a.pages == b.pages
    }
}
