import Foundation

/// What process `pid` holds of the files under `directory`, read from Linux's /proc: its locks
/// (`/proc/locks`, as "FLOCK name" or "POSIX name") and, for this process, its open descriptors and
/// mappings of those files.
public struct HeldFiles: Equatable, Sendable {
    public var locks: [String]
    public var descriptors: [String]
    public var mappings: [String]

    public static func of(_ pid: Int32 = getpid(), under directory: String) -> HeldFiles {
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        var inodes: [UInt64: String] = [:]
        if let walker = FileManager.default.enumerator(atPath: root) {
            for case let name as String in walker {
                var st = stat()
                if stat((root as NSString).appendingPathComponent(name), &st) == 0 { inodes[UInt64(st.st_ino)] = name }
            }
        }
        var locks: [String] = []
        // Read to the end: `String(contentsOfFile:)` stops after about 4 KB of a /proc file (its
        // size reads 0), and on a busy machine the locks of this process come later than that.
        let table = FileHandle(forReadingAtPath: "/proc/locks").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        for line in table.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF" (a "->" marks a waiter).
            let f = line.split(separator: " ").filter { !$0.isEmpty && $0 != "->" }
            guard f.count >= 6, Int32(f[4]) == pid else { continue }
            let parts = f[5].split(separator: ":")
            if parts.count == 3, let inode = UInt64(parts[2]), let name = inodes[inode] { locks.append("\(f[1]) \(name)") }
        }
        var descriptors: [String] = []
        var mappings: [String] = []
        if pid == getpid() {
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"), target.hasPrefix(root + "/") {
                    descriptors.append(target)
                }
            }
            mappings = (FileHandle(forReadingAtPath: "/proc/self/maps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? "")
                .split(separator: "\n").filter { $0.contains(root + "/") }.map(String.init)
        }
        return HeldFiles(locks: locks.sorted(), descriptors: descriptors, mappings: mappings)
    }
}
