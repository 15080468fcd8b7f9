#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exact questions about every URL at once, over the links of one program: which links no URL
/// has among its winners (`shadowed-link`), and which pairs some URL has both among its
/// winners (`ambiguous-link`).
///
/// A link matches URLs of its own length only, and what it asks of a URL is one condition
/// per segment and per query key. So a URL matters only through the class of each of its
/// segments and query values: at a position, each literal some link has there is a class of
/// its own, and the other values fall into a few classes that every placeholder type accepts
/// or rejects as a whole (an integer within 64 bits, one beyond, a decimal with a fraction,
/// `true`, `false`, any other text); a query key is absent, or present with a value of one of
/// those classes. A search over these classes, position by position, keeping the links still
/// able to match and merging the choices that keep the same ones, decides each question
/// exactly, and gives a URL of the classes found as a witness.
public enum LinkOverlap {
    /// What the links' URLs overlap in.
    public struct Result: Sendable, Hashable {
        /// Per link (by index) that no URL has among its winners: the more specific links
        /// that take its URLs.
        public var shadowed: [Int: [Int]] = [:]
        /// Pairs of links (by index, the first lower) that some URL has both among its
        /// winners, with such a URL.
        public var ties: [Tie] = []
    }

    public struct Tie: Sendable, Hashable {
        public var first: Int
        public var second: Int
        /// A URL both win (a path and its query).
        public var url: String
    }

    public static func analyse(_ links: [TypedLink]) -> Result {
        var result = Result()
        var literals = Literals()
        let shapes = Shapes(links, &literals)
        // The pairs that may match one URL (`candidatePairs`), as neighbours; then the exact
        // search decides.
        var neighbours = [[Int]](repeating: [], count: links.count)
        for (a, b) in candidatePairs(shapes, literals) {
            guard compatible([links[a], links[b]]) else { continue }
            neighbours[a].append(b)
            neighbours[b].append(a)
        }
        // Compared only between neighbours (most links have none).
        let specificity = links.indices.map {
            neighbours[$0].isEmpty ? Specificity(ranks: [], requiredQueryItems: 0) : shapes.specificity(of: $0, TypedLink.Read(links[$0]))
        }
        for a in links.indices where !neighbours[a].isEmpty {
            let higher = neighbours[a].filter { specificity[a] < specificity[$0] }.sorted()
            // (With no more specific link that may take a URL of it, a URL its pattern matches
            // is its own: no search.)
            if !higher.isEmpty, Search.witness(must: [links[a]], mustNot: higher.map { links[$0] }) == nil {
                result.shadowed[a] = higher
            }
        }
        for a in links.indices where !neighbours[a].isEmpty {
            let others = Set(neighbours[a])
            for b in neighbours[a] where a < b && specificity[a] == specificity[b] {
                let higher = neighbours[b].filter {
                    others.contains($0) && specificity[a] < specificity[$0] && compatible([links[a], links[b], links[$0]])
                }.sorted()
                if let url = Search.witness(must: [links[a], links[b]], mustNot: higher.map { links[$0] }) {
                    result.ties.append(Tie(first: a, second: b, url: url))
                }
            }
        }
        result.ties.sort { ($0.first, $0.second) < ($1.first, $1.second) }
        return result
    }

    /// Whether one URL can match all of `links` (at every position and query key, some value
    /// all accept).
    static func compatible(_ links: [TypedLink]) -> Bool {
        Search.witness(must: links, mustNot: []) != nil
    }

