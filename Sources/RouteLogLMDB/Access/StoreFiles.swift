import Foundation

/// What the tools need to know of a store's files without knowing LMDB's layout: whether a
/// directory holds a store, how many bytes it takes on disk, and which file a reader has open
/// (to notice a store replaced under it).
extension LMDBEventLog {
    /// The file LMDB keeps a store's pages in, inside the store directory.
    static let dataFileName = "data.mdb"

    /// The data file of the store at `directory`.
    static func dataFile(in directory: String) -> String {
        (directory as NSString).appendingPathComponent(dataFileName)
    }

    /// Whether `directory` holds a store's data (a directory with only a lock file, or none, does not).
    @_spi(Tools) public static func hasData(at directory: String) -> Bool {
        FileManager.default.fileExists(atPath: dataFile(in: directory))
    }

    /// Fails with ``LMDBEventLogError/notAStore(path:reason:)`` unless `directory` holds a store's data.
    @_spi(Tools) public static func requireData(at directory: String) throws(LMDBEventLogError) {
        if !hasData(at: directory) { throw .notAStore(path: directory, reason: "it has no \(dataFileName)") }
    }

    /// The bytes the store at `directory` takes on disk (its data file), 0 when there is none.
    @_spi(Tools) public static func bytesOnDisk(at directory: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: dataFile(in: directory))
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Which data file a store directory holds now: a compacted or restored store renamed over
    /// the old one is a new file, with another identity.
    @_spi(Tools) public struct FileIdentity: Equatable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    /// The identity of the data file at `directory`, or `nil` when there is none.
    @_spi(Tools) public static func fileIdentity(at directory: String) -> FileIdentity? {
        var st = stat()
        guard stat(dataFile(in: directory), &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }
}
