import Foundation
@_spi(Tools) import RouteLogCore

/// A run's stored row: in the `meta` database under `run` + the session's number (4 bytes) + the
/// run's number (4 bytes, big-endian), so a session's runs sort together, oldest first. Runs are
/// metadata beside the event chain: they change no record, checksum, digest or replay.
struct RunRow: Equatable {
    var firstSeq: UInt64
    var startedAt: Int64
    var appVersion: String?
    var build: String?
    var end: RunEnd

    static let keyPrefix: [UInt8] = Array("run".utf8)

    static func prefix(_ sessionPrefix: [UInt8]) -> [UInt8] { keyPrefix + sessionPrefix }
    static func key(_ sessionPrefix: [UInt8], _ number: UInt32) -> [UInt8] { keyPrefix + sessionPrefix + StoreKey.number(number) }

    func encode() -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.writeBigEndian(firstSeq)
        w.writeBigEndian(startedAt)
        w.writeOptionalString(appVersion)
        w.writeOptionalString(build)
        switch end {
        case .open: w.writeByte(0)
        case .clean: w.writeByte(1)
        case .crashed(let n, let last):
            w.writeByte(2)
            w.writeBigEndian(n)
            w.writeBigEndian(last)
        case .unknown: w.writeByte(3)
        case .suspended: w.writeByte(4)
        }
        w.seal()
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> RunRow {
        var r = try BinaryReader.unsealing(bytes)
        try r.readRecordFormat("run row")
        let first = try r.readBigEndian(UInt64.self)
        let started = try r.readBigEndian(Int64.self)
        let version = try r.readOptionalString("app version")
        let build = try r.readOptionalString("build")
        let at = r.offset
        let end: RunEnd
        switch try r.readByte() {
        case 0: end = .open
        case 1: end = .clean
        case 2: end = .crashed(recovered: try r.readBigEndian(UInt64.self), lastSeq: try r.readBigEndian(UInt64.self))
        case 3: end = .unknown
        case 4: end = .suspended
        case let t: throw r.error("run end \(t) is not 0...4", at: at)
        }
        try r.expectEnd()
        return RunRow(firstSeq: first, startedAt: started, appVersion: version, build: build, end: end)
    }
}
