import RoutesAnalysis
import RoutesIDE
import RoutesModel
import RoutesSyntax

#if canImport(Glibc)
import Glibc
#endif

/// Times the phases of the pipeline in process (release build), so that optimisation work
/// knows where the time goes: `ROUTES_BENCH=1 swift run -c release routes-pipeline FILE…`.
/// Prints the median of 9 runs of each phase. Given the files of a workspace of many files
/// (`Benchmarks/generate.py` without `--single-file`), also the edits of
/// `Benchmarks/workspace_bench.py` in process. For profiling those:
/// `ROUTES_PIPELINE_EDITS_ONLY=1` runs only them, `ROUTES_PIPELINE_EDIT=uses|rename` only one
/// of them, `ROUTES_PIPELINE_EDITS=N` makes N edits (default 21), `ROUTES_PIPELINE_NOREUSE=1`
/// analyses each edited project afresh.
@main
struct PipelineBench {
    static func median(_ f: () -> Void) -> Double {
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<9 {
            let d = clock.measure(f)
            times.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
        }
        return times.sorted()[times.count / 2]
    }

    static func main() {
        let paths = Array(CommandLine.arguments.dropFirst())
        let fs = FileSystemProvider()
        let entries = paths.enumerated().compactMap { i, p -> ProjectEntry? in
            guard let c = fs.canonicalPath(p) else { return nil }
            return ProjectEntry(canonicalPath: c, displayPath: p, group: i, workspaceRoot: "/")
        }
        if getenv("ROUTES_PIPELINE_EDITS_ONLY") != nil {
            workspaceEdits(entries: entries, provider: fs)
            return
        }
        // The first analysis in a fresh process (what a language server's first open pays).
        let clock = ContinuousClock()
        var coldSession: AnalysisSession? = nil
        let cold = clock.measure { coldSession = AnalysisSession.forEditor(project: Project(entries: entries, provider: fs)) }
        let warm = clock.measure { coldSession = AnalysisSession.forEditor(project: Project(entries: entries, provider: fs)) }
        if let s = coldSession { print("graph nodes per program: \(s.programNodeCounts), decision-diagram nodes per manager: \(s.decisionNodeCounts)") }
        print("first project + analysis in this process: \(fmt(ms(cold))), the second: \(fmt(ms(warm)))")
        let texts = entries.map { SourceText(bytes: (try? fs.read($0.canonicalPath).get()) ?? []) }
        var trees: [SyntaxTree] = []
        let lex = median { for t in texts { _ = Lexer.tokenize(t) } }
        let parse = median { trees = texts.map { SyntaxTree.parse($0) } }
        let lower = median { for t in trees { _ = Lowering.lower(t) } }
        var project: Project? = nil
        let load = median { project = Project(entries: entries, provider: fs) }
        let analyse = median { _ = AnalysisSession.forEditor(project: project!) }
        let lines = texts.reduce(0) { $0 + $1.lineStarts.count }
        print("\(lines) lines: lex \(fmt(lex)), parse (incl. lex) \(fmt(parse)), lower \(fmt(lower)), project (read+parse+lower+resolve) \(fmt(load)), analysis session \(fmt(analyse))")
        // Typing a character at the end of the first `dependency` line (a type name), as
        // Benchmarks/lsp_bench.py does: the declaration is parsed again alone.
        let session = AnalysisSession.forEditor(project: project!)
        if let file = session.project.files.first {
            let b = file.text.bytes
            let needle = Array("\ndependency ".utf8)
            if let at = (0..<(b.count - needle.count)).first(where: { Array(b[$0..<($0 + needle.count)]) == needle }),
               let eol = b[(at + 1)...].firstIndex(of: 0x0A) {
                var bytes = b
                bytes.insert(UInt8(ascii: "X"), at: eol)
                let text = SourceText(bytes: bytes)
                var edit: ProjectDeclarationEdit? = nil
                let t = median { edit = session.project.applyingDeclarationEdit(file: file.id, range: eol..<eol, replacement: [UInt8(ascii: "X")], newSource: text) }
                let moved = median { _ = AnalysisSession.forEditor(project: project!).rebased(onto: edit!.project!, file: file.id, edit: edit!.shift,
                                                                                                       relinking: edit!.changesLinks) }
                print("edit in a type: declaration edit \(fmt(t)) (resolved alone: \(edit?.project != nil), analysis kept: \(edit?.keepsAnalysis == true)); a new session plus its move \(fmt(moved))")
            }
        }
        if session.project.files.count > 1 { workspaceEdits(entries: entries, provider: fs) }
        // Completion after the first `uses ` (what Benchmarks/lsp_bench.py asks for).
        let needle = Array("uses ".utf8)
        for file in session.project.files {
            let b = file.text.bytes
            guard let at = (0..<(b.count - needle.count)).first(where: { Array(b[$0..<($0 + needle.count)]) == needle }) else { continue }
            var items: [CompletionItem] = []
            let first = ContinuousClock().measure { items = IDE.completions(session: session, file: file.id, offset: at + needle.count, snippets: false) }
            let again = median { items = IDE.completions(session: session, file: file.id, offset: at + needle.count, snippets: false) }
            print("completion after `uses `: \(items.count) items, first \(fmt(Double(first.components.attoseconds) / 1e15)), then \(fmt(again))")
            break
        }
    }

