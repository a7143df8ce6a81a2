import PajamaModel

extension StoryTheme {
    /// The shipped theme a story's look stands for: `night` for dark, `paper` for light.
    public var themeName: String {
        switch self {
        case .dark: "night"
        case .light: "paper"
        }
    }

    /// The theme to open a story in: the one the reader asked for (`--theme`), else the one the reader chose
    /// last (`t`, remembered), else the story's (`presentation.theme`, an ink story's `# theme:`), else
    /// `default` (docs/story-format.md).
    public static func themeName(requested: String?, remembered: String?, story: StoryTheme?) -> String {
        requested ?? remembered ?? story?.themeName ?? "default"
    }
}
