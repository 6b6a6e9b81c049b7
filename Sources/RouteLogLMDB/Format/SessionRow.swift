@_spi(Tools) import RouteLogCore

/// A session's row in the `sessions` database: its info and the checksum of its last record.
struct SessionRow {
    var info: SessionInfo
    var headHash: Digest

    /// The prefix of the session's event and snapshot keys: its number, the entry order.
    var eventPrefix: [UInt8] { StoreKey.eventPrefix(info) }

    func encode() -> [UInt8] {
        var w = BinaryWriter()
        w.bytes.reserveCapacity(112 + info.label.utf8.count)
        w.writeByte(recordFormat)
        w.writeBigEndian(info.createdAt)
        w.writeBigEndian(info.eventCount)
        w.writeByte(info.lastEventAt == nil ? 0 : 1)
        w.writeBigEndian(info.lastEventAt ?? 0)
        w.write(info.headDigest)
        w.write(headHash)
        w.writeString(info.label)
        w.writeOptionalString(info.appName)
        w.writeOptionalString(info.appVersion)
        w.writeBigEndian(info.entryOrder)
        w.writeBigEndian(info.enteredAt ?? info.createdAt)
        w.seal()
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, id: SessionID) throws(BinaryDecodingError) -> SessionRow {
        var r = try BinaryReader.unsealing(bytes)
        try r.readRecordFormat("session row")
        let created = try r.readBigEndian(Int64.self)
        let count = try r.readBigEndian(UInt64.self)
        let hasLast = try r.readByte()
        let last = try r.readBigEndian(Int64.self)
        // One encoding per row: the flag is 0 or 1, and without a last time the field is 0.
        guard hasLast <= 1 else { throw r.error("last time flag is \(hasLast), expected 0 or 1", at: r.offset - 9) }
        guard hasLast == 1 || last == 0 else { throw r.error("last time \(last) given with its flag 0", at: r.offset - 8) }
        let digest = try r.readDigest()
        let hash = try r.readDigest()
        let label = try r.readString()
        let app = try r.readOptionalString("app name")
        let appVersion = try r.readOptionalString("app version")
        let order = try r.readBigEndian(UInt64.self)
        let entered = try r.readBigEndian(Int64.self)
        try r.expectEnd()
        let info = SessionInfo(id: id, label: label, appName: app, appVersion: appVersion, createdAt: created,
                               eventCount: count, lastEventAt: hasLast == 1 ? last : nil, headDigest: digest,
                               entryOrder: order, enteredAt: entered)
        return SessionRow(info: info, headHash: hash)
    }
}
