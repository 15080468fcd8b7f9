import RoutesAnalysis
import RoutesModel

/// The parts of the SwiftUI target that show a path: the navigator that holds it, the
/// builders that make each element's view with exactly the values in scope where it is built
/// (as the ComposableNavigator target's path builders do, with the same environment and
/// content protocols), and the views: consecutive pushes share one `NavigationStack`, a
/// sheet, cover or popover is presented from the element before it with a stack of its own.
extension SwiftUITarget {
    /// Local names of the generated closures, clear of every name of the program.
    struct Locals {
        var element: String
        var screen: String
        var branch: String

        init(plan: ProgramPlan, project: Project) {
            var taken = Set<String>()
            for file in plan.program.files {
                for d in project.files[file].model.declarations {
                    taken.insert(d.name.text)
                    taken.insert(d.name.text + "OrNil")
                }
            }
            taken.formUnion([plan.environmentParameter, plan.contentParameter, plan.viewLocal])
            element = Planner.allocate("element", avoiding: taken)
            screen = Planner.allocate("screen", avoiding: taken)
            branch = Planner.allocate("branch", avoiding: taken)
        }
    }

    var navigatorType: String { "\(ns)Navigator" }
    var viewsType: String { "\(ns)Views" }

    /// What both targets write alike, and their shared helpers (argument labels, the values
    /// a builder reads, where a value comes from).
    var shared: ComposableNavigatorTarget { ComposableNavigatorTarget(plan: plan, project: project, access: access) }

    /// The environment and content protocols, as the ComposableNavigator target writes them:
    /// an app switches target without rewriting its views.
    func protocols() -> [String] {
        shared.environmentProtocol() + [""] + shared.contentProtocol()
    }

    func dependencyStructs() -> [String] { shared.dependencyStructs() }

    // MARK: The navigator

