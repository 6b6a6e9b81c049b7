import Foundation
@_spi(Tools) import RouteLogCore

/// What runs a log's write transactions, one at a time, and the keeper of the heads of the
/// sessions they wrote.
///
/// Callers hand it jobs and block until their job is committed (or failed). A job that finds no
/// transaction running and none queued is written on its caller's thread; jobs that arrive while
/// a transaction is running are committed together in the next one, on the writer's own thread
/// (group commit). A job either throws before it writes anything (a conflict, an unknown session),
/// which fails only that job, or throws an ``LMDBError`` (or an ``Abort``, for a job that fails
/// after it has written), which aborts the whole group; the group is then retried job by job so
/// that one job's failure is reported to that caller alone. A full map is grown and the
/// group retried by ``LMDBEnvironment/withWriteTransaction(syncOnCommit:_:)``.
final class Writer: @unchecked Sendable {
    /// A job: writes in the group's transaction, reading and updating the heads it sees.
    typealias Body = (LMDBWriteTransaction, inout Heads) throws -> Void

    /// The heads of the sessions this log has written, as the transaction being written sees them:
    /// those committed before it, then what earlier jobs of the group put (a head they wrote, or
    /// `nil` for a session they deleted). The writer keeps the group's heads once it commits, so a
    /// job never needs an after-commit step of its own; a head that another handle or process made
    /// stale is caught by ``StoreContext/loadHead(_:_:_:_:)``, which checks it against the stored row.
    struct Heads {
        fileprivate let committed: [SessionID: SessionHead]
        fileprivate var changed: [SessionID: SessionHead?] = [:]

        subscript(id: SessionID) -> SessionHead? {
            get { changed[id] ?? committed[id] }
            set { changed.updateValue(newValue, forKey: id) }
        }
    }

    /// Thrown by a job that fails after it has written: aborts the group's transaction, as an
    /// ``LMDBError`` does, and its caller gets `error`.
    struct Abort: Error {
        let error: any Error
    }

    final class Job {
        /// Released before the caller is woken, so the writer thread never holds the last
        /// reference to what the body captured.
        var body: Body?
        let weight: Int
        var error: (any Error)?
        var isDone = false
        init(_ body: @escaping Body, weight: Int) {
            self.body = body
            self.weight = weight
        }
    }

    /// Unowned: the log owns the environment and stops the writer before releasing it.
    private unowned let environment: LMDBEnvironment
    private static let threadKey = "RouteLogLMDBWriter"
    private static var isWriterThread: Bool {
        get { Thread.current.threadDictionary[threadKey] != nil }
        set { Thread.current.threadDictionary[threadKey] = newValue ? true : nil }
    }
    private let syncOnCommit: Bool
    private let groupDelay: Duration?
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var stopping = false
    private var running = true
    private var syncScheduled = false
    /// A group is being written, by the writer thread or by a caller of ``perform(weight:_:)``:
    /// one at a time, so `heads` and the transaction are never shared.
    private var writing = false
    /// The committed heads (see ``Heads``); touched only by the thread that is `writing`.
    private var heads: [SessionID: SessionHead] = [:]
    /// At most this many events are written in one group transaction.
    private let maxGroupWeight = 100_000

    init(environment: LMDBEnvironment, durability: LMDBEventLog.Durability) {
        self.environment = environment
        switch durability {
        case .perEvent:
            syncOnCommit = true
            groupDelay = nil
        case .grouped(let delay):
            syncOnCommit = false
            groupDelay = delay
        case .none:
            syncOnCommit = false
            groupDelay = nil
        }
        let thread = Thread { [self] in
            Writer.isWriterThread = true
            loop()
        }
        thread.name = "RouteLog LMDB writer"
        thread.start()
    }

