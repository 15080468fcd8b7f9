import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import TestSupport

extension SplitMix64 {
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Random `.routes` programs without errors, for the compile and differential tests: every
/// construct, named builders referring to each other (recursion through nestings, mutual
/// recursion, one builder under several parents), every presentation, dependencies and
/// optionals `from` screens (chains of them), nested `if let`, wide `anyOf`s, Swift types of
/// every shape, and names that are Swift keywords.
///
/// A program is drawn, checked, and its `uses` names that are not in scope on every way
/// (`missing-dependency`) are removed until it checks clean; a program with any other error
/// is drawn again.
struct RandomPrograms {
    struct Shape: Sendable {
        var screens: ClosedRange<Int>
        var flags: ClosedRange<Int>
        var optionals: ClosedRange<Int>
        var dependencies: ClosedRange<Int>
        var builders: ClosedRange<Int>
        var budget: ClosedRange<Int>
        var maxDepth: Int
        /// Percent of programs with an `anyOf` of 11 to 30 branches.
        var wide: Int
        /// Every type `String` (values the differential harness can make), screens with
        /// parameters `(i: Int)`, and a tag dependency in every `uses` list that names the
        /// node.
        var differential: Bool
        /// Names that are Swift keywords, and Swift types of every shape.
        var exotic: Bool
        /// Percent of screen nodes with a nesting, of dependencies `from` a screen.
        var nesting = 55
        var from = 50

        static let compile = Shape(screens: 3...10, flags: 0...4, optionals: 0...3, dependencies: 1...4, builders: 0...6,
                                   budget: 6...30, maxDepth: 5, wide: 12, differential: false, exotic: true)
        static let differential = Shape(screens: 2...4, flags: 0...2, optionals: 0...2, dependencies: 1...2, builders: 1...3,
                                        budget: 5...12, maxDepth: 4, wide: 0, differential: true, exotic: false, nesting: 70, from: 80)
    }

    struct Program: Sendable {
        var seed: UInt64
        var text: String
        /// Declared screens with whether they have a parameter.
        var screens: [(name: String, hasParameter: Bool)]
    }

    static let screenNames = ["Home", "Detail", "Settings", "Profile", "Modal", "Search", "Cart", "Orders", "Help", "About",
                              "Feed", "Inbox"]
    static let exoticScreenNames = ["Class", "Default", "Self_", "Any", "Init"]
    static let flagNames = ["isLoggedIn", "isAdmin", "hasBeta", "isOffline"]
    static let exoticFlagNames = ["is", "repeat", "default"]
    static let optionalNames = ["draft", "session", "coupon"]
    static let exoticOptionalNames = ["where", "guard"]
    static let dependencyNames = ["appStore", "userStore", "cartStore", "logger"]
    static let exoticDependencyNames = ["in", "operator", "extension"]
    static let builderNames = ["flow", "details", "extra", "tabs", "pages", "more"]
    static let exoticBuilderNames = ["func", "struct"]

    /// Dependency and optional types (any Swift type a stored value may have).
    static let valueTypes = [
        "String", "Int", "[String: [Int]]", "Set<String>", "Result<Int, StubError>", "(Int) -> Void",
        "@Sendable () async throws -> String", "any StubService & Sendable", "(any StubService)?", "Stub.Nested<Int>",
        "((String) -> Void)?", "(a: Int, b: String)", "StubStore", "[StubStore]", "Stub.Nested<Stub.ID>.Kind",
        "(_ id: Int, inout [String]) throws(StubError) -> Bool",
    ]
    /// Screen parameter types (Hashable ones).
    static let parameterTypes = ["String", "Int?", "[String]", "Set<Int>", "[String: Int]", "Stub.ID", "Result<Int, StubError>", "Bool"]

    var rng: SplitMix64
    let shape: Shape
    var screens: [(name: String, hasParameter: Bool)] = []
    var flags: [String] = []
    var optionals: [String] = []
    var dependencies: [String] = []
    var builders: [String] = []
    var budget = 0
    var tags = 0

    /// The first `count` clean programs from seeds `first...`.
    static func make(_ count: Int, shape: Shape, firstSeed: UInt64) -> [Program] {
        var out: [Program] = []
        var seed = firstSeed
        while out.count < count {
            if let p = clean(seed: seed, shape: shape) { out.append(p) }
            seed += 1
            precondition(seed - firstSeed < UInt64(count) * 20, "too few clean programs")
        }
        return out
    }

