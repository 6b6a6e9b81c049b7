@_spi(Tools) import RouteLogCore

/// The segment made ahead: creating, reserving and mapping a file takes from a fraction of a
/// millisecond to a few on a busy disk, so the recorder's thread makes the next segment after a
/// commit, and a call that fills the current one only writes the spare's header.
///
/// Segment numbers are taken in the order segments are used: a spare whose number is no longer
/// the newest (the call path had to make a segment itself meanwhile) is removed, never used.
/// Until its header is written a spare is zeros, which a recovery reads as a segment its writer
/// died before starting.
extension JournalWriter {
    /// Makes the spare segment if there is none (on the recorder's thread, after a commit).
    func prepareSpare() {
        lock.lock()
        let wanted = spare == nil && current != nil
        lock.unlock()
        guard wanted else { return }
        let number = nextNumber()
        guard let made = try? makeFile(number: number, minimum: 0, touchingPages: true) else { return }
        lock.lock()
        let usable = spare == nil && current != nil && segmentNumber == number + 1
        if usable { spare = made }
        lock.unlock()
        if !usable { made.release(remove: true) }
    }

    /// The spare, started at `seq`, if there is one with room for an entry of `minimum` bytes;
    /// one without room is removed (the caller makes a larger segment).
    func takeSpare(for seq: UInt64, minimum: Int) -> Segment? {
        lock.lock()
        let taken = spare
        spare = nil
        lock.unlock()
        guard let taken else { return nil }
        guard taken.capacity >= Self.headerSize + minimum else {
            taken.release(remove: true)
            return nil
        }
        taken.start(at: seq, run: run)
        return taken
    }

    /// Removes the spare, which holds nothing.
    func dropSpare() {
        lock.lock()
        let dropped = spare
        spare = nil
        lock.unlock()
        dropped?.release(remove: true)
    }
}
