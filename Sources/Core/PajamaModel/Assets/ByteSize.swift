import FoundationEssentials
import Glibc
import PajamaBasics

/// Sizes for people: "100 bytes", "2 KB", "1.5 MB" (1 KB = 1,024 bytes; one decimal, dropped when it is 0).
public enum ByteSize {
    public static func text(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        if bytes < 1024 * 1024 { return number(Double(bytes) / 1024) + " KB" }
        return number(Double(bytes) / (1024 * 1024)) + " MB"
    }

    private static func number(_ value: Double) -> String {
        let text = cFormat("%.1f", value)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
