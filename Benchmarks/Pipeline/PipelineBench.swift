import RoutesAnalysis
import RoutesIDE
import RoutesModel
import RoutesSyntax

#if canImport(Glibc)
import Glibc
#endif

/// Times the phases of the pipeline in process (release build), so that optimisation work
/// knows where the time goes: `ROUTES_BENCH=1 swift run -c release routes-pipeline FILE…`.
/// Prints the median of 9 runs of each phase.
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
        // The first analysis in a fresh process (what a language server's first open pays).
        let clock = ContinuousClock()
        var coldSession: AnalysisSession? = nil
        let cold = clock.measure { coldSession = AnalysisSession(project: Project(entries: entries, provider: fs)) }
        let warm = clock.measure { coldSession = AnalysisSession(project: Project(entries: entries, provider: fs)) }
        _ = coldSession
        print("first project + analysis in this process: \(fmt(ms(cold))), the second: \(fmt(ms(warm)))")
        let texts = entries.map { SourceText(bytes: (try? fs.read($0.canonicalPath).get()) ?? []) }
        var trees: [SyntaxTree] = []
        let lex = median { for t in texts { _ = Lexer.tokenize(t) } }
        let parse = median { trees = texts.map { SyntaxTree.parse($0) } }
        let lower = median { for t in trees { _ = Lowering.lower(t) } }
        var project: Project? = nil
        let load = median { project = Project(entries: entries, provider: fs) }
        let analyse = median { _ = AnalysisSession(project: project!) }
        let lines = texts.reduce(0) { $0 + $1.lineStarts.count }
        print("\(lines) lines: lex \(fmt(lex)), parse (incl. lex) \(fmt(parse)), lower \(fmt(lower)), project (read+parse+lower+resolve) \(fmt(load)), analysis session \(fmt(analyse))")
        // Typing a character at the end of the first `dependency` line (a type name), as
        // Benchmarks/lsp_bench.py does: the declaration is parsed again alone.
        let session = AnalysisSession(project: project!)
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
                let moved = median { _ = AnalysisSession(project: project!).rebased(onto: edit!.project!, file: file.id, edit: edit!.shift) }
                print("edit in a type: declaration edit \(fmt(t)) (resolved alone: \(edit?.project != nil), analysis kept: \(edit?.keepsAnalysis == true)); a new session plus its move \(fmt(moved))")
            }
        }
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

    static func ms(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    static func fmt(_ ms: Double) -> String {
        let tenths = Int((ms * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
