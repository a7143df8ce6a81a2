import Glibc

/// `printf`-style formatting of numbers (`%.1f`, `%02x`, `%5d`...), as Foundation's `String(format:)` does
/// it for them, through the C library's `vsnprintf` (the C locale: a point, never a comma). Only C's own
/// conversions: `%@` (an object) has no meaning here.
public func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        guard needed >= buffer.count else { return String(decoding: buffer.prefix(max(0, needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        buffer = [CChar](repeating: 0, count: needed + 1)
        return withVaList(arguments) { again in
            _ = vsnprintf(&buffer, buffer.count, format, again)
            return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
