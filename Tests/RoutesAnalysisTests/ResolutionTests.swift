import TestSupport
import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

/// The test module has its own `Environment` (the reference checker's).
typealias PathEnvironment = RoutesAnalysis.Environment
/// Likewise its own `NodeRef`.
typealias PathNodeRef = RoutesAnalysis.NodeRef

/// Projects from strings, for the resolution and routing-tree tests.
enum ResolutionTestSupport {
    /// A project whose entry is `App.routes` (displayed as such); `others` are files it may
    /// import, by name.
    static func project(_ app: String, others: [String: String] = [:]) -> Project {
        var files = ["/ws/App.routes": app]
        for (name, text) in others { files["/ws/" + name] = text }
        return Project(entries: [ProjectEntry(canonicalPath: "/ws/App.routes", displayPath: "App.routes", group: 0, workspaceRoot: "/ws")],
                       provider: MemoryProvider(files: files))
    }

    static func program(_ project: Project) -> Program {
        project.programs.first { $0.root.file == 0 }!
    }

    /// The seed app (`Examples/Seed/App.routes`).
    static let seedSource: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Seed/App.routes")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// Resolves `path` in the program of `app` under the given flags and optionals.
    static func resolve(_ app: String, _ path: String, flags: [String: Bool] = [:], optionals: [String: Bool] = [:],
                        others: [String: String] = [:]) throws -> PathResolution {
        let project = project(app, others: others)
        let program = program(project)
        let env = try ProgramEnvironment(PathEnvironment(flags: flags, optionals: optionals), program: program, project: project)
        return try Resolution.resolve(PathLiteral.parse(path), program: program, project: project, environment: env)
    }

    /// `line:col` (1-based) of a node's head in `App.routes`.
    static func position(_ ref: PathNodeRef?, _ project: Project) -> String? {
        guard let ref else { return nil }
        let p = project.files[ref.file].text.position(of: project.files[ref.file].model.nodes[ref.node].head.lowerBound, encoding: .scalars)
        return "\(p.line + 1):\(p.column + 1)"
    }
}

