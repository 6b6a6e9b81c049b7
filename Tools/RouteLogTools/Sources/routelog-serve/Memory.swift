import Foundation

/// Giving freed memory back to the system.
enum Memory {
    /// After a stream has sent a big session, the allocator keeps the freed chunk buffers in its
    /// arenas; on Linux, glibc's `malloc_trim` (looked up at run time: Swift's Glibc module does
    /// not declare it) returns them, so the server's memory goes back to its baseline.
    static func trim() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
        #endif
    }
}