    static func clean(seed: UInt64, shape: Shape) -> Program? {
        var g = RandomPrograms(rng: SplitMix64(seed: seed), shape: shape)
        var text = g.program()
        for _ in 0..<8 {
            let project = Self.project(text)
            let errors = AnalysisSession.forEditor(project: project).diagnostics.filter { $0.severity == .error }
            if errors.isEmpty { return Program(seed: seed, text: text, screens: g.screens) }
            guard errors.allSatisfy({ $0.rule == .missingDependency }) else { return nil }
            // Remove the names from their `uses` lists, last first (offsets stay valid).
            var bytes = Array(text.utf8)
            var removed = false
            for d in errors.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                let r = d.range
                let before = bytes[..<r.lowerBound].suffix(6)
                if Array(bytes[..<r.lowerBound].suffix(2)) == Array(", ".utf8) {
                    bytes.removeSubrange(r.lowerBound - 2..<r.upperBound)
                } else if r.upperBound + 2 <= bytes.count && Array(bytes[r.upperBound..<r.upperBound + 2]) == Array(", ".utf8) {
                    bytes.removeSubrange(r.lowerBound..<r.upperBound + 2)
                } else if Array(before) == Array(" uses ".utf8) {
                    bytes.removeSubrange(r.lowerBound - 6..<r.upperBound)
                } else {
                    return nil  // not a name in a `uses` list (an `if let` of an optional `from`)
                }
                removed = true
            }
            guard removed else { return nil }
            text = String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }

    static func project(_ text: String, name: String = "/ws/App.routes") -> Project {
        Project(entries: [ProjectEntry(canonicalPath: name, displayPath: String(name.dropFirst(4)), group: 0, workspaceRoot: "/ws")],
                provider: MemoryProvider(files: [name: text]))
    }

    mutating func names(_ plain: [String], _ exotic: [String], _ count: Int) -> [String] {
        var pool = plain
        if shape.exotic && rng.chance(30) { pool = exotic + plain }
        return Array(pool.prefix(count))
    }

    mutating func program() -> String {
        let screenCount = rng.int(shape.screens)
        let screenPool = shape.exotic && rng.chance(30) ? Self.exoticScreenNames + Self.screenNames : Self.screenNames
        var lines: [String] = []
        for i in 0..<screenCount {
            let name = screenPool[i]
            // The first two screens never have parameters: wildcards can take them.
            let hasParameter = i >= 2 && rng.chance(50)
            screens.append((name, hasParameter))
            var line = "screen \(name)"
            if hasParameter {
                if shape.differential {
                    line += "(i: Int)"
                } else {
                    let n = rng.int(1...3)
                    line += "(" + (0..<n).map { k in "\(["id", "from", "default", "query"][k]): \(rng.pick(Self.parameterTypes))" }
                        .joined(separator: ", ") + ")"
                }
            }
            line += rng.pick(["", "", " push", " sheet", " sheet(allowsPush: false)", " sheet(allowsPush: true)"])
            lines.append(line)
        }
        flags = names(Self.flagNames, Self.exoticFlagNames, rng.int(shape.flags))
        optionals = names(Self.optionalNames, Self.exoticOptionalNames, rng.int(shape.optionals))
        dependencies = names(Self.dependencyNames, Self.exoticDependencyNames, rng.int(shape.dependencies))
        builders = names(Self.builderNames, Self.exoticBuilderNames, rng.int(shape.builders))
        func type() -> String { shape.differential ? "String" : rng.pick(Self.valueTypes) }
        for d in dependencies {
            lines.append("dependency \(d): \(type())" + (rng.chance(shape.from) ? " from \(rng.pick(screens).name)" : ""))
        }
        for (k, o) in optionals.enumerated() {
            // The first optional never comes `from` a screen, so that most `if let`s are valid
            // anywhere.
            lines.append("optional \(o): \(type())" + (k > 0 && rng.chance(40) ? " from \(rng.pick(screens).name)" : ""))
        }
        for f in flags { lines.append("flag \(f)") }
        var bodies: [String] = []
        for (i, b) in builders.enumerated() {
            budget = rng.int(shape.budget) / 2 + 1
            bodies.append("builder \(b) {\n  \(node(depth: 0, owner: i, sameElement: true, indent: 1))\n}")
        }
        budget = rng.int(shape.budget)
        let wide = rng.chance(shape.wide)
        let root = wide ? anyOf(depth: 0, owner: nil, sameElement: true, indent: 1, branches: rng.int(11...30))
            : node(depth: 0, owner: nil, sameElement: true, indent: 1)
        bodies.append("root {\n  \(root)\n}")
        // Tags are plain dependencies, declared once the tree knows how many it has.
        for t in 0..<tags { lines.append("dependency tag\(t): String") }
        return (lines + [""] + bodies).joined(separator: "\n") + "\n"
    }

