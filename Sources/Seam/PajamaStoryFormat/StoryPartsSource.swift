import PajamaModel

/// A story source that can name what its story is made of, for `pajama test`'s coverage: ink's knots and
/// stitches, Twine's passages, ChoiceScript's scenes. A source that is not one is covered by its beats.
public protocol StoryPartsSource: StorySource {
    /// What one part is called, plural ("knots and stitches", "passages").
    var partsName: String { get }
    /// Every part of the story, by name.
    func allParts() async -> [String]
    /// The parts reading has gone through by the end of `beat`.
    func partsReached(by beat: Beat) async -> [String]
    /// What making `beat` showed of the story's choices, in the format's own words (ink: each choice weighed
    /// at its choice point, offered or kept back and why), merged over every run for `neverOffered`; a source
    /// may say each thing once, with the first beat that showed it.
    func choicesWeighed(by beat: Beat) async -> [String]
    /// The choices no reading was offered, with the reason, where the format can tell it from the parts
    /// reached and the choices weighed (all of them, over every run); nil when it cannot tell.
    func neverOffered(reached: Set<String>, weighed: Set<String>) async -> [NeverOfferedChoice]?
}

extension StoryPartsSource {
    public func choicesWeighed(by beat: Beat) async -> [String] { [] }
    public func neverOffered(reached: Set<String>, weighed: Set<String>) async -> [NeverOfferedChoice]? { nil }
}

/// A choice no reading was offered, and why (`pajama test`'s report): ChoiceScript's option whose condition
/// was never true, ink's conditional choice whose condition never was.
public struct NeverOfferedChoice: Sendable, Equatable, Codable {
    /// The choice's text as the story writes it.
    public var choice: String
    /// The part it is in (ChoiceScript: its line, `startup line 12`).
    public var part: String
    public var reason: String

    public init(choice: String, part: String, reason: String) {
        self.choice = choice
        self.part = part
        self.reason = reason
    }
}
