import CDeflate
import FoundationEssentials
import Glibc
import PajamaBasics
import Synchronization

/// The kitty graphics protocol's commands the reader sends: a picture's pixels transmitted once under its own
/// image id (`a=t`, compressed with zlib: `o=z`), then placed by id (`a=p`) as often as it is shown, its
/// placements taken away keeping the data (`d=i`), and its data freed (`d=I`) when the reader no longer
/// needs it. No command asks for a reply (`q=2`): a reply would arrive as keys.
public enum KittyGraphics {
    /// The most base64 characters one command carries (the protocol's limit); every chunk but the last is a
    /// multiple of 4 characters.
    static let chunkSize = 4096
    /// The first image id this process gives out; each rendered picture gets the next (`newImageID`).
    static let firstImageID: UInt32 = 2915 << 16
    private static let issued = Atomic<UInt32>(0)

    /// An image id no other picture of this process has: each rendered picture (its content at its size) is
    /// sent once under its own id, so showing it again is a placement of a few bytes.
    public static func newImageID() -> UInt32 {
        firstImageID &+ issued.add(1, ordering: .relaxed).newValue
    }

    /// `rgba` (`width` x `height` pixels, 4 bytes each) stored by the terminal under `id` and not shown: the
    /// pixels compressed with zlib when that makes them smaller, base64 in chunks.
    public static func transmit(id: UInt32, rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        let compressed = deflate(rgba)
        let payload = Array(Data(compressed ?? rgba).base64EncodedData())
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / chunkSize * 12 + 80)
        var start = 0
        repeat {
            let end = min(payload.count, start + chunkSize)
            let more = end < payload.count ? 1 : 0
            let keys = start == 0 ? "a=t,i=\(id),f=32,s=\(width),v=\(height)\(compressed == nil ? "" : ",o=z"),q=2,m=\(more)" : "m=\(more)"
            out += Array("\u{1B}_G\(keys);".utf8)
            out += payload[start..<end]
            out += [0x1B, UInt8(ascii: "\\")]
            start = end
        } while start < payload.count
        return out
    }

    /// The image `id` shown at the cursor over `columns` x `rows` cells (placement 1: placing it again moves
    /// it), the cursor left where it is.
    public static func place(id: UInt32, columns: Int, rows: Int) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(id),p=1,c=\(columns),r=\(rows),C=1,q=2\u{1B}\\".utf8)
    }

    /// Takes the image `id` off the screen; the terminal keeps its data, to place it again.
    public static func deletePlacements(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=i,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// Takes the image `id` off the screen and frees its data in the terminal.
    public static func free(id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// `bytes` compressed as a zlib stream (RFC 1950, what `o=z` means), or nil when that is no smaller.
    /// Level 1: a picture is sent once, and a photo gains little from more effort.
    static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, uLong(source.count), 1)
            }
        }
        guard status == Z_OK, Int(size) < bytes.count else { return nil }
        out.removeSubrange(Int(size)...)
        return out
    }
}
