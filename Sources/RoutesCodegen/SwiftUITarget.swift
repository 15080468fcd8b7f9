import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Spells a ``ProgramPlan`` out for SwiftUI's `NavigationStack` (iOS 16 and later), with the
/// standard library only: the screens as `Hashable` values, one path element type over them
/// (`Element`), and a pure resolver that builds a path as the checker does
/// (docs/language.md#how-a-path-is-built), element by element, saying which `screen` node
/// built each one, how it is presented there, and where and why the build stops.
///
/// The resolver is the part of this target that everything else stands on: the views and
/// the navigator show what it builds. It is generated as one small function per builder of
/// the plan (`Outcome`s passed up, a `screen`'s nesting passed on as the builder of the next
/// element), so recursion through a nesting is a function that names itself.
struct SwiftUITarget {
    let plan: ProgramPlan
    let project: Project
    let access: AccessLevel
    /// The program's links, most specific first (see `LinkCode`).
    var links: [LinkCode.Link] = []
    /// Whether the screens and the path elements are `Codable` too.
    var codable = false
    var conformances: String { codable ? "Hashable, Codable" : "Hashable" }

    /// The `screen` nodes the generated code numbers (`Node.id`), in the order the plan's
    /// functions first reach them.
    private(set) var nodes: [NodeRef] = []
    private var nodeIDs: [NodeRef: Int] = [:]
    /// The presentation in force at each numbered node, as a `Presentation` value.
    private var nodePresentations: [String] = []
    /// The generated builder functions, in order.
    private var functions: [[String]] = []
    /// The flags and optionals of `Conditions`, in declaration order: (Swift name, symbol).
    private(set) var conditions: [(name: String, symbol: Symbol)] = []
    /// The `Element` case of each screen of the plan.
    private(set) var caseNames: [String] = []
    /// Which nodes may build which screens, for the branches whose reasons explain a failure
    /// (made when the first `anyOf` is generated).
    private var mayBuild: MayBuildIndex? = nil

    init(plan: ProgramPlan, project: Project, access: AccessLevel) {
        self.plan = plan
        self.project = project
        self.access = access
        caseNames = Self.caseNames(plan)
        conditions = Self.conditions(plan, project)
        // Numbered in the order the functions reach them (a node before its nesting).
        var nodes: [NodeRef] = [], ids: [NodeRef: Int] = [:], presentations: [String] = []
        plan.forEachBuilder { builder in
            guard case .screen(let node, let screen, _, _, _) = builder, ids[node] == nil else { return }
            ids[node] = nodes.count
            nodes.append(node)
            presentations.append(presentation(node, screen: screen))
        }
        (self.nodes, nodeIDs, nodePresentations) = (nodes, ids, presentations)
    }

    var modifier: String { access == .internal ? "" : access.rawValue + " " }
    var ns: String { plan.namespace }

    /// `Home` -> `home`, in backticks when Swift reserves it; a name another screen's case
    /// already has gets the screen's index after it.
    static func caseNames(_ plan: ProgramPlan) -> [String] {
        var seen = Set<String>()
        return plan.screens.enumerated().map { index, screen in
            var name = SwiftNames.lowerCamel(screen.typeName.filter { $0 != "`" })
            if !seen.insert(name).inserted {
                name += "\(index)"
                seen.insert(name)
            }
            return SwiftNames.escaped(name)
        }
    }

    /// The flags that a `conditional` tests and the optionals that an `if let` tests, in the
    /// program's declaration order.
    static func conditions(_ plan: ProgramPlan, _ project: Project) -> [(name: String, symbol: Symbol)] {
        var tested = Set<Symbol>()
        plan.forEachBuilder { builder in
            switch builder {
            case .conditional(let node, _, _, _):
                if case .conditional(let name?, _, _) = project.files[node.file].model.nodes[node.node].kind,
                   let s = project.resolve(name, in: node.file) { tested.insert(s) }
            case .ifLet(_, _, let item, _, _):
                tested.insert(item.symbol)
            default:
                break
            }
        }
        var out: [(name: String, symbol: Symbol)] = []
        for file in plan.program.files {
            for index in project.files[file].model.declarations.indices {
                let s = Symbol(file: file, declaration: index)
                if tested.contains(s) { out.append((SwiftNames.escaped(project.declaration(s).name.text), s)) }
            }
        }
        return out
    }

