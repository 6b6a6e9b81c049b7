/// A minimal edit script between two sequences (Myers' O(ND) algorithm, linear-space variant).
///
/// Used for the line diff of rendered states and the alignment of two sessions' events.
enum SequenceDiff {
    /// One step of an edit script, with indices into the two inputs.
    enum Op: Hashable, Sendable {
        /// `a[i] == b[j]`.
        case same(Int, Int)
        /// `a[i]` is not in `b`.
        case delete(Int)
        /// `b[j]` is not in `a`.
        case insert(Int)
    }

    /// The default bound on the edit distance searched exactly in one step (see ``ops(_:_:costLimit:)``).
    static let defaultCostLimit = 512

    /// An edit script turning `a` into `b`. Deterministic; within each run of edits between two
    /// equal elements, deletions come before insertions.
    ///
    /// The script is a shortest one whenever the differences are moderate. When a step of the
    /// divide-and-conquer search would need an edit distance above `costLimit`, it splits at the
    /// furthest point reached instead (GNU diff's heuristic for expensive diffs): the script stays
    /// valid, may be longer than necessary there, and the cost stays near O((N + M) · costLimit)
    /// even for unrelated inputs.
    /// Which entries of an edit script a unified rendering shows: every edit, and the unchanged
    /// entries within `context` of one.
    static func shown<Entry>(_ entries: [Entry], context: Int, isSame: (Entry) -> Bool) -> [Bool] {
        var show = [Bool](repeating: false, count: entries.count)
        var lastEdit = Int.min / 2
        for (n, e) in entries.enumerated() {
            if isSame(e) { if n - lastEdit <= context { show[n] = true } } else { show[n] = true; lastEdit = n }
        }
        lastEdit = Int.max / 2
        for n in stride(from: entries.count - 1, through: 0, by: -1) {
            if isSame(entries[n]) { if lastEdit - n <= context { show[n] = true } } else { lastEdit = n }
        }
        return show
    }

    static func ops<T: Hashable>(_ a: [T], _ b: [T], costLimit: Int = defaultCostLimit) -> [Op] {
        normalized(script(a, b, costLimit: costLimit).ops)
    }

    /// The most diagonals the search of one script visits (2^26, a few tenths of a second). Past
    /// it, every part of the inputs still to be searched is aligned without a search: its common
    /// head and tail match, and the rest is removed and inserted. Two inputs that differ by up to a
    /// few thousand elements stay far below it.
    static let defaultStepBudget = 1 << 26

    /// An edit script and whether the search ran out of its step budget (the script is then
    /// valid but far from shortest in the parts left unsearched).
    struct Script {
        /// The edits in order; within a run of edits, deletions and insertions may interleave
        /// (``normalized(_:)`` puts deletions first).
        var ops: [Op]
        /// Whether the step budget ran out.
        var budgetExhausted: Bool
    }

    /// An edit script turning `a` into `b` (see ``ops(_:_:costLimit:)``), its search bounded by
    /// `stepBudget` diagonals in all.
    static func script<T: Hashable>(_ a: [T], _ b: [T], costLimit: Int = defaultCostLimit, stepBudget: Int = defaultStepBudget) -> Script {
        // Common prefix and suffix first: cheap, and usually almost everything.
        var lo = 0
        while lo < a.count && lo < b.count && a[lo] == b[lo] { lo += 1 }
        var tail = 0
        while tail < a.count - lo && tail < b.count - lo && a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        // Intern the middle elements so the inner loops compare integers.
        var ids: [T: Int] = [:]
        func intern(_ x: T) -> Int {
            if let id = ids[x] { return id }
            let id = ids.count
            ids[x] = id
            return id
        }
        let ia = a[lo..<(a.count - tail)].map(intern)
        let ib = b[lo..<(b.count - tail)].map(intern)
        return assemble(ia, ib, prefix: lo, suffix: tail, costLimit: costLimit, stepBudget: stepBudget)
    }

