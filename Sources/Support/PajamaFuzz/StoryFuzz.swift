import PajamaModel

/// The story decoder and validator: one input is a package, story.json then beat files, each after a
/// line `---` (`StoryFuzz.separator`). Every part is decoded as a manifest and as a beat, then the whole
/// package is validated as `pajama validate` does (beats, links, ids, asset paths).
public enum StoryFuzz {
    /// Between the files of one input.
    public static let separator = Array("\n---\n".utf8)

    public static func fuzzOne(_ bytes: [UInt8]) {
        Blocking.run { await check(bytes) }
    }

    /// The validation report of the input's package.
    @discardableResult
    public static func check(_ bytes: [UInt8]) async -> ValidationReport {
        let parts = split(bytes)
        for part in parts {
            _ = try? StoryDecoder.decodeManifest(part)
            _ = try? StoryDecoder.decodeBeat(part, file: "beats/fuzz.json")
        }
        let report = await StoryValidator.validate(source: MemoryStorySource(files: package(parts), assetBytes: []), probe: NoAssets())
        _ = report.findings.map(\.description)
        return report
    }

    /// The input's files: the first part is story.json, each later one a beat file named after its id
    /// (else after story.json's beats list, in order, so a beat that does not decode is still found).
    static func package(_ parts: [[UInt8]]) -> [String: [UInt8]] {
        guard let story = parts.first else { return [:] }
        var files = ["story.json": story]
        let listed = (try? StoryDecoder.decodeManifest(story))?.beats ?? []
        for (index, part) in parts.dropFirst().enumerated() {
            let id = (try? StoryDecoder.decodeBeat(part, file: "beat"))?.id ?? (index < listed.count ? listed[index] : "beat\(index)")
            files["beats/\(id).json"] = part
        }
        return files
    }

    /// Joins files into one input (the seeds).
    public static func join(_ files: [[UInt8]]) -> [UInt8] {
        Array(files.joined(separator: separator))
    }

    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0, index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }
}

/// Assets are the picture and sound targets' work: here every asset the package names is there and fine.
private struct NoAssets: AssetProbe {
    func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
    func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
}
