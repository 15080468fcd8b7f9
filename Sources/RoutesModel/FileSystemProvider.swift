#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files from disk. Never writes.
public struct FileSystemProvider: SourceProvider {
    public init() {}

    /// Each read opens its own descriptor and keeps nothing.
    public var readsConcurrently: Bool { true }

    public func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public func whyNoCanonicalPath(_ path: String) -> String? {
        if let resolved = realpath(path, nil) {
            free(resolved)
            return nil
        }
        let code = errno
        return code == ENOENT || code == ENOTDIR ? nil : SourceReadError.systemMessage(code)
    }

    public func routesFileNames(inFolder canonicalFolder: String) -> [String]? {
        directoryEntries(canonicalFolder)?.filter { $0.hasSuffix(".routes") && !$0.hasPrefix(".") }
    }

    /// Why ``read(_:)`` would fail, found with `stat` alone (nil: it looks readable), so that
    /// callers can report unreadable inputs before reading anything.
    public func problem(_ canonicalPath: String) -> SourceReadError? {
        var st = stat()
        guard stat(canonicalPath, &st) == 0 else { return .system(errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .isDirectory }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .notRegularFile }
        if Int(st.st_size) > SourceLimits.maxFileBytes { return .tooLarge(Int(st.st_size)) }
        guard access(canonicalPath, R_OK) == 0 else { return .unreadable(SourceReadError.systemMessage(errno)) }
        return nil
    }

    public func read(_ canonicalPath: String) -> Result<[UInt8], SourceReadError> {
        var st = stat()
        guard stat(canonicalPath, &st) == 0 else { return .failure(.system(errno)) }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(.isDirectory) }
        // Devices, FIFOs and sockets could block or never end (`/dev/zero`, a named pipe).
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
        if Int(st.st_size) > SourceLimits.maxFileBytes { return .failure(.tooLarge(Int(st.st_size))) }
        let fd = open(canonicalPath, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return .failure(.unreadable(SourceReadError.systemMessage(errno))) }
        defer { close(fd) }
        // The file may be swapped for something else between `stat` and `open`.
        var opened = stat()
        guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
        // Read straight into the array, sized by `fstat` with a byte to spare so that the
        // end of the file is seen without a second buffer (no zeroed buffer, no copy).
        var bytes: [UInt8] = []
        var capacity = min(Int(opened.st_size), SourceLimits.maxFileBytes) + 1
        while true {
            var failure: Int32 = 0
            var ended = false
            let start = bytes.count
            let more = [UInt8](unsafeUninitializedCapacity: capacity - start) { buffer, initialized in
                initialized = 0
                while initialized < buffer.count {
                    let count = systemRead(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                    if count < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if count == 0 {
                        ended = true
                        return
                    }
                    initialized += count
                }
            }
            if failure != 0 { return .failure(.unreadable(SourceReadError.systemMessage(failure))) }
            if bytes.isEmpty { bytes = more } else { bytes.append(contentsOf: more) }
            if ended { break }
            // A file that grows while it is read (or a /proc file that lies about its size).
            if bytes.count > SourceLimits.maxFileBytes { return .failure(.tooLarge(bytes.count)) }
            capacity = min(max(capacity * 2, bytes.count + (1 << 16)), SourceLimits.maxFileBytes + 2)
        }
        return .success(bytes)
    }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ n: Int) -> Int {
    read(fd, buf, n)
}
