/// What an asset is for on its page; decides its default criticality.
public enum AssetRole: Hashable, Sendable {
    case pageImage
    case choiceImage
    case pageEnterSound
    case tapSound
    case choiceSound(index: Int)
    /// A background sound that loops from this page on (never waited for: the page is read while it loads).
    case backgroundSound

    /// True for sounds, false for images.
    public var isSound: Bool {
        switch self {
        case .pageImage, .choiceImage: false
        case .pageEnterSound, .tapSound, .choiceSound, .backgroundSound: true
        }
    }

    /// The format's default criticality for this role.
    public var defaultCriticality: Criticality {
        switch self {
        case .choiceImage, .pageEnterSound: .critical
        case .pageImage, .tapSound, .choiceSound, .backgroundSound: .important
        }
    }
}

/// One use of an asset by a page.
public struct AssetReference: Hashable, Sendable {
    public var path: AssetPath
    public var role: AssetRole
    public var beatId: String
    public var pageId: String

    public init(path: AssetPath, role: AssetRole, beatId: String, pageId: String) {
        self.path = path
        self.role = role
        self.beatId = beatId
        self.pageId = pageId
    }
}
