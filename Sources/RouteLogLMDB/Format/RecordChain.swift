@_spi(Tools) import RouteLogCore

/// What decoding a session's records in order carries from one record to the next.
struct RecordChain {
    /// The session's key prefix.
    let prefix: [UInt8]
    let createdAt: Int64
    /// The checksum stored by the last record read (zero before seq 1).
    var previous: Digest
    /// The running time base after the last record read.
    var timeBase: Int64
    /// The call sites looked up so far, by index.
    var sites: [UInt32: CallSite] = [:]
}
