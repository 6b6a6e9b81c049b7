// Where a log writes: on its caller's thread, or on its own writer thread.

/// Whether the log writes made now, on this thread, go to the log's own writer thread while the
/// caller waits, instead of being written on the caller's thread when no other write is in
/// progress (what an LMDB store does by default: it saves the two thread wake-ups of a hand-over).
///
/// The navigator's recorder asks for the hand-over around its writes. Its queue runs on whichever
/// thread of a shared pool is free, and a store's transactions there left the process's anonymous
/// memory swinging by up to 6 MiB from run to run (`make bench`'s `navigator-memory-1M` read 0 to
/// 6.3 MiB, where the hand-over keeps it at 0.02 to 0.2 MiB). A caller that waits for its write
/// (an import, a tool, an app appending itself) keeps the default.
@_spi(Tools) public enum WriterHandOff {
    /// Whether the writes of this thread (or task) are handed to the log's writer thread: read
    /// with ``isRequested``, set with `WriterHandOff.requested.withValue(true) { … }`.
    public static let requested = TaskLocal(wrappedValue: false)

    /// Whether the writes made now are handed to the log's writer thread.
    public static var isRequested: Bool { requested.get() }
}
