import RoutesSyntax
import Testing

/// Whether a text mentions `routes:ignore` decides whether a lint keeps it: the word found at
/// every offset around the eight-byte steps, and near misses not found.
@Suite struct SuppressionMarkerTests {
    /// The same answer as a plain search, for the word (or a near miss) at every offset.
    @Test(arguments: ["routes:ignore", "routes:ignor", "router:ignore", "routes ignore", "routes::ignore", "xroutes:ignore"])
    func theMarkerIsFoundWhereverItStands(_ word: String) {
        for before in 0..<20 {
            for after in [0, 1, 7, 8, 9] {
                let text = String(repeating: ":", count: before % 3) + String(repeating: "a", count: before - before % 3)
                    + word + String(repeating: "b", count: after)
                let expected = text.contains("routes:ignore")
                #expect(SuppressionMarker.isMentioned(in: Array(text.utf8)) == expected, "\(text)")
            }
        }
    }

    @Test func shortTextsAndColonsAloneHoldNoMarker() {
        for text in ["", ":", "routes:", ":ignore", "routes:ignor", String(repeating: ":", count: 40)] {
            #expect(!SuppressionMarker.isMentioned(in: Array(text.utf8)), "\(text)")
        }
        #expect(SuppressionMarker.isMentioned(in: Array("// routes:ignore".utf8)))
    }
}
