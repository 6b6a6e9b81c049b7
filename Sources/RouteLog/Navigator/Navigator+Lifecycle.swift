@_spi(Tools) import RouteLogCore

/// Suspension: an app in the background holds no file and no lock of its store.
///
/// iOS suspends an app when the user leaves it, and kills a suspended process that holds a lock
/// on a file in a shared container ("0xdead10cc"); it ends most runs by killing them while
/// suspended. A navigator on a store holds, while active, a lock on its session's writer file, a
/// lock on its journal and (through LMDB) locks on the store's lock file. ``suspend()`` lets go of
/// all of them; ``resume()`` takes them back and the same run of the same session goes on.
extension Navigator {
    /// Suspends the navigator before the app goes to the background (a scene's phase becoming
    /// `.background`, `sceneDidEnterBackground`, the end of an extension's request).
    ///
    /// It writes every pending event into the log (as ``flush()`` does), marks the run suspended
    /// in its journal and releases every file and lock it holds: the journal's, the session's
    /// writer lock and, when it was the last active navigator of its store in this process, the
    /// store itself (LMDB's files, map and locks). A process killed while suspended, as iOS ends
    /// most runs, ends its run `suspended`, not `crashed` (see `RunEnd`). The navigator keeps its
    /// state; reading it needs no file. A call while suspended (a background task) resumes it
    /// first.
    ///
    /// If the log cannot be written now, the pending events stay in the journal on disk, which the
    /// next read-write open of the store recovers; nothing that was called is lost.
    public func suspend() async {
        guard !isSuspended else { return }
        await flush()
        recorder.suspend()
        isSuspended = true
    }

    /// Resumes a suspended navigator (the scene becoming active again): the journal and the
    /// session's writer lock are taken back, the store opens again with the next write, and the
    /// same run of the same session goes on. A no-op when the navigator is not suspended.
    ///
    /// - Throws: what the journal or the log throws when they cannot be taken back (a store that
    ///   cannot be opened right now, a full disk). The navigator resumes all the same: calls work
    ///   in memory, ``recordingStatus`` says why recording waits, and the recorder retries.
    public func resume() throws {
        guard isSuspended else { return }
        isSuspended = false
        screensResumed()
        do {
            try recorder.resume()
        } catch {
            logger.error("resuming: \(error)", metadata: ["session": "\(session)"])
            throw error
        }
    }

    /// A call arrived while suspended: resume. A failure is logged by `resume()`; the call goes on
    /// in memory and the recorder retries.
    func resumeForCall() {
        try? resume()
    }
}