@Suite struct PathLiteralParsingTests {
    @Test func screensArgumentsAndValuesParse() throws {
        let p = try PathLiteral.parse(#" Home / Detail( id : "4\"2\\\n\t\u{1F600}", count: -3, ratio: 1.50, flag: true, from: false)/Settings() "#)
        #expect(p.elements.map(\.screen) == ["Home", "Detail", "Settings"])
        let args = p.elements[1].arguments
        #expect(args.map(\.label) == ["id", "count", "ratio", "flag", "from"])
        #expect(args.map(\.value) == [.string("4\"2\\\n\t😀"), .number("-3"), .number("1.50"), .bool(true), .bool(false)])
        #expect(p.elements[2].arguments.isEmpty)
        #expect(p.elements[1].text == #"Detail( id : "4\"2\\\n\t\u{1F600}", count: -3, ratio: 1.50, flag: true, from: false)"#)
        #expect(p.elements[0].text == "Home")
    }

    @Test func valuesPrintBackAsLiterals() {
        #expect(PathLiteral.Value.string("a\"b\n").description == #""a\"b\n""#)
        #expect(PathLiteral.Value.number("-1.5").description == "-1.5")
        #expect(PathLiteral.Value.bool(false).description == "false")
    }

    /// A link's `Double` is printed in decimal digits, which a path can hold and which give
    /// the same number back: never with an exponent, as Swift writes very small or large ones.
    @Test(arguments: [0.0000001, 1e20, 1.5e20, -2.5e-9, 12.5, -3.0, 0.0, 1e-300, 123456789012345678901234.0, 0.1 + 0.2])
    func decimalsPrintWithoutAnExponent(_ value: Double) throws {
        let text = PathLiteral.decimal(value)
        #expect(!text.contains("e") && !text.contains("E"), "\(text)")
        #expect(Double(text) == value, "\(text)")
        let parsed = try PathLiteral.parse("S(x: \(text))")
        #expect(parsed.elements.count == 1)
    }

    func error(_ text: String) -> PathLiteralError? {
        do {
            _ = try PathLiteral.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func malformedLiteralsNameTheOffendingPart() {
        #expect(error("")?.message.hasPrefix("the path is empty") == true)
        #expect(error("   ")?.message.hasPrefix("the path is empty") == true)
        let trailing = error("Home/")
        #expect(trailing?.message == "expected a screen name after `/`, found the end of the path")
        #expect(trailing?.range == 5..<5)
        #expect(error("/Home")?.message == "expected a screen name, found `/`")
        #expect(error("/Home")?.range == 0..<1)
        let comment = error("Home // Settings")
        #expect(comment?.message.contains("comment") == true)
        #expect(comment?.range == 5..<7)
        #expect(error("Home//Settings")?.range == 4..<6)
        #expect(error("Home /// doc")?.message.contains("comment") == true)
        #expect(error("Detail(id \"1\")")?.message == "expected `:` after the label `id`, found `\"1\"`")
        #expect(error("Detail(id: Home)")?.message == "expected a value (a string, a number, `true` or `false`) after `id:`, found `Home`")
        #expect(error("Detail(id: 1,)")?.message == "unexpected `,` before `)`: no trailing comma")
        #expect(error("Detail(id: 1")?.message == "expected `,` or `)` after the argument `id`, found the end of the path")
        #expect(error("Detail(id: \"1)")?.message.hasPrefix("unterminated string literal") == true)
        #expect(error("Detail(id: \"\\q\")")?.range == 12..<14)
        #expect(error("Detail(id: 1.)")?.message == "expected `,` or `)` after the argument `id`, found `.`")
        #expect(error("Home Settings")?.message == "expected `/` or the end of the path after `Home`, found `Settings`")
        #expect(error("Home/screen")?.message == "`screen` is a keyword, not a screen name")
        #expect(error("Home/Caf\u{E9}")?.message.contains("unexpected character") == true)
    }

    @Test func errorsRenderWithACaretUnderTheOffendingPart() {
        let e = PathLiteralError("unknown screen `Setings`", 5..<12)
        #expect(e.rendered(literal: "Home/Setings") == "unknown screen `Setings`\n  Home/Setings\n       ^~~~~~~")
        let u = PathLiteralError("x", 8..<9)
        #expect(u.rendered(literal: "A(s: \"é\", t: 1)", indent: "") == "x\nA(s: \"é\", t: 1)\n       ^")
    }
}

@Suite struct PathLiteralValidationTests {
    let source = """
        screen Home
        screen Settings
        screen Detail(id: String, count: Int, flag: Bool)
        builder detail { screen Detail }
        flag isOn
        root { anyOf { screen Home screen Settings detail } }
        """

    func validate(_ path: String) throws(PathLiteralError) -> [Symbol] {
        let project = ResolutionTestSupport.project(source)
        return try PathLiteral.parse(path).validate(in: project, program: ResolutionTestSupport.program(project))
    }

    func message(_ path: String) -> String? {
        do {
            _ = try validate(path)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func anySubsetOfParametersInDeclaredOrderIsValid() throws {
        #expect(try validate("Home/Detail/Detail(count: 1)/Detail(id: \"x\", flag: true)/Detail(id: \"\", count: 2, flag: false)").count == 5)
    }

    @Test func unknownScreensAndLabelsAreErrors() {
        #expect(message("Home/Setings") == "unknown screen `Setings`; did you mean `Settings`?")
        #expect(message("Zzzzzzzz") == "unknown screen `Zzzzzzzz`")
        #expect(message("detail") == "`detail` is a builder, not a screen")
        #expect(message("isOn") == "`isOn` is a flag, not a screen")
        #expect(message("Detail(idd: \"1\")") == "screen `Detail` has no parameter `idd`: it is declared `Detail(id: String, count: Int, flag: Bool)`")
        #expect(message("Home(id: \"1\")") == "screen `Home` has no parameters, so it takes no argument `id`")
    }

    @Test func labelsMustFollowTheDeclaredOrderAndAppearOnce() {
        #expect(message("Detail(count: 1, id: \"1\")") == "argument `id` must come before `count`: arguments follow the declared order, `Detail(id: String, count: Int, flag: Bool)`")
        #expect(message("Detail(id: \"1\", id: \"2\")") == "argument `id` of `Detail` is given twice")
    }

    /// Each value against each parameter type: nil when it fits, else what the type takes.
    @Test(arguments: [
        ("String", #""x""#, nil), ("String", "1", "a string"), ("String", "true", "a string"),
        ("String?", #""x""#, nil), ("Swift.String", "1", "a string"),
        ("Int", "-42", nil), ("Int", "1.5", "a whole number"), ("Int", #""1""#, "a whole number"),
        ("Int", "99999999999999999999", "a whole number that fits in Int"), ("Int?", "3", nil),
        ("UInt8", "255", nil), ("UInt8", "256", "a whole number that fits in UInt8"),
        ("UInt", "-1", "a whole number that fits in UInt"), ("Int64", "-9223372036854775808", nil),
        ("Double", "1", nil), ("Double", "-1.25", nil), ("Double", "true", "a number"), ("Float", #""1""#, "a number"),
        ("Bool", "false", nil), ("Bool", "0", "`true` or `false`"), ("Bool?", #""true""#, "`true` or `false`"),
        ("Product.ID", "7", nil), ("[String]", #""a""#, nil), ("Date", "true", nil),
    ] as [(String, String, String?)])
    func valuesAreCheckedAgainstTheParameterType(type: String, value: String, expected: String?) throws {
        let literal = try PathLiteral.parse("S(p: \(value))")
        #expect(literal.elements[0].arguments[0].value.mismatch(type: type) == expected)
    }

    @Test func aValueOfTheWrongTypeIsAnErrorAtTheValue() throws {
        #expect(message("Detail(id: \"1\", count: \"2\")")
            == "argument `count` of `Detail` must be a whole number, not the string `\"2\"`: it is declared `Detail(id: String, count: Int, flag: Bool)`")
        #expect(message("Detail(flag: 1)")
            == "argument `flag` of `Detail` must be `true` or `false`, not the number `1`: it is declared `Detail(id: String, count: Int, flag: Bool)`")
        let project = ResolutionTestSupport.project(source)
        do {
            _ = try PathLiteral.parse("Home/Detail(count: 1.5)").validate(in: project, program: ResolutionTestSupport.program(project))
            Issue.record("a fractional count was accepted")
        } catch {
            #expect(error.range == 19..<22)
        }
    }

    @Test func theErrorRangePointsAtTheOffendingName() throws {
        let project = ResolutionTestSupport.project(source)
        let literal = try PathLiteral.parse("Home/Detail(count: 1, idd: 2)")
        #expect(throws: PathLiteralError.self) { try literal.validate(in: project, program: ResolutionTestSupport.program(project)) }
        do {
            _ = try literal.validate(in: project, program: ResolutionTestSupport.program(project))
        } catch {
            #expect(error.range == 22..<25)
        }
    }
}

@Suite struct ResolutionEnvironmentTests {
    let source = """
        optional store: Store
        flag b
        flag a
        screen S
        root { screen S }
        """

    @Test func unsetFlagsAreTrueAndUnsetOptionalsPresent() throws {
        let project = ResolutionTestSupport.project(source)
        let env = try ProgramEnvironment(PathEnvironment(flags: ["a": false]), program: ResolutionTestSupport.program(project), project: project)
        #expect(env.flags.map(\.name) == ["b", "a"])
        #expect(env.flags.map(\.value) == [true, false])
        #expect(env.flags.map(\.isDefault) == [true, false])
        #expect(env.optionals.map(\.value) == [true])
        #expect(env.summary == "b=true, a=false, store=present (defaults: b, store)")
        let all = try ProgramEnvironment(PathEnvironment(flags: ["a": true, "b": true], optionals: ["store": false]),
                                         program: ResolutionTestSupport.program(project), project: project)
        #expect(all.summary == "b=true, a=true, store=absent")
    }

    @Test func aProgramWithoutFlagsSaysSo() throws {
        let project = ResolutionTestSupport.project("screen S\nroot { screen S }")
        let env = try ProgramEnvironment(PathEnvironment(), program: ResolutionTestSupport.program(project), project: project)
        #expect(env.summary == "none (the program declares no flags or optionals)")
    }

    func error(_ given: PathEnvironment) -> EnvironmentError? {
        let project = ResolutionTestSupport.project(source)
        do {
            _ = try ProgramEnvironment(given, program: ResolutionTestSupport.program(project), project: project)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownAndWrongKindNamesAreErrors() {
        #expect(error(PathEnvironment(flags: ["aa": true]))?.message == "unknown flag `aa`; did you mean `a`?")
        #expect(error(PathEnvironment(flags: ["zzzzzz": true]))?.message == "unknown flag `zzzzzz` (declared: b, a)")
        #expect(error(PathEnvironment(flags: ["store": true]))?.message == "`store` is an optional, not a flag")
        #expect(error(PathEnvironment(optionals: ["a": true]))?.message == "`a` is a flag, not an optional")
        #expect(error(PathEnvironment(optionals: ["S": true]))?.expected == .optional)
    }
}

@Suite struct ResolutionSeedTests {
    let seed = ResolutionTestSupport.seedSource

    @Test func theSeedAppResolvesHomeDetailDetail() throws {
        let project = ResolutionTestSupport.project(seed)
        let r = try ResolutionTestSupport.resolve(seed, "Home/Detail(id: \"1\")/Detail")
        #expect(r.elements.map(\.built) == [true, true, true])
        #expect(r.elements.map { ResolutionTestSupport.position($0.node, project) } == ["47:7", "38:3", "38:3"])
        #expect(r.elements.map(\.presentation) == [.push, .sheet, .sheet])
        #expect(r.elements.map(\.reason) == [nil, nil, nil])
        #expect(r.firstNotBuilt == nil)
        #expect(r.text(project: project) == """
            environment: isLoggedIn=true, detailStore=present (defaults: isLoggedIn, detailStore)
            Home             built at App.routes:47:7 (push)
            Detail(id: "1")  built at App.routes:38:3 (sheet)
            Detail           built at App.routes:38:3 (sheet)

            """)
    }

    /// An element longer than the alignment's limit (a long argument) pads no other line.
    @Test func aLongElementIsNotAlignedOn() throws {
        let project = ResolutionTestSupport.project(seed)
        let long = String(repeating: "7", count: 60)
        let r = try ResolutionTestSupport.resolve(seed, "Home/Detail(id: \"\(long)\")/Detail")
        #expect(r.text(project: project) == """
            environment: isLoggedIn=true, detailStore=present (defaults: isLoggedIn, detailStore)
            Home    built at App.routes:47:7 (push)
            Detail(id: "\(long)")  built at App.routes:38:3 (sheet)
            Detail  built at App.routes:38:3 (sheet)

            """)
    }

    @Test func anAbsentOptionalExplainsTheFirstElementNotBuilt() throws {
        let project = ResolutionTestSupport.project(seed)
        let r = try ResolutionTestSupport.resolve(seed, "Home/Detail/Detail", optionals: ["detailStore": false])
        #expect(r.elements.map(\.built) == [true, false, false])
        #expect(r.firstNotBuilt == 1)
        #expect(r.elements[1].reason == "`if let detailStore`: absent")
        #expect(r.elements[1].node == nil && r.elements[1].presentation == nil)
        #expect(r.elements[2].reason == "not built, because element 2 (Detail) was not built")
        #expect(r.text(project: project) == """
            environment: isLoggedIn=true, detailStore=absent (defaults: isLoggedIn)
            Home    built at App.routes:47:7 (push)
            Detail  not built: `if let detailStore`: absent
            Detail  not built, because element 2 (Detail) was not built

            """)
    }

    @Test func anAnyOfWithoutABranchForTheElementIsTheReason() throws {
        let r = try ResolutionTestSupport.resolve(seed, "Home/Login")
        #expect(r.elements[1].reason == "`anyOf` at 48:9 has no branch for Login")
    }

    @Test func aScreenWithoutNestingEndsThePath() throws {
        let r = try ResolutionTestSupport.resolve(seed, "Home/Settings/Detail")
        #expect(r.elements.map(\.built) == [true, true, false])
        #expect(r.elements[2].reason == "`screen Settings` at 49:11 has no nesting, so nothing is built after it")
    }

    @Test func aNestingThatBuildsAnotherScreenSaysWhichAndThroughWhat() throws {
        let r = try ResolutionTestSupport.resolve(seed, "Home/Detail/Settings")
        #expect(r.elements[2].reason == "the nesting of `screen Detail` at 38:3 builds only Detail (`screen Detail` at 38:3, through `detail`), not Settings")
    }

    @Test func theWildcardReplacesTheElement() throws {
        let project = ResolutionTestSupport.project(seed)
        let r = try ResolutionTestSupport.resolve(seed, "Settings/Settings")
        #expect(r.elements[0].built)
        #expect(r.elements[0].builtAs == "Home")
        #expect(ResolutionTestSupport.position(r.elements[0].wildcard, project) == "46:5")
        #expect(r.elements[1].built && r.elements[1].builtAs == nil)
        let out = try ResolutionTestSupport.resolve(seed, "Home", flags: ["isLoggedIn": false])
        #expect(out.elements[0].builtAs == "Login")
        #expect(ResolutionTestSupport.position(out.elements[0].node, project) == "60:7")
        #expect(out.text(project: project).contains("Home  built as Login at App.routes:60:7 (push), replaced by `wildcard Login` at App.routes:59:5"))
    }
}

@Suite struct ResolutionSemanticsTests {
    func reasons(_ source: String, _ path: String, flags: [String: Bool] = [:], optionals: [String: Bool] = [:]) throws -> [String?] {
        try ResolutionTestSupport.resolve(source, path, flags: flags, optionals: optionals).elements.map(\.reason)
    }

    @Test func anyOfTakesTheFirstBranchThatBuilds() throws {
        let source = """
            screen A
            screen B
            root {
              anyOf {
                wildcard A { screen A }
                screen B
              }
            }
            """
        let project = ResolutionTestSupport.project(source)
        let r = try ResolutionTestSupport.resolve(source, "B")
        #expect(r.elements[0].builtAs == "A")
        #expect(ResolutionTestSupport.position(r.elements[0].node, project) == "5:18")
    }

    @Test func aConditionalHasNoFallback() throws {
        let source = """
            screen A
            screen B
            flag f
            root {
              conditional f { screen A } else { screen B }
            }
            """
        #expect(try reasons(source, "B") == ["`conditional f` is true here and its true branch builds nothing for B"])
        #expect(try reasons(source, "A", flags: ["f": false]) == ["`conditional f` is false here and its else builds nothing for A"])
        #expect(try reasons(source, "A") == [nil])
        #expect(try reasons(source, "B", flags: ["f": false]) == [nil])
    }

    @Test func ifLetAndIfScreenExplainTheirBranch() throws {
        let source = """
            screen A
            screen B
            optional o: O
            root {
              anyOf {
                if let o { screen A }
                if screen B { screen A } else { empty }
              }
            }
            """
        // The `if screen B` branch cannot build A (its then-block sees only B): the `if let`
        // explains it.
        #expect(try reasons(source, "A", optionals: ["o": false]) == ["`if let o`: absent"])
        #expect(try reasons(source, "A") == [nil])
        // No branch could build B.
        #expect(try reasons(source, "B") == ["`anyOf` at 5:3 has no branch for B"])
        #expect(try reasons("screen A\nscreen B\nroot { if screen B { screen A } }", "B")
            == ["`if screen B` at 3:8: the element is B, but its then-block builds nothing for it"])
        #expect(try reasons("screen A\noptional o: O\nroot { if let o { screen A } else { empty } }", "A", optionals: ["o": false])
            == ["`if let o`: absent"])
        #expect(try reasons("screen A\nscreen B\noptional o: O\nroot { if let o { screen A } }", "B")
            == ["`if let o`: present, but its then-block builds nothing for B"])
        let plain = """
            screen A
            screen B
            root { if screen A { screen A } }
            """
        #expect(try reasons(plain, "B") == ["`if screen A` at 3:8: the element is B, not A, and it has no else"])
        let withElse = """
            screen A
            screen B
            screen C
            root { if screen A { screen A } else { screen B } }
            """
        #expect(try reasons(withElse, "C") == ["`if screen A` at 4:8: the element is C, not A, and its else builds nothing for C"])
        #expect(try reasons(withElse, "B") == [nil])
    }

    @Test func theWildcardsBuilderSeesTheReplacedElement() throws {
        let source = """
            screen W
            screen X
            root { wildcard W { if screen W { screen W { screen X } } } }
            """
        let r = try ResolutionTestSupport.resolve(source, "X/X")
        #expect(r.elements.map(\.built) == [true, true])
        #expect(r.elements.map(\.builtAs) == ["W", nil])
        let mismatch = """
            screen W
            screen X
            root { wildcard W { screen X } }
            """
        #expect(try reasons(mismatch, "X") == ["`wildcard W` at 3:8 replaces X by W, and its builder builds nothing for W"])
        #expect(try reasons(mismatch, "W") == ["`wildcard W` at 3:8: its builder builds nothing for W"])
    }

    @Test func partialBuildsStopAtTheFirstElementNotBuilt() throws {
        let source = """
            screen A
            screen B
            screen C
            root { screen A { screen B { empty } } }
            """
        let r = try ResolutionTestSupport.resolve(source, "A/B/C/A")
        #expect(r.elements.map(\.built) == [true, true, false, false])
        #expect(r.elements[2].reason == "the nesting of `screen B` at 4:19 is `empty` (at 4:30), so it builds nothing")
        #expect(r.elements[3].reason == "not built, because element 3 (C) was not built")
        #expect(try reasons(source, "B") == ["`root` builds only A (`screen A` at 4:8), not B"])
    }

    @Test func recursionThroughNestingsResolvesAnyDepth() throws {
        let source = """
            screen Detail
            builder detail { screen Detail { detail } }
            root { detail }
            """
        let project = ResolutionTestSupport.project(source)
        let r = try ResolutionTestSupport.resolve(source, "Detail/Detail/Detail")
        #expect(r.elements.map(\.built) == [true, true, true])
        #expect(Set(r.elements.map { ResolutionTestSupport.position($0.node, project) }) == ["2:18"])
        let long = try ResolutionTestSupport.resolve(source, Array(repeating: "Detail", count: 500).joined(separator: "/"))
        #expect(long.elements.allSatisfy { $0.built })
    }

    /// A reference back to a builder still building the element never returns: the element is
    /// not built, and no later `anyOf` branch is tried (`screen X` after `a` in `b`).
    @Test func aBuilderCycleNeverFinishesInsteadOfHanging() throws {
        let direct = """
            screen X
            builder a { a }
            root { a }
            """
        #expect(try reasons(direct, "X") == ["`a` at 2:13 refers back to builder `a` while it is still building X (a builder cycle), so the build never finishes"])
        let indirect = """
            screen X
            screen Y
            builder a { b }
            builder b { anyOf { a screen X } }
            root { a }
            """
        #expect(try reasons(indirect, "X") == ["`a` at 4:21 refers back to builder `a` while it is still building X (a builder cycle), so the build never finishes"])
        #expect(try reasons(indirect, "Y") == ["`a` at 4:21 refers back to builder `a` while it is still building Y (a builder cycle), so the build never finishes"])
        // Where the cycle is not taken (the flag false), the later branch builds.
        let conditional = """
            screen X
            flag f
            builder a { anyOf { conditional f { a } else { empty } screen X } }
            root { a }
            """
        #expect(try reasons(conditional, "X") == ["`a` at 3:37 refers back to builder `a` while it is still building X (a builder cycle), so the build never finishes"])
        #expect(try ResolutionTestSupport.resolve(conditional, "X", flags: ["f": false]).elements.map(\.built) == [true])
    }

    @Test func reenteringABuilderForAnotherElementIsNotACycle() throws {
        // The library finishes this: the second `b` builds W, which `if screen W` takes.
        let source = """
            screen W
            screen X
            builder b { if screen W { screen W } else { wildcard W { b } } }
            root { b }
            """
        let r = try ResolutionTestSupport.resolve(source, "X")
        #expect(r.elements[0].built && r.elements[0].builtAs == "W")
    }

    @Test func unresolvedNamesBuildNothing() throws {
        let source = """
            screen A
            root { anyOf { screen Nope nope conditional nf { screen A } else { screen A } } }
            """
        #expect(try reasons(source, "A") == ["`conditional nf` at 2:33: `nf` is not a declared flag, so it builds nothing"])
        let ref = "screen A\nroot { nope }"
        #expect(try reasons(ref, "A") == ["`nope` at 2:8 is not a declared builder, so it builds nothing"])
        let wrongKind = "screen A\nflag f\nroot { if let f { screen A } }"
        #expect(try reasons(wrongKind, "A") == ["`if let f` at 3:8: `f` is not a declared optional, so it builds nothing"])
        let wildcard = "screen A\nroot { wildcard Nope { screen A } }"
        #expect(try reasons(wildcard, "A") == ["`wildcard Nope` at 2:8: `Nope` is not a declared screen, so it builds nothing"])
        let screen = "screen A\nroot { screen Nope }"
        #expect(try reasons(screen, "A") == ["`root` is `screen Nope` at 2:8, but `Nope` is not a declared screen"])
        // An `invalid-wildcard` cannot make its screen, as the analyses read it too.
        let invalid = "screen A\nscreen D(id: Int)\nroot { anyOf { wildcard D { screen D } screen A } }"
        #expect(try reasons(invalid, "D") == ["`wildcard D` at 3:16: `D` has parameters, which a wildcard cannot give, so it builds nothing"])
        #expect(try ResolutionTestSupport.resolve(invalid, "A").elements[0].built)
    }

    @Test func anEmptyOrBrokenRootBuildsNothing() throws {
        #expect(try reasons("screen A\nroot { empty }", "A") == ["`root` is `empty` (at 2:8), so it builds nothing"])
        #expect(try reasons("screen A\nroot { }", "A") == ["`root` is incomplete (a syntax error), so it builds nothing"])
    }

    @Test func reasonsInImportedFilesNameTheirFile() throws {
        let lib = """
            screen A
            screen B
            builder lib { anyOf { screen A } }
            """
        let r = try ResolutionTestSupport.resolve("import \"Lib.routes\"\nroot { lib }", "B", others: ["Lib.routes": lib])
        #expect(r.elements[0].reason == "`anyOf` at Lib.routes:3:15 has no branch for B")
    }

    @Test func theReasonComesFromTheLastBranchThatCouldBuildTheElement() throws {
        let source = """
            screen A
            screen B
            flag f
            optional o: O
            root {
              anyOf {
                conditional f { screen A } else { screen B }
                if let o { screen A }
                screen A
              }
            }
            """
        // Only the conditional could build B; the `if let` that fails later is about A.
        #expect(try reasons(source, "B") == ["`conditional f` is true here and its true branch builds nothing for B"])
    }

    @Test func aTenThousandLongChainOfReferencesDoesNotOverflow() throws {
        var source = "screen X\nscreen Y\n"
        let n = 10_000
        for i in 1..<n { source += "builder b\(i) { b\(i + 1) }\n" }
        source += "builder b\(n) { screen X }\nroot { b1 }\n"
        #expect(try reasons(source, "X") == [nil])
        #expect(try reasons(source, "Y") == ["`root` builds only X (`screen X` at \(n + 2):\(String("builder b\(n) { ").count + 1), through `b1` → `b2` → … (9997 more) → `b10000`), not Y"])
    }

    @Test func aTenThousandLongChainOfAnyOfsHasOneReason() throws {
        var source = "screen X\nscreen Y\n"
        let n = 10_000
        for i in 1..<n { source += "builder b\(i) { anyOf { screen X b\(i + 1) } }\n" }
        source += "builder b\(n) { anyOf { screen X empty } }\nroot { b1 }\n"
        // No branch anywhere could build Y: the outermost `anyOf` is the reason.
        #expect(try reasons(source, "Y") == ["`anyOf` at 3:14 has no branch for Y"])
    }

    @Test func sharedBuildersAreEvaluatedOncePerElement() throws {
        // 2^40 ways through the anyOfs if evaluated naively.
        var source = "screen X\nscreen Y\n"
        for i in 1...40 { source += "builder b\(i) { anyOf { b\(i + 1) b\(i + 1) } }\n" }
        source += "builder b41 { screen X }\nroot { b1 }\n"
        let r = try ResolutionTestSupport.resolve(source, "Y")
        #expect(!r.elements[0].built)
        #expect(r.elements[0].reason == "`anyOf` at 3:14 has no branch for Y")
        #expect(try ResolutionTestSupport.resolve(source, "X").elements[0].built)
    }

    @Test func buildEvaluatesOneBuilderNode() throws {
        let project = ResolutionTestSupport.project("screen A\nflag f\nroot { conditional f { screen A } else { empty } }")
        let program = ResolutionTestSupport.program(project)
        let body = PathNodeRef(file: 0, node: project.declaration(program.root).body!)
        let a = project.scopes[0]["A"]!
        guard case .built(let node, let screen, nil) = Resolution.build(body, element: a, project: project, environment: PathEnvironment()) else {
            Issue.record("not built")
            return
        }
        #expect(screen == a)
        #expect(ResolutionTestSupport.position(node, project) == "3:24")
        #expect(Resolution.build(body, element: a, project: project, environment: PathEnvironment(flags: ["f": false]))
            == .nothing(reason: "`conditional f` is false here and its else builds nothing for A"))
    }
}
