// The byte layout of a RouteLog store, formats 3 and 4 (4 keeps a session's events in blocks:
// BlockCodec; everything else is format 3's), written with the core's `BinaryWriter` and read
// with its `BinaryReader` (an event record's fixed part is stored and loaded in place, in the same
// byte order, because every append and replay goes through it). Fixed-width integers are big-endian; `varint` and `string` (a varint
// length and UTF-8) are the binary codec's. The code tables (event kinds, outcomes) are the core's
// wire tables. StoreFormat.md in the RouteLogLMDB catalog documents the same layout.
//
// Databases (named, in one LMDB environment):
// - `meta`:      "format" → UInt32 format version.
// - `sessions`:  session id (16 UUID bytes) → session row.
// - `events`:    session number (u32) ‖ seq (40 bits, big-endian) → format 4: a block of events,
//                keyed by its first event's seq (BlockCodec); format 3: an event record.
// - `snapshots`: session number (u32) ‖ seq (40 bits) → snapshot.
// - `sites`:     session number (u32) ‖ index (u32) → a call site of the session's events.
// The session number is the session's entry order (its row's `entry order`): unique in the store
// and never reused, 4 bytes where the id takes 16. A seq takes 5 bytes: a session holds at most
// 2⁴⁰ − 1 events.
//
// Block (format 4):
//   u8 format (4) | u8 count | 16 digest after the last event | count × (u8 outcome | payload)
//   | 16 checksum chained to the previous block's (the payload is format 3's, below; the time base
//   of a block's first event is the session's creation time)
//
// Event record (format 3):
//   u8 format (3) | u8 event kind | u8 outcome | 16 digest of the state after the event
//   | payload | 16 checksum
// The payload (its length is the record's less the 35 fixed bytes) is the event's metadata,
// relative to the session, then the event (the core's binary codec, without its version byte):
//   u8 flags (origin in bits 0-1, 1<<2 time, 1<<3 call site, 1<<4 note)
//   | zigzag time − time base (if flagged) | varint call-site index (if flagged)
//   | string note (if flagged) | event
// The time base of seq s is the session's creation time when s − 1 is a multiple of 64 (an
// anchor, so a read from any seq decodes at most 63 records before it), else the base of s − 1,
// replaced by the time of s − 1 when it has one: mostly the delta from the previous event. The
// call-site index names an entry of `sites`, numbered from 0 in the order the session first used
// them, written in the transaction of the event that first uses it.
//
// Call site: u8 format (3) | string file | zigzag line | 16 checksum of its key and the bytes
// before it (so an entry moved to another key fails too).
//
// An event record's checksum is the `StableHasher` hash of the previous
// record's checksum (zero for seq 1) followed by every byte of the record before it, so the
// records of a session form a hash chain without storing the previous hash: a record altered,
// moved or missing fails the checksum of the first record after the damage.
//
// Session row:
//   u8 format (3) | i64 createdAt | u64 event count | u8 has last time | i64 last time
//   | 16 head digest | 16 head hash (checksum of the last record) | string label
//   | optional string app name | optional string app version
//   | u64 entry order | i64 entered-at time | 16 checksum
//   (string = varint length + UTF-8; optional = u8 0/1 + string; entry order and entered-at:
//   the order and the log's clock when the session was created or imported)
// Meta key "entries" → u64: the entry order given to the last session created or imported.
//
// Snapshot: u8 format (3) | 16 digest | varint state length | state | 16 checksum.
//
// Format 2 keyed events and snapshots by the 16-byte session id and gave each record a reserved
// byte and a u32 payload length; format 1 also numbered rejection reasons in a table of its own and
// wrote strings with u32 lengths. An older store is refused at open (`LMDBEventLogError.olderFormat`):
// export its sessions with the release that wrote it, then `routelog import` them.
//
// The code, one file a value: StoreKey (keys), RecordCodec and RawRecord (event records),
// StoredPayload (their payloads), RecordChain (reading them in order), SiteCodec (call sites),
// SessionRow (session rows), SnapshotCodec (snapshots), Checksums and BinaryCoding+Sealing
// (checksums and sealed values); run rows and the import marks of `meta` are in Runs/ and Import/.

/// The newest store format this build reads and writes (format 4: events in blocks).
let storeFormatVersion: UInt32 = 4
/// The oldest store format this build reads and writes (format 3: a record per event).
let oldestStoreFormat: UInt32 = 3
/// The format byte of format-3 event records, and of session rows, snapshots, call sites, runs
/// and screen records in both formats (their layouts did not change in format 4).
let recordFormat: UInt8 = 3

extension LMDBEventLog {
    /// The format of the stores this build creates: 4, events in blocks (see StoreFormat.md).
    @_spi(Tools) public static let newStoreFormat: UInt32 = storeFormatVersion
}
