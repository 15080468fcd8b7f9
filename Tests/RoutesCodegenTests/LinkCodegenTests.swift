import Foundation
import Testing
@testable import RoutesCodegen
import RoutesAnalysis
import RoutesModel
import TestSupport

/// The generated `path(for:)` opens exactly what `routes link` says each URL opens, and each
/// link's URL constructor gives a URL its own link wins: the program of
/// `Tests/Fixtures/codegen/links.routes`, compiled against the stand-in and run over
/// hand-written and generated URLs.
@Suite(.serialized) struct LinkCodegenTests {
    static let root = Swiftc.packageRoot

    @Test func theGeneratedMatcherAgreesWithTheToolsOnEveryURL() throws {
        let input = Self.root.appendingPathComponent("Tests/Fixtures/codegen/links.routes")
        let project = Generation.project([input], root: input.deletingLastPathComponent())
        let generated = try #require(try Generation.programs(of: project, label: "links").generated.first)
        let session = AnalysisSession.forEditor(project: project)
        let program = try #require(project.programs.first)
        let links = try #require(session.links(ofProgramRootedAt: program.root))
        let urls = Self.urls(links)
        var cases: [String] = []
        var matched = 0
        for url in urls {
            let expected: String
            if case .success(let parsed) = LinkURL.parse(url), let position = Self.winner(links, parsed) {
                let path = links.path(of: position, values: Self.values(links, position, parsed))
                let screens = path.map { element in
                    let arguments = element.arguments.map { argument in
                        "\(argument.label): \(element.screen == "Tagged" ? ".\(argument.value.literal.dropFirst().dropLast())" : Self.swift(argument.value))"
                    }.joined(separator: ", ")
                    return "AnyScreen(\(generated.namespace).\(element.screen)(\(arguments)))"
                }
                expected = "[" + screens.joined(separator: ", ") + "]"
                matched += 1
            } else {
                expected = "nil"
            }
            cases.append("    (\(Self.literal(url)), \(expected)),")
        }
        #expect(matched >= 40 && urls.count - matched >= 40, "\(matched) of \(urls.count) URLs match a link")
        let main = """
            import ComposableNavigator
            import Foundation

            let cases: [(String, [AnyScreen]?)] = [
            \(cases.joined(separator: "\n"))
            ]
            for (text, expected) in cases {
                let found = \(generated.namespace).path(for: text)
                if found != expected { print("differs: \\(text)") }
            }
            // Each link's URL, made from values, opens that link's path.
            \(Self.constructorChecks(generated.namespace))
            print("checked \\(cases.count)")

            """
        let run = try Swiftc.compileAndRun([("Links.swift", generated.code), ("main.swift", main), ("Tag.swift", Self.tagType)], module: "LinksApp")
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("differs") }.isEmpty, "\(run.output)")
        #expect(lines.last == "checked \(urls.count)", "\(run.output)")
    }

    /// A placeholder of Foundation's `UUID` or `URL` (neither is `LosslessStringConvertible`)
    /// is read with its own initializer: a UUID's text opens its screen, other text opens
    /// nothing, and each link's URL made from a value opens the path with that value.
    @Test func uuidAndURLPlaceholdersAreReadWithTheirOwnInitializers() throws {
        let text = """
            screen Home
            screen Order(id: UUID)
            screen Web(page: Foundation.URL)
            link order "/orders/{id}" -> Home/Order(id: id)
            link web "/web/{page}" -> Home/Web(page: page)
            root { screen Home { anyOf { screen Order screen Web } } }
            """
        let project = RandomPrograms.project(text, name: "/ws/Foundation.routes")
        let generated = try #require(try Generation.programs(of: project, label: "foundation").generated.first)
        let ns = generated.namespace
        let main = """
            import ComposableNavigator
            import Foundation

            let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            let page = URL(string: "https://example.com/a b?c=d")!
            func check(_ ok: Bool, _ what: String) { if !ok { print("differs: \\(what)") } }
            check(\(ns).path(for: "/orders/e621e1f8-c36c-495a-93fc-0c247a3e6e5f") == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Order(id: id))], "a UUID")
            check(\(ns).path(for: "/orders/42") == nil, "not a UUID")
            check(\(ns).path(for: \(ns).Links.order(id: id)) == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Order(id: id))], "a UUID's link")
            check(\(ns).path(for: \(ns).Links.web(page: page)) == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Web(page: page))], "a URL's link")
            print("checked")

            """
        let run = try Swiftc.compileAndRun([("Links.swift", generated.code), ("main.swift", main)], module: "FoundationLinksApp")
        #expect(run.status == 0)
        #expect(run.output == "checked\n", "\(run.output)")
    }

    /// A literal argument of the app's own type (`Tagged(tag: "ios")`) is parsed with the
    /// type's `init?(_:)` when the link matches (a literal that does not parse: no match), a
    /// `Character` placeholder takes text of one character only, and literals of the integer
    /// and floating-point types, `Decimal` and `Optional<Int>` are written as Swift literals.
    @Test func literalsOfTheAppsTypesAndCharactersCompileAndMatch() throws {
        let text = """
            screen Home
            screen Tagged(tag: Tag)
            screen Maybe(tag: Tag?)
            screen Letter(c: Character)
            screen Sized(n: Int8, f: Float)
            screen Priced(amount: Decimal, count: Optional<Int>)
            link ios "/ios" -> Home/Tagged(tag: "ios")
            link priced "/priced" -> Home/Priced(amount: 1.5, count: 3)
            link never "/never" -> Home/Tagged(tag: "android")
            link maybe "/maybe" -> Home/Maybe(tag: "swift")
            link letter "/letters/{c}" -> Home/Letter(c: c)
            link sized "/sized" -> Home/Sized(n: -5, f: 2)
            root { screen Home { anyOf { screen Tagged screen Maybe screen Letter screen Sized screen Priced } } }
            """
        let project = RandomPrograms.project(text, name: "/ws/Literals.routes")
        let generated = try #require(try Generation.programs(of: project, label: "literals").generated.first)
        let ns = generated.namespace
        let main = """
            import ComposableNavigator
            import Foundation

            func check(_ ok: Bool, _ what: String) { if !ok { print("differs: \\(what)") } }
            check(\(ns).path(for: "/ios") == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Tagged(tag: .ios))], "a literal of the app's type")
            check(\(ns).path(for: "/never") == nil, "a literal the type does not parse")
            check(\(ns).path(for: "/maybe") == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Maybe(tag: .swift))], "an optional one")
            check(\(ns).path(for: "/letters/é") == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Letter(c: "é"))], "a character")
            check(\(ns).path(for: "/letters/ab") == nil, "two characters")
            check(\(ns).path(for: \(ns).Links.letter(c: "z")) == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Letter(c: "z"))], "a character's link")
            check(\(ns).path(for: "/sized") == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Sized(n: -5, f: 2))], "integer and float literals")
            check(\(ns).path(for: "/priced") == [AnyScreen(\(ns).Home()), AnyScreen(\(ns).Priced(amount: 1.5, count: 3))], "Decimal and Optional<Int> literals")
            print("checked")

            """
        let run = try Swiftc.compileAndRun([("Links.swift", generated.code), ("main.swift", main), ("Tag.swift", Self.tagType)], module: "LiteralLinksApp")
        #expect(run.status == 0)
        #expect(run.output == "checked\n", "\(run.output)")
    }

    /// Linux has no availability checks, so compiling against the stand-in cannot catch an
    /// API newer than the targets' oldest systems (iOS 13 for
    /// ComposableNavigator, iOS 16 for SwiftUI): the generated files of the examples with
    /// links and of 30 random programs, in both targets, call none of those a generator
    /// might reach for (`String(validating:as:)` once did).
    @Test func generatedCodeCallsNoAPINewerThanTheTargetsSystems() throws {
        let newer = ["String(validating:", "firstRange(of:", "ranges(of:", ".replacing(", "trimmingPrefix(", "wholeMatch(",
                     "prefixMatch(", "Regex", "#/", ".formatted(", "Duration", "ContinuousClock", "URL(filePath:", ".split(separator: \"//\"",
                     "String(localized:", "AttributedString", "@Observable", "@Bindable", "NavigationSplitView"]
        var projects: [(String, Project)] = []
        for example in ["Examples/Deeplinks/App.routes", "Tests/Fixtures/codegen/links.routes"] {
            let input = Self.root.appendingPathComponent(example)
            projects.append((example, Generation.project([input], root: input.deletingLastPathComponent())))
        }
        var rng = SplitMix64(seed: 7)
        for index in 0..<30 { projects.append(("random \(index)", RandomPrograms.project(Self.randomProgram(&rng), name: "/ws/Avail\(index).routes"))) }
        var generatedFiles = 0
        for (label, project) in projects {
            for target in [CodegenTarget.composableNavigator, .swiftUI] {
                let programs = try Generation.programs(of: project, label: label, allowProblems: true, options: .init(target: target)).generated
                for program in programs {
                    generatedFiles += 1
                    for api in newer { #expect(!program.code.contains(api), "\(label), \(target): calls \(api)") }
                }
            }
        }
        #expect(generatedFiles >= 30, "\(generatedFiles) files generated")
    }

    /// The winner of a URL, as the generated code finds it: the tools' winner, unless it is
    /// `tagged` with a tag the app's type does not parse; then the winner among the others
    /// (the link does not match there).
    static func winner(_ links: ProgramLinks, _ url: LinkURL) -> Int? {
        guard let position = links.match(url).link else { return nil }
        guard links.links[position].name == "tagged", !["swift", "ios"].contains(links.match(url).values["tag"] ?? "") else { return position }
        let (typed, positions) = links.matching
        let others = typed.indices.filter { links.links[positions[$0]].name != "tagged" }
        let winners = LinkMatcher.winners(others.map { typed[$0] }, url)
        return winners.count == 1 ? positions[others[winners[0]]] : nil
    }

    /// The placeholders' values a URL gives the link at `position`.
    static func values(_ links: ProgramLinks, _ position: Int, _ url: LinkURL) -> [String: String] {
        let (typed, positions) = links.matching
        guard let index = positions.firstIndex(of: position), case .match(let values) = LinkMatcher.match(typed[index], url) else { return [:] }
        return values
    }

    /// 100 generated programs with links (random patterns of literals, typed and untyped
    /// placeholders, required and optional query items, literal arguments; programs whose
    /// links tie are drawn again), 50 URLs each made from their patterns: the generated
    /// `path(for:)` of each gives what the tools' winner opens, and each program's URL
    /// constructors round-trip. All compiled into one executable.
    @Test func generatedProgramsMatchLikeTheTools() throws {
        var rng = SplitMix64(seed: 42)
        var programs: [(namespace: String, code: String, links: ProgramLinks, generated: GeneratedProgram)] = []
        var seed = 0
        while programs.count < 100 && seed < 400 {
            seed += 1
            let text = Self.randomProgram(&rng)
            let name = "/ws/Gen\(seed).routes"
            let project = RandomPrograms.project(text, name: name)
            let session = AnalysisSession.forEditor(project: project)
            guard !session.diagnostics.contains(where: { $0.severity == .error }), let program = project.programs.first,
                  let links = session.links(ofProgramRootedAt: program.root), links.links.count >= 3,
                  let generated = try Generation.programs(of: project, label: name).generated.first else { continue }
            programs.append((generated.namespace, generated.code, links, generated))
        }
        #expect(programs.count == 100, "\(programs.count) clean programs in \(seed) drawn")
        var checks: [String] = []
        var matched = 0, total = 0
        for (index, (namespace, _, links, _)) in programs.enumerated() {
            var urlRng = SplitMix64(seed: UInt64(index) &* 7919)
            // One function per program: the type checker takes a few statements at a time.
            checks.append("func check\(index)() {")
            defer { checks.append("}") }
            for url in Self.sampleURLs(links, count: 50, rng: &urlRng) {
                total += 1
                var expected = "nil"
                if case .success(let parsed) = LinkURL.parse(url), let position = links.match(parsed).link {
                    let path = links.path(of: position, values: Self.values(links, position, parsed))
                    expected = "[" + path.map { element in
                        "AnyScreen(\(namespace).\(element.screen)(" + element.arguments.map { "\($0.label): \(Self.swift($0.value))" }.joined(separator: ", ") + "))"
                    }.joined(separator: ", ") + "]"
                    matched += 1
                }
                checks.append("check(\(namespace).path(for: \(Self.literal(url))), \(expected), \(Self.literal(namespace + " " + url)))")
            }
        }
        #expect(total >= 5000 && matched * 3 >= total, "\(matched) of \(total) URLs match a link")
        let main = """
            import ComposableNavigator

            nonisolated(unsafe) var failures = 0
            func check(_ found: [AnyScreen]?, _ expected: [AnyScreen]?, _ url: String) {
                if found != expected {
                    failures += 1
                    print("differs: \\(url)")
                }
            }
            \(checks.joined(separator: "\n"))
            \(programs.indices.map { "check\($0)()" }.joined(separator: "\n"))
            print("failures: \\(failures)")

            """
        let run = try Swiftc.compileAndRun([("main.swift", main), ("Tag.swift", Self.tagType)] + programs.map({ ("\($0.namespace).swift", $0.code) }), module: "GeneratedLinks")
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("failures: 0\n"), "\(run.output.prefix(3000))")
    }

    /// A program: `Home` and up to six screens with parameters of the types links parse,
    /// under `Home`; 3 to 8 links to them, each with literal segments, its parameters as
    /// segment or query placeholders (an optional parameter as an optional query item) or as
    /// literals.
    static func randomProgram(_ rng: inout SplitMix64) -> String {
        let types = ["Int", "Double", "Bool", "String", "Int?", "String?"]
        let literals = ["a", "b", "items", "7", "true", "caf\u{E9}", "x-y"]
        var lines = ["screen Home"]
        var screens: [(name: String, parameters: [(String, String)])] = []
        for index in 0..<Int(rng.next() % 6 + 1) {
            let parameters = (0..<Int(rng.next() % 3)).map { p in ("p\(p)", types[Int(rng.next() % UInt64(types.count))]) }
            screens.append(("S\(index)", parameters))
            lines.append("screen S\(index)" + (parameters.isEmpty ? "" : "(" + parameters.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"))
        }
        for index in 0..<Int(rng.next() % 6 + 3) {
            let screen = screens[Int(rng.next() % UInt64(screens.count))]
            var segments: [String] = (0..<Int(rng.next() % 3)).map { _ in literals[Int(rng.next() % UInt64(literals.count))] }
            var query: [String] = []
            var arguments: [String] = []
            for (label, type) in screen.parameters {
                let placeholder = "v\(label)"
                switch rng.next() % 4 {
                case 0:
                    arguments.append("\(label): " + (type.hasPrefix("Int") ? "3" : type == "Double" ? "2.5" : type == "Bool" ? "false" : "\"lit\""))
                case 1 where type.hasSuffix("?"):
                    query.append("\(label)={\(placeholder)?}")
                    arguments.append("\(label): \(placeholder)")
                case 2:
                    query.append("\(label)={\(placeholder)}")
                    arguments.append("\(label): \(placeholder)")
                default:
                    segments.insert("{\(placeholder)}", at: Int(rng.next() % UInt64(segments.count + 1)))
                    arguments.append("\(label): \(placeholder)")
                }
            }
            let pattern = "/" + segments.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
            let path = "Home/\(screen.name)" + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
            lines.append("link l\(index) \"\(pattern)\" -> \(path)")
        }
        lines.append("root { screen Home { anyOf { " + screens.map { "screen \($0.name)" }.joined(separator: " ") + " } } }")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The app's type behind `{tag}`: parsed through `LosslessStringConvertible`.
    static let tagType = """
        enum Tag: String, Hashable, Sendable, LosslessStringConvertible {
            case swift, ios
            init?(_ description: String) { self.init(rawValue: description) }
            var description: String { rawValue }
        }

        """

    /// Checks of `Links.NAME(...)`: each URL made opens its link's path.
    static func constructorChecks(_ ns: String) -> String {
        let checks: [(String, String)] = [
            ("\(ns).Links.item(id: -42)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Detail(id: -42))]"),
            ("\(ns).Links.itemSettings(id: 7)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Detail(id: 7)), AnyScreen(\(ns).Settings())]"),
            ("\(ns).Links.toggle(on: false)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Toggle(on: false))]"),
            ("\(ns).Links.zoom(level: 2.5)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: 2.5))]"),
            // Numbers Swift describes with an exponent are written out in digits.
            ("\(ns).Links.zoom(level: 1e20)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: 1e20))]"),
            ("\(ns).Links.zoom(level: -1e-6)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: -1e-6))]"),
            ("\(ns).Links.zoom(level: 0.1)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: 0.1))]"),
            ("\(ns).Links.zoom(level: .leastNonzeroMagnitude)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: .leastNonzeroMagnitude))]"),
            ("\(ns).Links.zoom(level: 1.7976931348623157e308)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: 1.7976931348623157e308))]"),
            ("\(ns).Links.zoom(level: -123456789012345678.0)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: -123456789012345678.0))]"),
            ("\(ns).Links.zoom(level: 1.25e-3)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: 1.25e-3))]"),
            ("\(ns).Links.zoom(level: 0.0)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: 0.0))]"),
            ("\(ns).Links.zoom(level: -0.0)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Zoom(level: -0.0))]"),
            ("\(ns).Links.search(query: \"a b&c=d/é\", page: 3)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Search(query: \"a b&c=d/é\", page: 3, exact: nil))]"),
            ("\(ns).Links.search(query: \"x\")", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Search(query: \"x\", page: nil, exact: nil))]"),
            ("\(ns).Links.tagged(tag: .ios)", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Tagged(tag: .ios))]"),
            ("\(ns).Links.article(section: \"news/world\", slug: \"café\")", "[AnyScreen(\(ns).Home()), AnyScreen(\(ns).Article(slug: \"café\", section: \"news/world\"))]"),
            ("\(ns).Links.cafe()", "[AnyScreen(\(ns).Home())]"),
            ("\(ns).Links.home()", "[AnyScreen(\(ns).Home())]"),
        ]
        return checks.map { made, expected in
            "if \(ns).path(for: \(made)) != \(expected) { print(\"differs: \(made.replacingOccurrences(of: "\"", with: "\\\"")) -> \\(\(made))\") }"
        }.joined(separator: "\n")
    }

    /// Hand-written URLs for each rule of matching, and URLs made from the links' patterns
    /// with values of every class (seeded, so that a failure can be run again).
    static func urls(_ links: ProgramLinks) -> [String] {
        let urls = [
            "/items/3", "myapp://items/3", "MyApp://Items/3", "https://example.com/items/3", "HTTPS://EXAMPLE.com/items/3/",
            "https://user@example.com:8080/items/3", "myapp://user@items:99/3", "/items//3", "/items/3/", "/items/+3", "/items/-3",
            "/items/9223372036854775807", "/items/9223372036854775808", "/items/0x10", "/items/new", "/items/NEW", "/items/3/settings",
            "/items/3/settings?x=1#frag", "/toggle/true", "/toggle/false", "/toggle/TRUE", "/toggle/1", "/zoom/1", "/zoom/1.5",
            "/zoom/-0.25", "/zoom/1e5", "/zoom/.5", "/zoom/5.", "/zoom/1" + String(repeating: "0", count: 400),
            "/zoom/-" + String(repeating: "9", count: 309) + ".5", "/search?q=shoes", "/search?q=", "/search", "/search?q=a&q=b",
            "/search?q=a&page=2", "/search?q=a&page=x", "/search?q=a&page=", "/search?q=a&page=2&exact=true", "/search?q=a&exact=yes",
            "/search?q=a+b", "/search?q=a%20b", "/search?q=a%2", "/search?q=%FF", "/search?q=a&page=2&deep=false",
            "/search?q=a&page=x&deep=true", "/tags/swift", "/tags/ios", "/tags/android", "/news/a%2Fb", "/caf%C3%A9",
            "/cafe%CC%81", "/", "", "myapp://", "myapp:///", "https://example.com", "https://example.com/", "/fixed", "/fixed/x",
            "/a/b/c/d", "x", "mailto:someone", "/%", "/items/%33",
            // Delimiters before combining marks, and a prepended concatenation mark before one.
            "/items/\u{301}3", "/items/3#\u{301}", "/items/3?\u{FE0F}", "/search?q=a&\u{200D}=1", "/search?q=a&page\u{301}=2",
            "myapp://items/\u{600}/3", "/tags/\u{301}swift",
            // Bad input: control characters, escapes of them and of bytes that are no UTF-8,
            // 64 KiB of segments, and of `%`.
            "/items/\u{0}", "/items/a\tb", "/items/%00", "/items/%0A", "/\u{7F}", "/items/%C3%28", "/search?q=%FF%FE&page=1",
            "/items/" + String(repeating: "a/", count: 32_768), String(repeating: "/%", count: 32_768),
        ]
        var rng = SplitMix64(seed: 20261202)
        return urls + sampleURLs(links, count: 300, rng: &rng)
    }

    /// `count` URLs made from the links' patterns, with values of every class.
    static func sampleURLs(_ links: ProgramLinks, count: Int, rng: inout SplitMix64) -> [String] {
        var urls: [String] = []
        let values = ["0", "-7", "42", "9223372036854775808", "1.5", "-0.0", "true", "false", "new", "settings", "x", "caf%C3%A9",
                      "a%2Fb", "%zz", "swift", "ios", "items", "search", "fixed", ""]
        for _ in 0..<count {
            let link = links.links[Int(rng.next() % UInt64(links.links.count))]
            guard let text = link.declaration.pattern, case .success(let pattern) = LinkPattern.parse(text) else { continue }
            var segments: [String] = []
            for segment in pattern.segments {
                switch segment {
                case .literal(let literal): segments.append(rng.next() % 8 == 0 ? values[Int(rng.next() % UInt64(values.count))] : literal)
                case .placeholder: segments.append(values[Int(rng.next() % UInt64(values.count))])
                }
            }
            if rng.next() % 10 == 0 { segments.append(values[Int(rng.next() % UInt64(values.count))]) }
            var url = (rng.next() % 3 == 0 ? "myapp://" : rng.next() % 2 == 0 ? "https://example.com/" : "/") + segments.joined(separator: "/")
            if url.hasPrefix("myapp://") && segments.first?.isEmpty != false { url = "/" + segments.joined(separator: "/") }
            let items = pattern.query.compactMap { item -> String? in
                rng.next() % 5 == 0 ? nil : "\(item.key)=\(values[Int(rng.next() % UInt64(values.count))])"
            }
            if !items.isEmpty { url += "?" + items.joined(separator: "&") }
            urls.append(url)
        }
        return urls
    }

    /// A value as a Swift literal of its parameter's type.
    static func swift(_ value: LinkPathValue) -> String {
        switch value {
        case .string(let text): return literal(text)
        // (Swift's own spelling: a path's decimal digits may not be a Double's exact value.)
        case .decimal(let number): return String(number)
        default: return value.literal
        }
    }

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
