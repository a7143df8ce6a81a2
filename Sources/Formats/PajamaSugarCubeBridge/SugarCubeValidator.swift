import PajamaModel
import PajamaBasics
import PajamaSugarCube
import PajamaTwine

/// `pajama validate` for a SugarCube story (docs/sugarcube.md, "Validating"): the file parses, the Story
/// JavaScript runs (its errors named by passage), the start passage plays, every literal link, `<<goto>>`
/// and `<<include>>` names a passage that exists, and every picture and sound is a valid path to a file
/// that exists and decodes. Macros Pajama does not play are named with their passages (warnings: the reader
/// shows a short notice in their place).
enum SugarCubeValidator {
    static func validate(_ source: SugarCubeStorySource, probe: any AssetProbe) async -> ValidationReport {
        let file = source.files.joined(separator: ", ")
        let bytes: [UInt8]
        do {
            bytes = try await source.bytes()
        } catch {
            return ValidationReport(storyId: nil, findings: [ValidationFinding(.error, file: file, message: "cannot read the story: \(error.reason)")],
                                    couldNotRead: true)
        }
        let storyId = StoryManifest.id(fromName: source.name, otherwise: "sugarcube")
        let maker: SugarCubeBeatMaker
        do {
            (maker, _) = try SugarCubeStorySource.load(bytes, files: source.files, name: source.name, seed: 0)
        } catch {
            return ValidationReport(storyId: storyId, findings: [ValidationFinding(.error, file: file, message: error.reason)], couldNotRead: false)
        }
        var findings: [ValidationFinding] = []
        for (passage, message) in maker.scriptErrors {
            findings.append(ValidationFinding(.error, file: file, path: passage,
                                              message: "the Story JavaScript in passage \"\(StoryFormatError.printable(passage))\" failed: \(StoryFormatError.printable(message))"))
        }
        if let start = maker.beat(SugarCubeBeatMaker.startBeatId) {
            if let stopped = start.origin?.stopped {
                findings.append(ValidationFinding(.error, file: file, beatId: start.id, message: "the start stops: \(stopped)"))
            }
            for error in maker.startErrors {
                findings.append(ValidationFinding(.warning, file: file, beatId: start.id, message: "the start: \(StoryFormatError.printable(error))"))
            }
        }
        let story = maker.story
        var assets: [AssetPath: (passage: String, isImage: Bool)] = [:]
        for passage in SugarCubeScan.scan(story, custom: maker.customMacros) {
            let shown = "passage \"\(StoryFormatError.printable(passage.name))\""
            for macro in passage.unsupported {
                findings.append(ValidationFinding(.warning, file: file, path: passage.name,
                                                  message: "\(shown) uses <<\(StoryFormatError.printable(macro))>>, which Pajama does not play (a short notice is shown in its place)"))
            }
            for target in Set(passage.targets).sorted() where story.passage(named: target) == nil && story.passage(named: target.trimmingSpaces) == nil {
                findings.append(ValidationFinding(.error, file: file, path: passage.name,
                                                  message: "\(shown) leads to \"\(StoryFormatError.printable(target))\", which is no passage"))
            }
            for (value, isImage) in passage.images.map({ ($0, true) }) + passage.sounds.map({ ($0, false) }) {
                if value.hasPrefix("data:") { continue }
                do {
                    let path = try AssetPath(validating: value)
                    if assets[path] == nil { assets[path] = (passage.name, isImage) }
                } catch {
                    findings.append(ValidationFinding(.warning, file: file, path: passage.name,
                                                      message: "\(shown): the \(isImage ? "picture" : "sound") \"\(StoryFormatError.printable(value))\" is not read (\(error))"))
                }
            }
        }
        for path in assets.keys.sorted(by: { $0.value < $1.value }) {
            let (passage, isImage) = assets[path]!
            let shown = "passage \"\(StoryFormatError.printable(passage))\""
            let message: String
            do {
                let data = try await source.base.read(path.value)
                guard let problem = isImage ? probe.problemWithImage(path, data) : probe.problemWithSound(path, data) else { continue }
                message = "\(shown): \(path.value): \(problem)"
            } catch {
                if case .notFound = error { message = "\(shown): \(path.value): the file does not exist" } else { message = "\(shown): \(path.value): \(error.reason)" }
            }
            findings.append(ValidationFinding(.error, file: file, path: passage, message: message))
        }
        return ValidationReport(storyId: storyId, findings: findings.sorted(), couldNotRead: false)
    }
}
