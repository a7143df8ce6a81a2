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
}
