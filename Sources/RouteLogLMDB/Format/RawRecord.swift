@_spi(Tools) import RouteLogCore

/// An event record as stored, parsed but with its payload still encoded.
struct RawRecord {
    var kind: Event.Kind
    var outcome: Outcome
    var digest: Digest
    var payload: UnsafeRawBufferPointer
    var storedChecksum: Digest
    /// The checksum recomputed from the bytes and the previous record's checksum.
    var computedChecksum: Digest
}
