extension Substring {
    /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s, in time linear in their lengths
    /// (Knuth-Morris-Pratt: a naive search costs needle × haystack on near-misses).
    package static func find(_ needle: String, in haystack: String) -> Bool {
        if needle.isEmpty { return true }
        var n = needle, h = haystack
        return h.withUTF8 { hb in
            n.withUTF8 { nb in
                let m = nb.count
                guard m <= hb.count else { return false }
                // failure[i]: the length of the longest proper border of nb[0...i].
                var failure = [Int](repeating: 0, count: m)
                var k = 0
                for i in 1..<Swift.max(m, 1) {
                    while k > 0 && nb[i] != nb[k] { k = failure[k - 1] }
                    if nb[i] == nb[k] { k += 1 }
                    failure[i] = k
                }
                k = 0
                for b in hb {
                    while k > 0 && b != nb[k] { k = failure[k - 1] }
                    if b == nb[k] {
                        k += 1
                        if k == m { return true }
                    }
                }
                return false
            }
        }
    }
}
