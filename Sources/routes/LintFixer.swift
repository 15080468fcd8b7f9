import RoutesAnalysis
import RoutesIDE
import RoutesModel
import RoutesSyntax
import RoutesWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fix `routes lint --fix` applied: where its diagnostic was (in the text as the user
/// wrote it: a fix of a later round is placed back through the edits of the rounds before),
/// its rule and what it did.
struct FixedItem {
    var path: String
    /// 0-based line and column in Unicode scalars, and the UTF-16 range, of the diagnostic.
    var line: Int
    var column: Int
    var range: (start: LineColumn, end: LineColumn)
    var rule: RuleID
    var title: String
}

/// `routes lint --fix`: rounds of fixes over the files in memory, then the files written.
///
/// Each round analyses the files as the rounds before left them (in memory), takes of each
/// diagnostic of the reported files its preferred fix (safe ones; unsafe ones too with
/// `--unsafe-fixes`) when none of its edits overlaps or touches an edit taken before, and
/// applies them; it stops when a round finds nothing to apply, when the files come back to
/// what they were after an earlier round (fixes that undo each other), or after `maxRounds`.
/// Only the
/// files reported before any fix are edited (a file that an import's fix brings into the
/// report, with warnings the user has not seen, is reported but not edited), and never one
/// whose text is not valid UTF-8 (it was read with replacement characters). Files are written at the end, each through a temporary file in
/// its folder and a rename, and only when their text changed; the text read from standard
/// input is not written (the caller prints it).
struct LintFixer {
    /// Rounds at most (each analyses the programs of the reported files once).
    static let maxRounds = 50

    var provider: OverlayFileSystem
    let inputs: LintInputs
    let unsafe: Bool
    /// The canonical path of the standard input's text, if it was read.
    let stdinPath: String?

    /// The fixes applied, placed in the files as first read (see `placeFixed()`).
    private(set) var fixed: [FixedItem] = []
    /// Each fix applied, where its diagnostic was in the text of its round.
    private var applied: [(path: String, round: Int, range: Range<Int>, rule: RuleID, title: String)] = []
    /// Each file's edits, by canonical path, per round (sorted, not overlapping): the range
    /// each replaced in that round's text and the length of its new text.
    private var roundEdits: [String: [Int: [(range: Range<Int>, length: Int)]]] = [:]
    /// The text of each file as first read, by canonical path (to write only what changed).
    private(set) var original: [String: [UInt8]] = [:]
    /// The text of each changed file, by canonical path.
    private(set) var changed: [String: [UInt8]] = [:]
    /// The files reported before any fix, by canonical path: the only ones edited.
    private var firstReported: Set<String> = []
    /// Each file's display path, by canonical path.
    private var displayPaths: [String: String] = [:]
    /// Files left alone because their text is not valid UTF-8 (display paths).
    private(set) var notUTF8: [String] = []
    /// Why the rounds stopped while fixes were left to apply, if they did.
    private(set) var unsettled: String? = nil
    /// Without `--unsafe-fixes`: how many diagnostics that remain have an unsafe fix that
    /// `--fix --unsafe-fixes` would apply (the report says so, as ruff does).
    private(set) var unsafeFixesLeft = 0

    init(provider: OverlayFileSystem, inputs: LintInputs, unsafe: Bool, stdinPath: String?) {
        self.provider = provider
        self.inputs = inputs
        self.unsafe = unsafe
        self.stdinPath = stdinPath
    }

    /// Runs the rounds; returns the last project and its analysis (the report's).
    mutating func run() -> (project: Project, session: AnalysisSession) {
        let result = rounds()
        placeFixed()
        return result
    }

    /// Each fix applied, placed in its file's text as first read: each later round's edits
    /// undone, in reverse, on its diagnostic's start (one inside text a fix wrote is placed
    /// where that fix's range began).
    private mutating func placeFixed() {
        var texts: [String: SourceText] = [:]
        fixed = applied.map { item in
            var start = item.range.lowerBound, end = item.range.upperBound
            if let perRound = roundEdits[item.path] {
                for round in stride(from: item.round - 1, through: 0, by: -1) {
                    guard let edits = perRound[round] else { continue }
                    start = Self.offsetBefore(start, edits)
                    end = max(start, Self.offsetBefore(end, edits))
                }
            }
            let text = texts[item.path] ?? SourceText(bytes: original[item.path] ?? [])
            texts[item.path] = text
            let position = text.position(of: start, encoding: .scalars)
            return FixedItem(path: displayPaths[item.path] ?? item.path, line: position.line, column: position.column,
                             range: (text.position(of: start, encoding: .utf16), text.position(of: end, encoding: .utf16)),
                             rule: item.rule, title: item.title)
        }
    }

    /// Where `offset` of the text after `edits` was before them.
    static func offsetBefore(_ offset: Int, _ edits: [(range: Range<Int>, length: Int)]) -> Int {
        var delta = 0
        for edit in edits {
            let newStart = edit.range.lowerBound + delta
            if offset < newStart { break }
            if offset < newStart + edit.length { return edit.range.lowerBound }
            delta += edit.length - edit.range.count
        }
        return offset - delta
    }

    private mutating func rounds() -> (project: Project, session: AnalysisSession) {
        let cache = ParseCache()
        var round = 0
        var states = Set<[String: [UInt8]]>()
        while true {
            let project = Project(entries: inputs.entries, provider: provider, cache: cache)
            let reported = LintReport.reportedFiles(project, named: inputs.named)
            let session = AnalysisSession.forEditor(project: project, reported: reported, settings: inputs.settings)
            // (A file a fix brought in, an import it mended, is first read in a later round.)
            for file in project.files where original[file.path] == nil {
                original[file.path] = file.text.bytes
                displayPaths[file.path] = file.displayPath
            }
            var editable = Set<FileID>()
            if round == 0 {
                firstReported = Set(project.files.indices.filter { reported?.contains($0) ?? true }.map { project.files[$0].path })
            }
            for fileID in project.files.indices where reported?.contains(fileID) ?? true {
                guard firstReported.contains(project.files[fileID].path) else { continue }
                if project.files[fileID].text.invalidUTF8.isEmpty {
                    editable.insert(fileID)
                } else if !notUTF8.contains(project.files[fileID].displayPath) {
                    notUTF8.append(project.files[fileID].displayPath)
                }
            }
            guard round < Self.maxRounds else {
                unsettled = "fixes were still found after \(Self.maxRounds) rounds"
                return (project, session)
            }
            guard states.insert(changed).inserted else {
                unsettled = "fixes undid what earlier fixes did"
                return (project, session)
            }
            let context = FixContext(session: session, provider: provider)
            let fixes = IDE.fixAll(context: context, files: editable, editable: editable, unsafe: unsafe)
            if fixes.isEmpty {
                if !unsafe { unsafeFixesLeft = IDE.fixAll(context: context, files: editable, editable: editable, unsafe: true).count }
                return (project, session)
            }
            for fix in fixes {
                let diagnostic = fix.diagnostic
                applied.append((project.files[diagnostic.file].path, round, diagnostic.range, diagnostic.rule, fix.title))
            }
            var touched = Set<FileID>()
            for fix in fixes { touched.formUnion(fix.edits.keys) }
            for fileID in touched {
                let file = project.files[fileID]
                let edits = IDE.edits(of: fixes, in: fileID)
                roundEdits[file.path, default: [:]][round] = edits.map { ($0.range, $0.newText.utf8.count) }
                let bytes = IDE.apply(edits, to: file.text.bytes)
                provider.files[file.path] = bytes
                changed[file.path] = bytes
            }
            round += 1
        }
    }

    /// Writes every changed file but the standard input's; the failures (display path and
    /// message).
    func write() -> [(path: String, message: String)] {
        var failures: [(path: String, message: String)] = []
        for (path, bytes) in changed.sorted(by: { $0.key < $1.key }) where path != stdinPath && bytes != original[path] {
            // A file changed on disk since it was read is left alone: its new text would be lost.
            let shown = displayPaths[path] ?? path
            guard case .success(let now) = FileSystemProvider().read(path), now == original[path] else {
                failures.append((shown, "cannot write '\(shown)': it changed on disk while it was being fixed"))
                continue
            }
            if let why = FileReplacement.replace(path, bytes) { failures.append((shown, "cannot write '\(shown)': \(why)")) }
        }
        return failures
    }

    /// The fixed text of the standard input; nil when no fix changed it (or there is none).
    var fixedStdin: [UInt8]? {
        guard let stdinPath else { return nil }
        return changed[stdinPath].flatMap { $0 == original[stdinPath] ? nil : $0 }
    }
}
