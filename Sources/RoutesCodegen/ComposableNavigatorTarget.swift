import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Spells a ``ProgramPlan`` out against ComposableNavigator's public API as of its last
/// release, 0.2.0: `Screen`, `ScreenPresentationStyle`, `PathBuilder`, `PathBuilders.screen`,
/// `.anyOf` (2 to 10 builders), `.if` (a condition, `let:`, `screen:`), `.wildcard`,
/// `.empty`, `_PathBuilder` and `eraseCircularNavigationPath()`. Nothing else of the
/// library is used, so another target (SwiftUI's NavigationStack) is another file like
/// this one over the same plan.
struct ComposableNavigatorTarget {
    let plan: ProgramPlan
    let project: Project
    let access: AccessLevel
    /// The program's links, most specific first (see `LinkCode`).
    var links: [LinkCode.Link] = []

    /// The modules whose names the generated code writes, each imported by the file: Swift
    /// makes a type visible by name only in a file that imports its module, and
    /// ComposableNavigator does not re-export SwiftUI (`View`, in the content protocol). The
    /// types a program names (parameters, dependencies) are the app's to make visible: the
    /// standard library's, the app module's own (a type alias there reaches any other module).
    static let imports = ["ComposableNavigator", "SwiftUI"]

    /// The library's `anyOf` takes at most this many builders.
    static let anyOfLimit = 10

    var modifier: String { access == .internal ? "" : access.rawValue + " " }
    var ns: String { plan.namespace }
    var env: String { plan.environmentParameter }
    var content: String { plan.contentParameter }

    func screenType(_ i: Int) -> String { "\(ns).\(plan.screens[i].typeName)" }

    /// `App.routes:12:5`.
    func location(_ r: NodeRef) -> String {
        let sourceFile = project.files[r.file]
        let position = sourceFile.text.position(of: sourceFile.model.nodes[r.node].head.lowerBound, encoding: .scalars)
        return "\(displayName(r.file)):\(position.line + 1):\(position.column + 1)"
    }