    /// The pairs (a < b) of links that `Shapes.mayOverlap` does not rule out, found without
    /// trying every pair: the links are held in a tree by their segments (a literal, or any
    /// placeholder), and each link looks up the links it may meet: at a literal, those with
    /// the same literal or a placeholder there; at a placeholder, all of them.
    static func candidatePairs(_ shapes: Shapes, _ literals: Literals) -> [(Int, Int)] {
        // The tree's nodes by number, in flat arrays (no table or object per node: a chain of
        // thousands of segments would be freed by as many nested deinitialisers). A node's
        // literal children are a list (`firstLiteral`, `nextLiteral`) and found by
        // `literalChild`, keyed by the node and the literal's number.
        var placeholder: [Int32] = []
        var firstLiteral: [Int32] = []
        var nextLiteral: [Int32] = []
        var firstLink: [Int32] = []
        var literalChild = IntTable(capacity: shapes.literals.count)
        var nextLink = [Int32](repeating: -1, count: shapes.count)
        // At most a node per segment, and a root per length: room for those at once (grown
        // by doubling, the four arrays would be copied, and held at up to twice their size).
        let mostNodes = shapes.literals.count + 16
        placeholder.reserveCapacity(mostNodes)
        firstLiteral.reserveCapacity(mostNodes)
        nextLiteral.reserveCapacity(mostNodes)
        firstLink.reserveCapacity(mostNodes)
        func newNode() -> Int32 {
            placeholder.append(-1)
            firstLiteral.append(-1)
            nextLiteral.append(-1)
            firstLink.append(-1)
            return Int32(placeholder.count - 1)
        }
        func key(_ node: Int32, _ literal: Int32) -> Int64 { Int64(node) << 32 | Int64(UInt32(bitPattern: literal)) }
        // One tree per length: links of different lengths never meet.
        var roots = IntTable()
        for index in 0..<shapes.count {
            let length = Int64(shapes.segments(index).count)
            if roots[length] == nil { roots.set(length, newNode()) }
            var node = roots[length]!
            for literal in shapes.literals[shapes.segments(index)] {
                if literal >= 0 {
                    if let child = literalChild[key(node, literal)] {
                        node = child
                    } else {
                        let child = newNode()
                        literalChild.set(key(node, literal), child)
                        nextLiteral[Int(child)] = firstLiteral[Int(node)]
                        firstLiteral[Int(node)] = child
                        node = child
                    }
                } else if placeholder[Int(node)] >= 0 {
                    node = placeholder[Int(node)]
                } else {
                    let child = newNode()
                    placeholder[Int(node)] = child
                    node = child
                }
            }
            // (Listed last first: the pairs are sorted below.)
            nextLink[index] = firstLink[Int(node)]
            firstLink[Int(node)] = Int32(index)
        }
        var pairs: [(Int, Int)] = []
        var frontier: [Int32] = []
        var next: [Int32] = []
        var found: [Int] = []
        for index in 0..<shapes.count {
            guard let start = roots[Int64(shapes.segments(index).count)] else { continue }
            frontier.removeAll(keepingCapacity: true)
            frontier.append(start)
            for literal in shapes.literals[shapes.segments(index)] {
                next.removeAll(keepingCapacity: true)
                for node in frontier {
                    if literal >= 0 {
                        if let child = literalChild[key(node, literal)] { next.append(child) }
                    } else {
                        var child = firstLiteral[Int(node)]
                        while child >= 0 {
                            next.append(child)
                            child = nextLiteral[Int(child)]
                        }
                    }
                    if placeholder[Int(node)] >= 0 { next.append(placeholder[Int(node)]) }
                }
                swap(&frontier, &next)
            }
            found.removeAll(keepingCapacity: true)
            for node in frontier {
                var other = firstLink[Int(node)]
                while other >= 0 {
                    if Int(other) > index && shapes.mayOverlap(index, Int(other), literals) { found.append(Int(other)) }
                    other = nextLink[Int(other)]
                }
            }
            found.sort()
            for other in found { pairs.append((index, other)) }
        }
        return pairs
    }

    /// The literal segments of some links, each text numbered once. Texts are compared byte by
    /// byte (as a URL's segments are matched), not as `String`s, which equate canonically
    /// equivalent text (`é` written as one scalar or as two).
    struct Literals {
        /// An open-addressing table of literal numbers (`-1`: empty) by a hash of the text's
        /// bytes, kept at most half full.
        private var slots = [Int32](repeating: -1, count: 64)
        /// Each literal's hash, by number.
        private var hashes: [UInt64] = []
        /// Each literal's text, by number.
        private(set) var texts: [String] = []

        /// The number of literal `text`.
        mutating func number(_ text: String) -> Int32 {
            var text = text
            return text.withUTF8 { number(utf8: $0) }
        }

        /// The number of the literal whose UTF-8 bytes are `bytes` (a string made of them only
        /// for a literal not seen before).
        mutating func number(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            // FNV-1a over the bytes.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            if let found = lookUp(bytes, hash: hash) { return found }
            if (texts.count + 1) * 2 > slots.count { grow() }
            let number = Int32(texts.count)
            texts.append(String(decoding: bytes, as: UTF8.self))
            hashes.append(hash)
            place(number, hash: hash)
            return number
        }

        @inline(__always) private func slot(_ hash: UInt64) -> Int {
            Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slots.count - 1)
        }

