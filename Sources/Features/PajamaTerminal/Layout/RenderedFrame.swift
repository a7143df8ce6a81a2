/// A composed frame: its cells and where its choices are.
public struct RenderedFrame: Sendable, Equatable {
    public var grid: CellGrid
    /// The rows of the choices shown (none under an overlay), so a click is a lookup.
    public var choices: [ChoiceHitBox]

    public init(grid: CellGrid, choices: [ChoiceHitBox]) {
        self.grid = grid
        self.choices = choices
    }

    /// The choice (0-based) under the cell (x, y), if any.
    public func choice(atX x: Int, y: Int) -> Int? {
        choices.first { $0.contains(x: x, y: y) }?.index
    }
}

/// The cells one row of a choice covers on screen.
public struct ChoiceHitBox: Sendable, Equatable {
    /// The choice (0-based).
    public var index: Int
    public var x: Int
    public var y: Int
    public var width: Int

    public init(index: Int, x: Int, y: Int, width: Int) {
        self.index = index
        self.x = x
        self.y = y
        self.width = width
    }

    public func contains(x: Int, y: Int) -> Bool {
        y == self.y && x >= self.x && x < self.x + width
    }
}
