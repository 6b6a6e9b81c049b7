/// A fixed, specified 128-bit streaming hash (two 64-bit multiply-rotate lanes with a murmur3
/// finalizer). Stable across runs and platforms; not cryptographic.
public struct StableHasher {
    @usableFromInline var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    @usableFromInline var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    @usableFromInline var count: UInt64 = 0

    @inlinable public init() {}

    @inlinable public mutating func combine(_ w: UInt64) {
        a = ((a ^ w) &* 0x87C3_7B91_1142_53D5)
        a = (a << 31) | (a >> 33)
        b = ((b ^ w) &* 0x4CF5_AD43_2745_937F)
        b = (b << 29) | (b >> 35)
        b = b &+ a
        count &+= 1
    }

    @inlinable public mutating func combine(_ s: String) {
        // Native strings (small or not) lend their UTF-8 directly; only bridged ones are copied.
        if s.utf8.withContiguousStorageIfAvailable({ combine(bytes: $0) }) != nil { return }
        var s = s
        s.withUTF8 { combine(bytes: $0) }
    }

    @inlinable public mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        combine(UInt64(bytes.count))
        var i = 0
        let n = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n {
                // Words are read little-endian whatever the host, so digests are the same everywhere.
                combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                i += 8
            }
        }
        if i < n, let base = bytes.baseAddress {
            // The last 1...7 bytes, as a little-endian word padded with zeros.
            var w: UInt64 = 0
            withUnsafeMutableBytes(of: &w) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + i, count: n - i)) }
            combine(UInt64(littleEndian: w))
        }
    }

    @inlinable static func fmix(_ k: UInt64) -> UInt64 {
        var k = k
        k ^= k >> 33
        k = k &* 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k = k &* 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }

    @inlinable public func finalize() -> Digest {
        let x = StableHasher.fmix(a ^ count)
        let y = StableHasher.fmix(b &+ x)
        return Digest(hi: StableHasher.fmix(x &+ y), lo: y)
    }
}