        /// The number of the literal whose bytes are `bytes` (whose hash is `hash`), if any.
        private func lookUp(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32? {
            var i = slot(hash)
            while slots[i] >= 0 {
                let number = Int(slots[i])
                if hashes[number] == hash {
                    var other = texts[number]
                    let same = other.withUTF8 { other in
                        other.count == bytes.count && (bytes.isEmpty || memcmp(other.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
                    }
                    if same { return Int32(number) }
                }
                i = (i + 1) & (slots.count - 1)
            }
            return nil
        }

        private mutating func place(_ number: Int32, hash: UInt64) {
            var i = slot(hash)
            while slots[i] >= 0 { i = (i + 1) & (slots.count - 1) }
            slots[i] = number
        }

        private mutating func grow() {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for number in texts.indices { place(Int32(number), hash: hashes[number]) }
        }
    }

    /// What each link asks of each segment, for a quick test of whether two links may match
    /// one URL: a literal, or the type of a placeholder. In flat arrays, the segments of link
    /// i at `segments(i)` (no arrays per link to make and free).
    struct Shapes {
        /// Per segment, the literal's number in the links' `Literals`, or -1 for a placeholder.
        private(set) var literals: [Int32] = []
        /// Per segment, the placeholder's type; nil for a literal.
        private(set) var types: [PlaceholderType?] = []
        /// Where each link's segments start, and the end of the last.
        private var starts: [Int32] = [0]

        init(_ links: [TypedLink], _ table: inout Literals) {
            starts.reserveCapacity(links.count + 1)
            // (Room for some six segments a link: grown by doubling past that, the arrays of
            // thousands of links would be copied.)
            literals.reserveCapacity(links.count * 6)
            types.reserveCapacity(links.count * 6)
            for link in links {
                // (Read from the bytes of a link read from its line, without its pattern.)
                link.forEachSegment { literal, placeholder in
                    if let literal {
                        literals.append(table.number(utf8: literal))
                        types.append(nil)
                    } else {
                        literals.append(-1)
                        types.append(link.type(at: placeholder))
                    }
                }
                starts.append(Int32(literals.count))
            }
        }

        var count: Int { starts.count - 1 }

        /// The positions of link i's segments in `literals` and `types`.
        func segments(_ i: Int) -> Range<Int> { Int(starts[i])..<Int(starts[i + 1]) }

        /// Link i's specificity (`TypedLink.specificity`), from its shape.
        func specificity(of i: Int, _ link: TypedLink.Read) -> Specificity {
            Specificity(ranks: segments(i).map { literals[$0] >= 0 ? 2 : types[$0]!.isTyped ? 1 : 0 },
                        requiredQueryItems: link.pattern.requiredQueryCount)
        }

        /// False when no URL can match both links a and b: two different literals at one
        /// segment, or a literal the other's typed placeholder rejects. (Query items never
        /// rule a pair out.)
        func mayOverlap(_ a: Int, _ b: Int, _ table: Literals) -> Bool {
            let (mine, theirs) = (segments(a), segments(b))
            guard mine.count == theirs.count else { return false }
            for offset in 0..<mine.count {
                let (x, y) = (mine.lowerBound + offset, theirs.lowerBound + offset)
                let (first, second) = (literals[x], literals[y])
                if first >= 0 && second >= 0 {
                    if first != second { return false }
                } else if first >= 0 {
                    if !types[y]!.accepts(table.texts[Int(first)]) { return false }
                } else if second >= 0 {
                    if !types[x]!.accepts(table.texts[Int(second)]) { return false }
                }
            }
            return true
        }
    }

    /// The classes of values at one position, or of one query key's value (see the type's
    /// doc comment): each with a value that stands for it.
    struct Classes {
        /// The value of each class; nil for a query key left out of the URL.
        var witnesses: [String?]

        /// At a segment where these literals are written.
        init(literals: Set<String>) {
            witnesses = literals.sorted()
            func fresh(_ candidates: [String]) -> String {
                candidates.first { !literals.contains($0) } ?? candidates.last!
            }
            witnesses.append(fresh((0..<(literals.count + 1)).map { String($0) }))
            witnesses.append(fresh((0..<(literals.count + 1)).map { "9223372036854775808" + String(repeating: "0", count: $0) }))
            witnesses.append(fresh((0..<(literals.count + 1)).map { "0.\($0)5" }))
            if !literals.contains("true") { witnesses.append("true") }
            if !literals.contains("false") { witnesses.append("false") }
            witnesses.append(fresh((0..<(literals.count + 1)).map { "x\($0)" }))
        }

        /// Of a query key's value: absent, or one of the classes of a segment with no literal.
        static var queryValue: Classes {
            var classes = Classes(literals: [])
            classes.witnesses.insert(nil, at: 0)
            return classes
        }
    }

    /// The search for a URL that every link of `must` matches and no link of `mustNot` does.
    struct Search {
        let must: [TypedLink.Read]
        let mustNot: [TypedLink.Read]
        /// The classes of each position, then of each query key (`keys`).
        let dimensions: [Classes]
        let keys: [String]
        let length: Int
        private var seen = Set<[Int]>()

        init(must: [TypedLink], mustNot: [TypedLink]) {
            // (Each pattern read once: a lint's link parses it when asked.)
            self.must = must.map(TypedLink.Read.init)
            self.mustNot = mustNot.map(TypedLink.Read.init)
            let all = self.must + self.mustNot
            let must = self.must
            length = must.first?.pattern.segments.count ?? 0
            var dimensions: [Classes] = []
            for position in 0..<length {
                var literals = Set<String>()
                for link in all where link.pattern.segments.count == length {
                    if case .literal(let text) = link.pattern.segments[position] { literals.insert(text) }
                }
                dimensions.append(Classes(literals: literals))
            }
            keys = Set(all.flatMap { $0.pattern.query.map(\.key) }).sorted()
            dimensions += keys.map { _ in Classes.queryValue }
            self.dimensions = dimensions
        }

        /// Whether `link` accepts value `value` in dimension d.
        func accepts(_ link: TypedLink.Read, _ d: Int, _ value: String?) -> Bool {
            if d < length {
                guard link.pattern.segments.count == length, let value else { return false }
                switch link.pattern.segments[d] {
                case .literal(let text): return Array(text.unicodeScalars) == Array(value.unicodeScalars)
                case .placeholder(let name, _): return link.type(of: name).accepts(value)
                }
            }
            let key = keys[d - length]
            guard let item = link.pattern.query.first(where: { $0.key == key }) else { return true }
            guard let value else { return item.isOptional }
            return link.type(of: item.placeholder).accepts(value)
        }

        /// A URL that every link of `must` matches and no link of `mustNot` does, or nil.
        static func witness(must: [TypedLink], mustNot: [TypedLink]) -> String? {
            var search = Search(must: must, mustNot: mustNot)
            return search.witness()
        }

        private mutating func witness() -> String? {
            seen = []
            guard let values = search(alive: Array(mustNot.indices)) else { return nil }
            let path = "/" + values[..<length].map { $0 ?? "" }.joined(separator: "/")
            let query = zip(keys, values[length...]).compactMap { key, value in value.map { "\(key)=\($0)" } }
            return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
        }

        /// A value per dimension such that every link of `must` accepts each, and no link of
        /// `mustNot` (those in `alive` at the start) accepts them all: depth first, a
        /// dimension's values in order, skipping a value that leaves the same links alive as
        /// one tried before, and a dimension entered before with the same links alive. (With
        /// a stack of its own: a pattern may have thousands of segments.)
        private mutating func search(alive start: [Int]) -> [String?]? {
            struct Frame {
                var alive: [Int]
                var next = 0
                var tried = Set<[Int]>()
            }
            var frames: [Frame] = []
            var chosen: [String?] = []
            // The links alive for the dimension about to be entered.
            var entering: [Int]? = start
            while true {
                if let alive = entering {
                    entering = nil
                    let d = frames.count
                    if d == dimensions.count {
                        if alive.isEmpty { return chosen }
                    } else if seen.insert([d] + alive).inserted {
                        frames.append(Frame(alive: alive))
                    }
                }
                // The next value of the innermost dimension entered, or back out of it.
                guard var frame = frames.popLast() else { return nil }
                let d = frames.count
                if chosen.count > d { chosen.removeLast(chosen.count - d) }
                while frame.next < dimensions[d].witnesses.count {
                    let value = dimensions[d].witnesses[frame.next]
                    frame.next += 1
                    guard must.allSatisfy({ accepts($0, d, value) }) else { continue }
                    let stillAlive = frame.alive.filter { accepts(mustNot[$0], d, value) }
                    guard frame.tried.insert(stillAlive).inserted else { continue }
                    frames.append(frame)
                    chosen.append(value)
                    entering = stillAlive
                    break
                }
            }
        }
    }
}
