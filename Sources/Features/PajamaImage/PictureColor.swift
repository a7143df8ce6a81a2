/// A colour of a picture cell, as the renderer chose it for the colour mode.
public enum PictureColor: Sendable, Hashable {
    /// A 24-bit colour, 0xRRGGBB.
    case rgb(UInt32)
    /// An entry of the terminal's palette (0-255), picked by chafa for an indexed mode.
    case palette(Int)
}
