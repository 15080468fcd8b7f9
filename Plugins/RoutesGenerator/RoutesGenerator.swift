import Foundation
import PackagePlugin

/// Generates Swift from a target's `.routes` files on every build, with
/// `routes gen swift` (see docs/codegen.md): one `NAME.routes.swift` per `.routes` file,
/// in the plugin's work folder, compiled with the target. Add it to a target:
///
/// ```swift
/// .target(name: "App", dependencies: [...], plugins: [.plugin(name: "RoutesGenerator", package: "routes")])
/// ```
@main
struct RoutesGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "routes").map(\.url).sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let folder = context.pluginWorkDirectoryURL.appending(path: "GeneratedRoutes")
        // `routes gen swift` names each output after its input, so the outputs are known
        // before it runs: the build reruns it when an input changes, and compiles them all.
        let outputs = inputs.map { input -> URL in
            var name = input.lastPathComponent
            if name.hasSuffix(".routes") { name.removeLast(7) }
            return folder.appending(path: name + ".routes.swift")
        }
        return [
            .buildCommand(
                displayName: "Generating Swift from the .routes files of \(target.name)",
                executable: try context.tool(named: "routes").url,
                arguments: ["gen", "swift"] + inputs.map(\.path)
                    + ["--out", folder.path, "--root", context.package.directoryURL.path],
                inputFiles: inputs,
                outputFiles: outputs
            ),
        ]
    }
}