    func navigator() -> [String] {
        let element = "\(ns).Element"
        return """
            // MARK: - The navigator

            /// The navigation path of \(plan.rootPath), which its views observe: what the app navigates
            /// to. The views show the part of it that the routing tree builds (see `\(ns).resolve`),
            /// and a back gesture or a swipe that dismisses a sheet shortens it.
            @MainActor \(modifier)final class \(navigatorType): ObservableObject {
                /// The elements, from the first (the root screen).
                @Published \(modifier)var path: [\(element)]

                \(modifier)init(path: [\(element)] = []) {
                    self.path = path
                }

                /// Appends `element` to the path.
                \(modifier)func go(to element: \(element)) {
                    path.append(element)
                }

                /// Appends `elements` to the path.
                \(modifier)func go(to elements: [\(element)]) {
                    path.append(contentsOf: elements)
                }

                /// Shows `element` after the element at `index`, in place of what followed it.
                \(modifier)func go(to element: \(element), after index: Int) {
                    go(to: [element], after: index)
                }

                /// Shows `elements` after the element at `index`, in place of what followed it.
                \(modifier)func go(to elements: [\(element)], after index: Int) {
                    guard index >= 0 && index < path.count else { return }
                    path.replaceSubrange((index + 1)..., with: elements)
                }

                /// Goes back to the last occurrence of `element`: drops what follows it (nothing
                /// when the path does not contain it).
                \(modifier)func goBack(to element: \(element)) {
                    guard let index = path.lastIndex(of: element) else { return }
                    path.removeSubrange((index + 1)...)
                }

                /// Replaces the whole path.
                \(modifier)func replace(path: [\(element)]) {
                    self.path = path
                }

                /// Dismisses the element at `index` and everything after it.
                \(modifier)func dismiss(at index: Int) {
                    guard index >= 0 && index < path.count else { return }
                    path.removeSubrange(index...)
                }

                /// Dismisses the last occurrence of `element` and everything after it.
                \(modifier)func dismiss(_ element: \(element)) {
                    if let index = path.lastIndex(of: element) { dismiss(at: index) }
                }

                /// Dismisses what follows the element at `index`.
                \(modifier)func dismissSuccessors(of index: Int) {
                    guard index >= 0 && index + 1 < path.count else { return }
                    path.removeSubrange((index + 1)...)
                }

                /// What the `NavigationStack` of a stack binds: the indices of the shown elements pushed
                /// on the one at `root`. Set shorter (a back gesture), the path loses what follows.
                subscript(pushedOn root: Int, count count: Int) -> [Int] {
                    get { Array((root + 1)..<(root + count)) }
                    set { dismissSuccessors(of: root + newValue.count) }
                }

                /// What a sheet, cover or popover binds: the stack it presents (which starts at the shown
                /// element `start`) while `shows`. Set to nil (a swipe down), the path loses it and what
                /// follows.
                subscript(presenting segment: Int, at start: Int, shows shows: Bool) -> \(ns)Presented? {
                    get { shows ? \(ns)Presented(segment: segment) : nil }
                    set { if newValue == nil && shows { dismiss(at: start) } }
                }
            }
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: The views

    /// A parameter `label name: Type`, or `name: Type` when they are the same.
    func labelled(_ label: String, _ name: String, _ type: String) -> String {
        label == name ? "\(name): \(type)" : "\(label) \(name): \(type)"
    }

    func views() -> [String] {
        let env = plan.environmentParameter, content = plan.contentParameter
        let generics = "<\(plan.environmentGeneric): \(plan.environmentProtocol), \(plan.contentGeneric): \(plan.contentProtocol)>"
        let short = "<\(plan.environmentGeneric), \(plan.contentGeneric)>"
        var out = """
            // MARK: - The views

            extension \(ns) {
                /// The navigation of \(plan.rootPath): give it the navigator, the environment and the content.
                /// It shows the part of the navigator's path that the routing tree builds under the
                /// environment, and shows it again whenever the path changes; when a flag or an optional
                /// changes, make the view that holds it draw again (observe the environment there).
                @MainActor \(modifier)struct RootView\(generics): View {
                    @ObservedObject \(modifier)var navigator: \(navigatorType)
                    \(modifier)let \(env): \(plan.environmentGeneric)
                    \(modifier)let \(content): \(plan.contentGeneric)

                    \(modifier)init(navigator: \(navigatorType), \(labelled("environment", env, plan.environmentGeneric)), \(labelled("content", content, plan.contentGeneric))) {
                        self.navigator = navigator
                        self.\(env) = \(env)
                        self.\(content) = \(content)
                    }

                    \(modifier)var body: some View {
                        let shown = \(viewsType)\(short)(\(env): \(env), \(content): \(content)).show(navigator.path)
                        return \(ns)StackView(shown: shown, segment: 0, navigator: navigator)
                    }
                }
            }

            /// One element shown: the node that built it and its view.
            struct \(ns)Shown {
                let node: \(ns).Node
                let view: AnyView
            }

            /// A sheet, cover or popover shown from the stack before it: the part of the shown
            /// elements it presents.
            struct \(ns)Presented: Identifiable, Hashable {
                let segment: Int
                var id: Int { segment }
            }

            /// The elements of one stack: the first, presented (or the root), and those pushed on it.
            @MainActor struct \(ns)StackView: View {
                let shown: [\(ns)Shown]
                let segment: Int
                @ObservedObject var navigator: \(navigatorType)

                /// The shown elements by stack: a new one at the root and at each sheet, cover or popover.
                var segments: [Range<Int>] {
                    var starts: [Int] = []
                    for (index, element) in shown.enumerated() where index == 0 || element.node.presentation != .push {
                        starts.append(index)
                    }
                    return starts.enumerated().map { k, start in start..<(k + 1 < starts.count ? starts[k + 1] : shown.count) }
                }

                var body: some View {
                    let segments = self.segments
                    if segment < segments.count {
                        let next = segment + 1 < segments.count ? shown[segments[segment + 1].lowerBound].node.presentation : nil
                        stack(segments[segment])
                            .sheet(item: presented(next, { if case .sheet = $0 { return true } else { return false } })) {
                                \(ns)StackView(shown: shown, segment: $0.segment, navigator: navigator)
                            }
                            .fullScreenCover(item: presented(next, { if case .cover = $0 { return true } else { return false } })) {
                                \(ns)StackView(shown: shown, segment: $0.segment, navigator: navigator)
                            }
                            .popover(item: presented(next, { if case .popover = $0 { return true } else { return false } })) {
                                \(ns)StackView(shown: shown, segment: $0.segment, navigator: navigator)
                            }
                    }
                }

                /// The stack of a segment: its first element, with those pushed on it; only the first
                /// when it allows no pushes.
                @ViewBuilder func stack(_ range: Range<Int>) -> some View {
                    let first = shown[range.lowerBound]
                    if first.node.presentation.allowsPush {
                        let shown = self.shown
                        NavigationStack(path: $navigator[dynamicMember: \\.[pushedOn: range.lowerBound, count: range.count]]) {
                            first.view.navigationDestination(for: Int.self) { shown[$0].view }
                        }
                    } else {
                        first.view
                    }
                }

                /// The next segment while it is shown with the given style; set to nil (a swipe
                /// down), the navigator drops it and what follows.
                func presented(_ next: \(ns).Presentation?, _ style: (\(ns).Presentation) -> Bool) -> Binding<\(ns)Presented?> {
                    let shows = next.map(style) ?? false
                    let segment = self.segment + 1
                    let start = segments.indices.contains(segment) ? segments[segment].lowerBound : shown.count
                    return $navigator[dynamicMember: \\.[presenting: segment, at: start, shows: shows]]
                }
            }

            extension \(ns).Presentation {
                /// Whether screens can be pushed on the stack of the element it presents.
                \(modifier)var allowsPush: Bool {
                    switch self {
                    case .push: return true
                    case .sheet(let allowsPush), .cover(let allowsPush), .popover(let allowsPush): return allowsPush
                    }
                }
            }
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        out.append("")
        out += builders()
        return out
    }

