import FuzzSupport
import Oracles

/// Target 1: bytes → parse → model → every analysis → editor features → previews.
/// The input is one or more files separated by lines `%%%` (see `FuzzInput.splitFiles`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnalysis(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // A few offsets for the editor features, taken from the input's last bytes.
    let probes = bytes.suffix(4).map { Int($0) * 7 }
    exercise(files: FuzzInput.splitFiles(bytes), probes: probes)
    return 0
}