    static func pad(_ indent: Int) -> String { String(repeating: "  ", count: indent) }

    mutating func uses() -> String {
        var names: [String] = []
        let pool = dependencies + optionals
        if !pool.isEmpty {
            for _ in 0..<rng.int(shape.differential ? 1...2 : 0...2) {
                let n = rng.pick(pool)
                if !names.contains(n) { names.append(n) }
            }
        }
        if shape.differential {
            names.append("tag\(tags)")
            tags += 1
        }
        return names.isEmpty ? "" : " uses " + names.joined(separator: ", ")
    }

    mutating func screenNode(_ name: String, depth: Int, owner: Int?, indent: Int) -> String {
        var text = "screen \(name)" + uses()
        if depth < shape.maxDepth && budget > 0 && rng.chance(shape.nesting) {
            // A nesting builds the next element: any builder may be referenced there.
            text += " {\n\(Self.pad(indent + 1))\(node(depth: depth + 1, owner: owner, sameElement: false, indent: indent + 1))\n\(Self.pad(indent))}"
        }
        return text
    }

    mutating func anyOf(depth: Int, owner: Int?, sameElement: Bool, indent: Int, branches: Int? = nil) -> String {
        let n = branches ?? rng.int(1...4)
        var text = "anyOf {"
        for _ in 0..<n {
            text += "\n\(Self.pad(indent + 1))" + node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1,
                                                      leafOnly: branches != nil && rng.chance(70))
        }
        return text + "\n\(Self.pad(indent))}"
    }

    mutating func node(depth: Int, owner: Int?, sameElement: Bool, indent: Int, leafOnly: Bool = false) -> String {
        budget -= 1
        let leaf = leafOnly || depth >= shape.maxDepth || budget <= 0
        // References at the same element go only to later builders: no builder cycles.
        let targets = sameElement && owner != nil ? Array(builders.indices.filter { $0 > owner! }) : Array(builders.indices)
        var options: [(Int, Int)] = [(0, 32), (1, leaf ? 4 : 2)]  // screen, empty
        if !targets.isEmpty { options.append((2, 14)) }
        if !leaf {
            options += [(3, 18), (4, 8), (5, 7)]  // anyOf, if screen, wildcard
            if !flags.isEmpty { options.append((6, 10)) }
            if !optionals.isEmpty { options.append((7, 12)) }
        }
        let total = options.reduce(0) { $0 + $1.1 }
        var r = rng.below(total)
        var kind = options[0].0
        for (k, w) in options {
            if r < w { kind = k; break }
            r -= w
        }
        let pad = Self.pad(indent)
        func block(_ body: String) -> String { "{\n\(pad)  \(body)\n\(pad)}" }
        switch kind {
        case 0:
            return screenNode(rng.pick(screens).name, depth: depth, owner: owner, indent: indent)
        case 1:
            return "empty"
        case 2:
            return builders[rng.pick(targets)]
        case 3:
            return anyOf(depth: depth, owner: owner, sameElement: sameElement, indent: indent)
        case 4:
            let s = rng.pick(screens).name
            let a = rng.chance(50) ? screenNode(s, depth: depth + 1, owner: owner, indent: indent + 1)
                : node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            var text = "if screen \(s) \(block(a))"
            if rng.chance(50) { text += " else \(block(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)))" }
            return text
        case 5:
            let w = screens[rng.below(min(2, screens.count))].name
            let body = rng.chance(45) ? screenNode(w, depth: depth + 1, owner: owner, indent: indent + 1)
                : node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)
            return "wildcard \(w) \(block(body))"
        case 6:
            let f = rng.pick(flags)
            return "conditional \(f) \(block(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1))) else \(block(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)))"
        default:
            let o = rng.pick(optionals)
            var text = "if let \(o) \(block(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)))"
            if rng.chance(40) { text += " else \(block(node(depth: depth + 1, owner: owner, sameElement: sameElement, indent: indent + 1)))" }
            return text
        }
    }
}

/// Files in memory.
struct MemoryProvider: SourceProvider {
    var files: [String: String]
    func canonicalPath(_ path: String) -> String? { files[path] != nil ? path : nil }
    func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        files[canonicalPath].map { .success(Array($0.utf8)) } ?? .failure(.notFound)
    }
}
