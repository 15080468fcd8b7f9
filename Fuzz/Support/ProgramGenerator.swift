/// Writes a routes program from fuzz bytes, one choice per byte, so that libFuzzer's byte
/// mutations become structural ones (another builder here, one more flag there). The programs
/// are mostly valid: declarations first, then builders over the declared names, with
/// occasional mistakes (a misspelt name, a missing brace) when a byte asks for them.
public struct ProgramGenerator {
    private var bytes: [UInt8]
    private var position = 0
    private var budget = 400  // builders, so that the output stays small
    private var depth = 0

    private var screens: [String] = []
    private var dependencies: [String] = []
    private var optionals: [String] = []
    private var flags: [String] = []
    private var builders: [String] = []

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func byte() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    private mutating func choose(_ n: Int) -> Int { n <= 1 ? 0 : byte() % n }

    private mutating func pick(_ names: [String], or fallback: String) -> String {
        // One byte in 40 misspells the name (an undefined-name, or a name of another kind).
        if byte() % 40 == 0 { return fallback }
        return names.isEmpty ? fallback : names[choose(names.count)]
    }

    public mutating func program() -> String {
        let screenCount = 1 + choose(6), dependencyCount = choose(4), optionalCount = choose(3)
        let flagCount = choose(4), builderCount = choose(4)
        screens = (0..<screenCount).map { "S\($0)" }
        dependencies = (0..<dependencyCount).map { "d\($0)" }
        optionals = (0..<optionalCount).map { "o\($0)" }
        flags = (0..<flagCount).map { "f\($0)" }
        builders = (0..<builderCount).map { "b\($0)" }
        var out = ""
        for s in screens {
            switch choose(6) {
            case 0: out += "screen \(s)(id: String) sheet\n"
            case 1: out += "screen \(s) sheet(allowsPush: false)\n"
            case 2: out += "screen \(s) sheet\n"
            default: out += "screen \(s)\n"
            }
        }
        for d in dependencies {
            out += choose(2) == 0 ? "dependency \(d): T\n" : "dependency \(d): T from \(pick(screens, or: "Nope"))\n"
        }
        for o in optionals {
            out += choose(3) == 0 ? "optional \(o): T from \(pick(screens, or: "Nope"))\n" : "optional \(o): T\n"
        }
        for f in flags { out += "flag \(f)\n" }
        for b in builders { out += "builder \(b) {\n\(builder(indent: "  "))}\n" }
        out += "root {\n\(builder(indent: "  "))}\n"
        if choose(30) == 0 { out.removeLast(2) }  // an unclosed block
        return out
    }

    private mutating func builder(indent: String) -> String {
        budget -= 1
        depth += 1
        defer { depth -= 1 }
        let leafOnly = budget <= 0 || depth > 8
        let inner = indent + "  "
        switch leafOnly ? choose(3) : choose(11) {
        case 0:
            return indent + "empty\n"
        case 1:
            return builders.isEmpty ? indent + "empty\n" : indent + pick(builders, or: "nothing") + "\n"
        case 2, 3:
            var line = indent + "screen " + pick(screens, or: "Nope")
            let uses = (0..<choose(3)).map { _ in pick(dependencies + optionals, or: "gone") }
            if !uses.isEmpty { line += " uses " + uses.joined(separator: ", ") }
            if !leafOnly && choose(2) == 0 { return line + " {\n" + builder(indent: inner) + indent + "}\n" }
            return line + "\n"
        case 4, 5:
            let n = 1 + choose(4)
            return indent + "anyOf {\n" + (0..<n).map { _ in builder(indent: inner) }.joined() + indent + "}\n"
        case 6:
            return indent + "conditional \(pick(flags, or: "flagless")) {\n" + builder(indent: inner) + indent + "} else {\n"
                + builder(indent: inner) + indent + "}\n"
        case 7:
            let els = choose(2) == 0 ? "" : " else {\n" + builder(indent: inner) + indent + "}"
            return indent + "if let \(pick(optionals, or: "absent")) {\n" + builder(indent: inner) + indent + "}" + els + "\n"
        case 8:
            let els = choose(2) == 0 ? "" : " else {\n" + builder(indent: inner) + indent + "}"
            return indent + "if screen \(pick(screens, or: "Nope")) {\n" + builder(indent: inner) + indent + "}" + els + "\n"
        case 9:
            return indent + "wildcard \(pick(screens, or: "Nope")) {\n" + builder(indent: inner) + indent + "}\n"
        default:
            return builders.isEmpty ? indent + "empty\n" : indent + pick(builders, or: "nothing") + "\n"
        }
    }
}
