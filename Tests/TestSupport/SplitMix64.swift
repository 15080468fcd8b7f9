/// SplitMix64: a tiny deterministic generator shared by the test targets, so that a seed
/// names the same input on every platform and Swift version (the standard library's
/// generators are not promised to stay the same) and a failure reproduces.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0..<n, as `next() % n` (the reference programs' seeds depend on this exact mapping).
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        return Int(next() % UInt64(n))
    }
}
