/// A picture encoded for a terminal that shows pixels (`PixelEncoder`), and the cells it covers. Sixel: the
/// bytes draw it at the cursor (callers save and restore the cursor). Kitty: the bytes store it in the
/// terminal under `kittyImageID` without showing it; `KittyGraphics.place` shows it.
public struct PixelPicture: Sendable, Hashable {
    public let pixelProtocol: PixelProtocol
    /// Cells covered, from the cursor right and down.
    public let columns: Int
    public let rows: Int
    /// The picture's size in pixels as sent (the whole box of cells, the picture centred on the backdrop).
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The sixel sequence, or the kitty transmission: printable ASCII inside escape sequences, nothing else.
    public let bytes: [UInt8]
    /// The kitty image id the bytes store the picture under, its own (`KittyGraphics.newImageID`); 0 for sixel.
    public let kittyImageID: UInt32
    /// A digest of `bytes`, so hashing a picture does not read its megabytes.
    private let digest: UInt64

    public init(pixelProtocol: PixelProtocol, columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int, bytes: [UInt8], kittyImageID: UInt32 = 0) {
        self.pixelProtocol = pixelProtocol
        (self.columns, self.rows, self.pixelWidth, self.pixelHeight) = (columns, rows, pixelWidth, pixelHeight)
        self.bytes = bytes
        self.kittyImageID = kittyImageID
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over a sample of the bytes and their count
        let step = max(1, bytes.count / 4096)
        for index in stride(from: 0, to: bytes.count, by: step) { hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
        digest = hash ^ UInt64(bytes.count)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pixelProtocol)
        hasher.combine(columns)
        hasher.combine(rows)
        hasher.combine(digest)
        hasher.combine(kittyImageID)
    }
}
