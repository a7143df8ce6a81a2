/// What one terminal cell shows: one grapheme of at most 4 Unicode scalars (what ncurses' `cchar_t` holds;
/// further combining marks are dropped), stored inline in 16 bytes. A screen of 200x60 cells is composed
/// and compared every frame: a `String` per cell cost a reference-counted value and a string comparison
/// each; a glyph is copied and compared as four integers. The empty glyph is the right half of a wide
/// character.
public struct Glyph: Sendable, Hashable {
    private var scalars: (UInt32, UInt32, UInt32, UInt32)

    /// The right half of a wide character (nothing drawn there).
    public static let empty = Glyph(scalars: (0, 0, 0, 0))
    public static let space = Glyph(" ")

    private init(scalars: (UInt32, UInt32, UInt32, UInt32)) { self.scalars = scalars }

    /// The first 4 scalars of `character`.
    public init(_ character: Character) {
        var values: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var index = 0
        for scalar in character.unicodeScalars {
            switch index {
            case 0: values.0 = scalar.value
            case 1: values.1 = scalar.value
            case 2: values.2 = scalar.value
            default: values.3 = scalar.value
            }
            index += 1
            if index == 4 { break }
        }
        scalars = values
    }

    /// One scalar (U+0000 is the empty glyph).
    public init(_ scalar: Unicode.Scalar) {
        scalars = (scalar.value, 0, 0, 0)
    }

    /// The first grapheme of `text` (the empty glyph for "").
    public init(_ text: String) {
        self = text.first.map(Glyph.init) ?? .empty
    }

    public var isEmpty: Bool { scalars.0 == 0 }

    /// The glyph as text ("" for the empty glyph).
    public var text: String {
        var out = String.UnicodeScalarView()
        for value in [scalars.0, scalars.1, scalars.2, scalars.3] {
            guard value != 0, let scalar = Unicode.Scalar(value) else { break }
            out.append(scalar)
        }
        return String(out)
    }

    /// Calls `body` with the glyph's scalars as a zero-terminated array of 5 `UInt32` (ncurses' wide
    /// character string), without allocating.
    public func withTerminatedScalars<R>(_ body: (UnsafePointer<UInt32>) -> R) -> R {
        var buffer: (UInt32, UInt32, UInt32, UInt32, UInt32) = (scalars.0, scalars.1, scalars.2, scalars.3, 0)
        return withUnsafePointer(to: &buffer) { pointer in
            pointer.withMemoryRebound(to: UInt32.self, capacity: 5) { body($0) }
        }
    }

    public static func == (a: Glyph, b: Glyph) -> Bool {
        a.scalars.0 == b.scalars.0 && a.scalars.1 == b.scalars.1 && a.scalars.2 == b.scalars.2 && a.scalars.3 == b.scalars.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scalars.0)
        hasher.combine(scalars.1)
        hasher.combine(scalars.2)
        hasher.combine(scalars.3)
    }
}
