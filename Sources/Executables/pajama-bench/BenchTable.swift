import Foundation
import PajamaJSON

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
        func number(_ v: Double) -> JSON { v.isFinite ? .double(v) : .null }
        let list: [JSON] = rows.map { row in
            var item: [(String, JSON)] = [
                ("scenario", .string(row.scenario)), ("measure", .string(row.name)), ("unit", .string(row.unit.rawValue)),
                ("n", .int(row.stats.count)), ("median", number(row.stats.median)), ("p95", number(row.stats.p95)),
                ("p99", number(row.stats.p99)), ("min", number(row.stats.min)), ("max", number(row.stats.max)), ("note", .string(row.note)),
            ]
            if let b = row.baseline {
                item.append(("baseline", .string(b)))
                if let other = rows.first(where: { $0.scenario == row.scenario && $0.name == b }) {
                    item.append(("baseline_median_over_median", number(other.stats.median / row.stats.median)))
                }
            }
            if let t = row.target { item.append(("target", .string(t))) }
            if let m = row.met { item.append(("met", .bool(m))) }
            return .object(item)
        }
        let object = JSON.object([("machine", .object(machine.map { ($0.key, .string($0.value)) })), ("rows", .array(list))])
        return JSONWriter.write(object, format: JSONWriter.Format(sortedKeys: true, prettyPrinted: true))
    }
}