    /// The same for inputs already given as integers that are equal exactly when the elements are.
    static func script(ids a: [Int], _ b: [Int], costLimit: Int = defaultCostLimit, stepBudget: Int = defaultStepBudget) -> Script {
        var lo = 0
        while lo < a.count && lo < b.count && a[lo] == b[lo] { lo += 1 }
        var tail = 0
        while tail < a.count - lo && tail < b.count - lo && a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        if lo == 0 && tail == 0 { return assemble(a, b, prefix: 0, suffix: 0, costLimit: costLimit, stepBudget: stepBudget) }
        return assemble(Array(a[lo..<(a.count - tail)]), Array(b[lo..<(b.count - tail)]), prefix: lo, suffix: tail,
                        costLimit: costLimit, stepBudget: stepBudget)
    }

    /// The script of `prefix` equal elements, the middles `ia` and `ib`, and `suffix` equal elements.
    private static func assemble(_ ia: [Int], _ ib: [Int], prefix lo: Int, suffix tail: Int, costLimit: Int, stepBudget: Int) -> Script {
        var raw: [Op] = []
        raw.reserveCapacity(lo + tail + max(ia.count, ib.count))
        for i in 0..<lo { raw.append(.same(i, i)) }
        var search = Search(a: ia, b: ib, offset: lo, limit: max(1, costLimit), budget: stepBudget)
        search.diff(0, ia.count, 0, ib.count, into: &raw)
        let aCount = lo + ia.count + tail, bCount = lo + ib.count + tail
        for k in 0..<tail { raw.append(.same(aCount - tail + k, bCount - tail + k)) }
        return Script(ops: raw, budgetExhausted: search.budget <= 0)
    }

    /// Reorders each run of edits so that deletions come first (both keep their order).
    static func normalized(_ ops: [Op]) -> [Op] {
        var out: [Op] = []
        out.reserveCapacity(ops.count)
        var dels: [Op] = []
        var ins: [Op] = []
        func flush() {
            out += dels
            out += ins
            dels.removeAll(keepingCapacity: true)
            ins.removeAll(keepingCapacity: true)
        }
        for op in ops {
            switch op {
            case .same: flush(); out.append(op)
            case .delete: dels.append(op)
            case .insert: ins.append(op)
            }
        }
        flush()
        return out
    }

    /// The divide-and-conquer search on two interned inputs; ops carry indices shifted by `offset`.
    private struct Search {
        let a: [Int]
        let b: [Int]
        let offset: Int
        let limit: Int
        /// Diagonals the search may still visit.
        var budget: Int

    mutating func diff(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int, into out: inout [Op]) {
        var aLo = aLo, bLo = bLo, aHi = aHi, bHi = bHi
        // Common prefix.
        while aLo < aHi && bLo < bHi && a[aLo] == b[bLo] {
            out.append(.same(aLo + offset, bLo + offset))
            aLo += 1
            bLo += 1
        }
        // Common suffix (emitted after the middle).
        var suffixCount = 0
        while aLo < aHi && bLo < bHi && a[aHi - 1] == b[bHi - 1] {
            aHi -= 1
            bHi -= 1
            suffixCount += 1
        }
        defer { for k in 0..<suffixCount { out.append(.same(aHi + k + offset, bHi + k + offset)) } }

        if aLo == aHi {
            for j in bLo..<bHi { out.append(.insert(j + offset)) }
            return
        }
        if bLo == bHi {
            for i in aLo..<aHi { out.append(.delete(i + offset)) }
            return
        }
        if budget > 0, let (x, y) = middle(aLo, aHi, bLo, bHi) {
            diff(aLo, x, bLo, y, into: &out)
            diff(x, aHi, y, bHi, into: &out)
        } else {
            for i in aLo..<aHi { out.append(.delete(i + offset)) }
            for j in bLo..<bHi { out.append(.insert(j + offset)) }
        }
    }

