@testable import RoutesCodegen
import RoutesModel

/// Swift that drives generated code in the differential test: for each program, an
/// environment and a content that record what is built (the content method called, which
/// names its node, the screen, its presentation, the dependencies received), and a table to
/// resolve paths by name. Values are strings that say where they come from: `env:name` from
/// the environment, `name@Screen#index` from the screen that provided them.
enum Harness {
    /// Shared by every program of the executable: the walk along a path, as the library's
    /// `Root` and `NavigationNode` build it, and `main`.
    static func common(_ programs: [GeneratedProgram]) -> String {
        var lines = ["@_spi(Inspection) import ComposableNavigator", "import SwiftUI", ""]
        lines.append("""
            /// A view made by a content method (which the library calls outside the main
            /// actor): its stored properties are `Sendable`, so that its memberwise
            /// initializer is nonisolated, as an app's views must be.
            struct Recorded: View {
                let method: Int
                let screen: String
                let style: String
                let values: [String: String]

                var body: some View {
                    Text(verbatim: screen)
                }
            }

            func harnessStyleName(_ style: ScreenPresentationStyle) -> String {
                switch style {
                case .push: return "push"
                case .sheet(allowsPush: true): return "sheet"
                case .sheet(allowsPush: false): return "sheetNoPush"
                }
            }

            /// One line per element: `method screen presentation name=value,...`, or `-` when
            /// it is not built.
            func walk(_ root: @escaping (AnyScreen) -> Any?, _ path: [AnyScreen]) -> [String] {
                var build = root
                var out: [String] = []
                for element in path {
                    guard let view = build(element), let node = inspect(view), let r = node.content as? Recorded else {
                        out.append("-")
                        build = { _ in nil }
                        continue
                    }
                    let values = r.values.sorted { $0.key < $1.key }.map { "\\($0.key)=\\($0.value)" }.joined(separator: ",")
                    out.append("\\(r.method) \\(r.screen) \\(r.style) \\(values)")
                    build = node.buildSuccessor
                }
                return out
            }

            typealias Resolve = (_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) -> [String]
            """)
        lines.append("let programs: [Resolve] = [" + programs.map { "\(harnessName($0)).resolve" }.joined(separator: ", ") + "]")
        lines.append("""

            // A query a line: `program flags optionals path`, with flags and optionals as
            // name=0|1 lists (`-` for none) and the path as Screen#index,... The answer: the
            // elements, separated by ` | `.
            while let line = readLine() {
                let parts = line.split(separator: " ").map(String.init)
                func assignments(_ s: String) -> [String: Bool] {
                    s == "-" ? [:] : Dictionary(uniqueKeysWithValues: s.split(separator: ",").map {
                        let kv = $0.split(separator: "=")
                        return (String(kv[0]), kv[1] == "1")
                    })
                }
                let path = parts[3].split(separator: ",").map { e -> (String, Int) in
                    let kv = e.split(separator: "#")
                    return (String(kv[0]), Int(kv[1])!)
                }
                print(programs[Int(parts[0])!](assignments(parts[1]), assignments(parts[2]), path).joined(separator: " | "))
            }
            """)
        return lines.joined(separator: "\n") + "\n"
    }

    static func harnessName(_ g: GeneratedProgram) -> String { g.namespace + "Harness" }

    /// The environment, content and path table of one program (all its values `String`).
    static func program(_ g: GeneratedProgram) -> String {
        let plan = g.plan, project = g.project
        func name(_ s: Symbol) -> String { project.declaration(s).name.text }
        var lines = ["import ComposableNavigator", "import SwiftUI", "", "enum \(harnessName(g)) {"]
        lines.append("    final class Environment: \(plan.environmentProtocol) {")
        lines.append("        var flags: [String: Bool] = [:]")
        lines.append("        var optionals: [String: Bool] = [:]")
        for m in plan.environment {
            let d = project.declaration(m.symbol)
            switch d.kind {
            case .flag: lines.append("        var \(m.name): Bool { flags[\"\(d.name.text)\"]! }")
            case .optional: lines.append("        var \(m.name): String? { optionals[\"\(d.name.text)\"]! ? \"env:\(d.name.text)\" : nil }")
            default: lines.append("        var \(m.name): String { \"env:\(d.name.text)\" }")
            }
        }
        lines.append("    }")
        lines.append("")
        lines.append("    struct Content: \(plan.contentProtocol) {")
        lines.append("        let environment: Environment")
        for (k, m) in plan.contentMethods.enumerated() {
            let s = plan.screens[m.screen]
            let index = s.parameters.isEmpty ? "?" : "\\(screen.i)"
            let screenName = name(s.symbol)
            var params = "_ screen: \(plan.namespace).\(s.typeName)"
            if let deps = m.depsType { params += ", using deps: \(plan.namespace).\(deps)" }
            let values = m.fields.map { "\"\(name($0.symbol))\": deps.\($0.name)" }
            let recorded = "Recorded(method: \(k), screen: \"\(screenName)\", style: harnessStyleName(screen.presentationStyle), values: [\(values.isEmpty ? ":" : values.joined(separator: ", "))])"
            if s.provides.isEmpty {
                lines.append("        func \(m.name)(\(params)) -> Recorded { \(recorded) }")
            } else {
                let types = s.provides.map { "\(plan.name($0)): \(plan.itemTypes[$0]!)" }.joined(separator: ", ")
                let provided = s.provides.map { item -> String in
                    let n = name(item.symbol)
                    let value = "\"\(n)@\(screenName)#\(index)\""
                    return project.declaration(item.symbol).kind == .optional
                        ? "environment.optionals[\"\(n)\"]! ? \(value) : nil" : value
                }
                lines.append("        func \(m.name)(\(params)) -> (\(m.viewLabel): Recorded, \(types)) {")
                lines.append("            (\(recorded), \(provided.joined(separator: ", ")))")
                lines.append("        }")
            }
        }
        lines.append("    }")
        lines.append("")
        lines.append("    static func element(_ name: String, _ index: Int) -> AnyScreen {")
        lines.append("        switch name {")
        for s in plan.screens {
            let args = s.parameters.isEmpty ? "" : "i: index"
            lines.append("        case \"\(name(s.symbol))\": return \(plan.namespace).\(s.typeName)(\(args)).eraseToAnyScreen()")
        }
        lines.append("        default: fatalError(name)")
        lines.append("        }")
        lines.append("    }")
        lines.append("")
        lines.append("    static func resolve(_ flags: [String: Bool], _ optionals: [String: Bool], _ path: [(String, Int)]) -> [String] {")
        lines.append("        let environment = Environment()")
        lines.append("        environment.flags = flags")
        lines.append("        environment.optionals = optionals")
        lines.append("        let root = \(plan.namespace).root(environment: environment, content: Content(environment: environment))")
        lines.append("        return walk({ root.build(pathElement: $0).map { $0 as Any } }, path.map { element($0.0, $0.1) })")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
