import CDeflate
#if canImport(Glibc)
import Glibc
#endif

/// A .zip archive read in process on zlib (which the pictures already link), entry by entry: its central
/// directory listed first, then each entry's bytes inflated in 64 KB pieces, their CRC-32 computed as they
/// come. Stored (0) and deflated (8) entries, ZIP64 sizes and offsets; no encryption, no multi-disk
/// archives (each refused in words). It replaces ZIPFoundation, whose `import Foundation` brought ICU's
/// 34 MB of data into the binary (docs/install.md, "Size").
final class ZipArchive {
    struct Entry {
        enum Kind { case file, directory, symbolicLink }
        let path: String
        let kind: Kind
        let method: UInt16
        let flags: UInt16
        let checksum: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let entries: [Entry]
    private let descriptor: Int32
    private let size: UInt64

    init(path: String) throws(Failure) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var facts = stat()
        guard fstat(descriptor, &facts) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: reason)
        }
        size = UInt64(facts.st_size)
        do {
            entries = try Self.centralDirectory(descriptor, size: size)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Inflates `entry`, handing its bytes to `consume` in pieces of at most 64 KB; returns their CRC-32.
    /// Stops at the entry's declared size: an entry that inflates to more is refused.
    func extract(_ entry: Entry, _ consume: (ArraySlice<UInt8>) throws -> Void) throws -> UInt32 {
        guard entry.flags & 1 == 0 else { throw Failure(description: "encrypted, which Pajama does not read") }
        let local = try read(at: entry.localHeaderOffset, count: 30)
        guard Self.u32(local, 0) == 0x0403_4B50 else { throw Failure(description: "its local header is missing") }
        var offset = entry.localHeaderOffset + 30 + UInt64(Self.u16(local, 26)) + UInt64(Self.u16(local, 28))
        let end = offset + entry.compressedSize
        guard end <= size else { throw Failure(description: "its data runs past the end of the archive") }
        var crc = crc32(0, nil, 0)
        var produced: UInt64 = 0
        func hand(_ piece: ArraySlice<UInt8>) throws {
            produced += UInt64(piece.count)
            guard produced <= entry.uncompressedSize else { throw Failure(description: "it inflates to more than its declared \(entry.uncompressedSize) bytes") }
            crc = piece.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            try consume(piece)
        }
        switch entry.method {
        case 0:
            while offset < end {
                let piece = try read(at: offset, count: Int(min(UInt64(Self.piece), end - offset)))
                try hand(piece[...])
                offset += UInt64(piece.count)
            }
        case 8:
            var stream = z_stream()
            guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw Failure(description: "zlib could not start")
            }
            defer { inflateEnd(&stream) }
            var output = [UInt8](repeating: 0, count: Self.piece)
            var status = Z_OK
            while status != Z_STREAM_END {
                var input = try read(at: offset, count: Int(min(UInt64(Self.piece), end - offset)))
                offset += UInt64(input.count)
                let flush = offset >= end ? Z_FINISH : Z_NO_FLUSH
                try input.withUnsafeMutableBufferPointer { inputBuffer in
                    stream.next_in = inputBuffer.baseAddress
                    stream.avail_in = uInt(inputBuffer.count)
                    repeat {
                        let made = output.withUnsafeMutableBufferPointer { outputBuffer -> Int in
                            stream.next_out = outputBuffer.baseAddress
                            stream.avail_out = uInt(outputBuffer.count)
                            status = inflate(&stream, flush)
                            return outputBuffer.count - Int(stream.avail_out)
                        }
                        if status == Z_BUF_ERROR, made == 0 { break }  // needs more input (or it ends early: below)
                        guard status == Z_OK || status == Z_STREAM_END else {
                            throw Failure(description: "its deflated data is damaged (zlib \(status))")
                        }
                        if made > 0 { try hand(output[..<made]) }
                    } while stream.avail_out == 0 && status != Z_STREAM_END
                    stream.next_in = nil
                }
                if status != Z_STREAM_END, offset >= end {
                    throw Failure(description: "its deflated data ends early")
                }
            }
        default:
            throw Failure(description: "compressed with method \(entry.method), which Pajama does not read (only stored and deflated)")
        }
        guard produced == entry.uncompressedSize else {
            throw Failure(description: "it holds \(produced) bytes, not its declared \(entry.uncompressedSize)")
        }
        return UInt32(crc)
    }

    private static let piece = 64 * 1024

    private func read(at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        try Self.read(descriptor, at: offset, count: count)
    }

    private static func read(_ descriptor: Int32, at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if got < 0, errno == EINTR { continue }
            if got < 0 { throw Failure(description: String(cString: strerror(errno))) }
            if got == 0 { throw Failure(description: "it ends early (at byte \(offset + UInt64(done)))") }
            done += got
        }
        return bytes
    }

    /// The entries of the central directory, found from the end-of-central-directory record (searched for
    /// in the last 64 KB + 22 bytes, past any comment), ZIP64's record where the archive has one.
    private static func centralDirectory(_ descriptor: Int32, size: UInt64) throws(Failure) -> [Entry] {
        guard size >= 22 else { throw Failure(description: "too short to be a .zip archive") }
        let tailLength = Int(min(size, 65_535 + 22))
        let tail = try read(descriptor, at: size - UInt64(tailLength), count: tailLength)
        guard let record = stride(from: tailLength - 22, through: 0, by: -1).first(where: { u32(tail, $0) == 0x0605_4B50 }) else {
            throw Failure(description: "no .zip directory at its end")
        }
        guard u16(tail, record + 4) == 0, u16(tail, record + 6) == 0 else { throw Failure(description: "split over several disks") }
        var count = UInt64(u16(tail, record + 10))
        var directorySize = UInt64(u32(tail, record + 12))
        var directoryOffset = UInt64(u32(tail, record + 16))
        if record >= 20, u32(tail, record - 20) == 0x0706_4B50 {  // the ZIP64 locator, just before the record
            let zip64 = try read(descriptor, at: u64(tail, record - 20 + 8), count: 56)
            guard u32(zip64, 0) == 0x0606_4B50 else { throw Failure(description: "its ZIP64 directory record is missing") }
            count = u64(zip64, 32)
            directorySize = u64(zip64, 40)
            directoryOffset = u64(zip64, 48)
        }
        guard directoryOffset + directorySize <= size, directorySize <= 64 * 1024 * 1024 else {
            throw Failure(description: "its directory lies outside the archive")
        }
        let directory = try read(descriptor, at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, u32(directory, at) == 0x0201_4B50 else {
                throw Failure(description: "its directory is damaged (entry \(entries.count + 1))")
            }
            let nameLength = Int(u16(directory, at + 28)), extraLength = Int(u16(directory, at + 30))
            let commentLength = Int(u16(directory, at + 32))
            guard at + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw Failure(description: "its directory is damaged (entry \(entries.count + 1))")
            }
            let path = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            var uncompressed = UInt64(u32(directory, at + 24)), compressed = UInt64(u32(directory, at + 20))
            var offset = UInt64(u32(directory, at + 42))
            // ZIP64's extra field holds, in this order, the fields whose 32-bit value is all ones.
            var extra = at + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = u16(directory, extra), length = Int(u16(directory, extra + 2))
                guard extra + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var field = extra + 4
                    for value in [0, 1, 2] {
                        let wide = value == 0 ? uncompressed == 0xFFFF_FFFF : value == 1 ? compressed == 0xFFFF_FFFF : offset == 0xFFFF_FFFF
                        guard wide, field + 8 <= extra + 4 + length else { continue }
                        let read = u64(directory, field)
                        if value == 0 { uncompressed = read } else if value == 1 { compressed = read } else { offset = read }
                        field += 8
                    }
                }
                extra += 4 + length
            }
            let madeOnUnix = u16(directory, at + 4) >> 8 == 3
            let mode = u32(directory, at + 38) >> 16
            let kind: Entry.Kind = madeOnUnix && mode & 0o170000 == 0o120000 ? .symbolicLink : path.hasSuffix("/") ? .directory : .file
            entries.append(Entry(path: path, kind: kind, method: u16(directory, at + 10), flags: u16(directory, at + 8),
                                 checksum: u32(directory, at + 16), compressedSize: compressed, uncompressedSize: uncompressed,
                                 localHeaderOffset: offset))
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16 }
    private static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
}
