import TestSupport

/// The reference programs' draws, on the shared generator.
extension SplitMix64 {
    /// lower...upper.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// True with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `count` distinct items, in their original order.
    mutating func sample<T>(_ items: [T], count: Int) -> [T] {
        var indices = Array(items.indices)
        var chosen: [Int] = []
        for _ in 0..<min(count, items.count) {
            chosen.append(indices.remove(at: below(indices.count)))
        }
        return chosen.sorted().map { items[$0] }
    }

    mutating func weighted<T>(_ options: [(T, Int)]) -> T {
        let total = options.reduce(0) { $0 + $1.1 }
        var r = below(total)
        for (value, weight) in options {
            if r < weight { return value }
            r -= weight
        }
        return options[options.count - 1].0
    }
}

/// One generated program.
struct GeneratedProgram: Sendable {
    var seed: UInt64
    var text: String
    /// The generator planted a reference back to an enclosing builder at the same element
    /// (a candidate `builder-cycle`; whether it is reachable is for the checkers to find).
    var plantedCycle: Bool
}

/// Small, valid, single-file `.routes` programs from a seed (docs/language.md, Declarations,
/// Builders): 2–5 screens (push, `sheet`, `cover` or `popover`, with or without
/// `(allowsPush: false)`; a screen node sometimes with its own `as …`; sometimes one with a
/// parameter, never used in a `wildcard`), 0–3 flags, 0–2 optionals and 0–2 dependencies (each
/// sometimes `from` a screen), 0–3 named builders and a `root`. Builders nest every construct
/// to a bounded depth. References between builders at the same element go only "forwards" (to a
/// later builder), so they cannot form a cycle, except in about one program in ten, where one
/// builder gets a reference back to itself or an earlier builder. References inside a nesting
/// may go anywhere (recursion through a nesting is fine and common).
struct ProgramGenerator {
    private enum ScreenPresentation { case push, explicitPush, sheet, sheetNoPush }
    private struct Screen {
        var name: String
        var hasParameter: Bool
        var presentation: ScreenPresentation
    }
    private enum Kind { case screen, anyOf, conditional, ifLet, ifScreen, wildcard, empty, reference }

    private static let screenPool = ["Home", "Detail", "Settings", "Profile", "Modal"]
    private static let dependencyPool = ["appStore", "userStore"]
    private static let optionalPool = ["draft", "session"]
    private static let flagPool = ["isLoggedIn", "isAdmin", "hasBeta"]
    private static let builderPool = ["flow", "detail", "extra"]
    private static let maxDepth = 4

    private var rng: SplitMix64
    /// The presentations' own stream (a cover or popover in place of a sheet, a placement's
    /// `as …`), so that every other choice of a seed's program is what it was before they
    /// existed.
    private var styles: SplitMix64
    private var screens: [Screen] = []
    private var dependencies: [String] = []
    private var optionals: [String] = []
    private var flags: [String] = []
    private var builders: [String] = []
    private var cycleBuilder: Int?
    private var budget = 0

    static func generate(seed: UInt64) -> GeneratedProgram {
        var g = ProgramGenerator(rng: SplitMix64(seed: seed), seed: seed)
        let text = g.program()
        return GeneratedProgram(seed: seed, text: text, plantedCycle: g.cycleBuilder != nil)
    }

    private init(rng: SplitMix64, seed: UInt64) {
        self.rng = rng
        styles = SplitMix64(seed: seed ^ 0x5717_1E5)
    }

    /// Every presentation as written after a placement's `as`.
    private static let placementPresentations = [
        "push", "sheet", "sheet(allowsPush: false)", "cover", "cover(allowsPush: false)", "popover", "popover(allowsPush: false)",
    ]

    /// `sheet`, or as often `cover` or `popover`.
    private mutating func modalWord() -> String { ["sheet", "cover", "popover"][styles.below(3)] }

