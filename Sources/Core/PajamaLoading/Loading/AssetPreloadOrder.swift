import PajamaModel

/// The order in which the assets of the preload window are fetched (the asset preloader's policy).
public enum AssetPreloadOrder {
    /// Every asset used by `beats` (nearest beat first) once, critical before important before optional;
    /// within a level, the nearer beat's assets first. An asset used in several ways takes its highest level.
    public static func references(of beats: [Beat], criticality: (AssetReference) -> Criticality) -> [AssetReference] {
        var best: [AssetPath: (reference: AssetReference, level: Criticality, position: Int)] = [:]
        var position = 0
        for beat in beats {
            for reference in beat.assetReferences {
                let level = criticality(reference)
                if let known = best[reference.path] {
                    if level > known.level { best[reference.path] = (reference, level, known.position) }
                } else {
                    best[reference.path] = (reference, level, position)
                    position += 1
                }
            }
        }
        return best.values.sorted { $0.level != $1.level ? $0.level > $1.level : $0.position < $1.position }.map(\.reference)
    }
}
