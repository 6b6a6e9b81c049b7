/// Renders a line diff of two texts in swift-custom-dump's style.
enum LineDiff {
    static func lines(_ s: String) -> [Substring] {
        var out: [Substring] = []
        let utf8 = s.utf8
        var start = utf8.startIndex
        var i = start
        while i != utf8.endIndex {
            if utf8[i] == 0x0A {
                out.append(s[start..<i])
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        out.append(s[start..<utf8.endIndex])
        return out
    }

    static func render(old: String, new: String, context: Int) -> String {
        let a = lines(old), b = lines(new)
        let ops = SequenceDiff.ops(a, b)
        // Which ops are shown: every edit, and the unchanged lines within `context` of one.
        let show = SequenceDiff.shown(ops, context: context) { if case .same = $0 { true } else { false } }
        var out: [String] = []
        var n = 0
        while n < ops.count {
            if !show[n] {
                var end = n
                while end < ops.count && !show[end] { end += 1 }
                let hidden = end - n
                if hidden == 1, case .same(let i, _) = ops[n] {
                    out.append("  " + a[i])
                } else if case .same(let i, _) = ops[n] {
                    out.append("  " + indentation(of: a[i]) + "… (\(hidden) unchanged)")
                }
                n = end
                continue
            }
            switch ops[n] {
            case .same(let i, _): out.append("  " + a[i])
            case .delete(let i): out.append("- " + a[i])
            case .insert(let j): out.append("+ " + b[j])
            }
            n += 1
        }
        return out.joined(separator: "\n")
    }

    static func indentation(of line: Substring) -> String {
        String(line.prefix { $0 == " " })
    }
}