    /// Runs `body` in a write transaction and waits for the commit. When no group is being written
    /// and none waits, the caller's own thread writes it (a lone append then costs no hand-over to
    /// the writer thread and back: two thread wake-ups, about as long as a small commit), unless
    /// the caller asked for the hand-over (``/RouteLogCore/WriterHandOff``: the navigator's
    /// recorder does); otherwise it joins the next group on the writer thread.
    func perform(weight: Int, _ body: @escaping Body) throws {
        let handOff = WriterHandOff.isRequested
        condition.lock()
        precondition(!stopping, "append on a closed log")
        guard !handOff, !writing, queue.isEmpty else {
            condition.unlock()
            return try wait(for: submit(weight: weight, body))
        }
        writing = true
        condition.unlock()
        let job = Job(body, weight: weight)
        run([job])
        job.body = nil
        condition.lock()
        writing = false
        // Jobs that arrived meanwhile are the writer thread's next group (a stopping one was waiting).
        if !queue.isEmpty || stopping { condition.broadcast() }
        condition.unlock()
        if let error = job.error { throw error }
    }

    /// Hands `body` to the writer thread and returns at once, so that the caller can prepare its
    /// next job while this one is written; ``wait(for:)`` then waits for its commit.
    func submit(weight: Int, _ body: @escaping Body) -> Job {
        let job = Job(body, weight: weight)
        condition.lock()
        precondition(!stopping, "append on a closed log")
        queue.append(job)
        condition.broadcast()
        condition.unlock()
        return job
    }

    /// Waits until `job` (from ``submit(weight:_:)``) is committed, or rethrows why it failed.
    func wait(for job: Job) throws {
        condition.lock()
        while !job.isDone { condition.wait() }
        condition.unlock()
        if let error = job.error { throw error }
    }

    /// Finishes the queued jobs, flushes a pending grouped sync, and ends the thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        if Writer.isWriterThread {
            // Released on this thread (a job held the last reference): the loop ends by itself after this group.
            condition.unlock()
            return
        }
        while running { condition.wait() }
        let pendingSync = syncScheduled
        condition.unlock()
        if pendingSync { try? environment.sync(force: true) }
    }

    private func loop() {
        while true {
            condition.lock()
            // A caller's lone append is written first; a stopping writer finishes the queue.
            while writing || (queue.isEmpty && !stopping) { condition.wait() }
            if queue.isEmpty {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            var jobs: [Job] = []
            var weight = 0
            while let next = queue.first, jobs.isEmpty || weight + next.weight <= maxGroupWeight {
                jobs.append(queue.removeFirst())
                weight += next.weight
            }
            writing = true
            condition.unlock()
            run(jobs)
            for job in jobs { job.body = nil }
            condition.lock()
            writing = false
            for job in jobs { job.isDone = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    private func run(_ jobs: [Job]) {
        var group = Heads(committed: heads)
        do {
            try environment.withWriteTransaction(syncOnCommit: syncOnCommit) { txn in
                // Run again from the committed heads when the map grew.
                group = Heads(committed: heads)
                for job in jobs {
                    job.error = nil
                    do {
                        try job.body!(txn, &group)
                    } catch let error as LMDBError {
                        throw error
                    } catch let error as Abort {
                        throw error
                    } catch {
                        job.error = error
                    }
                }
            }
            for (id, head) in group.changed { heads[id] = head }
            scheduleSync()
        } catch {
            if jobs.count > 1 {
                for job in jobs { run([job]) }
            } else {
                jobs[0].error = (error as? LMDBError).map { LMDBEventLogError(writing: $0, to: environment) }
                    ?? (error as? Abort)?.error ?? error
            }
        }
    }

    /// With grouped durability, makes sure an `fsync` runs within the delay after this commit.
    private func scheduleSync() {
        guard let delay = groupDelay else { return }
        condition.lock()
        let schedule = !syncScheduled
        syncScheduled = true
        condition.unlock()
        guard schedule else { return }
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self, weak environment] in
            condition.lock()
            syncScheduled = false
            condition.unlock()
            try? environment?.sync(force: true)
        }
    }
}