    // MARK: The builders with values

    /// `\(ns)Views`: one function per function of the plan, which returns the builder of its
    /// body with the values it takes in scope; each builder makes the view of the element it
    /// builds with the content method of its node and the values its `uses` names.
    func builders() -> [String] {
        let env = plan.environmentParameter, content = plan.contentParameter
        let locals = Locals(plan: plan, project: project)
        var out = [
            "/// The routing tree of \(plan.rootPath) with the values it passes to the views (not part of the API).",
            "@MainActor struct \(viewsType)<\(plan.environmentGeneric): \(plan.environmentProtocol), \(plan.contentGeneric): \(plan.contentProtocol)> {",
            "    typealias Builder = (\(ns).Element) -> Outcome",
            "",
            "    /// The node that built an element, its view, and the builder of the next one; or nothing.",
            "    enum Outcome {",
            "        case built(\(ns).Node, AnyView, Builder?)",
            "        case nothing",
            "    }",
            "",
            "    let \(env): \(plan.environmentGeneric)",
            "    let \(content): \(plan.contentGeneric)",
            "",
            "    /// The elements of `path` that the routing tree builds, up to the first it does not, or",
            "    /// the first pushed where nothing can be pushed (after a sheet, cover or popover that",
            "    /// allows no pushes, which `push-in-sheet` reports).",
            "    func show(_ path: [\(ns).Element]) -> [\(ns)Shown] {",
            "        var shown: [\(ns)Shown] = []",
            "        var builder: Builder? = f0()",
            "        var canPush = true",
            "        for \(locals.element) in path {",
            "            guard let build = builder, case .built(let node, let view, let next) = build(\(locals.element)) else { break }",
            "            if node.presentation != .push || shown.isEmpty {",
            "                canPush = node.presentation.allowsPush",
            "            } else if !canPush {",
            "                break",
            "            }",
            "            shown.append(\(ns)Shown(node: node, view: view))",
            "            builder = next",
            "        }",
            "        return shown",
            "    }",
        ]
        for (k, function) in plan.functions.enumerated() {
            out.append("")
            let params = function.parameters.map { item -> String in
                let escaping = plan.itemIsFunction[item] == true ? "@escaping " : ""
                return "\(plan.name(item)): \(escaping)\(plan.itemTypes[item]!)"
            }.joined(separator: ", ")
            if let builder = function.builder {
                out.append("    /// `builder \(project.declaration(builder).name.text)`.")
            } else {
                out.append("    /// `root`.")
            }
            out.append("    func f\(k)(\(params)) -> Builder {")
            let body = closure(function.body, locals)
            out += body.map { "        " + $0 }
            out.append("    }")
        }
        out.append("}")
        return out
    }

