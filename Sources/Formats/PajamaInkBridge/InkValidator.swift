import PajamaModel
import PajamaPaging
import PajamaJSON

/// `pajama validate` for an ink story (docs/ink.md, "Validating"): the file loads (ink version, JSON), the
/// start plays to its first choice, and every picture and sound a tag names is a valid path to a file that
/// exists and decodes. Tags are read from the JSON without running it (`InkTagScan`), so a tag built while
/// the story runs cannot be checked: each is reported as a warning. Tags the reader does not use are listed
/// in one warning. External functions (`EXTERNAL`) run their ink fallbacks; one without a fallback is a
/// warning (the story was written for a game that provides it, and opens to a page saying so).
enum InkValidator {
    static func validate(_ source: InkStorySource, probe: any AssetProbe) async -> ValidationReport {
        let file = source.file
        let bytes: [UInt8]
        do {
            bytes = try await source.base.read(file)
        } catch {
            return ValidationReport(storyId: nil, findings: [ValidationFinding(.error, file: file, message: "cannot read the story: \(error.reason)")],
                                    couldNotRead: true)
        }
        let storyId = InkStorySource.storyId(source.name)
        let maker: InkBeatMaker
        do {
            (maker, _) = try InkStorySource.load(bytes, file: file, name: source.name, seed: 0)
        } catch {
            return ValidationReport(storyId: storyId, findings: [ValidationFinding(.error, file: file, message: error.reason)], couldNotRead: false)
        }
        var findings: [ValidationFinding] = []
        // External functions without an ink fallback: the story needs the game it was written for.
        if !maker.missingExternalFunctions.isEmpty {
            findings.append(ValidationFinding(.warning, file: file, message: InkBeatMaker.needsGameText(maker.missingExternalFunctions, file: file)
                + " Readers see a page saying so."))
        }
        // The start, played to its first choice: a runtime error or a bad tag there is found at once.
        do throws(InkBeatMaker.Problem) {
            let start = try maker.beat(InkBeatMaker.startBeatId)
            if let error = start.pages.last, error.id == "error", case .text(let lines) = error.kind {
                findings.append(ValidationFinding(.error, file: file, beatId: start.id, message: lines.joined(separator: " ")))
            }
        } catch {
            findings.append(ValidationFinding(.error, file: file, message: "\(error)"))
        }
        // Every tag written in the story.
        let document: JSON
        do {
            document = try InkStorySource.parse(bytes)
        } catch {
            return ValidationReport(storyId: storyId, findings: findings + [ValidationFinding(.error, file: file, message: error.message)],
                                    couldNotRead: false)
        }
        var assets: [AssetPath: (field: String, inkPath: String, tag: String)] = [:]
        var ignored: [String] = []
        let scan = InkTagScan.scanAll(document)
        for markup in scan.unknownMarkup {
            findings.append(ValidationFinding(.warning, file: file, path: markup.inkPath,
                                              message: "markup the reader does not know: <\(StoryFormatError.printable(markup.name))> (not shown; known: <b> <strong> <i> <em> <u> <s> <br> <span class> <a href> <font color> <p align> <center>, and Unity's rich text)"))
        }
        // Pictures without words for a reader who does not see them: `# alt:` beside the `# image:`.
        let groupsWithAlt = Set(scan.found.filter { $0.text.map { if case .alt = PageTag($0) { true } else { false } } ?? false }.map(\.group))
        var withoutAlt: Set<String> = []
        for found in scan.found {
            guard let text = found.text else {
                findings.append(ValidationFinding(.warning, file: file, path: found.inkPath,
                                                  message: "a tag built while the story runs cannot be checked before it is read"))
                continue
            }
            let tag = PageTag(text)
            if case .other(let other) = tag {
                let name = String(other.prefix { $0 != ":" }).trimmingTagSpaces()
                if !name.isEmpty, !ignored.contains(name) { ignored.append(name) }
                continue
            }
            guard let (field, value) = tag.asset else { continue }
            let shown = "# " + text.trimmingTagSpaces()
            if tag.namesPicture, !groupsWithAlt.contains(found.group), withoutAlt.insert(value).inserted {
                findings.append(ValidationFinding(.warning, file: file, path: found.inkPath,
                                                  message: "the picture \(StoryFormatError.printable(value)) has no alt text: add \"# alt: what it shows\" beside \"\(StoryFormatError.printable(shown))\" (plain mode and screen readers say it in its place)"))
            }
            do {
                let path = try AssetPath(validating: value)
                if assets[path] == nil { assets[path] = (field, found.inkPath, shown) }
            } catch {
                findings.append(ValidationFinding(.error, file: file, path: found.inkPath,
                                                  message: "the tag \"\(StoryFormatError.printable(shown))\": \(field): \(error)"))
            }
        }
        for path in assets.keys.sorted() {
            let (field, inkPath, shown) = assets[path]!
            let problem: String?
            do {
                let data = try await source.base.read(path.value)
                problem = field == "image" || field == "background" ? probe.problemWithImage(path, data) : probe.problemWithSound(path, data)
            } catch {
                if case .notFound = error { problem = "the file does not exist" } else { problem = error.reason }
            }
            if let problem {
                findings.append(ValidationFinding(.error, file: file, path: inkPath,
                                                  message: "the tag \"\(StoryFormatError.printable(shown))\": \(path.value): \(problem)"))
            }
        }
        if !ignored.isEmpty {
            let names = ignored.prefix(20).map { "\"\(StoryFormatError.printable($0))\"" }.joined(separator: ", ")
            findings.append(ValidationFinding(.warning, file: file, message: "tags the reader does not use (ignored): \(names)\(ignored.count > 20 ? ", ..." : "")"))
        }
        return ValidationReport(storyId: storyId, findings: findings.sorted(), couldNotRead: false)
    }
}