    // MARK: Places and words

    func displayName(_ f: FileID) -> String { Self.displayName(f, in: project) }

    /// A file as the generated code names it: by its name, not its path (which depends on
    /// where the generator was run, and would put a developer's folders in the app).
    static func displayName(_ f: FileID, in project: Project) -> String {
        let path = project.files[f].displayPath
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `App.routes:12:5` (1-based; columns in Unicode scalars).
    func location(_ r: NodeRef) -> String {
        let sourceFile = project.files[r.file]
        let position = sourceFile.text.position(of: sourceFile.model.nodes[r.node].head.lowerBound, encoding: .scalars)
        return "\(displayName(r.file)):\(position.line + 1):\(position.column + 1)"
    }

    /// `12:5` in the root file of a one-file program, else `Lib.routes:12:5`: as `routes tree`
    /// writes places in reasons.
    func shortLocation(_ r: NodeRef) -> String {
        let full = location(r)
        // (In a program of several files every place is written with its file.)
        return r.file == plan.program.root.file && plan.program.files.count == 1 ? String(full.drop { $0 != ":" }.dropFirst()) : full
    }

    func screenName(_ i: Int) -> String { project.declaration(plan.screens[i].symbol).name.text }

    /// A Swift string literal of `text` (only `"` and `\` need escapes in what is written here).
    static func literal(_ text: String) -> String {
        var out = "\""
        for c in text {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    /// The presentation in force at a `screen` node, as the generated `Presentation` value.
    func presentation(_ node: NodeRef, screen: Int) -> String {
        let p = project.presentation(ofScreenNode: node.node, in: node.file, screen: plan.screens[screen].symbol)
        switch p.style {
        case nil: return ".push"
        case let style?: return ".\(style.rawValue)(allowsPush: \(p.allowsPush))"
        }
    }

    /// The element of screen i made with no arguments (a wildcard's screen has no parameters).
    func element(_ i: Int) -> String { ".\(caseNames[i])(\(ns).\(plan.screens[i].typeName)())" }

    // MARK: The file

    /// The number of a `screen` node (`Node.id`).
    func nodeID(_ node: NodeRef) -> Int { nodeIDs[node]! }

    mutating func file(header: [String]) -> String {
        var out = header
        out.append("")
        // Foundation for `URL`, when the program has links.
        if !links.isEmpty { out.append("import Foundation") }
        out.append("import SwiftUI")
        out.append("")
        out += SwiftCodegen.typeAliases(plan, modifier: modifier)
        out.append("// MARK: - Screens")
        out.append("")
        out += screens()
        out.append("")
        out += protocols()
        out.append("")
        out += types()
        out.append("")
        out += resolver()
        out.append("")
        out += navigator()
        out.append("")
        out += views()
        // A link's screens as path elements: `AppRoutes.Detail(id: id)` in its case.
        var cases: [String: String] = [:]
        for (index, screen) in plan.screens.enumerated() { cases["\(ns).\(screen.typeName)"] = caseNames[index] }
        let linkLines = LinkCode(links: links, namespace: ns, modifier: modifier, pathType: "[\(ns).Element]", erase: { screen in
            let type = String(screen.prefix { $0 != "(" })
            return ".\(cases[type]!)(\(screen))"
        }).lines()
        if !linkLines.isEmpty {
            out.append("")
            out += linkLines
        }
        return out.joined(separator: "\n") + "\n"
    }

    func screens() -> [String] {
        var out = ["/// The screens of \(plan.rootPath), and the path elements made of them."]
        out.append("\(modifier)enum \(ns) {")
        for (index, screen) in plan.screens.enumerated() {
            if index > 0 { out.append("") }
            if let doc = screen.doc, !doc.isEmpty {
                out += doc.split(separator: "\n", omittingEmptySubsequences: false).map { "    ///" + ($0.isEmpty ? "" : " \($0)") }
            }
            out.append("    \(modifier)struct \(screen.typeName): \(conformances) {")
            for parameter in screen.parameters { out.append("        \(modifier)let \(parameter.label): \(parameter.type)") }
            if !screen.parameters.isEmpty { out.append("") }
            if screen.parameters.isEmpty {
                out.append("        \(modifier)init() {}")
            } else {
                let params = screen.parameters.map { "\($0.label): \($0.type)" }.joined(separator: ", ")
                out.append("        \(modifier)init(\(params)) {")
                for parameter in screen.parameters { out.append("            self.\(parameter.label) = \(parameter.label)") }
                out.append("        }")
            }
            out.append("    }")
        }
        out.append("")
        out.append("    /// One element of a navigation path: a screen value.")
        out.append("    \(modifier)enum Element: \(conformances) {")
        for (index, screen) in plan.screens.enumerated() {
            out.append("        case \(caseNames[index])(\(ns).\(screen.typeName))")
        }
        out.append("")
        out.append("        /// The name of its screen in \(plan.rootPath).")
        out.append("        \(modifier)var screenName: String {")
        out.append("            switch self {")
        for (index, _) in plan.screens.enumerated() {
            out.append("            case .\(caseNames[index]): return \(Self.literal(screenName(index)))")
        }
        out.append("            }")
        out.append("        }")
        out.append("    }")
        out += dependencyStructs()
        out.append("}")
        return out
    }

    func types() -> [String] {
        var out = ["// MARK: - Resolving a path", ""]
        out.append("extension \(ns) {")
        out.append("    /// How a screen is presented where it is built: pushed onto the stack of the element")
        out.append("    /// before it, or presented from that element with a stack of its own (none when it")
        out.append("    /// allows no pushes).")
        out.append("    \(modifier)enum Presentation: Hashable, Sendable {")
        out.append("        case push")
        out.append("        case sheet(allowsPush: Bool)")
        out.append("        case cover(allowsPush: Bool)")
        out.append("        case popover(allowsPush: Bool)")
        out.append("    }")
        out.append("")
        out.append("    /// A `screen` node of the routing tree: where it is written, and how it presents what it builds.")
        out.append("    \(modifier)struct Node: Hashable, Sendable {")
        out.append("        \(modifier)let id: Int")
        out.append("        /// `App.routes:12:5`.")
        out.append("        \(modifier)let location: String")
        out.append("        \(modifier)let presentation: Presentation")
        out.append("    }")
        out.append("")
        out.append("    /// One environment: the value of each flag, and whether each optional is present.")
        out.append("    \(modifier)struct Conditions: Hashable, Sendable {")
        for c in conditions {
            let decl = project.declaration(c.symbol)
            out.append(decl.kind == .flag ? "        /// `flag \(decl.name.text)`." : "        /// Whether `optional \(decl.name.text)` is present.")
            out.append("        \(modifier)var \(c.name): Bool")
        }
        if !conditions.isEmpty { out.append("") }
        let params = conditions.map { "\(SwiftNames.label($0.name.filter { $0 != "`" })): Bool" }.joined(separator: ", ")
        out.append("        \(modifier)init(\(params)) {")
        for c in conditions { out.append("            self.\(c.name) = \(c.name)") }
        out.append("        }")
        out.append("    }")
        out.append("")
        out.append("    /// What a path builds under one environment.")
        out.append("    \(modifier)struct Resolution: Hashable, Sendable {")
        out.append("        /// A built element: the node that built it, and the screen a wildcard put in its place.")
        out.append("        \(modifier)struct Step: Hashable, Sendable {")
        out.append("            \(modifier)let element: Element")
        out.append("            \(modifier)let node: Node")
        out.append("            /// The screen a `wildcard` built in the element's place (nil: the element itself).")
        out.append("            \(modifier)let builtAs: Element?")
        out.append("        }")
        out.append("")
        out.append("        /// The first element not built, and why. The elements after it are not built either.")
        out.append("        \(modifier)struct Stop: Hashable, Sendable {")
        out.append("            \(modifier)let index: Int")
        out.append("            \(modifier)let reason: String")
        out.append("        }")
        out.append("")
        out.append("        /// The elements built, from the first.")
        out.append("        \(modifier)var steps: [Step]")
        out.append("        /// Nil when every element is built.")
        out.append("        \(modifier)var stop: Stop?")
        out.append("    }")
        out.append("}")
        return out
    }

    // MARK: The resolver

    mutating func resolver() -> [String] {
        // `b0` … are the plan's functions, in order (`b0` is `root`); the builders inside them
        // come after.
        functions = Array(repeating: [], count: plan.functions.count)
        for (k, function) in plan.functions.enumerated() { functions[k] = body(function.body) }
        var out = ["extension \(ns) {"]
        out.append("    /// Builds `path` under `conditions` as the routing tree of \(plan.rootPath) does: `root` builds")
        out.append("    /// the first element, the nesting of the node that built each element builds the next one.")
        out.append("    /// The first element that is not built, and every one after it, is not shown.")
        out.append("    \(modifier)static func resolve(_ path: [Element], in conditions: Conditions) -> Resolution {")
        out.append("        var steps: [Resolution.Step] = []")
        out.append("        var builder: \(buildType).Builder? = \(buildType).b0")
        out.append("        var previous: Node? = nil")
        out.append("        for (index, element) in path.enumerated() {")
        out.append("            guard let build = builder else {")
        out.append("                return Resolution(steps: steps, stop: .init(index: index, reason: \(buildType).failure(after: previous?.id, element.screenName)))")
        out.append("            }")
        out.append("            switch build(element, conditions) {")
        out.append("            case .built(let node, let built, let next):")
        out.append("                steps.append(.init(element: element, node: node, builtAs: built.screenName == element.screenName ? nil : built))")
        out.append("                builder = next")
        out.append("                previous = node")
        out.append("            case .nothing(let why):")
        out.append("                return Resolution(steps: steps, stop: .init(index: index, reason: why?.text ?? \(buildType).failure(after: previous?.id, element.screenName)))")
        out.append("            }")
        out.append("        }")
        out.append("        return Resolution(steps: steps, stop: nil)")
        out.append("    }")
        out.append("}")
        out.append("")
        out.append("/// The builders of \(plan.rootPath), one function each (not part of the API).")
        out.append("private enum \(buildType) {")
        out.append("    typealias Builder = (\(ns).Element, \(ns).Conditions) -> Outcome")
        out.append("")
        out.append("    /// What a builder makes of one element: the node that built it, the element it built")
        out.append("    /// (a wildcard's screen, in place of the element), and the builder of the next one; or")
        out.append("    /// nothing, with the decision that explains it (see `Why`).")
        out.append("    enum Outcome {")
        out.append("        case built(\(ns).Node, \(ns).Element, Builder?)")
        out.append("        case nothing(Why?)")
        out.append("    }")
        out.append("")
        out.append("    /// The decision that kept an element from being built, for the reason a resolution gives:")
        out.append("    /// of an `anyOf`, the reason of its last branch that could build the element, else the")
        out.append("    /// `anyOf` itself.")
        out.append("    enum Why {")
        out.append("        case anyOf(at: String, \(ns).Element)")
        out.append("        case conditional(String, Bool, \(ns).Element)")
        out.append("        case ifLetPresent(String, \(ns).Element)")
        out.append("        case ifLetAbsent(String)")
        out.append("        case ifScreen(String, at: String, matched: Bool, hasElse: Bool, \(ns).Element)")
        out.append("        case wildcard(String, at: String, \(ns).Element)")
        out.append("")
        out.append("        /// In words. (The element is the one being built when the decision was made: a")
        out.append("        /// wildcard's screen inside its block.)")
        out.append("        var text: String {")
        out.append("            switch self {")
        out.append("            case .anyOf(let at, let e): let name = e.screenName; return \"`anyOf` at \\(at) has no branch for \\(name)\"")
        out.append("            case .conditional(let flag, true, let e): let name = e.screenName; return \"`conditional \\(flag)` is true here and its true branch builds nothing for \\(name)\"")
        out.append("            case .conditional(let flag, false, let e): let name = e.screenName; return \"`conditional \\(flag)` is false here and its else builds nothing for \\(name)\"")
        out.append("            case .ifLetPresent(let optional, let e): let name = e.screenName; return \"`if let \\(optional)`: present, but its then-block builds nothing for \\(name)\"")
        out.append("            case .ifLetAbsent(let optional): return \"`if let \\(optional)`: absent\"")
        out.append("            case .ifScreen(let tested, let at, true, _, _): return \"`if screen \\(tested)` at \\(at): the element is \\(tested), but its then-block builds nothing for it\"")
        out.append("            case .ifScreen(let tested, let at, false, true, let e): let name = e.screenName; return \"`if screen \\(tested)` at \\(at): the element is \\(name), not \\(tested), and its else builds nothing for \\(name)\"")
        out.append("            case .ifScreen(let tested, let at, false, false, let e): let name = e.screenName; return \"`if screen \\(tested)` at \\(at): the element is \\(name), not \\(tested), and it has no else\"")
        out.append("            case .wildcard(let screen, let at, let e) where e.screenName == screen: return \"`wildcard \\(screen)` at \\(at): its builder builds nothing for \\(screen)\"")
        out.append("            case .wildcard(let screen, let at, let e): let name = e.screenName; return \"`wildcard \\(screen)` at \\(at) replaces \\(name) by \\(screen), and its builder builds nothing for \\(screen)\"")
        out.append("            }")
        out.append("        }")
        out.append("    }")
        out.append("")
        out += failureFunction()
        out.append("")
        out.append("    /// The `screen` nodes, by `Node.id`.")
        out.append("    static let nodes: [\(ns).Node] = [")
        for (id, node) in nodes.enumerated() {
            out.append("        \(ns).Node(id: \(id), location: \(Self.literal(location(node))), presentation: \(nodePresentations[id])),")
        }
        out.append("    ]")
        for (index, function) in functions.enumerated() {
            out.append("")
            out.append("    static func b\(index)(_ e: \(ns).Element, _ c: \(ns).Conditions) -> Outcome {")
            out += function.map { "        " + $0 }
            out.append("    }")
        }
        out.append("}")
        return out
    }

    var buildType: String { "\(ns)Build" }

    /// `failure(after:_:)` of the generated build enum: why the build stops where no decision
    /// says, after screen node `id` (nil: at `root`), for an element of that name, in the words
    /// of `routes tree --path` (`ResolutionWords`).
    private func failureFunction() -> [String] {
        func model(_ ref: NodeRef) -> BuilderNode { project.files[ref.file].model.nodes[ref.node] }
        func expression(_ pieces: [String]) -> String {
            var terms: [String] = []
            for (i, piece) in pieces.enumerated() {
                if !piece.isEmpty { terms.append(Self.literal(piece)) }
                if i < pieces.count - 1 { terms.append("name") }
            }
            return terms.isEmpty ? "\"\"" : terms.joined(separator: " + ")
        }
        let program = plan.program
        let project = self.project
        let fileName = { (f: FileID) in Self.displayName(f, in: project) }
        let rootBody = project.declaration(program.root).body.map { NodeRef(file: program.root.file, node: $0) }
        var out = [
            "    /// Why the build stops after `screen` node `id` (nil: at `root`) when no decision says why.",
            "    static func failure(after id: Int?, _ name: String) -> String {",
            "        switch id {",
            "        case nil: return \(expression(ResolutionWords.failure(from: rootBody, after: nil, program: program, project: project, fileName: fileName)))",
        ]
        for (id, node) in nodes.enumerated() {
            var nesting: NodeRef? = nil
            if case .screen(_, _, let inner?) = model(node).kind { nesting = NodeRef(file: node.file, node: inner) }
            out.append("        case \(id)?: return \(expression(ResolutionWords.failure(from: nesting, after: node, program: program, project: project, fileName: fileName)))")
        }
        out.append("        default: return name")
        out.append("        }")
        out.append("    }")
        return out
    }

    /// The screens (by index in the plan) that a branch may build, as `routes tree --path`
    /// judges it (`MayBuildIndex`); nil when it may build each of them.
    private mutating func screensMayBuild(_ branch: ProgramPlan.Builder) -> [Int]? {
        let node: NodeRef
        switch branch {
        case .screen(let n, _, _, _, _), .anyOf(let n, _), .conditional(let n, _, _, _), .ifLet(let n, _, _, _, _),
             .ifScreen(let n, _, _, _), .wildcard(let n, _, _), .unreachable(let n, _), .call(let n, _, _):
            node = n
        case .empty:
            return []
        }
        if mayBuild == nil { mayBuild = MayBuildIndex(project) }
        let screens = plan.screens.indices.filter { mayBuild!.mayBuild(node, plan.screens[$0].symbol) }
        return screens.count == plan.screens.count ? nil : screens
    }

    /// The function that builds with `builder`: its name (`b12`).
    private mutating func emit(_ builder: ProgramPlan.Builder) -> String {
        let index = functions.count
        functions.append([])
        functions[index] = body(builder)
        return "b\(index)"
    }

    private mutating func body(_ builder: ProgramPlan.Builder) -> [String] {
        switch builder {
        case .screen(let node, let screen, _, _, let nesting):
            let next = nesting.map { emit($0) } ?? "nil"
            return [
                "guard case .\(caseNames[screen]) = e else { return .nothing(nil) }",
                "return .built(nodes[\(nodeIDs[node]!)], e, \(next))",
            ]
        case .anyOf(let node, let branches):
            let names = branches.map { emit($0) }
            // The reason of the last branch that could build the element explains the
            // failure (as `routes tree --path` says it): a branch that cannot is not why.
            let mayBuild = branches.map { screensMayBuild($0) }
            let anyRelevant = mayBuild.contains { $0 == nil || !$0!.isEmpty }
            var out = anyRelevant ? ["var relevant: Why? = nil"] : []
            for (name, screensBuilt) in zip(names, mayBuild) {
                out.append("switch \(name)(e, c) {")
                out.append("case .built(let n, let b, let next): return .built(n, b, next)")
                switch screensBuilt {
                case nil:
                    out.append("case .nothing(let why): if let why { relevant = why }")
                case let screens? where screens.isEmpty:
                    out.append("case .nothing: break")
                case let screens?:
                    let cases = screens.map { ".\(caseNames[$0])" }.joined(separator: ", ")
                    out.append("case .nothing(let why):")
                    out.append("    switch e {")
                    out.append("    case \(cases): if let why { relevant = why }")
                    out.append("    default: break")
                    out.append("    }")
                }
                out.append("}")
            }
            out.append("return .nothing(\(anyRelevant ? "relevant ?? " : "").anyOf(at: \(Self.literal(shortLocation(node))), e))")
            return out
        case .conditional(_, let flag, let then, let els):
            let (a, b) = (emit(then), emit(els))
            let name = Self.literal(flag.filter { $0 != "`" })
            return [
                "let value = c.\(flag)",
                "let r = value ? \(a)(e, c) : \(b)(e, c)",
                "if case .nothing(nil) = r { return .nothing(.conditional(\(name), value, e)) }",
                "return r",
            ]
        case .ifLet(_, _, let item, let then, let els):
            let name = project.declaration(item.symbol).name.text
            let property = SwiftNames.escaped(name)
            let a = emit(then)
            var out = [
                "if c.\(property) {",
                "    let r = \(a)(e, c)",
                "    if case .nothing(nil) = r { return .nothing(.ifLetPresent(\(Self.literal(name)), e)) }",
                "    return r",
                "}",
            ]
            if let els {
                let b = emit(els)
                out += ["let r = \(b)(e, c)", "if case .nothing(nil) = r { return .nothing(.ifLetAbsent(\(Self.literal(name)))) }", "return r"]
            } else {
                out.append("return .nothing(.ifLetAbsent(\(Self.literal(name))))")
            }
            return out
        case .ifScreen(let node, let screen, let then, let els):
            let tested = Self.literal(screenName(screen)), at = Self.literal(shortLocation(node))
            let a = emit(then)
            var out = [
                "if case .\(caseNames[screen]) = e {",
                "    let r = \(a)(e, c)",
                "    if case .nothing(nil) = r { return .nothing(.ifScreen(\(tested), at: \(at), matched: true, hasElse: true, e)) }",
                "    return r",
                "}",
            ]
            if let els {
                let b = emit(els)
                out += ["let r = \(b)(e, c)",
                        "if case .nothing(nil) = r { return .nothing(.ifScreen(\(tested), at: \(at), matched: false, hasElse: true, e)) }",
                        "return r"]
            } else {
                out.append("return .nothing(.ifScreen(\(tested), at: \(at), matched: false, hasElse: false, e))")
            }
            return out
        case .wildcard(let node, let screen, let body):
            let b = emit(body)
            return [
                "let r = \(b)(\(element(screen)), c)",
                "guard case .nothing(nil) = r else { return r }",
                "return .nothing(.wildcard(\(Self.literal(screenName(screen))), at: \(Self.literal(shortLocation(node))), e))",
            ]
        case .empty, .unreachable:
            return ["return .nothing(nil)"]
        case .call(_, let function, _):
            // Plan function k is `b<k>` (see `resolver()`).
            return ["return b\(function)(e, c)"]
        }
    }
}