    private mutating func program() -> String {
        let screenCount = rng.int(2...5)
        let parameterScreen = rng.chance(30) ? rng.below(screenCount) : nil
        for i in 0..<screenCount {
            let p = rng.weighted([(ScreenPresentation.push, 50), (.explicitPush, 5), (.sheet, 20), (.sheetNoPush, 25)])
            screens.append(Screen(name: Self.screenPool[i], hasParameter: i == parameterScreen, presentation: p))
        }
        dependencies = Array(Self.dependencyPool.prefix(rng.int(0...2)))
        optionals = Array(Self.optionalPool.prefix(rng.int(0...2)))
        flags = Array(Self.flagPool.prefix(rng.int(0...3)))
        builders = Array(Self.builderPool.prefix(rng.int(0...3)))
        if !builders.isEmpty && rng.chance(11) { cycleBuilder = rng.below(builders.count) }

        var lines: [String] = []
        for s in screens {
            var line = "screen \(s.name)" + (s.hasParameter ? "(id: String)" : "")
            switch s.presentation {
            case .push: break
            case .explicitPush: line += " push"
            case .sheet: line += " " + modalWord()
            case .sheetNoPush: line += " \(modalWord())(allowsPush: false)"
            }
            lines.append(line)
        }
        for d in dependencies {
            lines.append("dependency \(d): \(Self.typeName(d))" + (rng.chance(45) ? " from \(rng.pick(screens).name)" : ""))
        }
        for o in optionals {
            lines.append("optional \(o): \(Self.typeName(o))" + (rng.chance(30) ? " from \(rng.pick(screens).name)" : ""))
        }
        for f in flags { lines.append("flag \(f)") }

        var builderTexts: [String] = []
        for (i, b) in builders.enumerated() {
            budget = rng.int(3...9)
            let body: String
            if cycleBuilder == i {
                body = cycleBody(owner: i)
            } else {
                body = node(depth: 0, owner: i, sameElement: true, indent: 1)
            }
            builderTexts.append("builder \(b) {\n  \(body)\n}")
        }
        budget = rng.int(5...16)
        let rootBody = rng.chance(55)
            ? anyOf(depth: 0, owner: nil, sameElement: true, indent: 1)
            : node(depth: 0, owner: nil, sameElement: true, indent: 1)
        let rootText = "root {\n  \(rootBody)\n}"
        var tail = builderTexts
        if rng.chance(30) { tail.insert(rootText, at: 0) } else { tail.append(rootText) }
        return (lines + [""] + tail.joined(separator: "\n\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            .joined(separator: "\n") + "\n"
    }

    private static func typeName(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    private static func pad(_ indent: Int) -> String { String(repeating: "  ", count: indent) }

    /// Builders a reference may name here without closing a cycle.
    private func referenceTargets(owner: Int?, sameElement: Bool) -> [Int] {
        guard let owner, sameElement else { return Array(builders.indices) }
        return Array(builders.indices.filter { $0 > owner })
    }

    private mutating func node(depth: Int, owner: Int?, sameElement: Bool, indent: Int) -> String {
        budget -= 1
        let leaf = depth >= Self.maxDepth || budget <= 0
        var options: [(Kind, Int)] = [(.screen, 30), (.empty, leaf ? 5 : 3)]
        let targets = referenceTargets(owner: owner, sameElement: sameElement)
        if !targets.isEmpty { options.append((.reference, 12)) }
        if !leaf {
            options += [(.anyOf, 22), (.ifScreen, 9), (.wildcard, 8)]
            if !flags.isEmpty { options.append((.conditional, 11)) }
            if !optionals.isEmpty { options.append((.ifLet, 11)) }
        }
        let pad = Self.pad(indent)
        switch rng.weighted(options) {
        case .screen:
            return screenNode(rng.pick(screens).name, depth: depth, owner: owner, leaf: leaf, indent: indent)
        case .anyOf:
            return anyOf(depth: depth, owner: owner, sameElement: sameElement, indent: indent)
        case .conditional:
            let f = rng.pick(flags)
            let a = node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            let b = node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            return "conditional \(f) {\n\(pad)  \(a)\n\(pad)} else {\n\(pad)  \(b)\n\(pad)}"
        case .ifLet:
            let o = rng.pick(optionals)
            let a = node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            var text = "if let \(o) {\n\(pad)  \(a)\n\(pad)}"
            if rng.chance(45) {
                text += " else {\n\(pad)  \(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1))\n\(pad)}"
            }
            return text
        case .ifScreen:
            let s = rng.pick(screens).name
            let a = rng.chance(50)
                ? screenNode(s, depth: depth + 1, owner: owner, leaf: depth + 1 >= Self.maxDepth, indent: indent + 1)
                : node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            var text = "if screen \(s) {\n\(pad)  \(a)\n\(pad)}"
            if rng.chance(50) {
                text += " else {\n\(pad)  \(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1))\n\(pad)}"
            }
            return text
        case .wildcard:
            let candidates = screens.filter { !$0.hasParameter }
            let w = rng.pick(candidates).name
            let body: String
            switch rng.below(10) {
            case 0..<4:
                body = screenNode(w, depth: depth + 1, owner: owner, leaf: depth + 1 >= Self.maxDepth, indent: indent + 1)
            case 4..<6:
                let other = node(depth: depth + 2, owner: owner, sameElement: sameElement, indent: indent + 2)
                let mine = screenNode(w, depth: depth + 2, owner: owner, leaf: depth + 2 >= Self.maxDepth, indent: indent + 2)
                let (first, second) = rng.chance(50) ? (other, mine) : (mine, other)
                body = "anyOf {\n\(pad)    \(first)\n\(pad)    \(second)\n\(pad)  }"
            default:
                body = node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            }
            return "wildcard \(w) {\n\(pad)  \(body)\n\(pad)}"
        case .empty:
            return "empty"
        case .reference:
            return builders[rng.pick(targets)]
        }
    }

    private mutating func anyOf(depth: Int, owner: Int?, sameElement: Bool, indent: Int) -> String {
        let count = rng.int(1...3)
        let pad = Self.pad(indent)
        let branches = (0..<count).map { _ in
            node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
        }
        return "anyOf {\n" + branches.map { "\(pad)  \($0)" }.joined(separator: "\n") + "\n\(pad)}"
    }

    private mutating func screenNode(_ name: String, depth: Int, owner: Int?, leaf: Bool, indent: Int) -> String {
        var text = "screen \(name)"
        if styles.chance(15) { text += " as " + Self.placementPresentations[styles.below(Self.placementPresentations.count)] }
        let usable = dependencies + optionals
        if !usable.isEmpty && rng.chance(40) {
            text += " uses " + rng.sample(usable, count: rng.int(1...2)).joined(separator: ", ")
        }
        if !leaf && rng.chance(50) {
            let inner: String
            if !builders.isEmpty && rng.chance(25) {
                // Recursion through a nesting (`builder detail { screen Detail { detail } }`).
                inner = owner.flatMap { rng.chance(60) ? builders[$0] : nil } ?? rng.pick(builders)
            } else {
                inner = node(depth: depth + 1, owner: owner, sameElement: false, indent: indent + 1)
            }
            text += " {\n\(Self.pad(indent + 1))\(inner)\n\(Self.pad(indent))}"
        }
        return text
    }

    /// The body of the builder chosen to hold a reference back to itself or to an earlier
    /// builder at the same element: an `anyOf` with that reference among its branches.
    private mutating func cycleBody(owner: Int) -> String {
        let back = owner == 0 || rng.chance(60) ? owner : rng.below(owner)
        let wrap = !flags.isEmpty && rng.chance(25)
        let indent = wrap ? 2 : 1
        let pad = Self.pad(indent)
        var branches = (0..<rng.int(1...2)).map { _ in
            node(depth: indent, owner: owner, sameElement: true, indent: indent + 1)
        }
        branches.insert(builders[back], at: rng.below(branches.count + 1))
        let body = "anyOf {\n" + branches.map { "\(pad)  \($0)" }.joined(separator: "\n") + "\n\(pad)}"
        if wrap {
            return "conditional \(rng.pick(flags)) {\n\(pad)\(body)\n  } else {\n    empty\n  }"
        }
        return body
    }
}
