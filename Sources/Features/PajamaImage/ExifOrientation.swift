/// The EXIF orientation of a JPEG (tag 0x0112 in the APP1 "Exif" segment's first IFD): how the stored
/// pixels are turned to stand upright. Read from the file's own bytes, up to its first scan.
struct ExifOrientation: Equatable {
    /// 1 (as stored) to 8, as EXIF numbers them; anything else reads as 1.
    let value: Int

    init(_ value: Int) { self.value = (1...8).contains(value) ? value : 1 }

    /// The orientation `jpeg` declares; 1 when it has none or the segment is malformed.
    init(jpeg: UnsafeBufferPointer<UInt8>) {
        self.init(Self.find(in: jpeg) ?? 1)
    }

    /// Whether the picture's width and height trade places.
    var swapsSides: Bool { value >= 5 }

    /// The pixels turned upright: for each stored pixel (x, y) of a `width` x `height` picture, where it
    /// stands once shown.
    func apply(width: Int, height: Int, rgba: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8]) {
        guard value != 1 else { return (width, height, rgba) }
        let outWidth = swapsSides ? height : width, outHeight = swapsSides ? width : height
        var out = [UInt8](repeating: 0, count: rgba.count)
        rgba.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                let from = source.bindMemory(to: UInt32.self), to = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x in 0..<width {
                        let (ox, oy): (Int, Int)
                        switch value {
                        case 2: (ox, oy) = (width - 1 - x, y)
                        case 3: (ox, oy) = (width - 1 - x, height - 1 - y)
                        case 4: (ox, oy) = (x, height - 1 - y)
                        case 5: (ox, oy) = (y, x)
                        case 6: (ox, oy) = (height - 1 - y, x)
                        case 7: (ox, oy) = (height - 1 - y, width - 1 - x)
                        default: (ox, oy) = (y, width - 1 - x)  // 8
                        }
                        to[oy * outWidth + ox] = from[y * width + x]
                    }
                }
            }
        }
        return (outWidth, outHeight, out)
    }

    /// Walks the JPEG's marker segments to the first scan, looking for APP1 "Exif\0\0".
    private static func find(in jpeg: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            let marker = jpeg[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill bytes
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return nil }  // the first scan, or the end: no EXIF before it
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { return nil }
            let segment = UnsafeBufferPointer(rebasing: jpeg[(i + 4)..<(i + 2 + length)])
            if marker == 0xE1, segment.starts(with: Array("Exif\0\0".utf8)) {
                return orientation(inTIFF: UnsafeBufferPointer(rebasing: segment[6...]))
            }
            i += 2 + length
        }
        return nil
    }

    /// The orientation entry of a TIFF header's first IFD.
    private static func orientation(inTIFF tiff: UnsafeBufferPointer<UInt8>) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard u16(at + 2) == 3 else { return nil }  // SHORT
                return u16(at + 8)
            }
        }
        return nil
    }
}
