import Foundation
@_spi(Benchmarks) @_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogBenchSupport
@_spi(Tools) import RouteLogLMDB

// The navigator workloads of routelog-profile: calls on the main actor on an LMDB store with its
// journal, for `perf record` and `valgrind --tool=callgrind` (`navigator`: payloads repeat), and
// for what the process keeps (`navigator-distinct`: a payload no other call has on every route;
// `-paced`: the recorder writes each event before the next call, as in an app whose calls come
// far apart). Environment: PROFILE_TIMED (calls timed one by one after COUNT, default 100,000),
// PROFILE_SAMPLES (print RssAnon every 100,000 calls), PROFILE_CATCH_UP (the recorder catches up
// after every 10,000 calls).

/// A mix of pushes, sheets, alerts, dismissals and pops (the navigator figures' steps);
/// `distinct` gives every call's route a payload no other call has (an episode id and a title),
/// else payloads repeat.
@MainActor
func profileCall(_ nav: Navigator<BenchRoute>, _ i: Int, distinct: Bool) {
    let k = distinct ? i : i % 64
    navigatorStep(nav, i, push: { _ in .episode(id: k, title: "Episode \(k): a title of realistic length") },
                  sheet: { _ in .show(name: "Show \(k)", season: i % 7) }, alert: { _ in .alert(message: "Download \(k) finished") })
}

/// glibc's allocator, arena by arena (`malloc_info`, looked up at run time: Swift's Glibc module
/// does not declare it): each arena's system bytes and free bytes, then the totals.
func mallocArenas() -> String {
    #if os(Linux)
    typealias Info = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(nil, "malloc_info"), let f = tmpfile() else { return "" }
    defer { fclose(f) }
    _ = unsafeBitCast(symbol, to: Info.self)(0, f)
    rewind(f)
    var xml = ""
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), f) != nil {
        xml += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    func attribute(_ line: Substring, _ name: String) -> Int {
        guard let r = line.range(of: name + "=\"") else { return 0 }
        return Int(line[r.upperBound...].prefix { $0 != "\"" }) ?? 0
    }
    var out: [String] = [], free = 0, heap = "total"
    for line in xml.split(separator: "\n") {
        if line.contains("<heap nr=") { heap = "arena \(attribute(line, "nr"))"; free = 0 }
        if line.contains("<total type=\"fast\"") || line.contains("<total type=\"rest\"") { free += attribute(line, "size") }
        if line.contains("<total type=\"mmap\"") { out.append("mmapped chunks: \(attribute(line, "count")), \(attribute(line, "size") / 1024) KiB") }
        if line.contains("<system type=\"current\"") {
            let system = attribute(line, "size")
            out.append("\(heap): \(system / 1024) KiB, \(free / 1024) KiB free")
            heap = "total"; free = 0
        }
    }
    return out.joined(separator: "; ")
    #else
    return ""
    #endif
}

/// The anonymous KiB of each mapping of the process (`/proc/self/smaps`), by its address range
/// and name.
func anonymousMappings() -> [String: Int] {
    guard let text = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return [:] }
    var out: [String: Int] = [:], current = ""
    for line in text.split(separator: "\n") {
        if let first = line.first, first.isHexDigit, line.contains("-") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            current = String(parts[0]) + (parts.count > 5 ? " " + parts[5...].joined(separator: " ") : "")
        } else if line.hasPrefix("Anonymous:") {
            out[current] = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
    }
    return out
}

/// This thread's CPU time in µs.
func threadCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
}

func rssAnon() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("RssAnon:") {
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0) * 1024
    }
    return 0
}

@MainActor
func profileNavigator(count: Int, dir: String, distinct: Bool, paced: Bool = false) throws {
    try? FileManager.default.removeItem(atPath: dir)
    let store = try LMDBEventLog.open(at: dir)
    let nav = try Navigator<BenchRoute>(log: store)
    let anon0 = rssAnon(), heap0 = mallocArenas(), maps0 = anonymousMappings()
    let clock = ContinuousClock()
    let catchUp = ProcessInfo.processInfo.environment["PROFILE_CATCH_UP"] != nil
    var done = 0
    let t = clock.measure {
        while done < count {
            let end = min(count, done + 10_000)
            for i in done..<end {
                profileCall(nav, i, distinct: distinct)
                // Paced: the recorder writes each call's event before the next call, as in an app
                // whose calls come far apart.
                while paced && nav.recordingStatus.pendingCount > 0 { usleep(20) }
            }
            done = end
            // Caught up: the recorder writes each burst before the next one, as the benchmark's
            // navigator-memory-1M lets it.
            while catchUp && nav.recordingStatus.pendingCount > 0 { usleep(100) }
            if ProcessInfo.processInfo.environment["PROFILE_SAMPLES"] != nil && done % 100_000 == 0 {
                while nav.recordingStatus.pendingCount > 0 { usleep(100) }
                print("  after \(done) calls: RssAnon +\((rssAnon() - anon0) / 1024) KiB")
            }
        }
    }
    // Each of PROFILE_TIMED more calls (100,000 by default) timed alone on the monotonic clock,
    // as the benchmark's navigator-call figures are.
    let timed = ProcessInfo.processInfo.environment["PROFILE_TIMED"].flatMap { Int($0) } ?? 100_000
    var times: [Double] = []
    times.reserveCapacity(timed)
    let cpu0 = threadCPU()
    for i in count..<(count + timed) {
        let t0 = clock.now
        profileCall(nav, i, distinct: distinct)
        times.append((clock.now - t0).seconds * 1e6)
        while paced && nav.recordingStatus.pendingCount > 0 { usleep(20) }
    }
    let cpu = (threadCPU() - cpu0) / Double(timed)
    times.sort()
    print(String(format: "CPU time of the main thread per timed call: %.3f µs (mean)", cpu))
    print(String(format: "per call (%d more, each timed): p50 %.3f µs, p99 %.2f µs, p999 %.2f µs", timed, times[timed / 2], times[timed * 99 / 100], times[timed * 999 / 1000]))
    // What flush() waits for, without an async main (valgrind cannot run one).
    while nav.recordingStatus.pendingCount > 0 { usleep(100) }
    let anon1 = rssAnon(), heap1 = mallocArenas()
    print("navigator\(distinct ? "-distinct" : ""): \(count) calls in \(String(format: "%.3f", t.seconds)) s = "
        + "\(String(format: "%.2f", t.seconds * 1e6 / Double(count))) µs a call")
    print("RssAnon \(anon0 / 1024) KiB before, \(anon1 / 1024) KiB once the recorder caught up: +\(String(format: "%.2f", Double(anon1 - anon0) / 1e6)) MB, "
        + "\(String(format: "%.1f", Double(anon1 - anon0) / Double(count))) bytes a call")
    let maps1 = anonymousMappings()
    for (range, kib) in maps1.sorted(by: { $0.key < $1.key }) where kib - (maps0[range] ?? 0) >= 64 {
        print("  mapping \(range): \(maps0[range] ?? 0) → \(kib) KiB anonymous")
    }
    print("malloc before: \(heap0)")
    print("malloc after:  \(heap1)")
    let f = nav.memoryFootprint
    print("history \(f.historyEvents) events, \(f.historyCheckpoints) checkpoints, \(f.cachedRoutes) cached routes, \(f.unwrittenEvents) unwritten")
    try? FileManager.default.removeItem(atPath: dir)
}
