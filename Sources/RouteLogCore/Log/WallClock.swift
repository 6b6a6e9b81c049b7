import Foundation

/// The wall clock the logs and the navigator stamp event metadata with, in milliseconds since
/// 1970-01-01T00:00:00Z. It reaches metadata only, never a state or a digest; tests pass a clock
/// of their own wherever one is taken.
public enum WallClock {
    /// The current time, in milliseconds since 1970.
    @Sendable public static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
