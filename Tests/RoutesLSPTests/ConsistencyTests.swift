import Foundation
import RoutesJSON
import Testing
import TestSupport

/// A file's diagnostics are the same whether `routes lint` is given the file, its folder or the
/// whole workspace, and the same as the language server publishes for it: over the examples
/// and over generated workspaces of several apps sharing libraries.
@Suite struct ConsistencyTests {
    /// Per file (canonical path), its diagnostics as `rule range message` lines, sorted.
    typealias Findings = [String: [String]]

    static func lint(_ arguments: [String], in dir: URL) throws -> Findings {
        let process = Process()
        process.executableURL = LSPTestClient.binary
        process.arguments = ["lint", "--format", "json"] + arguments
        process.currentDirectoryURL = dir
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try JSON.parse(String(decoding: data, as: UTF8.self))
        var findings: Findings = [:]
        for file in json["files"]?.arrayValue ?? [] {
            guard let path = file["path"]?.stringValue else { continue }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : dir.appendingPathComponent(path)
            findings[url.resolvingSymlinksInPath().path] = (file["diagnostics"]?.arrayValue ?? []).map { d in
                "\(d["rule"]?.stringValue ?? "") \(JSON.serialize(d["range"] ?? .null)) \(d["message"]?.stringValue ?? "")"
            }.sorted()
        }
        return findings
    }

    /// Lints the workspace, each folder and each file, and asks the server: all agree on
    /// every file they report. The workspace's files lie in its folder `project` (a
    /// subfolder, when nothing marks the workspace: its parent is then a folder `routes` can
    /// be run in too). Each file is also linted with `--root` naming the project's folder,
    /// from elsewhere, and, for a project in a subfolder, from the parent folder.
    static func check(_ workspace: FeatureWorkspace, label: String, project: String = "") throws {
        let root = project.isEmpty ? workspace.root : workspace.root.appendingPathComponent(project)
        let whole = try lint(["."], in: root)
        let files = whole.keys.sorted()
        #expect(files.count >= 3, "\(label): \(files)")
        func agree(_ part: Findings, _ what: String) {
            for (path, list) in part {
                #expect(list == whole[path], "\(label), \(what): \(path)\n  alone: \(list)\n  whole: \(whole[path] ?? [])")
            }
        }
        var folders = Set<String>()
        for path in files {
            let relative = String(path.dropFirst(root.path.count + 1))
            agree(try lint([relative], in: root), "routes lint \(relative)")
            agree(try lint(["--root", root.path, path], in: URL(fileURLWithPath: "/")), "routes lint --root \(root.path) \(path)")
            if !project.isEmpty {
                agree(try lint(["\(project)/\(relative)"], in: workspace.root), "routes lint \(project)/\(relative) from the parent")
            }
            folders.insert((relative as NSString).deletingLastPathComponent)
        }
        for folder in folders.sorted() where !folder.isEmpty {
            agree(try lint([folder], in: root), "routes lint \(folder)")
        }
        // The editor: every file open, the last publication of each.
        let session = try FeatureSession(workspace)
        defer { session.stop() }
        let prefix = project.isEmpty ? "" : project + "/"
        for path in files { try session.open(prefix + String(path.dropFirst(root.path.count + 1))) }
        for path in files {
            let relative = prefix + String(path.dropFirst(root.path.count + 1))
            let published = (try session.diagnostics(relative) ?? []).map { d in
                "\(d["code"]?.stringValue ?? "") \(JSON.serialize(d["range"] ?? .null)) \(d["message"]?.stringValue ?? "")"
            }.sorted()
            #expect(published == whole[path], "\(label), the server: \(relative)\n  server: \(published)\n  lint: \(whole[path] ?? [])")
        }
        try session.finish()
    }

    @Test func theExamplesAgree() throws {
        var files: [String: String] = ["routes.json": "{}\n"]
        let examples = FeatureWorkspace.packageRoot.appendingPathComponent("Examples")
        for folder in ["Seed", "Shop", "TwoApps", "TwoApps/Shared"] {
            let dir = examples.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path)
            where name.hasSuffix(".routes") || name == "routes.json" {
                files["\(folder)/\(name)"] = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            }
        }
        try Self.check(try FeatureWorkspace(files), label: "examples")
    }

    @Test(arguments: UInt64(0)..<6)
    func generatedWorkspacesOfSeveralAppsAgree(_ seed: UInt64) throws {
        try Self.check(try FeatureWorkspace(Self.apps(seed: seed)), label: "seed \(seed)")
    }

    /// Without a routes.json (or a .git) the workspace is the folder `routes` runs in, or the
    /// one `--root` names: a library shared by several apps is still judged with every app
    /// of its folder, whichever file or folder is linted.
    @Test(arguments: UInt64(0)..<3)
    func unmarkedWorkspacesOfSeveralAppsAgree(_ seed: UInt64) throws {
        var files: [String: String] = [:]
        for (path, text) in Self.apps(seed: seed) where path != "routes.json" { files["apps/" + path] = text }
        try Self.check(try FeatureWorkspace(files), label: "unmarked, seed \(seed)", project: "apps")
    }

    /// Two libraries and three apps that import them and use what they declare at random:
    /// builders one app uses and another not, flags and screens no app uses, dependencies
    /// provided on some ways only, and a mistake or two.
    static func apps(seed: UInt64) -> [String: String] {
        var rng = SplitMix64(seed: seed)
        var files: [String: String] = ["routes.json": "{}\n"]
        for l in 0..<2 {
            var lines = (0..<5).map { "screen L\(l)S\($0)" }
            lines += ["dependency l\(l)Store: Store from L\(l)S0", "flag l\(l)Flag", "optional l\(l)Draft: Draft"]
            for b in 0..<4 {
                let a = rng.below(5), c = rng.below(5)
                switch rng.below(4) {
                case 0: lines.append("builder l\(l)b\(b) { screen L\(l)S\(a) uses l\(l)Store }")
                case 1: lines.append("builder l\(l)b\(b) { conditional l\(l)Flag { screen L\(l)S\(a) } else { screen L\(l)S\(c) } }")
                case 2: lines.append("builder l\(l)b\(b) { anyOf { screen L\(l)S\(a) screen L\(l)S\(c) } }")
                default: lines.append("builder l\(l)b\(b) { if let l\(l)Draft { screen L\(l)S\(a) uses l\(l)Draft } }")
                }
            }
            files["lib/Lib\(l).routes"] = lines.joined(separator: "\n") + "\n"
        }
        for a in 0..<3 {
            var lines: [String] = []
            let libs = (0..<2).filter { _ in rng.below(3) != 0 }
            for l in libs { lines.append("import \"../lib/Lib\(l).routes\"") }
            lines.append("screen A\(a)Home")
            var branches: [String] = []
            for l in libs {
                for b in 0..<4 where rng.below(2) == 0 { branches.append("l\(l)b\(b)") }
                if rng.below(2) == 0 { branches.append("screen L\(l)S0 { anyOf { l\(l)b\(rng.below(4)) empty } }") }
            }
            if branches.isEmpty { branches.append("empty") }
            lines.append("root { screen A\(a)Home { anyOf { \(branches.joined(separator: " ")) } } }")
            files["app\(a)/App\(a).routes"] = lines.joined(separator: "\n") + "\n"
        }
        return files
    }
}
