#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesModel

/// How `routes fmt` and `routes lint --fix` write a file the user wrote.
enum FileReplacement {
    /// Replaces a file's content through a temporary file in its folder and a rename, so that
    /// no reader sees half a file and a failure leaves the file as it was. The file keeps its
    /// permission bits (and its owner and group when the process may set them). A file with
    /// several hard links is written in place once the temporary file holds the new text (a
    /// rename would leave the other links with the old text): a file that cannot be opened
    /// for writing is left as it was; should the write itself fail partway, the file may hold
    /// part of the new text, and the temporary file, which the reason names, all of it.
    /// Returns why it failed, or nil.
    static func replace(_ path: String, _ bytes: [UInt8]) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return SourceReadError.systemMessage(errno) }
        let directory = PathUtil.directory(of: path)
        let name = String(path.dropFirst(directory == "/" ? 1 : directory.count + 1))
        var template = Array(((directory == "/" ? "/" : directory + "/") + ".\(name).routes-new-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return SourceReadError.systemMessage(errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        func fail() -> String {
            let why = SourceReadError.systemMessage(errno)
            close(fd)
            unlink(temporary)
            return why
        }
        _ = fchown(fd, st.st_uid, st.st_gid)  // allowed for root only, or the same owner and one of its groups
        guard fchmod(fd, st.st_mode & 0o7777) == 0 else { return fail() }
        guard FileDescriptor.writeAll(bytes, to: fd), fsync(fd) == 0 else { return fail() }
        guard close(fd) == 0 else {
            let why = SourceReadError.systemMessage(errno)
            unlink(temporary)
            return why
        }
        if st.st_nlink > 1 {
            switch overwrite(path, with: bytes) {
            case .written: unlink(temporary)
            case .notOpened(let why):
                unlink(temporary)
                return why
            case .failedPartway(let why): return "\(why) (the new text is in '\(temporary)')"
            }
            return nil
        }
        guard rename(temporary, path) == 0 else {
            let why = SourceReadError.systemMessage(errno)
            unlink(temporary)
            return why
        }
        return nil
    }

    private enum Overwrite {
        case written
        /// The file could not be opened for writing: it is as it was.
        case notOpened(String)
        /// The write or the cut failed: the file may hold part of the new text.
        case failedPartway(String)
    }

    /// Writes `bytes` over the file at `path` in place (its inode, and so every hard link to
    /// it, gets the new text): from the start, then cut to their length.
    private static func overwrite(_ path: String, with bytes: [UInt8]) -> Overwrite {
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { return .notOpened(SourceReadError.systemMessage(errno)) }
        defer { close(fd) }
        guard FileDescriptor.writeAll(bytes, to: fd), ftruncate(fd, off_t(bytes.count)) == 0, fsync(fd) == 0 else {
            return .failedPartway(SourceReadError.systemMessage(errno))
        }
        return .written
    }
}
