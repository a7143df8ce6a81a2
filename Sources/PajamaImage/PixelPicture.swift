/// A picture encoded for a terminal that shows pixels (`PixelEncoder`): the bytes that draw it at the cursor
/// (the cursor itself does not move for kitty; callers save and restore it for sixel), and the cells it covers.
public struct PixelPicture: Sendable, Hashable {
    /// The kitty image id every picture is sent under: a reader shows one picture at a time, and sending
    /// another under the same id replaces it (`kittyDelete` takes it away).
    public static let kittyImageID = 2915

    public let pixelProtocol: PixelProtocol
    /// Cells covered, from the cursor right and down.
    public let columns: Int
    public let rows: Int
    /// The picture's size in pixels as sent (the whole box of cells, the picture centred on the backdrop).
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The sixel or kitty sequence: printable ASCII inside one or more escape sequences, nothing else.
    public let bytes: [UInt8]
    /// A digest of `bytes`, so hashing a picture does not read its megabytes.
    private let digest: UInt64

    public init(pixelProtocol: PixelProtocol, columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int, bytes: [UInt8]) {
        self.pixelProtocol = pixelProtocol
        (self.columns, self.rows, self.pixelWidth, self.pixelHeight) = (columns, rows, pixelWidth, pixelHeight)
        self.bytes = bytes
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
    }

    /// The kitty sequence that deletes the picture sent under `kittyImageID` and frees its data.
    public static let kittyDelete: [UInt8] = Array("\u{1B}_Ga=d,d=I,i=\(kittyImageID),q=2\u{1B}\\".utf8)
}
