import Foundation
import PackagePlugin

/// Generates Swift from a target's `.routes` files on every build, with
/// `routes gen swift` (see docs/codegen.md): one `NAME.routes.swift` per `.routes` file,
/// in the plugin's work folder, compiled with the target. Add it to a package's target:
///
/// ```swift
/// .target(name: "App", dependencies: [...], plugins: [.plugin(name: "RoutesGenerator", package: "routes")])
/// ```
///
/// or, in Xcode, to an app target's "Run Build Tool Plug-ins" build phase.
@main
struct RoutesGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try Self.commands(
            inputs: target.sourceFiles(withSuffix: "routes").map(\.url),
            target: target.name,
            root: context.package.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named:)
        )
    }

    /// The command that generates the Swift of `inputs`, the target's `.routes` files
    /// (none when it has none). `root` is the folder that imports may not leave.
    static func commands(inputs: [URL], target: String, root: URL, workDirectory: URL,
                         tool: (String) throws -> PluginContext.Tool) throws -> [Command] {
        let inputs = inputs.sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let folder = workDirectory.appending(path: "GeneratedRoutes")
        // `routes gen swift` names each output after its input, so the outputs are known
        // before it runs: the build reruns it when an input changes, and compiles them all.
        let outputs = inputs.map { input -> URL in
            var name = input.lastPathComponent
            if name.hasSuffix(".routes") { name.removeLast(7) }
            return folder.appending(path: name + ".routes.swift")
        }
        // Absolute paths in, absolute paths in the errors (`/path/App.routes:12:5: error: ...`),
        // which Xcode shows in place.
        return [
            .buildCommand(
                displayName: "Generating Swift from the .routes files of \(target)",
                executable: try tool("routes").url,
                arguments: ["gen", "swift"] + inputs.map(\.path) + ["--out", folder.path, "--root", root.path],
                // The workspace's routes.json may choose the target (`swiftTarget`): a change
                // of it generates again.
                inputFiles: inputs + (FileManager.default.fileExists(atPath: root.appending(path: "routes.json").path)
                    ? [root.appending(path: "routes.json")] : []),
                outputFiles: outputs
            ),
        ]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// In an Xcode project: the `.routes` files that are members of the target; imports may
/// reach the whole folder of the project.
extension RoutesGenerator: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try Self.commands(
            inputs: target.inputFiles.map(\.url).filter { $0.pathExtension == "routes" },
            target: target.displayName,
            root: context.xcodeProject.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named:)
        )
    }
}
#endif
