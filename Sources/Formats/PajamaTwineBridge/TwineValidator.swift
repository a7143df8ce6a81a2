import PajamaModel
import PajamaBasics
import PajamaTwine

/// `pajama validate` for a Twine story (docs/twine.md, "Validating"): the file parses, its format is one
/// Pajama plays (or its passages are links and plain text only), the start passage plays, every link and
/// `(goto:)`/`(display:)` names a passage that exists, and every picture and sound is a valid path to a file
/// that exists and decodes. Macros Pajama does not play are named with their passages (warnings: the reader
/// shows a short notice in their place).
enum TwineValidator {
    static func validate(_ source: TwineStorySource, probe: any AssetProbe) async -> ValidationReport {
        let file = source.files.joined(separator: ", ")
        let bytes: [UInt8]
        do {
            bytes = try await source.bytes()
        } catch {
            return ValidationReport(storyId: nil, findings: [ValidationFinding(.error, file: file, message: "cannot read the story: \(error.reason)")],
                                    couldNotRead: true)
        }
        let storyId = TwineStorySource.storyId(source.name)
        let maker: TwineBeatMaker
        do {
            (maker, _) = try TwineStorySource.load(bytes, files: source.files, name: source.name, seed: 0)
        } catch {
            return ValidationReport(storyId: storyId, findings: [ValidationFinding(.error, file: file, message: error.reason)], couldNotRead: false)
        }
        var findings: [ValidationFinding] = []
        if let start = maker.beat(TwineBeatMaker.startBeatId), let stopped = start.origin?.stopped {
            findings.append(ValidationFinding(.error, file: file, beatId: start.id, message: "the start stops: \(stopped)"))
        }
        guard let story = try? TwineFileKind.parse(String(decoding: bytes, as: UTF8.self)) else {
            return ValidationReport(storyId: storyId, findings: findings, couldNotRead: false)
        }
        let scan = TwineScan(story)
        /// Each picture, and each sound with its sources in order (the first the package holds is played), by
        /// the first passage that names it.
        var assets: [[AssetPath]: (passage: String, isImage: Bool, track: String?)] = [:]
        for passage in scan.passages {
            let shown = "passage \"\(StoryFormatError.printable(passage.name))\""
            for macro in passage.unsupported {
                findings.append(ValidationFinding(.warning, file: file, path: passage.name,
                                                  message: "\(shown) uses \(StoryFormatError.printable(TwineScan.shown(macro: macro))), which Pajama does not play (a short notice is shown in its place)"))
            }
            // A target that is a variable (`[[Back->$lastPage]]`) names its passage when the story runs.
            for target in passage.targets where story.passage(named: target) == nil && story.passage(named: target.trimmingSpaces) == nil
                && !target.hasPrefix("$") && !target.hasPrefix("_") {
                findings.append(ValidationFinding(.error, file: file, path: passage.name,
                                                  message: "\(shown) leads to \"\(StoryFormatError.printable(target))\", which is no passage"))
            }
            // Pictures without words for a reader who does not see them (plain mode and screen readers say the alt
            // text in the picture's place).
            for image in passage.imagesWithoutAlt {
                findings.append(ValidationFinding(.warning, file: file, path: passage.name,
                                                  message: "\(shown): the picture \"\(StoryFormatError.printable(image))\" has no alt text: add alt=\"what it shows\" to its <img> (plain mode and screen readers say it in its place)"))
            }
            let named = passage.images.map { TwineScan.Sound(sources: [$0]) }.map { ($0, true) } + passage.soundSources.map { ($0, false) }
            for (asset, isImage) in named {
                var paths: [AssetPath] = []
                for value in asset.sources {
                    do {
                        paths.append(try AssetPath(validating: value))
                    } catch {
                        findings.append(ValidationFinding(.warning, file: file, path: passage.name,
                                                          message: "\(shown): the \(isImage ? "picture" : "sound") \"\(StoryFormatError.printable(value))\" is not read (\(error))"))
                    }
                }
                if !paths.isEmpty, assets[paths] == nil { assets[paths] = (passage.name, isImage, asset.track) }
            }
        }
        for paths in assets.keys.sorted(by: { $0.map(\.value).lexicographicallyPrecedes($1.map(\.value)) }) {
            let (passage, isImage, track) = assets[paths]!
            var shown = "passage \"\(StoryFormatError.printable(passage))\""
            if let track { shown += ", track \"\(StoryFormatError.printable(track))\"" }
            var problem: (path: AssetPath, reason: String)?
            var found = false
            for path in paths {
                do {
                    let data = try await source.base.read(path.value)
                    problem = (isImage ? probe.problemWithImage(path, data) : probe.problemWithSound(path, data)).map { (path, $0) }
                } catch {
                    if case .notFound = error { continue }
                    problem = (path, error.reason)
                }
                found = true
                break
            }
            let message: String
            if !found {
                message = paths.count == 1 ? "\(shown): \(paths[0].value): the file does not exist"
                    : "\(shown): none of its sources is there (\(paths.map(\.value).joined(separator: ", ")))"
            } else if let problem {
                message = "\(shown): \(problem.path.value): \(problem.reason)"
            } else {
                continue
            }
            findings.append(ValidationFinding(.error, file: file, path: passage, message: message))
        }
        return ValidationReport(storyId: storyId, findings: findings.sorted(), couldNotRead: false)
    }
}
