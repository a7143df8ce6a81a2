/// Writes a `JSON` value as text: compactly with ink's floats (what ink's own writer does), or in a `Format`
/// chosen for a file or a message (sorted keys, indented, doubles that read back exactly).
public enum JSONWriter {
    /// How a value is written.
    public struct Format: Sendable {
        /// Object members in key order rather than their own (files people read and diff).
        public var sortedKeys: Bool
        /// Two-space indentation and `"key" : value`, as Foundation's pretty printing.
        public var prettyPrinted: Bool
        /// Doubles in their shortest exact form (`0.1`, `1e-05`); otherwise as ink writes floats (single
        /// precision, always a decimal point, infinities as ±3.4E+38).
        public var exactDoubles: Bool

        public init(sortedKeys: Bool = false, prettyPrinted: Bool = false, exactDoubles: Bool = true) {
            self.sortedKeys = sortedKeys
            self.prettyPrinted = prettyPrinted
            self.exactDoubles = exactDoubles
        }

        /// Compact, member order kept, ink's floats.
        public static let ink = Format(exactDoubles: false)
    }

    /// Compact, as ink writes it.
    public static func write(_ value: JSON) -> String {
        write(value, format: .ink)
    }

    public static func write(_ value: JSON, format: Format) -> String {
        String(decoding: bytes(value, format: format), as: UTF8.self)
    }

    /// The value's UTF-8 text.
    public static func bytes(_ value: JSON, format: Format) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, format: format, indent: 0, into: &out)
        return out
    }

    private static func write(_ value: JSON, format: Format, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .int(i): out.append(contentsOf: String(i).utf8)
        case let .double(d): out.append(contentsOf: (format.exactDoubles ? exactDouble(d) : formatDouble(d)).utf8)
        case let .string(s): writeString(s, into: &out)
        case let .array(a):
            if a.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(format, indent + 1, &out)
                write(element, format: format, indent: indent + 1, into: &out)
            }
            newline(format, indent, &out)
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            let ordered = format.sortedKeys ? members.sorted { $0.0 < $1.0 } : members
            for (i, (key, element)) in ordered.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(format, indent + 1, &out)
                writeString(key, into: &out)
                out.append(contentsOf: (format.prettyPrinted ? " : " : ":").utf8)
                write(element, format: format, indent: indent + 1, into: &out)
            }
            newline(format, indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ format: Format, _ indent: Int, _ out: inout [UInt8]) {
        guard format.prettyPrinted else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// A float as ink writes it: single precision, infinities as ±3.4E+38, NaN as 0.0.
    static func formatDouble(_ d: Double) -> String {
        if d.isInfinite { return d > 0 ? "3.4E+38" : "-3.4E+38" }
        if d.isNaN { return "0.0" }
        let text = "\(Float(d))"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// A finite double in the shortest text that reads back as the same double (Swift's own); the coder
    /// refuses infinities and NaN before they get here.
    static func exactDouble(_ d: Double) -> String {
        guard d.isFinite else { return d.isNaN ? "0.0" : (d > 0 ? "1.7976931348623157e+308" : "-1.7976931348623157e+308") }
        return "\(d)"
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let utf8 = s.utf8
        // The common case, nothing to escape: the bytes as they are.
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case ..<0x20:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
