@_spi(Tools) import RouteLogCore

/// The checksum of an event record: the `StableHasher` hash of the previous record's checksum
/// (``Digest/zero`` before seq 1) and the record's bytes before its checksum.
func chainedChecksum(previous: Digest, _ bytes: UnsafeRawBufferPointer) -> Digest {
    var h = StableHasher()
    h.combine(previous.hi)
    h.combine(previous.lo)
    h.combine(bytes: bytes.bindMemory(to: UInt8.self))
    return h.finalize()
}

/// The `StableHasher` hash of `bytes`: the seals of session rows and snapshots.
func checksum(_ bytes: UnsafeRawBufferPointer) -> Digest {
    var h = StableHasher()
    h.combine(bytes: bytes.bindMemory(to: UInt8.self))
    return h.finalize()
}

func checksum(_ bytes: [UInt8]) -> Digest {
    bytes.withUnsafeBytes { checksum($0) }
}