    /// Finds the middle snake of a shortest edit path and returns a split point strictly
    /// inside the box, so both halves are smaller than the whole.
    mutating func middle(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int) -> (Int, Int)? {
        let n = aHi - aLo, m = bHi - bLo
        let exactD = (n + m + 1) / 2
        // Each step d visits up to 2(d + 1) diagonals: stop where the budget would run out.
        var maxD = min(exactD, limit)
        if maxD * (maxD + 1) > budget { maxD = max(1, Int(Double(budget).squareRoot())) }
        var visited = 0
        defer { budget -= visited }
        let vOffset = maxD
        let vLength = 2 * maxD + 2
        var v1 = [Int](repeating: -1, count: vLength)
        var v2 = [Int](repeating: -1, count: vLength)
        v1[vOffset + 1] = 0
        v2[vOffset + 1] = 0
        let delta = n - m
        let front = delta % 2 != 0
        var k1start = 0, k1end = 0, k2start = 0, k2end = 0
        for d in 0..<maxD {
            visited += 2 * (d + 1)
            var k1 = -d + k1start
            while k1 <= d - k1end {
                let k1o = vOffset + k1
                let (x1, y1) = Self.reach(&v1, at: k1o, diagonal: k1, step: d, n: n, m: m) { a[aLo + $0] == b[bLo + $1] }
                if x1 > n {
                    k1end += 2
                } else if y1 > m {
                    k1start += 2
                } else if front {
                    let k2o = vOffset + delta - k1
                    if k2o >= 0 && k2o < vLength && v2[k2o] != -1 {
                        let x2 = n - v2[k2o]
                        if x1 >= x2 { return Self.split(x1, y1, n, m, aLo, bLo) }
                    }
                }
                k1 += 2
            }
            var k2 = -d + k2start
            while k2 <= d - k2end {
                let k2o = vOffset + k2
                let (x2, y2) = Self.reach(&v2, at: k2o, diagonal: k2, step: d, n: n, m: m) { a[aLo + n - $0 - 1] == b[bLo + m - $1 - 1] }
                if x2 > n {
                    k2end += 2
                } else if y2 > m {
                    k2start += 2
                } else if !front {
                    let k1o = vOffset + delta - k2
                    if k1o >= 0 && k1o < vLength && v1[k1o] != -1 {
                        let x1 = v1[k1o]
                        let y1 = vOffset + x1 - k1o
                        if x1 >= n - x2 { return Self.split(x1, y1, n, m, aLo, bLo) }
                    }
                }
                k2 += 2
            }
        }
        guard maxD < exactD else { return nil }
        // Too expensive: split at the furthest point either search reached. Any point in the box
        // gives a valid script; this one keeps the part already matched.
        let d = maxD - 1
        var best: (score: Int, x: Int, y: Int)?
        var k = -d + k1start
        while k <= d - k1end {
            let x = v1[vOffset + k], y = x - k
            if x >= 0, x <= n, y >= 0, y <= m, best == nil || x + y > best!.score { best = (x + y, x, y) }
            k += 2
        }
        k = -d + k2start
        while k <= d - k2end {
            let x = v2[vOffset + k], y = x - k
            if x >= 0, x <= n, y >= 0, y <= m, best == nil || x + y > best!.score { best = (x + y, n - x, m - y) }
            k += 2
        }
        if let best, let point = Self.split(best.x, best.y, n, m, aLo, bLo) { return point }
        return Self.split(n / 2, m / 2, n, m, aLo, bLo) ?? (aLo + n / 2, bLo + (m + 1) / 2)
    }

    /// Step `step` of one direction's search on `diagonal` (stored at `v[at]`): from the furthest
    /// point the previous step reached on a neighbouring diagonal, along the snake of equal
    /// elements (`same(x, y)`, in that direction's coordinates). Stores and returns the point
    /// reached.
    @inline(__always)
    static func reach(_ v: inout [Int], at ko: Int, diagonal k: Int, step d: Int, n: Int, m: Int,
                      same: (Int, Int) -> Bool) -> (x: Int, y: Int) {
        var x = (k == -d || (k != d && v[ko - 1] < v[ko + 1])) ? v[ko + 1] : v[ko - 1] + 1
        var y = x - k
        while x < n && y < m && same(x, y) {
            x += 1
            y += 1
        }
        v[ko] = x
        return (x, y)
    }

    static func split(_ x: Int, _ y: Int, _ n: Int, _ m: Int, _ aLo: Int, _ bLo: Int) -> (Int, Int)? {
        // A split on the box's corner would not make progress; fall back (never expected).
        if (x == 0 && y == 0) || (x == n && y == m) { return nil }
        return (aLo + x, bLo + y)
    }
    }
}
