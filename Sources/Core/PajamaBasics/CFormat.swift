#if canImport(Glibc)
import Glibc
#endif

/// C's printf formatting (`%.1f`, `%02x`, `%06x`), for the handful of numbers the product formats so;
/// Foundation's `String(format:)` is not in FoundationEssentials. Only numeric conversions: `%@` and `%s`
/// are not for this.
public func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        // vsnprintf consumes its va_list: a second call (for a longer buffer) needs a fresh one.
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        if needed < buffer.count { return String(decoding: buffer.prefix(max(needed, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return withVaList(arguments) { again in
            var larger = [CChar](repeating: 0, count: needed + 1)
            _ = vsnprintf(&larger, larger.count, format, again)
            return String(decoding: larger.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
