import Foundation
import RouteLogCore

/// What a figure must reach.
public enum Target: Sendable {
    /// `value / baseline >= r`.
    case ratioAtLeast(Double)
    /// `value / baseline <= r`.
    case ratioAtMost(Double)
    /// `value <= v`, in the figure's unit.
    case valueAtMost(Double)
    /// `value >= v`, in the figure's unit.
    case valueAtLeast(Double)

    public var text: String {
        switch self {
        case .ratioAtLeast(let r): ">= \(Summary.format(r))x"
        case .ratioAtMost(let r): "<= \(Summary.format(r))x"
        case .valueAtMost(let v): "<= \(Summary.format(v))"
        case .valueAtLeast(let v): ">= \(Summary.format(v))"
        }
    }
}

/// One line of the benchmark table and one entry of the JSON summary.
public struct Figure: Sendable {
    public var name: String
    /// `nil` when the figure could not be measured (``note`` says why).
    public var value: Double?
    public var unit: String
    public var baseline: String?
    public var baselineValue: Double?
    public var target: Target?
    /// Events (or commits, or lookups) the figure was measured on.
    public var count: Int?
    /// Median over the runs, when there were several (``value`` is the best run).
    public var median: Double?
    public var runs: Int?
    public var note: String?

    public init(name: String, value: Double?, unit: String, baseline: String? = nil, baselineValue: Double? = nil,
                target: Target? = nil, count: Int? = nil, median: Double? = nil, runs: Int? = nil, note: String? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.baselineValue = baselineValue
        self.target = target
        self.count = count
        self.median = median
        self.runs = runs
        self.note = note
    }

    public var ratio: Double? {
        guard let value, let baselineValue, baselineValue != 0 else { return nil }
        return value / baselineValue
    }

    /// Whether the target is met; `nil` without a target or a value.
    public var met: Bool? {
        guard let target, let value else { return nil }
        switch target {
        case .ratioAtLeast(let r): return ratio.map { $0 >= r }
        case .ratioAtMost(let r): return ratio.map { $0 <= r }
        case .valueAtMost(let v): return value <= v
        case .valueAtLeast(let v): return value >= v
        }
    }
}

/// The table and the JSON summary.
public enum Summary {
    public static func format(_ x: Double) -> String {
        if x.isNaN { return "-" }
        let a = abs(x)
        if a == 0 { return "0" }
        // 999,700 rounds to three digits as 1.00M, not "1e+03k".
        if a >= 999_500 { return String(format: "%.3gM", x / 1e6) }
        if a >= 1e4 { return String(format: "%.3gk", x / 1e3) }
        if a >= 100 { return String(format: "%.0f", x) }
        if a >= 1 { return String(format: "%.3g", x) }
        if a >= 0.001 { return String(format: "%.3g", x) }
        return String(format: "%.2e", x)
    }

    /// A plain-text table of every figure.
    public static func table(_ figures: [Figure]) -> String {
        let header = ["figure", "value", "unit", "baseline", "ratio", "target", "met", "count", "note"]
        var rows = [header]
        for f in figures {
            rows.append([
                f.name,
                f.value.map(format) ?? "n/a",
                f.unit,
                f.baseline.map { b in f.baselineValue.map { "\(b) (\(format($0)))" } ?? b } ?? "-",
                f.ratio.map { String(format: "%.3g", $0) } ?? "-",
                f.target?.text ?? "-",
                f.met.map { $0 ? "yes" : "NO" } ?? "-",
                f.count.map { format(Double($0)) } ?? "-",
                f.note ?? "",
            ])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = ""
        for (n, r) in rows.enumerated() {
            var line = ""
            for (i, c) in r.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - c.count)
                line += i == 1 || i == 4 ? pad + c : c + (i == r.count - 1 ? "" : pad)
                if i < r.count - 1 { line += "  " }
            }
            out += line.trimmingCharacters(in: .whitespaces) + "\n"
            if n == 0 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        return out
    }

    /// The JSON summary: `{"figures": [{"name", "value", "unit", "baseline", "ratio", "target", …}], …}`.
    /// `baseline` names the baseline figure, `baselineValue` is its value, `ratio` is
    /// `value / baselineValue`, `target` the requirement as text, `met` whether it holds.
    public static func json(_ figures: [Figure], context: [String: String]) -> String {
        func num(_ x: Double?) -> String {
            guard let x, x.isFinite else { return "null" }
            if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
            return String(format: "%.6g", x)
        }
        func str(_ s: String?) -> String { s.map { JSONValue.string($0).canonicalText } ?? "null" }
        var entries: [String] = []
        for f in figures {
            let fields = [
                "\"name\": \(str(f.name))",
                "\"value\": \(num(f.value))",
                "\"unit\": \(str(f.unit))",
                "\"baseline\": \(str(f.baseline))",
                "\"baselineValue\": \(num(f.baselineValue))",
                "\"ratio\": \(num(f.ratio))",
                "\"target\": \(str(f.target?.text))",
                "\"met\": \(f.met.map { $0 ? "true" : "false" } ?? "null")",
                "\"count\": \(num(f.count.map(Double.init)))",
                "\"median\": \(num(f.median))",
                "\"runs\": \(num(f.runs.map(Double.init)))",
                "\"note\": \(str(f.note))",
            ]
            entries.append("    {" + fields.joined(separator: ", ") + "}")
        }
        let ctx = context.keys.sorted().map { "    \(str($0)): \(str(context[$0]))" }.joined(separator: ",\n")
        return "{\n  \"context\": {\n\(ctx)\n  },\n  \"figures\": [\n" + entries.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
