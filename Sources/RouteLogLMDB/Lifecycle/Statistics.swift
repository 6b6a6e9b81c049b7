import Foundation
@_spi(Tools) import RouteLogCore

extension LMDBEventLog {
    /// Counts and sizes of a store.
    public struct Statistics: Hashable, Sendable {
        public var sessions: Int
        public var events: UInt64
        /// The size of `data.mdb`.
        public var fileBytes: Int
        /// The bytes of the pages the databases use (see ``Retention/maxBytes``).
        public var liveBytes: Int
        /// Pages on LMDB's free list, reused by later writes.
        public var freePages: Int
        public var pageSize: Int
        public var mapSize: Int
        /// The first and last session in entry order.
        public var oldest: SessionInfo?
        public var newest: SessionInfo?

        /// `data.mdb`'s bytes per stored event (0 without events).
        public var bytesPerEvent: Double { events == 0 ? 0 : Double(fileBytes) / Double(events) }
    }
}

extension StoreLifecycle {
    /// The store's counts and sizes, from one read transaction.
    func statistics() throws -> LMDBEventLog.Statistics {
        let path = context.path
        let space = try context.withRead("reading the statistics of \(path)") { _ in try context.environment.spaceInfo() }
        return try context.withRead("reading the statistics of \(path)") { txn in
            let all = try context.sessions(txn)
            let file = LMDBEventLog.bytesOnDisk(at: path)
            return LMDBEventLog.Statistics(sessions: all.count, events: all.reduce(0) { $0 + $1.eventCount }, fileBytes: file,
                              liveBytes: try liveBytes(txn), freePages: space.freePages, pageSize: space.pageSize,
                              mapSize: space.mapSize, oldest: all.first, newest: all.last)
        }
    }
}