    /// The edits of Benchmarks/workspace_bench.py in process, in a program of many files: an
    /// `X` typed at the end of a `uses` line inside a builder of the middle feature file (a
    /// declaration edit: the program is analysed again), and at the end of a screen's name in
    /// its declaration (a new snapshot: names resolved again, the program analysed again).
    static func workspaceEdits(entries: [ProjectEntry], provider: FileSystemProvider) {
        let base = AnalysisSession.forEditor(project: Project(entries: entries, provider: provider))
        let features = base.project.files.filter { $0.path.contains("/Features") }.sorted { $0.path < $1.path }
        guard !features.isEmpty else { return }
        let file = features[features.count / 2]
        let lines = String(decoding: file.text.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func endOfLine(where pick: (Substring) -> Bool) -> Int? {
            var offset = 0
            for line in lines {
                if pick(line) { return offset + line.utf8.count }
                offset += line.utf8.count + 1
            }
            return nil
        }
        // As the server does: a chain of edits, an X typed then deleted, each session made
        // from the one before (a session reused is not used again).
        func chain(_ name: String, at: Int) {
            var bytes = file.text.bytes
            bytes.insert(UInt8(ascii: "X"), at: at)
            let text = SourceText(bytes: bytes)
            var session = base
            var times: [Double] = [], editTimes: [Double] = [], cpuTimes: [Double] = []
            var patched = 0
            for i in 0..<(getenv("ROUTES_PIPELINE_EDITS").map { Int(atoi($0)) } ?? 21) {
                let typed = i % 2 == 0
                var edit: ProjectDeclarationEdit? = nil
                let clock = ContinuousClock()
                editTimes.append(ms(clock.measure {
                    edit = typed
                        ? session.project.applyingDeclarationEdit(file: file.id, range: at..<at, replacement: [UInt8(ascii: "X")], newSource: text)
                        : session.project.applyingDeclarationEdit(file: file.id, range: at..<(at + 1), replacement: [], newSource: file.text)
                }))
                guard let project = edit?.project else { print("\(name) edit: not resolved alone"); return }
                let previous = session
                let cpu0 = cpuMilliseconds()
                times.append(ms(clock.measure { session = getenv("ROUTES_PIPELINE_NOREUSE") != nil ? AnalysisSession.forEditor(project: project) : AnalysisSession.forEditor(project: project, reusing: previous, splice: edit!.nodes) }))
                cpuTimes.append(cpuMilliseconds() - cpu0)
                patched += session.patchedGraphs
            }
            print("\(name) edit in \(file.path.split(separator: "/").last!): declaration edit \(fmt(editTimes.sorted()[editTimes.count / 2])), analysis \(fmt(times.sorted()[times.count / 2])) (CPU \(fmt(cpuTimes.sorted()[cpuTimes.count / 2]))) (median of \(times.count); \(patched) over a patched graph)")
        }
        let only = getenv("ROUTES_PIPELINE_EDIT").map { String(cString: $0) }
        if only == nil || only == "uses",
           let at = endOfLine(where: { $0.hasPrefix(" ") && $0.contains("screen ") && $0.contains(" uses ") && !$0.hasSuffix("{") && !$0.hasSuffix("}") }) {
            chain("uses", at: at)
        }
        if only == nil || only == "rename", let at = endOfLine(where: { $0.hasPrefix("screen ") && $0.hasSuffix("Help") }) {
            chain("rename", at: at)
        }
    }

    /// The process's CPU time (every thread), which a busy machine disturbs less than the
    /// wall clock.
    static func cpuMilliseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    static func ms(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    static func fmt(_ ms: Double) -> String {
        let tenths = Int((ms * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
