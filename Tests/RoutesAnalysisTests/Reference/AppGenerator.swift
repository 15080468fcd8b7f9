import TestSupport

/// Programs shaped like real apps at scale, for the tests of exactness beyond the reference's
/// reach: feature-flag menus (`conditional f { screen S } else { empty }` per flag), flag
/// pairs tested together, `if let` of optionals, screens shared by several branches (some
/// shadowed), wildcards, providers with `from`, nestings into other builders. Every name has
/// a fixed width (`f007`, `S042`), so that renaming keeps every position.
///
/// A program is a list of top-level declarations, each one string, so that a test can reorder
/// them; `text` joins them.
struct AppProgram {
    var declarations: [String]
    var text: String { declarations.joined(separator: "\n") + "\n" }
}

enum AppGenerator {
    static func flag(_ i: Int) -> String { "f" + pad(i) }
    static func optional(_ i: Int) -> String { "o" + pad(i) }
    static func screen(_ i: Int) -> String { "S" + pad(i) }
    static func pad(_ i: Int) -> String { String(repeating: "0", count: max(0, 3 - String(i).count)) + String(i) }

    /// A program with `flags` flags, `optionals` optionals and about `screens` screens.
    static func generate(seed: UInt64, flags: Int, optionals: Int, screens: Int) -> AppProgram {
        var rng = SplitMix64(seed: seed)
        var decls = ["screen Home", "dependency appStore: AppStore"]
        let screenCount = max(screens, 8)
        for s in 0..<screenCount {
            switch rng.below(10) {
            case 0: decls.append("screen \(screen(s)) sheet")
            case 1: decls.append("screen \(screen(s)) sheet(allowsPush: false)")
            case 2: decls.append("screen \(screen(s))(id: String)")
            default: decls.append("screen \(screen(s))")
            }
        }
        // Providers: a dependency handed on by a screen (`from`).
        let providers = min(4, screenCount)
        for p in 0..<providers { decls.append("dependency p\(p): P\(p) from \(screen(p))") }
        for f in 0..<flags { decls.append("flag \(flag(f))") }
        for o in 0..<optionals { decls.append("optional \(optional(o)): O\(o)") }

        // Branches, each testing its own conditions, spread over builders of about ten.
        var nextScreen = providers
        func anyScreen() -> Int { rng.below(screenCount) }
        func freshScreen() -> Int {
            defer { nextScreen += 1 }
            return nextScreen < screenCount ? nextScreen : anyScreen()
        }
        func used() -> String? {
            switch rng.below(6) {
            case 0: return "p\(rng.below(providers))"
            case 1: return "appStore"
            default: return nil
            }
        }
        func uses() -> String { used().map { " uses " + $0 } ?? "" }
        var branches: [String] = []
        var f = 0
        while f < flags {
            switch rng.below(7) {
            case 0 where f + 1 < flags:
                // A pair tested together, in either nesting order.
                let (a, b) = rng.below(2) == 0 ? (f, f + 1) : (f + 1, f)
                branches.append("conditional \(flag(a)) { conditional \(flag(b)) { screen \(screen(freshScreen()))\(uses()) } else { empty } } else { empty }")
                f += 2
            case 1:
                // A screen an earlier branch may already take.
                branches.append("conditional \(flag(f)) { screen \(screen(anyScreen()))\(uses()) } else { empty }")
                f += 1
            case 2 where f % 19 == 0:
                f += 1  // an unused flag
            default:
                branches.append("conditional \(flag(f)) { screen \(screen(freshScreen()))\(uses()) } else { empty }")
                f += 1
            }
        }
        for o in 0..<optionals {
            let s = freshScreen()
            branches.append(rng.below(3) == 0
                ? "if let \(optional(o)) { screen \(screen(s)) uses \(optional(o)) } else { screen \(screen(anyScreen())) }"
                : "if let \(optional(o)) { screen \(screen(s)) uses \(optional(o))\(used().map { ", " + $0 } ?? "") }")
        }
        // Plain screens, a wildcard, a screen listed again.
        for _ in 0..<max(2, screenCount / 10) {
            switch rng.below(5) {
            case 0: branches.append("screen \(screen(anyScreen()))")
            default: branches.append("screen \(screen(freshScreen()))\(uses())")
            }
        }
        for i in branches.indices.reversed() where rng.below(3) == 0 { branches.swapAt(i, rng.below(i + 1)) }
        var builderCount = 0
        var start = 0
        while start < branches.count {
            let end = min(branches.count, start + 6 + rng.below(8))
            var body = Array(branches[start..<end])
            // A wildcard over a screen the builder already lists, now and then.
            if rng.below(4) == 0, let s = (start..<end).first(where: { branches[$0].hasPrefix("screen S") }) {
                let name = String(branches[s].dropFirst("screen ".count).prefix(4))
                if !decls.contains("screen \(name)(id: String)") {
                    body.insert("wildcard \(name) { screen \(name) }", at: rng.below(body.count + 1))
                }
            }
            // Nestings into later builders (no reference cycle: a nesting starts a new element).
            if rng.below(2) == 0 {
                body.append("screen \(screen(anyScreen())) { b\(pad(builderCount + 1)) }")
            }
            decls.append("builder b\(pad(builderCount)) {\n  anyOf {\n" + body.map { "    " + $0 }.joined(separator: "\n") + "\n  }\n}")
            builderCount += 1
            start = end
        }
        // The last nesting may name one builder past the end: declare it.
        decls.append("builder b\(pad(builderCount)) { screen Home }")
        builderCount += 1
        // Root: the providers first (so that their dependencies are sometimes in scope),
        // then the builders; some builders only through nestings.
        let top = (0..<builderCount).filter { _ in rng.below(4) != 0 }.map { "b\(pad($0))" }
        let providerScreens = (0..<providers).map { "screen \(screen($0)) { anyOf { \(top.prefix(3).joined(separator: " ")) empty } }" }
        decls.append("root {\n  screen Home uses appStore {\n    anyOf {\n"
                     + (providerScreens + top).map { "      " + $0 }.joined(separator: "\n") + "\n    }\n  }\n}")
        return AppProgram(declarations: decls)
    }
}
