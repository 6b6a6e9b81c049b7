import Foundation

/// Writing report pages.
enum ReportFile {
    /// Writes `html` to `path` atomically (a reader never sees half a page).
    static func write(_ html: String, to path: String) throws(RouteLogError) {
        try write([Array(html.utf8)], to: path)
    }

    /// Writes a page given in parts to `path` atomically: into a new file beside it, renamed over
    /// it when complete (no part is copied into one buffer first).
    static func write(_ parts: [[UInt8]], to path: String) throws(RouteLogError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                for part in parts { try handle.write(contentsOf: part) }
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RouteLogError(.io, "cannot write \(path): \(oneLine(error.localizedDescription))")
        }
    }
}
