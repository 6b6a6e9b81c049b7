@_spi(Tools) import RouteLogCore

// The recording's status as the navigator shows it, beside Navigator.swift: the recorder's
// failures and recoveries, what was reported at launch about the store, and `flush()`.

extension Navigator {
    func connectRecorder() {
        recorder.setOnChange { [weak self] in
            Task { @MainActor in self?.refreshRecordingStatus() }
        }
    }

    private func refreshRecordingStatus() {
        let error = recorder.status.error ?? startupError
        if error != recordingError { recordingError = error }
    }

    /// Reports that the store was moved aside and replaced at launch.
    func report(_ recovery: StoreRecovery) {
        startupError = RecordingError(message: recovery.description, firstUnwrittenSeq: headSeq + 1, diverged: false)
        refreshRecordingStatus()
    }

    /// Reports that the store could not be opened at launch (until it opens).
    func reportUnavailableStore(_ store: String, _ error: any Error) {
        startupError = RecordingError(message: "the store \(store) cannot be opened yet (\(error)); navigation is kept in memory and recorded once it opens",
                                      firstUnwrittenSeq: headSeq + 1, diverged: false)
        refreshRecordingStatus()
    }

    /// The pending store opened: what was reported at launch no longer holds.
    func storeOpened() {
        startupError = nil
        refreshRecordingStatus()
    }

    /// The recorder's progress: what the log holds, what is pending, the current failure.
    public var recordingStatus: RecordingStatus { recorder.status }

    /// Waits until the recorder has tried to write every pending event (even during an outage)
    /// and updates ``recordingError``. Apps rarely need this; tests and the end of a scripted
    /// run do.
    public func flush() async {
        if let screens { sendScreenRecords(screens, urgent: false, now: clock()) }
        await recorder.flush()
        refreshRecordingStatus()
    }
}
