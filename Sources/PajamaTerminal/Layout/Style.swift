import PajamaImage

/// What a cell is, so the theme decides its colours and attributes.
public enum StyleRole: String, Sendable, Hashable, CaseIterable, Codable {
    case text, title, subtitle, prompt, choice, selected, status, dim, error, picture
}

/// A cell's look: a role from the theme, plus explicit colours for picture cells (chosen by the picture
/// renderer for the terminal's colour mode; nil keeps the theme's colour for the role).
public struct Style: Sendable, Hashable {
    public var role: StyleRole
    public var pictureForeground: PictureColor?
    public var pictureBackground: PictureColor?

    public init(_ role: StyleRole) { self.role = role }

    /// A picture cell with its own colours.
    public init(pictureForeground: PictureColor?, pictureBackground: PictureColor?) {
        role = .picture
        self.pictureForeground = pictureForeground
        self.pictureBackground = pictureBackground
    }
}
