import FuzzSupport
import Oracles

/// Target 4: the formatter. Bytes (one or more files, split at lines `%%%`, as target 1) →
/// `Formatter.format` whole and over a range → the invariants of `checkFormatting`: refused
/// only for invalid UTF-8 or layout-dependent syntax errors, idempotent, the same comments,
/// the same model and diagnostics (positions compared as places among the tokens).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormat(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // The range formatted alone, from the input's last bytes.
    let probe = bytes.suffix(3).reduce(0) { $0 &* 251 &+ Int($1) }
    checkFormatting(files: FuzzInput.splitFiles(bytes), probe: probe)
    return 0
}
