import RoutesAnalysis
import RoutesJSON
import RoutesModel
import RoutesSyntax

/// The JSON shapes of README.md (`routes tree`, JSON shapes), shared by
/// `routes tree --format json` and the language server's `routes/preview`.
///
/// Paths are written by a caller-supplied function (the CLI shows paths as given, the
/// language server may prefer URIs); by default, each file's display path.
public enum TreeJSON {
    public typealias PathWriter = @Sendable (SourceFile) -> String

    public static let displayPath: PathWriter = { $0.displayPath }

    /// `{"path", "range"}` of a byte range in a file.
    public static func location(file: FileID, range r: Range<Int>, project: Project,
                                path: PathWriter = displayPath, encoding: PositionEncoding = .utf16) -> JSONValue {
        let sourceFile = project.files[file]
        return ["path": .string(path(sourceFile)), "range": JSONPositions.range(r, in: sourceFile.text, encoding: encoding)]
    }

    /// The location of a builder node: its head (`screen Home`, `anyOf`).
    public static func location(_ node: NodeRef, project: Project, path: PathWriter = displayPath,
                                encoding: PositionEncoding = .utf16) -> JSONValue {
        location(file: node.file, range: project.files[node.file].model.nodes[node.node].head, project: project, path: path,
                 encoding: encoding)
    }

    /// `"push"`, `"sheet"`, `"sheetNoPush"`, `"cover"`, `"coverNoPush"`, `"popover"` or `"popoverNoPush"`.
    public static func presentation(_ p: Presentation) -> JSONValue { .string(p.rawValue) }

    /// One tree node (and its subtree):
    /// `{"kind", "name"?, "label"?, "presentation"? (screens), "uses" (screens), "location",
    /// "children", "truncated"? (descendants cut by the limits)}`. Keys that do not apply
    /// are left out.
    public static func tree(_ tree: RoutingTree, project: Project, path: PathWriter = displayPath,
                            encoding: PositionEncoding = .utf16) -> JSONValue {
        guard !tree.nodes.isEmpty else { return .null }
        // Children come after their parent in pre-order: build from the end, no recursion.
        var built = [JSONValue?](repeating: nil, count: tree.nodes.count)
        for index in tree.nodes.indices.reversed() {
            let node = tree.nodes[index]
            var object: JSONObject = ["kind": .string(node.kind.rawValue)]
            if let name = node.name { object["name"] = .string(name) }
            if let label = node.label { object["label"] = .string(label) }
            if node.kind == .screen {
                if let style = node.presentation { object["presentation"] = presentation(style) }
                object["uses"] = .array(node.uses.map { .string($0) })
            }
            object["location"] = location(file: node.file, range: node.range, project: project, path: path, encoding: encoding)
            var children: [JSONValue] = []
            children.reserveCapacity(node.children.count)
            for child in node.children {
                children.append(built[child]!)
                built[child] = nil
            }
            object["children"] = .array(children)
            if node.omitted > 0 { object["truncated"] = .int(Int64(node.omitted)) }
            built[index] = .object(object)
        }
        return built[0]!
    }

    /// `{"flags": {name: bool}, "optionals": {name: bool}}` (optionals: `true` = present).
    public static func environment(_ env: ProgramEnvironment) -> JSONValue {
        [
            "flags": .object(JSONObject(env.flags.map { ($0.name, .bool($0.value)) })),
            "optionals": .object(JSONObject(env.optionals.map { ($0.name, .bool($0.value)) })),
        ]
    }

    /// `{"environment": {...}, "elements": [{"screen", "built", "node", "presentation",
    /// "reason"?, "builtAs"?}]}`: `node` and `presentation` are null when not built, `reason`
    /// only when not built, `builtAs` only when a `wildcard` replaced the element by another
    /// screen.
    public static func resolution(_ r: PathResolution, project: Project, path: PathWriter = displayPath,
                                  encoding: PositionEncoding = .utf16) -> JSONValue {
        let elements: [JSONValue] = r.elements.map { e in
            var object: JSONObject = [
                "screen": .string(e.screen),
                "built": .bool(e.built),
                "node": e.node.map { location($0, project: project, path: path, encoding: encoding) } ?? .null,
                "presentation": e.presentation.map(presentation) ?? .null,
            ]
            if let reason = e.reason { object["reason"] = .string(reason) }
            if let builtAs = e.builtAs { object["builtAs"] = .string(builtAs) }
            return .object(object)
        }
        return ["environment": environment(r.environment), "elements": .array(elements)]
    }
}
