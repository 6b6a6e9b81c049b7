import Foundation
@_spi(Tools) import RouteLogCore

extension StoreLifecycle {
    /// Writes a compacted copy of the store into `directory` through a temporary directory beside
    /// it (see ``LMDBEventLog/compactCopy(to:format:)``); with `format` 4, a format-3 store's copy
    /// is converted before it is moved into place.
    func compactCopy(to directory: String, format: UInt32? = nil, conversionChunk: UInt64 = StoreLifecycle.conversionChunk) throws {
        precondition(format == nil || format == storeFormatVersion, "a copy converts to format \(storeFormatVersion) only")
        let path = context.path
        let fm = FileManager.default
        var isDir: ObjCBool = false
        let exists = fm.fileExists(atPath: directory, isDirectory: &isDir)
        if exists {
            guard isDir.boolValue else { throw LMDBEventLogError.notADirectory(path: directory) }
            let entries = (try? fm.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw LMDBEventLogError.notAStore(path: directory, reason: "the copy's directory is not empty")
            }
        }
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = url.deletingLastPathComponent().path
        let stem = ".\(url.lastPathComponent).compact-"
        // Left by a copy that was killed (its process is gone).
        for name in (try? fm.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(stem) {
            if let pid = Int32(name.dropFirst(stem.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH {
                try? fm.removeItem(atPath: (parent as NSString).appendingPathComponent(name))
            }
        }
        let temporary = (parent as NSString).appendingPathComponent(stem + String(getpid()))
        try? fm.removeItem(atPath: temporary)
        let modes = Self.fileModes(of: path)
        do {
            try fm.createDirectory(atPath: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: modes.directory])
        } catch {
            throw LMDBEventLogError.permissionDenied(path: directory, reason: "cannot create the directory")
        }
        do {
            do { try context.environment.copy(to: temporary, compact: true) } catch {
                throw LMDBEventLogError.storage(error.onFileSystem(of: parent), operation: "copying \(path) to \(directory)")
            }
            if format == storeFormatVersion, context.databases.format == oldestStoreFormat {
                // Converted in the copy, then copied again without the pages the records left free.
                try Self.convertToBlocks(at: temporary, options: context.options, chunk: conversionChunk)
                let converted = temporary + ".v4"
                try? fm.removeItem(atPath: converted)
                try fm.createDirectory(atPath: converted, withIntermediateDirectories: true, attributes: [.posixPermissions: modes.directory])
                defer { try? fm.removeItem(atPath: converted) }
                do {
                    let environment = try StoreOpener.openEnvironment(temporary, options: context.options)
                    try environment.copy(to: converted, compact: true)
                } catch let error as LMDBError {
                    throw LMDBEventLogError.storage(error.onFileSystem(of: parent), operation: "copying the converted store to \(directory)")
                }
                for name in (try? fm.contentsOfDirectory(atPath: temporary)) ?? [] {
                    try? fm.removeItem(atPath: (temporary as NSString).appendingPathComponent(name))
                }
                for name in (try? fm.contentsOfDirectory(atPath: converted)) ?? [] {
                    try fm.moveItem(atPath: (converted as NSString).appendingPathComponent(name), toPath: (temporary as NSString).appendingPathComponent(name))
                }
            }
            for name in (try? fm.contentsOfDirectory(atPath: temporary)) ?? [] {
                _ = chmod((temporary as NSString).appendingPathComponent(name), mode_t(modes.file))
            }
            // rename(2) replaces an empty directory.
            guard rename(temporary, url.path) == 0 else {
                throw LMDBEventLogError.permissionDenied(path: directory, reason: "cannot move the copy into place: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? fm.removeItem(atPath: temporary)
            throw error
        }
    }

    /// The permission bits of the store's directory and of its `data.mdb` (0700 and 0600 when unknown).
    static func fileModes(of store: String) -> (directory: Int, file: Int) {
        let fm = FileManager.default
        func mode(_ p: String, _ fallback: Int) -> Int {
            ((try? fm.attributesOfItem(atPath: p))?[.posixPermissions] as? NSNumber)?.intValue ?? fallback
        }
        return (mode(store, 0o700), mode(LMDBEventLog.dataFile(in: store), 0o600))
    }
}
