import CDeflate
import FoundationEssentials
import Glibc

/// A .zip archive read from its file (PKWARE's APPNOTE: the central directory, then each entry's local
/// header and data), stored or deflated entries inflated by zlib, Zip64 sizes and offsets understood.
/// Only reading, only what installing a story needs: ZipExtraction checks every path and writes.
/// (In place of ZIPFoundation, which imports Foundation and so brought ICU's 34 MB into the binary.)
final class ZipArchive {
    struct Entry {
        enum Kind { case file, directory, symbolicLink }
        /// The entry's name as the archive gives it (UTF-8, or IBM PC code page 437 when not flagged UTF-8).
        var path: String
        var kind: Kind
        var method: UInt16
        var flags: UInt16
        var checksum: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
    }

    /// Why an archive or one of its entries cannot be read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    let entries: [Entry]
    private let fd: Int32
    private let size: UInt64

    init(path: String) throws(Failure) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Failure("not a regular file")
        }
        size = UInt64(info.st_size)
        do {
            entries = try Self.readDirectory(fd: fd, size: size)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Inflates `entry`, handing its bytes to `consume` in pieces of at most 64 KB; returns the CRC-32
    /// of all it handed out (to compare with `entry.checksum`). Stops at the first error `consume` throws.
    func extract(_ entry: Entry, _ consume: (ArraySlice<UInt8>) throws -> Void) throws -> UInt32 {
        if entry.flags & 1 != 0 { throw Failure("encrypted (Pajama reads only unencrypted archives)") }
        guard entry.method == 0 || entry.method == 8 else {
            throw Failure("compressed with method \(entry.method) (Pajama reads stored and deflated entries)")
        }
        let local = try Self.read(fd: fd, at: entry.localHeaderOffset, count: 30, size: size)
        guard local.u32(0) == 0x0403_4b50 else { throw Failure("its local header is missing") }
        var offset = entry.localHeaderOffset + 30 + UInt64(local.u16(26)) + UInt64(local.u16(28))
        let end = offset + entry.compressedSize
        guard end <= size else { throw Failure("its data runs past the end of the archive") }
        var crc = crc32(0, nil, 0)
        func hand(_ bytes: ArraySlice<UInt8>) throws {
            crc = bytes.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            try consume(bytes)
        }
        let chunk: UInt64 = 64 << 10
        if entry.method == 0 {
            while offset < end {
                let piece = try Self.read(fd: fd, at: offset, count: Int(min(chunk, end - offset)), size: size)
                try hand(piece[...])
                offset += UInt64(piece.count)
            }
            return UInt32(truncatingIfNeeded: crc)
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(chunk))
        var finished = false
        while !finished {
            guard offset < end else { throw Failure("its compressed data ends early") }
            var input = try Self.read(fd: fd, at: offset, count: Int(min(chunk, end - offset)), size: size)
            offset += UInt64(input.count)
            try input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                // Until this piece of input is used up and no output is left waiting (a full output
                // buffer may leave more behind).
                repeat {
                    let (status, produced) = output.withUnsafeMutableBufferPointer { outBuffer in
                        stream.next_out = outBuffer.baseAddress
                        stream.avail_out = uInt(outBuffer.count)
                        let status = inflate(&stream, Z_NO_FLUSH)
                        return (status, outBuffer.count - Int(stream.avail_out))
                    }
                    if produced > 0 { try hand(output[..<produced]) }
                    if status == Z_STREAM_END {
                        finished = true
                        break
                    }
                    guard status == Z_OK || (status == Z_BUF_ERROR && produced == 0 && stream.avail_in == 0) else {
                        throw Failure("its compressed data is damaged (zlib: \(stream.msg.map { String(cString: $0) } ?? "error \(status)"))")
                    }
                } while stream.avail_in > 0 || stream.avail_out == 0
                stream.next_in = nil
            }
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    // MARK: The central directory

    private static func readDirectory(fd: Int32, size: UInt64) throws(Failure) -> [Entry] {
        guard size >= 22 else { throw Failure("too short to be a .zip archive") }
        // The end-of-central-directory record: 22 bytes and a comment of up to 65,535, at the very end.
        let tailLength = Int(min(size, 22 + 65_535))
        let tail = try read(fd: fd, at: size - UInt64(tailLength), count: tailLength, size: size)
        guard let eocd = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.u32($0) == 0x0605_4b50 }) else {
            throw Failure("no end of central directory (not a .zip archive, or cut short)")
        }
        var count = UInt64(tail.u16(eocd + 10))
        var directorySize = UInt64(tail.u32(eocd + 12))
        var directoryOffset = UInt64(tail.u32(eocd + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // Zip64: a locator just before the record points at the Zip64 end-of-central-directory record.
            let locatorStart = size - UInt64(tailLength) + UInt64(eocd)
            guard locatorStart >= 20 else { throw Failure("a Zip64 archive without its Zip64 locator") }
            let locator = try read(fd: fd, at: locatorStart - 20, count: 20, size: size)
            guard locator.u32(0) == 0x0706_4b50 else { throw Failure("a Zip64 archive without its Zip64 locator") }
            let record = try read(fd: fd, at: locator.u64(8), count: 56, size: size)
            guard record.u32(0) == 0x0606_4b50 else { throw Failure("its Zip64 end of central directory is missing") }
            count = record.u64(32)
            directorySize = record.u64(40)
            directoryOffset = record.u64(48)
        }
        guard directoryOffset <= size, directorySize <= size - directoryOffset else {
            throw Failure("its central directory lies outside the file")
        }
        guard directorySize <= 64 << 20 else { throw Failure("its central directory is larger than 64 MB") }
        let directory = try read(fd: fd, at: directoryOffset, count: Int(directorySize), size: size)
        var entries: [Entry] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, directory.u32(at) == 0x0201_4b50 else {
                throw Failure("its central directory is damaged (entry \(entries.count + 1))")
            }
            let nameLength = Int(directory.u16(at + 28)), extraLength = Int(directory.u16(at + 30)), commentLength = Int(directory.u16(at + 32))
            guard at + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw Failure("its central directory is damaged (entry \(entries.count + 1))")
            }
            let flags = directory.u16(at + 8)
            let nameBytes = directory[(at + 46)..<(at + 46 + nameLength)]
            let path = flags & 0x800 != 0 ? String(decoding: nameBytes, as: UTF8.self) : (String(validating: nameBytes, as: UTF8.self) ?? cp437(nameBytes))
            var entry = Entry(
                path: path, kind: .file, method: directory.u16(at + 10), flags: flags, checksum: directory.u32(at + 16),
                compressedSize: UInt64(directory.u32(at + 20)), uncompressedSize: UInt64(directory.u32(at + 24)),
                localHeaderOffset: UInt64(directory.u32(at + 42)))
            readZip64(directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)], into: &entry)
            let madeOnUnix = directory[at + 5] == 3
            let mode = directory.u32(at + 38) >> 16
            if madeOnUnix, mode & UInt32(S_IFMT) == UInt32(S_IFLNK) {
                entry.kind = .symbolicLink
            } else if path.hasSuffix("/") || (madeOnUnix && mode & UInt32(S_IFMT) == UInt32(S_IFDIR)) {
                entry.kind = .directory
            }
            entries.append(entry)
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The Zip64 extra field (id 1) holds, in this order, each of the sizes and the offset that the
    /// directory entry marked 0xFFFFFFFF.
    private static func readZip64(_ extra: ArraySlice<UInt8>, into entry: inout Entry) {
        let bytes = Array(extra)
        var at = 0
        while at + 4 <= bytes.count {
            let id = bytes.u16(at), length = Int(bytes.u16(at + 2))
            guard at + 4 + length <= bytes.count else { return }
            if id == 1 {
                var field = at + 4
                func next() -> UInt64? {
                    guard field + 8 <= at + 4 + length else { return nil }
                    defer { field += 8 }
                    return bytes.u64(field)
                }
                if entry.uncompressedSize == 0xFFFF_FFFF, let value = next() { entry.uncompressedSize = value }
                if entry.compressedSize == 0xFFFF_FFFF, let value = next() { entry.compressedSize = value }
                if entry.localHeaderOffset == 0xFFFF_FFFF, let value = next() { entry.localHeaderOffset = value }
                return
            }
            at += 4 + length
        }
    }

    private static func read(fd: Int32, at offset: UInt64, count: Int, size: UInt64) throws(Failure) -> [UInt8] {
        guard offset <= size, UInt64(count) <= size - offset else { throw Failure("it points past its own end (damaged or cut short)") }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(n < 0 ? String(cString: strerror(errno)) : "it ends early (cut short)") }
            done += n
        }
        return bytes
    }

    /// A name in IBM PC code page 437, zip's encoding for names not flagged UTF-8.
    private static func cp437(_ bytes: ArraySlice<UInt8>) -> String {
        let high = Array("ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}".unicodeScalars)
        var text = String.UnicodeScalarView()
        for byte in bytes { text.append(byte < 0x80 ? Unicode.Scalar(byte) : high[Int(byte) - 0x80]) }
        return String(text)
    }
}

private extension Array where Element == UInt8 {
    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
