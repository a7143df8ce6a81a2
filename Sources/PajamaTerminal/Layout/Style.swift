/// What a cell is, so the theme decides its colours and attributes.
public enum StyleRole: String, Sendable, Hashable, CaseIterable, Codable {
    case text, title, subtitle, prompt, choice, selected, status, dim, error, picture
}

/// A cell's look: a role from the theme, plus explicit colours (0xRRGGBB) for picture cells.
public struct Style: Sendable, Hashable {
    public var role: StyleRole
    public var pictureForeground: UInt32?
    public var pictureBackground: UInt32?

    public init(_ role: StyleRole) { self.role = role }

    public init(pictureForeground: UInt32, pictureBackground: UInt32) {
        role = .picture
        self.pictureForeground = pictureForeground
        self.pictureBackground = pictureBackground
    }
}
