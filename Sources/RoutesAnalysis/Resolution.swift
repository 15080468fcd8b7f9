import RoutesModel
import RoutesSyntax

// MARK: - Environments

// MARK: - Resolution results

// MARK: - Resolution

/// Concrete build semantics and path resolution (docs/language.md#how-a-path-is-built).
public enum Resolution {
    /// Resolves a path literal in a program under an environment. Throws when the literal
    /// names an unknown screen or label (see ``PathLiteral/validate(in:program:)``).
    public static func resolve(_ path: PathLiteral, program: Program, project: Project,
                               environment: ProgramEnvironment) throws(PathLiteralError) -> PathResolution {
        let screens = try path.validate(in: project, program: program)
        return resolve(screens: screens, texts: path.elements.map(\.text), program: program, project: project,
                       environment: environment)
    }

    /// Resolves a path given as screen declarations (`texts`: how to show each element;
    /// defaults to the screen names).
    public static func resolve(screens: [Symbol], texts: [String]? = nil, program: Program, project: Project,
                               environment: ProgramEnvironment) -> PathResolution {
        // In a program of several files, a path's reasons name the file of every place, the
        // root file's too: "`anyOf` at 23:11" could be in any of them.
        var evaluator = PathEvaluator(project: project, environment: environment.environment,
                                      home: program.files.count > 1 ? nil : program.root.file)
        let rootDecl = project.declaration(program.root)
        var start: NodeRef? = rootDecl.body.map { NodeRef(file: program.root.file, node: $0) }
        var previous: NodeRef? = nil  // the screen node that built the previous element
        var elements: [ElementResolution] = []
        var failed: (index: Int, text: String)? = nil
        for (index, screen) in screens.enumerated() {
            let name = project.declaration(screen).name.text
            let text = texts.flatMap { index < $0.count ? $0[index] : nil } ?? name
            var element = ElementResolution(screen: name, text: text)
            if let failed {
                element.reason = "not built, because element \(failed.index + 1) (\(failed.text)) was not built"
                elements.append(element)
                continue
            }
            guard let from = start else {
                element.reason = previous.map { "\(evaluator.describe($0)) has no nesting, so nothing is built after it" }
                    ?? "`root` has no builder (a syntax error), so it builds nothing"
                failed = (index, text)
                elements.append(element)
                continue
            }
            switch evaluator.build(from, element: screen) {
            case .built(let ref, let builtScreen, let via):
                let builtDeclaration = project.declaration(builtScreen)
                element.node = ref
                element.presentation = project.presentation(ofScreenNode: ref.node, in: ref.file, screen: builtScreen)
                if builtScreen != screen {
                    element.builtAs = builtDeclaration.name.text
                    element.wildcard = via
                }
                previous = ref
                if case .screen(_, _, let nesting) = project.files[ref.file].model.nodes[ref.node].kind {
                    start = nesting.map { NodeRef(file: ref.file, node: $0) }
                } else {
                    start = nil
                }
            case .nothing(let reason):
                element.reason = reason ?? evaluator.describeFailure(from, element: screen, after: previous)
                failed = (index, text)
            }
            elements.append(element)
        }
        return PathResolution(environment: environment, elements: elements)
    }

    /// `build(B, e, E)` (docs/language.md#how-a-path-is-built) for one builder node and one
    /// element.
    public static func build(_ node: NodeRef, element: Symbol, project: Project, environment: Environment,
                             home: FileID? = nil) -> BuildOutcome {
        var evaluator = PathEvaluator(project: project, environment: environment, home: home ?? node.file)
        return evaluator.build(node, element: element)
    }
}
