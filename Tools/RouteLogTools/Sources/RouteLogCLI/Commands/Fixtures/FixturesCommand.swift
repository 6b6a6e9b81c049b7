import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore

/// `routelog fixtures check|record`.
struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Check or record fixture files.",
        subcommands: [FixturesCheckCommand.self, FixturesRecordCommand.self]
    )

    /// The `.json` files named by `paths`; directories are searched recursively, in sorted order.
    /// A directory holding no `.json` file is an error (exit 1, "no fixtures found in DIR").
    static func expand(_ paths: [String]) throws(RouteLogError) -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { throw RouteLogError(.notFound, "no such file or directory: \(path)") }
            if !isDir.boolValue {
                try refuseNonRegular(path)
                files.append(path)
                continue
            }
            guard let e = fm.enumerator(atPath: path) else { throw RouteLogError(.io, "cannot read directory: \(path)") }
            var found: [String] = []
            while let item = e.nextObject() as? String {
                if item.hasSuffix(".json") { found.append(path.hasSuffix("/") ? path + item : path + "/" + item) }
            }
            // A folder with nothing to check is a mistake (a CI step pointed at the wrong folder),
            // not a pass: "found bad", exit 1.
            if found.isEmpty { throw RouteLogError(.failed, "no fixtures found in \(path)") }
            for file in found { try refuseNonRegular(file) }
            files += found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return files
    }

    /// A device, FIFO or socket (or a symlink to one) is refused before anything is opened:
    /// reading a FIFO blocks, a device may never end.
    static func refuseNonRegular(_ path: String) throws(RouteLogError) {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) != S_IFREG {
            throw RouteLogError(.io, "cannot read file: \(path): not a regular file (a device, FIFO or socket); give a fixture or export file")
        }
    }
}
