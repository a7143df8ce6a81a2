import PajamaModel
import PajamaPaging
import PajamaJSON

/// The pictures and sounds an ink story's tags name, read from the compiled JSON without running it
/// (`InkTagScan`): what a co-reading host serves beside the ink file. A tag built while the story runs
/// cannot be read this way, and is not among them.
public enum InkAssets {
    /// The asset paths named in `bytes` (a compiled ink story); empty when it is not JSON.
    public static func named(in bytes: [UInt8]) -> Set<AssetPath> {
        guard let document = try? InkStorySource.parse(bytes) else { return [] }
        var paths = Set<AssetPath>()
        for found in InkTagScan.scan(document) {
            if let text = found.text, let (_, value) = PageTag(text).asset, let path = try? AssetPath(validating: value) {
                paths.insert(path)
            }
        }
        return paths
    }
}