    func displayName(_ f: FileID) -> String {
        let path = project.files[f].displayPath
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    func docLines(_ doc: String?, indent: String) -> [String] {
        guard let doc, !doc.isEmpty else { return [] }
        return doc.split(separator: "\n", omittingEmptySubsequences: false).map { "\(indent)///" + ($0.isEmpty ? "" : " \($0)") }
    }

    // MARK: What 0.2.0 cannot express

    /// The presentations the library cannot express, at the places to change: a `cover` or
    /// a `popover` (its `ScreenPresentationStyle` has only a push and a sheet, which may forbid pushes),
    /// and a placement's own presentation that differs from its screen's. The library reads
    /// a screen's style from the screen value in the navigation path, which the app makes
    /// when it navigates: a path builder cannot choose it for one placement, so no generated
    /// code could make a placement present its screen otherwise (docs/codegen.md).
    static func refusals(plan: ProgramPlan, project: Project) -> [CodegenProblem] {
        var out: [CodegenProblem] = []
        for screen in plan.screens where screen.presentation.style == .cover || screen.presentation.style == .popover {
            let decl = project.declaration(screen.symbol)
            out.append(CodegenProblem(
                file: screen.symbol.file, range: decl.name.range,
                message: "the ComposableNavigator 0.2.0 target cannot present `\(decl.name.text)` as \(screen.presentation.nounWithArticle) (`\(screen.presentation.sourceText)`): the library presents only by push and as a sheet: generate for SwiftUI (`--target swiftui`), which presents it, or declare it `sheet`"))
        }
        var seen = Set<NodeRef>()
        plan.forEachBuilder { builder in
            guard case .screen(let node, let screen, _, _, _) = builder else { return }
            let model = project.files[node.file].model.nodes[node.node]
            guard let own = model.presentation, own != plan.screens[screen].presentation, seen.insert(node).inserted else { return }
            let name = project.declaration(plan.screens[screen].symbol).name.text
            out.append(CodegenProblem(
                file: node.file, range: model.head,
                message: "the ComposableNavigator 0.2.0 target cannot present `\(name)` `as \(own.sourceText)` at this placement only: the library takes a screen's presentation from the screen value the app puts in the path, which a path builder cannot change: generate for SwiftUI (`--target swiftui`), which presents each placement its own way, or present `\(name)` the same way everywhere"))
        }
        return out
    }

    // MARK: The file

    func file(header: [String]) -> String {
        var out: [String] = header
        out.append("")
        // Foundation for `URL`, when the program has links.
        for module in (links.isEmpty ? [] : ["Foundation"]) + Self.imports { out.append("import \(module)") }
        out.append("")
        out += SwiftCodegen.typeAliases(plan, modifier: modifier)
        out += screens()
        out.append("")
        out += environmentProtocol()
        out.append("")
        out += contentProtocol()
        out.append("")
        out += routingTree()
        let linkLines = LinkCode(links: links, namespace: ns, modifier: modifier, pathType: "[AnyScreen]",
                                 erase: { "AnyScreen(\($0))" }).lines()
        if !linkLines.isEmpty {
            out.append("")
            out += linkLines
        }
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Screens

    func screens() -> [String] {
        var out = ["// MARK: - Screens", ""]
        out.append("/// The screens of \(plan.rootPath), and the dependencies each one's view receives.")
        out.append("\(modifier)enum \(ns) {")
        for (index, screen) in plan.screens.enumerated() {
            if index > 0 { out.append("") }
            out += screenStruct(screen)
        }
        out += dependencyStructs()
        out.append("}")
        return out
    }

    /// A screen's struct: its parameters, its presentation style, its initializer.
    func screenStruct(_ screen: ProgramPlan.Screen) -> [String] {
        var out = docLines(screen.doc, indent: "    ")
        out.append("    \(modifier)struct \(screen.typeName): Screen {")
        for parameter in screen.parameters { out.append("        \(modifier)let \(parameter.label): \(parameter.type)") }
        // `refusals(plan:project:)` let only these through.
        let style = screen.presentation == .push ? ".push" : ".sheet(allowsPush: \(screen.presentation.allowsPush))"
        out.append("        \(modifier)var presentationStyle: ScreenPresentationStyle { \(style) }")
        out.append("")
        if screen.parameters.isEmpty {
            out.append("        \(modifier)init() {}")
        } else {
            let params = screen.parameters.map { "\($0.label): \($0.type)" }.joined(separator: ", ")
            out.append("        \(modifier)init(\(params)) {")
            for parameter in screen.parameters { out.append("            self.\(parameter.label) = \(parameter.label)") }
            out.append("        }")
        }
        out.append("    }")
        return out
    }

    /// The structs that carry the dependencies of the content methods that have any.
    func dependencyStructs() -> [String] {
        let withDeps = plan.contentMethods.filter { $0.depsType != nil }
        guard !withDeps.isEmpty else { return [] }
        var out = ["", "    // MARK: Dependencies"]
        for method in withDeps {
            out.append("")
            let screen = plan.screens[method.screen]
            out.append("    /// What the view of `\(screen.typeName)` uses where it is placed with `\(usesText(method))` (\(location(method.example))).")
            out.append("    \(modifier)struct \(method.depsType!) {")
            for field in method.fields { out.append("        \(modifier)let \(field.name): \(field.type)") }
            if access != .internal {
                out.append("")
                let params = method.fields.map { field in
                    "\(field.name): \(SwiftType(parsing: field.type)?.isFunction == true ? "@escaping " : "")\(field.type)"
                }
                out.append("        \(modifier)init(\(params.joined(separator: ", "))) {")
                for field in method.fields { out.append("            self.\(field.name) = \(field.name)") }
                out.append("        }")
            }
            out.append("    }")
        }
        return out
    }

    func usesText(_ m: ProgramPlan.ContentMethod) -> String {
        "screen \(project.declaration(plan.screens[m.screen].symbol).name.text) uses "
            + m.fields.map { project.declaration($0.symbol).name.text }.joined(separator: ", ")
    }

    // MARK: What the app implements

    func environmentProtocol() -> [String] {
        var out = ["// MARK: - What the app implements", ""]
        out.append("/// What the routing tree of \(plan.rootPath) reads from the app: its flags, its optionals")
        out.append("/// (`if let`) and its app-wide dependencies. The tree reads them whenever it builds a path.")
        out.append("\(modifier)protocol \(plan.environmentProtocol) {")
        for (index, member) in plan.environment.enumerated() {
            if index > 0 && (member.doc != nil || plan.environment[index - 1].doc != nil) { out.append("") }
            out += docLines(member.doc, indent: "    ")
            out.append("    var \(member.name): \(member.type) { get }")
        }
        out.append("}")
        return out
    }

    func contentProtocol() -> [String] {
        var out = ["/// The views of the screens of \(plan.rootPath): one method per screen and `uses` list, which"]
        out.append("/// receives the screen and exactly the dependencies that its `uses` names. A screen that")
        out.append("/// provides dependencies (`from` it) returns them with its view, for the screens after it.")
        guard !plan.contentParts.isEmpty else {
            return out + contentProtocol(plan.contentProtocol, methods: plan.contentMethods.indices)
        }
        out.append("/// (In \(plan.contentParts.count) parts: one Swift protocol holds only so many associated types.)")
        out.append("\(modifier)typealias \(plan.contentProtocol) = " + plan.contentParts.map(\.name).joined(separator: " & "))
        for part in plan.contentParts {
            out.append("")
            out.append("/// Part of `\(plan.contentProtocol)`.")
            out += contentProtocol(part.name, methods: part.methods)
        }
        return out
    }

    func contentProtocol(_ name: String, methods: Range<Int>) -> [String] {
        var out = ["\(modifier)protocol \(name) {"]
        var declared = Set<String>()
        for index in methods {
            let method = plan.contentMethods[index]
            if index > methods.lowerBound { out.append("") }
            let screen = plan.screens[method.screen]
            if declared.insert(method.viewType).inserted {
                out.append("    associatedtype \(method.viewType): View")
            }
            out += docLines(screen.doc, indent: "    ")
            if method.depsType != nil { out.append("    /// Placed with `\(usesText(method))` (\(location(method.example))).") }
            if !screen.provides.isEmpty {
                let names = screen.provides.map { "`\(project.declaration($0.symbol).name.text)`" }.joined(separator: ", ")
                out.append("    /// Provides \(names) to the screens after it.")
            }
            var params = "_ screen: \(screenType(method.screen))"
            if let deps = method.depsType { params += ", using deps: \(ns).\(deps)" }
            out.append("    func \(method.name)(\(params)) -> \(returnType(method))")
        }
        out.append("}")
        return out
    }

    func returnType(_ m: ProgramPlan.ContentMethod) -> String {
        let provides = plan.screens[m.screen].provides
        if provides.isEmpty { return m.viewType }
        return "(" + (["\(m.viewLabel): \(m.viewType)"] + provides.map { "\(plan.name($0)): \(plan.itemTypes[$0]!)" })
            .joined(separator: ", ") + ")"
    }

    // MARK: The routing tree

    func routingTree() -> [String] {
        var out = ["// MARK: - The routing tree", ""]
        out.append("extension \(ns) {")
        let generics = "<\(plan.environmentGeneric): \(plan.environmentProtocol), \(plan.contentGeneric): \(plan.contentProtocol)>"
        for (index, function) in plan.functions.enumerated() {
            if index > 0 { out.append("") }
            var params: String
            if let builder = function.builder {
                let decl = project.declaration(builder)
                out += docLines(decl.doc, indent: "    ")
                if decl.doc != nil { out.append("    ///") }
                out.append("    /// `builder \(decl.name.text)` (\(displayName(builder.file)):\(line(builder))).")
                if !function.absent.isEmpty {
                    let names = function.absent.map { "`\(project.declaration($0.symbol).name.text)`" }.joined(separator: ", ")
                    out.append("    /// Where it is used here, \(names) \(function.absent.count == 1 ? "is" : "are") not in scope: its screens that need")
                    out.append("    /// \(function.absent.count == 1 ? "it" : "them") are never built there.")
                }
                params = "_ \(env): \(plan.environmentGeneric), _ \(content): \(plan.contentGeneric)"
            } else {
                out.append("    /// The routing tree of \(plan.rootPath): give it to `Root(dataSource:pathBuilder:)`.")
                func labelled(_ label: String, _ name: String, _ type: String) -> String {
                    label == name ? "\(name): \(type)" : "\(label) \(name): \(type)"
                }
                params = labelled("environment", env, plan.environmentGeneric) + ", " + labelled("content", content, plan.contentGeneric)
            }
            for item in function.parameters {
                let escaping = plan.itemIsFunction[item] == true ? "@escaping " : ""
                params += ", \(plan.name(item)): \(escaping)\(plan.itemTypes[item]!)"
            }
            let head = "    \(modifier)static func \(function.name)\(generics)(\(params)) -> some PathBuilder {"
            out.append(head)
            let body = code(function.body)
            out += body.lines(indent: 8, column: 8).map { $0.hasPrefix(" ") ? $0 : "        " + $0 }
            out.append("    }")
        }
        out.append("}")
        return out
    }

    func line(_ s: Symbol) -> Int {
        let sourceFile = project.files[s.file]
        return sourceFile.text.position(of: project.declaration(s).name.range.lowerBound, encoding: .scalars).line + 1
    }

    /// An escaped name as an argument label (where keywords need no backticks).
    func label(_ name: String) -> String {
        SwiftNames.label(name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name)
    }

    func argument(_ source: ProgramPlan.Source) -> String {
        switch source {
        case .environment(let name): return "\(env).\(name)"
        case .local(let item): return plan.name(item)
        }
    }

    /// The locals a builder's code reads (to bind only those of a screen's provisions).
    func locals(_ b: ProgramPlan.Builder) -> Set<ScopeItem> {
        var out = Set<ScopeItem>()
        func walk(_ b: ProgramPlan.Builder) {
            switch b {
            case .screen(_, let screen, _, let args, let nesting):
                for case .local(let local) in args { out.insert(local) }
                // What the screen provides, its nesting reads from the screen's own binding.
                if let nesting { out.formUnion(locals(nesting).subtracting(plan.screens[screen].provides)) }
            case .anyOf(_, let bs): bs.forEach(walk)
            case .conditional(_, _, let then, let otherwise):
                walk(then)
                walk(otherwise)
            case .ifLet(_, let source, let item, let then, let otherwise):
                if case .local(let local) = source { out.insert(local) }
                var inner = locals(then)
                inner.remove(item)
                out.formUnion(inner)
                if let otherwise { walk(otherwise) }
            case .ifScreen(_, _, let then, let otherwise):
                walk(then)
                if let otherwise { walk(otherwise) }
            case .wildcard(_, _, let body): walk(body)
            case .call(_, let function, _): out.formUnion(plan.functions[function].parameters)
            case .empty, .unreachable: break
            }
        }
        walk(b)
        return out
    }

    /// The path builder of a plan's builder.
    func code(_ builder: ProgramPlan.Builder) -> SwiftCode {
        switch builder {
        case .screen(_, let screen, let method, let arguments, let nesting):
            return screenCode(screen: screen, method: plan.contentMethods[method], arguments: arguments, nesting: nesting)
        case .anyOf(_, let branches):
            return anyOf(branches.map(code))
        case .conditional(_, let flag, let then, let otherwise):
            return .call("PathBuilders.if", [
                (nil, .closure(head: "", statements: [], result: .atom("\(env).\(flag)"))),
                ("then", code(then)),
                ("else", code(otherwise)),
            ])
        case .ifLet(_, let source, let item, let then, let otherwise):
            var args: [(label: String?, value: SwiftCode)] = [
                ("let", .closure(head: "", statements: [], result: .atom(argument(source)))),
                ("then", .closure(head: plan.name(item), statements: [], result: code(then))),
            ]
            if let otherwise { args.append(("else", code(otherwise))) }
            return .call("PathBuilders.if", args)
        case .ifScreen(_, let screen, let then, let otherwise):
            var args: [(label: String?, value: SwiftCode)] = [("screen", .closure(head: "(_: \(screenType(screen)))", statements: [], result: code(then)))]
            if let otherwise { args.append(("else", code(otherwise))) }
            return .call("PathBuilders.if", args)
        case .wildcard(_, let screen, let body):
            return .call("PathBuilders.wildcard", [("screen", .atom("\(screenType(screen))()")), ("pathBuilder", code(body))])
        case .empty:
            return .atom("PathBuilders.empty")
        case .unreachable(let node, let missing):
            let name = project.declaration(missing.symbol).name.text
            let what: String
            switch missing {
            case .provided: what = "without `\(name)`"
            case .unwrapped: what = "outside `if let \(name)`"
            }
            return .note("\(location(node)) is never built \(what)", .atom("PathBuilders.empty"))
        case .call(_, let function, let site):
            return callCode(plan.functions[function], site: site)
        }
    }

    /// `PathBuilders.screen` with the content method's view; when the screen provides values
    /// that its nesting reads, the nesting is built inside ComposableNavigator's `if screen`
    /// builder, where they are known.
    func screenCode(screen: Int, method: ProgramPlan.ContentMethod, arguments: [ProgramPlan.Source],
                    nesting: ProgramPlan.Builder?) -> SwiftCode {
        let type = screenType(screen)
        var call = "\(content).\(method.name)(screen"
        if let deps = method.depsType {
            let fields = zip(method.fields, arguments).map { "\(label($0.name)): \(argument($1))" }.joined(separator: ", ")
            call += ", using: \(ns).\(deps)(\(fields))"
        }
        call += ")"
        let provides = plan.screens[screen].provides
        let nestingCode = nesting.map(code)
        let bound = nesting.map { locals($0) } ?? []
        if !provides.isEmpty, provides.contains(where: bound.contains), let nestingCode {
            // The provided values are known once the screen is: the nesting is built
            // inside `if screen`, with them in scope.
            let pattern = ([plan.viewLocal] + provides.map { bound.contains($0) ? plan.name($0) : "_" }).joined(separator: ", ")
            let inner = SwiftCode.call("PathBuilders.screen", [
                ("content", .closure(head: "(_: \(type))", statements: [], result: .atom(plan.viewLocal))),
                ("nesting", nestingCode),
            ])
            return .call("PathBuilders.if", [
                ("screen", .closure(head: "(screen: \(type))", statements: ["let (\(pattern)) = \(call)"], result: inner)),
            ])
        }
        let view = provides.isEmpty ? call : call + ".\(method.viewLabel)"
        var args: [(label: String?, value: SwiftCode)] = [("content", .closure(head: "(screen: \(type))", statements: [], result: .atom(view)))]
        if let nestingCode { args.append(("nesting", nestingCode)) }
        return .call("PathBuilders.screen", args)
    }

    /// A call of a builder's function, built lazily and erased when it closes a cycle.
    func callCode(_ function: ProgramPlan.Function, site: Int) -> SwiftCode {
        let args = [env, content] + function.parameters.map { "\(label(plan.name($0))): \(plan.name($0))" }
        let call = SwiftCode.call(function.name, args.map { (label: nil, value: .atom($0)) })
        guard plan.recursiveCalls.contains(site) else { return call }
        // A builder that reaches itself again: built lazily (when an element is built,
        // not when the tree is made) and erased (its view type would contain itself).
        return .trailing("_PathBuilder", .closure(
            head: "element", statements: [], result: .suffix(call, ".eraseCircularNavigationPath().build(pathElement: element)")))
    }

    /// `anyOf` of any number of builders: groups of at most ten, nested, in order.
    func anyOf(_ items: [SwiftCode]) -> SwiftCode {
        if items.count == 1 { return items[0] }
        if items.count <= Self.anyOfLimit { return .call("PathBuilders.anyOf", items.map { (nil, $0) }) }
        var groups: [SwiftCode] = []
        var start = 0
        while start < items.count {
            let group = Array(items[start..<min(start + Self.anyOfLimit, items.count)])
            groups.append(anyOf(group))
            start += Self.anyOfLimit
        }
        return anyOf(groups)
    }
}
