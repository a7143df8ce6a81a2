/// Writes JSON compactly, as ink's own writer does (floats always carry a decimal point).
public enum JSONWriter {
    public static func write(_ value: JSON) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: JSON, into out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .int(i): out += String(i)
        case let .double(d): out += formatDouble(d)
        case let .string(s): writeString(s, into: &out)
        case let .array(a):
            out += "["
            for (i, element) in a.enumerated() {
                if i > 0 { out += "," }
                write(element, into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, (key, element)) in members.enumerated() {
                if i > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                write(element, into: &out)
            }
            out += "}"
        }
    }

    /// A float as ink writes it: single precision, infinities as ±3.4E+38, NaN as 0.0.
    static func formatDouble(_ d: Double) -> String {
        if d.isInfinite { return d > 0 ? "3.4E+38" : "-3.4E+38" }
        if d.isNaN { return "0.0" }
        let text = "\(Float(d))"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
