@_spi(Tools) import RouteLogCore

/// Line diffs for the CLI's text output: states are diffed as their tree renderings (the same
/// form `routelog state` prints); the addressed changes in JSON output come from ``StateDiff``.
enum Diffing {
    /// A `-`/`+` diff of two states' tree renderings, unchanged runs collapsed.
    static func text(_ a: NavigationState, _ b: NavigationState, context: Int = 2, out: Output) -> [String] {
        lines(Render.tree(a), Render.tree(b), context: context, out: out)
    }

    enum Op: Equatable { case same(String), removed(String), added(String) }

    /// A line diff (LCS after trimming the common prefix and suffix).
    static func lineOps(_ a: [String], _ b: [String]) -> [Op] {
        var pre = 0
        while pre < a.count, pre < b.count, a[pre] == b[pre] { pre += 1 }
        var suf = 0
        while suf < a.count - pre, suf < b.count - pre, a[a.count - 1 - suf] == b[b.count - 1 - suf] { suf += 1 }
        let ma = Array(a[pre..<(a.count - suf)]), mb = Array(b[pre..<(b.count - suf)])
        var ops: [Op] = a[0..<pre].map { .same($0) }
        if ma.count * mb.count > 4_000_000 {
            ops += ma.map { .removed($0) } + mb.map { .added($0) }
        } else {
            // lcs[i][j]: LCS length of ma[i...] and mb[j...].
            let n = ma.count, m = mb.count
            var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
            if n > 0 && m > 0 {
                for i in stride(from: n - 1, through: 0, by: -1) {
                    for j in stride(from: m - 1, through: 0, by: -1) {
                        lcs[i][j] = ma[i] == mb[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                    }
                }
            }
            var i = 0, j = 0
            while i < n || j < m {
                if i < n, j < m, ma[i] == mb[j] { ops.append(.same(ma[i])); i += 1; j += 1 }
                else if i < n, j == m || lcs[i + 1][j] >= lcs[i][j + 1] { ops.append(.removed(ma[i])); i += 1 }
                else { ops.append(.added(mb[j])); j += 1 }
            }
        }
        ops += a[(a.count - suf)...].map { .same($0) }
        return ops
    }

    /// Renders line ops, keeping `context` unchanged lines around each change and collapsing the rest.
    static func lines(_ a: [String], _ b: [String], context: Int = 2, out: Output) -> [String] {
        let ops = lineOps(a, b)
        var keep = [Bool](repeating: false, count: ops.count)
        for (i, op) in ops.enumerated() where op != .same(op.text) {
            for k in max(0, i - context)...min(ops.count - 1, i + context) { keep[k] = true }
        }
        var result: [String] = []
        var skipped = 0
        func flushSkipped() {
            if skipped > 0 { result.append(out.paint("  … (\(skipped) unchanged)", .dim)); skipped = 0 }
        }
        for (i, op) in ops.enumerated() {
            switch op {
            case .same(let s):
                if keep[i] { flushSkipped(); result.append("  " + s) } else { skipped += 1 }
            case .removed(let s): flushSkipped(); result.append(out.paint("- " + s, .red))
            case .added(let s): flushSkipped(); result.append(out.paint("+ " + s, .green))
            }
        }
        flushSkipped()
        return result
    }
}

extension Diffing.Op {
    var text: String {
        switch self {
        case .same(let s), .removed(let s), .added(let s): s
        }
    }
}