    /// The builder of `builder` as a closure expression (lines; the first starts the closure).
    func closure(_ builder: ProgramPlan.Builder, _ l: Locals) -> [String] {
        let e = l.element
        func indented(_ lines: [String]) -> [String] { lines.map { "    " + $0 } }
        /// A closure whose body is `lines`.
        func wrap(_ lines: [String]) -> [String] { ["{ (\(e): \(ns).Element) -> Outcome in"] + indented(lines) + ["}"] }
        /// `name = <closure>` written over lines.
        func bind(_ name: String, _ code: [String]) -> [String] {
            var lines = code
            lines[0] = "let \(name): Builder = " + lines[0]
            return lines
        }
        /// A decision: `test`'s block builds with `then`, else `otherwise` (nothing without one).
        func decision(_ test: String, _ then: ProgramPlan.Builder, _ otherwise: ProgramPlan.Builder?) -> [String] {
            var lines = [test + " {"] + indented(bind(l.branch, closure(then, l)) + ["return \(l.branch)(\(e))"]) + ["}"]
            if let otherwise {
                lines += bind(l.branch, closure(otherwise, l)) + ["return \(l.branch)(\(e))"]
            } else {
                lines.append("return .nothing")
            }
            return wrap(lines)
        }
        switch builder {
        case .screen(let node, let screen, let methodIndex, let arguments, let nesting):
            let method = plan.contentMethods[methodIndex]
            var call = "\(plan.contentParameter).\(method.name)(\(l.screen)"
            if let deps = method.depsType {
                let fields = zip(method.fields, arguments).map { "\(shared.label($0.name)): \(shared.argument($1))" }.joined(separator: ", ")
                call += ", using: \(ns).\(deps)(\(fields))"
            }
            call += ")"
            let provides = plan.screens[screen].provides
            var lines = ["guard case .\(caseNames[screen])(let \(l.screen)) = \(e) else { return .nothing }"]
            if provides.isEmpty {
                lines.append("let \(plan.viewLocal) = \(call)")
            } else {
                let bound = nesting.map { shared.locals($0) } ?? []
                let pattern = ([plan.viewLocal] + provides.map { bound.contains($0) ? plan.name($0) : "_" }).joined(separator: ", ")
                lines.append("let (\(pattern)) = \(call)")
            }
            let node = "\(buildType).nodes[\(nodeID(node))]"
            if let nesting {
                lines += bind(l.branch, closure(nesting, l))
                lines.append("return .built(\(node), AnyView(\(plan.viewLocal)), \(l.branch))")
            } else {
                lines.append("return .built(\(node), AnyView(\(plan.viewLocal)), nil)")
            }
            return wrap(lines)
        case .anyOf(_, let branches):
            var lines: [String] = []
            for (i, b) in branches.enumerated() {
                lines += bind("\(l.branch)\(i)", closure(b, l))
                lines.append("if case .built(let node, let view, let next) = \(l.branch)\(i)(\(e)) { return .built(node, view, next) }")
            }
            lines.append("return .nothing")
            return wrap(lines)
        case .conditional(_, let flag, let then, let otherwise):
            var lines = bind("\(l.branch)0", closure(then, l)) + bind("\(l.branch)1", closure(otherwise, l))
            lines.append("return \(plan.environmentParameter).\(flag) ? \(l.branch)0(\(e)) : \(l.branch)1(\(e))")
            return wrap(lines)
        case .ifLet(_, let source, let item, let then, let otherwise):
            // Bound only where the then-block reads it (no unused value).
            let value = shared.argument(source)
            return decision(shared.locals(then).contains(item) ? "if let \(plan.name(item)) = \(value)" : "if \(value) != nil", then, otherwise)
        case .ifScreen(_, let screen, let then, let otherwise):
            return decision("if case .\(caseNames[screen]) = \(e)", then, otherwise)
        case .wildcard(_, let screen, let body):
            return wrap(bind(l.branch, closure(body, l)) + ["return \(l.branch)(\(element(screen)))"])
        case .empty, .unreachable:
            return ["{ (_: \(ns).Element) -> Outcome in .nothing }"]
        case .call(_, let function, _):
            let args = plan.functions[function].parameters.map { "\(shared.label(plan.name($0))): \(plan.name($0))" }
            return ["f\(function)(\(args.joined(separator: ", ")))"]
        }
    }
}
