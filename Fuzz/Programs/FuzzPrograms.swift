import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

/// Target 3: structured inputs. The bytes drive a grammar-aware generator of mostly valid
/// programs (`ProgramGenerator`), which then go through everything target 1 does, with its
/// invariants (among them: each screen's example path builds under its example environment).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrograms(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var generator = ProgramGenerator(bytes)
    let text = generator.program()
    // `ROUTES_FUZZ_PRINT=1 fuzz-programs crash-…` shows the program an input stands for.
    if getenv("ROUTES_FUZZ_PRINT") != nil { _ = (text + "\n").withCString { write(2, $0, strlen($0)) } }
    exercise(files: [("/fuzz/App.routes", Array(text.utf8))], probes: bytes.prefix(4).map { Int($0) * 13 })
    return 0
}
