import Foundation

/// Prints rows as an aligned text table or as JSON.
enum BenchTable {
    static func text(_ rows: [BenchRow]) -> String {
        let header = ["scenario", "measure", "n", "median", "p95", "p99", "min", "max", "vs baseline", "target", "met", "note"]
        var lines: [[String]] = [header]
        for row in rows {
            var ratio = ""
            if let base = row.baseline, let other = rows.first(where: { $0.scenario == row.scenario && $0.name == base }) {
                ratio = Format.ratio(baseline: other.stats.median, value: row.stats.median)
            }
            let met = row.met.map { $0 ? "yes" : "NO" } ?? ""
            lines.append([
                row.scenario, row.name, String(row.stats.count), Format.value(row.stats.median, row.unit),
                Format.value(row.stats.p95, row.unit), Format.value(row.stats.p99, row.unit),
                Format.value(row.stats.min, row.unit), Format.value(row.stats.max, row.unit), ratio,
                row.target ?? "", met, row.note,
            ])
        }
        let widths = (0..<header.count).map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { $1.padded(widths[$0]) }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    static func json(_ rows: [BenchRow], machine: [String: String]) -> String {
        func number(_ v: Double) -> Any { v.isFinite ? v : NSNull() }
        let list: [[String: Any]] = rows.map { row in
            var item: [String: Any] = [
                "scenario": row.scenario, "measure": row.name, "unit": row.unit.rawValue, "n": row.stats.count,
                "median": number(row.stats.median), "p95": number(row.stats.p95), "p99": number(row.stats.p99),
                "min": number(row.stats.min), "max": number(row.stats.max), "note": row.note,
            ]
            if let b = row.baseline {
                item["baseline"] = b
                if let other = rows.first(where: { $0.scenario == row.scenario && $0.name == b }) {
                    item["baseline_median_over_median"] = number(other.stats.median / row.stats.median)
                }
            }
            if let t = row.target { item["target"] = t }
            if let m = row.met { item["met"] = m }
            return item
        }
        let object: [String: Any] = ["machine": machine, "rows": list]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
