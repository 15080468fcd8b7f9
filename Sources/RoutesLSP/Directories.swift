import RoutesIDE

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file system's folders, for the completion of import paths.
struct FileSystemDirectories: DirectoryLister {
    func entries(of directory: String) -> [DirectoryEntry]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var out: [DirectoryEntry] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
                let bytes = raw.bindMemory(to: UInt8.self)
                return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var st = stat()
            // Symbolic links are followed: a linked folder lists as a folder.
            guard stat(directory == "/" ? "/" + name : directory + "/" + name, &st) == 0 else { continue }
            let mode = st.st_mode & S_IFMT
            if mode == S_IFDIR || mode == S_IFREG { out.append(DirectoryEntry(name: name, isDirectory: mode == S_IFDIR)) }
            // A folder of a hundred thousand entries is not listed whole.
            if out.count >= 10_000 { break }
        }
        return out
    }
}
