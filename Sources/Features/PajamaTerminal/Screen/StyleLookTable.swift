/// What styles look like on a terminal (for `Screen`: ncurses attributes and a colour pair), in a small
/// flat table indexed by a multiplicative hash of the style's 64 bits. A frame sends thousands of cells in
/// a few dozen styles; working a style's look out (the theme's role, colour numbers, the pair dictionary)
/// once per cell was a tenth of drawing one. A slot holds the last style that hashed there: a collision
/// only means working that look out again.
struct StyleLookTable<Look> {
    private struct Slot {
        var key: UInt64
        var look: Look
    }

    /// 2^bits slots.
    private static var bits: Int { 8 }
    private var slots: [Slot?]

    init() { slots = Array(repeating: nil, count: 1 << Self.bits) }

    /// The look of `style`: the one in the table, or `make(style)` (then kept).
    mutating func look(_ style: Style, _ make: (Style) -> Look) -> Look {
        let key = style.packed
        let index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.bits))
        if let slot = slots[index], slot.key == key { return slot.look }
        let look = make(style)
        slots[index] = Slot(key: key, look: look)
        return look
    }

    /// Forgets every look (a new theme, colour pairs started over).
    mutating func removeAll() {
        for index in slots.indices { slots[index] = nil }
    }
}
