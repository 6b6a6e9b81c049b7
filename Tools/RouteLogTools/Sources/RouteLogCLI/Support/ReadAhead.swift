import Foundation
@_spi(Tools) import RouteLogCore

/// Reads a session's events on a thread of its own, a few chunks ahead of the caller, so that
/// reading, checking and decoding the store overlaps with what the caller does with each event
/// (`log` folds and formats a million of them).
///
/// The caller does not read the store itself meanwhile: one thread at a time calls into LMDB, as
/// the store's watchdog counts the calls in progress (`LMDBProgress`) with plain loads and stores.
enum ReadAhead {
    /// Events handed over at a time, and chunks read ahead at most.
    static let chunkSize = 512, chunksAhead = 4

    /// Calls `body` with the events `from ... through` of session `id` in `log`, as
    /// ``EventLog/read(_:from:through:_:)`` does: the same events in the same order, and the
    /// error it throws after the same events; without their digests, as `readWithoutDigests`
    /// gives them (its caller, `log`, folds them itself). When `body` returns `false` (or
    /// throws), reading stops; what was read ahead is dropped, an error met there included.
    static func read(_ log: any EventLog, _ id: SessionID, from: UInt64, through: UInt64,
                     _ body: (StoredEvent) throws -> Bool) throws {
        try read(log, id, from: from, through: through, prepare: { _ in () }) { events, _ in
            for i in events.indices where try !body(events[i]) { return false }
            return true
        }
    }

    /// ``read(_:_:from:through:_:)`` a chunk of events at a time, each with what `prepare` made of
    /// it on the reading thread (work on the events that does not wait for the caller's).
    static func read<Prepared: Sendable>(_ log: any EventLog, _ id: SessionID, from: UInt64, through: UInt64,
                                         prepare: @escaping @Sendable ([StoredEvent]) -> Prepared,
                                         _ body: ([StoredEvent], Prepared) throws -> Bool) throws {
        let queue = Queue<Prepared>()
        let reader = Thread {
            var chunk: [StoredEvent] = []
            chunk.reserveCapacity(chunkSize)
            do {
                try log.readWithoutDigests(id, from: from, through: through) { e in
                    chunk.append(e)
                    guard chunk.count == chunkSize else { return true }
                    defer { chunk.removeAll(keepingCapacity: true) }
                    return queue.put((chunk, prepare(chunk)))
                }
                if !chunk.isEmpty { _ = queue.put((chunk, prepare(chunk))) }
                queue.finish(nil)
            } catch {
                // The events read before the error go first, as a plain read hands them over.
                if !chunk.isEmpty { _ = queue.put((chunk, prepare(chunk))) }
                queue.finish(error)
            }
        }
        // As much stack as the main thread has: decoding walks nested states.
        reader.stackSize = 8 << 20
        reader.start()
        defer { queue.cancel() }
        while let (events, prepared) = try queue.take() {
            if try !body(events, prepared) { return }
        }
    }

    /// The chunks between the reading thread and the caller: at most ``chunksAhead`` wait.
    private final class Queue<Prepared: Sendable>: @unchecked Sendable {
        typealias Chunk = (events: [StoredEvent], prepared: Prepared)
        // Every property is read and written with `condition` locked.
        private let condition = NSCondition()
        private var chunks: [Chunk] = []
        private var end: Result<Void, any Error>?
        private var cancelled = false

        /// Hands `chunk` over, waiting while the queue is full; `false` once the caller stopped.
        func put(_ chunk: Chunk) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while chunks.count >= ReadAhead.chunksAhead && !cancelled { condition.wait() }
            guard !cancelled else { return false }
            chunks.append(chunk)
            condition.broadcast()
            return true
        }

        /// Ends the reading: with the error the read threw, or `nil` when it read everything.
        func finish(_ error: (any Error)?) {
            condition.lock()
            defer { condition.unlock() }
            end = error.map { .failure($0) } ?? .success(())
            condition.broadcast()
        }

        /// The next chunk, waiting for it; `nil` after the last, or the read's error.
        func take() throws -> Chunk? {
            condition.lock()
            defer { condition.unlock() }
            while chunks.isEmpty && end == nil { condition.wait() }
            if !chunks.isEmpty {
                condition.broadcast()
                return chunks.removeFirst()
            }
            try end!.get()
            return nil
        }

        /// Stops the reading thread (it ends at its next chunk) and waits until it has ended, so
        /// that no read of the store outlives the caller's.
        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            chunks.removeAll()
            condition.broadcast()
            while end == nil { condition.wait() }
        }
    }
}
