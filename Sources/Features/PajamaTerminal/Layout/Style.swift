import PajamaModel
import PajamaImage

/// What a cell is, so the theme decides its colours and attributes.
public enum StyleRole: String, Sendable, Hashable, CaseIterable, Codable {
    case text, title, subtitle, prompt, choice, selected, status, dim, error, picture
}

/// A cell's look: a role from the theme, plus explicit colours for picture cells (chosen by the picture
/// renderer for the terminal's colour mode; nil keeps the theme's colour for the role) or a story's own
/// text colour.
///
/// Stored as two 32-bit words with no padding (the role and the foreground in one, the background in the
/// other), so a `CellGrid.Cell` is 24 bytes of plain integers: a frame of 200x60 cells is blanked, copied
/// and compared as memory, and `Screen` keys its table of looks on the 64 bits. A picture colour keeps 24
/// bits of RGB and palette entries 0-255; any other palette index reads back as `.palette(-1)` (no
/// terminal has it, as before: `ColorMapper` gives the default colour for both).
public struct Style: Sendable, Hashable {
    /// The role in bits 28-31, the foreground colour in bits 0-25 (`PackedColor`), the low half of a story
    /// colour's transparency in bits 26-27.
    private var front: UInt32
    /// The background colour (`PackedColor`) in bits 0-25, the text's own attributes (`TextAttributes`:
    /// bold, italic, underline, dim, from a story's markup) in bits 26-29, the high half of a story colour's
    /// transparency in bits 30-31.
    private var back: UInt32

    public init(_ role: StyleRole) {
        front = role.index << 28
        back = PackedColor.none
    }

    /// A picture cell with its own colours.
    public init(pictureForeground: PictureColor?, pictureBackground: PictureColor?) {
        front = StyleRole.picture.index << 28 | PackedColor.pack(pictureForeground)
        back = PackedColor.pack(pictureBackground)
    }

    public var role: StyleRole {
        get { StyleRole(index: front >> 28) }
        set { front = front & ~(0xF << 28) | newValue.index << 28 }
    }

    public var pictureForeground: PictureColor? {
        get { PackedColor.unpack(front & PackedColor.mask) }
        set { front = front & ~(PackedColor.mask | 3 << 26) | PackedColor.pack(newValue) }
    }

    public var pictureBackground: PictureColor? {
        get { PackedColor.unpack(back & PackedColor.mask) }
        set { back = back & ~PackedColor.mask | PackedColor.pack(newValue) }
    }

    /// A story's own colour for a text cell (`TextColor`: 0xRRGGBB, a transparency in the top byte, kept in
    /// 16 steps), nil for the theme's. Kept where a picture cell keeps its foreground; the screen draws it
    /// only where it stays readable (`Theme.readableTextColor`, which lays a partly transparent one on the
    /// background).
    public var textColor: UInt32? {
        get {
            guard role != .picture, case .rgb(let value)? = pictureForeground else { return nil }
            let steps = (back >> 30 & 3) << 2 | front >> 26 & 3
            return (steps * 17) << 24 | value
        }
        set {
            pictureForeground = newValue.map { .rgb($0 & 0xFF_FFFF) }
            let steps = (((newValue ?? 0) >> 24) + 8) / 17
            front = front & ~(3 << 26) | (steps & 3) << 26
            back = back & ~(3 << 30) | (steps >> 2 & 3) << 30
        }
    }

    /// Attributes added to the role's (a story's bold, italic, underline, dim text).
    public var attributes: TextAttributes {
        get { TextAttributes(rawValue: UInt8(truncatingIfNeeded: back >> 26 & 0xF)) }
        set { back = back & ~(0xF << 26) | UInt32(newValue.rawValue & 0xF) << 26 }
    }

    /// The role's style with `attributes` added.
    public init(_ role: StyleRole, attributes: TextAttributes) {
        self.init(role)
        self.attributes = attributes
    }

    /// The style as one number: equal styles, equal numbers (the key of `Screen`'s table of looks).
    var packed: UInt64 { UInt64(front) << 32 | UInt64(back) }
}

/// A picture colour in 26 bits: a tag in bits 24-25 (0 none, 1 RGB, 2 palette, 3 a palette index no
/// terminal has) and the value below it.
private enum PackedColor {
    static let none: UInt32 = 0
    static let mask: UInt32 = 0x03FF_FFFF

    static func pack(_ color: PictureColor?) -> UInt32 {
        switch color {
        case nil: none
        case .rgb(let value)?: 1 << 24 | value & 0xFF_FFFF
        case .palette(let index)?: (0..<256).contains(index) ? 2 << 24 | UInt32(index) : 3 << 24
        }
    }

    static func unpack(_ value: UInt32) -> PictureColor? {
        switch value >> 24 & 3 {
        case 0: nil
        case 1: .rgb(value & 0xFF_FFFF)
        case 2: .palette(Int(value & 0xFF))
        default: .palette(-1)
        }
    }
}

extension StyleRole {
    /// The role's number in `Style`'s 4 bits.
    fileprivate var index: UInt32 {
        switch self {
        case .text: 0
        case .title: 1
        case .subtitle: 2
        case .prompt: 3
        case .choice: 4
        case .selected: 5
        case .status: 6
        case .dim: 7
        case .error: 8
        case .picture: 9
        }
    }

    fileprivate init(index: UInt32) {
        switch index {
        case 1: self = .title
        case 2: self = .subtitle
        case 3: self = .prompt
        case 4: self = .choice
        case 5: self = .selected
        case 6: self = .status
        case 7: self = .dim
        case 8: self = .error
        case 9: self = .picture
        default: self = .text
        }
    }
}
