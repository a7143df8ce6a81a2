import PajamaChoiceScript
import PajamaModel

/// `pajama validate` for a ChoiceScript game (docs/choicescript.md, "Validating"): `CSLint`'s problems, each
/// "scene line N: reason"; the start played to its first stop; every picture and sound a scene names is a
/// valid path to a file that exists and decodes.
enum ChoiceScriptValidator {
    static func validate(_ source: ChoiceScriptStorySource, probe: any AssetProbe) async -> ValidationReport {
        let texts: [String: String]
        do {
            texts = try await source.sceneTexts()
        } catch {
            return ValidationReport(storyId: nil, findings: [ValidationFinding(.error, file: source.files.first ?? "startup.txt", message: "cannot read the game: \(error.reason)")],
                                    couldNotRead: true)
        }
        let storyId = StoryManifest.id(fromName: source.name, otherwise: "choicescript")
        let maker: ChoiceScriptBeatMaker
        do {
            (maker, _) = try ChoiceScriptStorySource.load(texts, name: source.name, seed: 0)
        } catch {
            return ValidationReport(storyId: storyId, findings: [ValidationFinding(.error, file: "startup.txt", message: error.reason)], couldNotRead: false)
        }
        let prefix = ChoiceScriptFiles.scenePrefix(source.files)
        var findings: [ValidationFinding] = []
        for problem in CSLint.check(maker.game) {
            findings.append(ValidationFinding(problem.isError ? .error : .warning, file: prefix + problem.scene + ".txt", message: problem.description))
        }
        if let start = maker.beat(ChoiceScriptBeatMaker.startBeatId), let stopped = start.origin?.stopped {
            findings.append(ValidationFinding(.error, file: prefix + "startup.txt", beatId: start.id, message: "the start stops: \(stopped)"))
        }
        var assets: [AssetPath: String] = [:]
        for name in texts.keys.sorted() {
            for path in ChoiceScriptFiles.assets(in: Array(texts[name]!.utf8)) where assets[path] == nil { assets[path] = name }
        }
        for path in assets.keys.sorted() {
            let scene = assets[path]!
            let isImage = !["ogg", "mp3", "wav", "flac", "opus"].contains(path.value.split(separator: ".").last.map { $0.lowercased() } ?? "")
            do {
                let bytes = try await source.base.read(path.value)
                if let problem = isImage ? probe.problemWithImage(path, bytes) : probe.problemWithSound(path, bytes) {
                    findings.append(ValidationFinding(.error, file: prefix + scene + ".txt", message: "\(scene): \(path.value): \(problem)"))
                }
            } catch {
                let reason = if case .notFound = error { "the file does not exist" } else { error.reason }
                findings.append(ValidationFinding(.error, file: prefix + scene + ".txt", message: "\(scene): \(path.value): \(reason)"))
            }
        }
        return ValidationReport(storyId: storyId, findings: findings.sorted(), couldNotRead: false)
    }
}
