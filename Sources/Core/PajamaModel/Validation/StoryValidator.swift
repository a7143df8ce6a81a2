/// Checks a story package against the format: every file, id, link, path and asset.
public enum StoryValidator {
    /// Validates the package behind `source`.
    public static func validate(source: any StorySource, probe: any AssetProbe) async -> ValidationReport {
        if let report = await source.validateItself(probe: probe) { return report }
        var findings: [ValidationFinding] = []
        let manifestBytes: [UInt8]
        do {
            manifestBytes = try await source.read("story.json")
        } catch {
            return ValidationReport(storyId: nil, findings: [ValidationFinding(.error, file: "story.json", message: "cannot read the story: \(error.reason)")],
                                    couldNotRead: true)
        }
        let manifest: StoryManifest
        do {
            manifest = try StoryDecoder.decodeManifest(manifestBytes)
        } catch {
            // Every problem of story.json, not only the first.
            let problems = StoryDecoder.manifestProblems(manifestBytes)
            return ValidationReport(storyId: nil, findings: (problems.isEmpty ? [error] : problems).map(ValidationFinding.init), couldNotRead: false)
        }
        // Load every beat: the listed ones, and any reached by links.
        var beats: [String: Beat] = [:]
        var missing: Set<String> = []
        var queue = manifest.beats ?? []
        if !queue.contains(manifest.startBeatId) { queue.insert(manifest.startBeatId, at: 0) }
        var queued = Set(queue)
        let listed = manifest.beats.map(Set.init)
        var index = 0
        while index < queue.count {
            let id = queue[index]
            index += 1
            let file = "beats/\(id).json"
            var bytes: [UInt8] = []
            do {
                bytes = try await source.read(file)
                let beat = try StoryDecoder.decodeBeat(bytes, file: file, expectedId: id)
                beats[id] = beat
                for next in beat.successorBeatIds where !queued.contains(next) && (listed == nil || listed!.contains(next)) {
                    queued.insert(next)
                    queue.append(next)
                }
            } catch let error as StoryFormatError {
                // Every problem of the file, not only the first.
                let problems = StoryDecoder.beatProblems(bytes, file: file, expectedId: id)
                findings += (problems.isEmpty ? [error] : problems).map(ValidationFinding.init)
            } catch let error as StorySourceError {
                missing.insert(id)
                if case .notFound = error {
                    if listed?.contains(id) == true || id == manifest.startBeatId {
                        findings.append(ValidationFinding(.error, file: file, beatId: id, message: "the beat file is missing"))
                    }
                } else {
                    findings.append(ValidationFinding(.error, file: file, beatId: id, message: "cannot read: \(error)"))
                }
            } catch {
                findings.append(ValidationFinding(.error, file: file, beatId: id, message: "\(error)"))
            }
        }
        if let listed, !listed.contains(manifest.startBeatId) {
            findings.append(ValidationFinding(.error, file: "story.json", path: "startBeatId",
                                              message: "the start beat \"\(manifest.startBeatId)\" is not in the beats list"))
        }
        // Links.
        func exists(_ id: String) -> Bool { (listed?.contains(id) ?? true) && beats[id] != nil || (listed?.contains(id) == true && !missing.contains(id)) }
        for beat in beats.values {
            let file = "beats/\(beat.id).json"
            if let next = beat.nextBeatId {
                if let listed, !listed.contains(next) {
                    findings.append(ValidationFinding(.error, file: file, beatId: beat.id, path: "nextBeatId",
                                                      message: "the next beat \"\(next)\" is not in story.json's beats list"))
                } else if beats[next] == nil, missing.contains(next) || listed == nil {
                    findings.append(ValidationFinding(.error, file: file, beatId: beat.id, path: "nextBeatId",
                                                      message: "the next beat \"\(next)\" does not exist"))
                }
                if case .choice = beat.pages.last?.kind {
                    findings.append(ValidationFinding(.warning, file: file, beatId: beat.id, path: "nextBeatId",
                                                      message: "never used: the beat ends with a choice"))
                }
            }
            for (p, page) in beat.pages.enumerated() {
                for (c, choice) in page.choices.enumerated() {
                    let path = "pages[\(p)].choices[\(c)].targetBeatId"
                    if let listed, !listed.contains(choice.targetBeatId) {
                        findings.append(ValidationFinding(.error, file: file, beatId: beat.id, pageId: page.id, path: path,
                                                          message: "the target beat \"\(choice.targetBeatId)\" is not in story.json's beats list"))
                    } else if beats[choice.targetBeatId] == nil, missing.contains(choice.targetBeatId) || listed == nil {
                        findings.append(ValidationFinding(.error, file: file, beatId: beat.id, pageId: page.id, path: path,
                                                          message: "the target beat \"\(choice.targetBeatId)\" does not exist"))
                    }
                }
                for (t, tool) in page.tools.enumerated() where tool.soundEffect == nil && tool.backgroundSound == nil {
                    let message = tool.name == "sound_effect" ? "unknown trigger (expected page_enter or tap); ignored by the reader"
                        : "unknown tool \"\(StoryFormatError.printable(tool.name))\"; ignored by the reader"
                    findings.append(ValidationFinding(.warning, file: file, beatId: beat.id, pageId: page.id, path: "pages[\(p)].tools[\(t)]", message: message))
                }
            }
        }
        _ = exists
        // Reachability and endings.
        var reached: Set<String> = []
        var stack = [manifest.startBeatId]
        while let id = stack.popLast() {
            guard reached.insert(id).inserted, let beat = beats[id] else { continue }
            stack += beat.successorBeatIds
        }
        // A reached beat that could not be read hides where it leads: reporting every beat after it as
        // unreachable (or every beat before it as a dead end) would bury the one real error.
        let unread = reached.filter { beats[$0] == nil }.sorted()
        if !unread.isEmpty {
            let names = unread.prefix(3).map { "beats/\($0).json" }.joined(separator: ", ") + (unread.count > 3 ? ", ..." : "")
            findings.append(ValidationFinding(.warning, file: "story.json",
                                              message: "reachability and endings not checked: \(names) could not be read"))
        }
        for id in (manifest.beats ?? []) where unread.isEmpty && !reached.contains(id) && beats[id] != nil {
            findings.append(ValidationFinding(.error, file: "beats/\(id).json", beatId: id,
                                              message: "unreachable: no path leads here from the start beat \"\(manifest.startBeatId)\""))
        }
        let endings = Set(beats.values.filter(\.isEnding).map(\.id))
        // Beats that could not be read may hold the endings: "not checked" (above) is then the one true thing to say.
        if endings.isEmpty, !beats.isEmpty, unread.isEmpty {
            findings.append(ValidationFinding(.warning, file: "story.json", message: "the story has no ending (every beat leads on)"))
        } else if unread.isEmpty {
            var canEnd = endings
            var changed = true
            while changed {
                changed = false
                for beat in beats.values where !canEnd.contains(beat.id) && beat.successorBeatIds.contains(where: canEnd.contains) {
                    canEnd.insert(beat.id)
                    changed = true
                }
            }
            for id in reached.sorted() where beats[id] != nil && !canEnd.contains(id) {
                findings.append(ValidationFinding(.warning, file: "beats/\(id).json", beatId: id, message: "a dead end: no ending can be reached from here"))
            }
        }
        // Assets.
        var checked: [AssetPath: String?] = [:]
        var used: Set<AssetPath> = []
        for beat in beats.values.sorted(by: { $0.id < $1.id }) {
            for (p, page) in beat.pages.enumerated() {
                var uses: [(AssetPath, String, Bool)] = []
                if let image = page.imageUrl { uses.append((image, "pages[\(p)].imageUrl", false)) }
                if let image = page.imageUrl, (page.imageAlt ?? "").allSatisfy(\.isWhitespace) {
                    findings.append(ValidationFinding(.warning, file: "beats/\(beat.id).json", beatId: beat.id, pageId: page.id, path: "pages[\(p)].imageAlt",
                                                      message: "the picture \(image.value) has no alt text (imageAlt): plain mode and screen readers can only say its file name"))
                }
                for (t, tool) in page.tools.enumerated() {
                    if let effect = tool.soundEffect { uses.append((effect.soundURL, "pages[\(p)].tools[\(t)].args.sound_url", true)) }
                    if let loop = tool.backgroundSound?.path { uses.append((loop, "pages[\(p)].tools[\(t)].args.sound_url", true)) }
                }
                for (c, choice) in page.choices.enumerated() {
                    if let sound = choice.soundURL { uses.append((sound, "pages[\(p)].choices[\(c)].sound_url", true)) }
                }
                for (asset, path, isSound) in uses {
                    used.insert(asset)
                    let problem: String?
                    if let known = checked[asset] {
                        problem = known
                    } else {
                        problem = await check(asset, isSound: isSound, source: source, probe: probe)
                        checked[asset] = problem
                    }
                    if let problem {
                        findings.append(ValidationFinding(.error, file: "beats/\(beat.id).json", beatId: beat.id, pageId: page.id, path: path,
                                                          message: "\(asset.value): \(problem)"))
                    }
                }
            }
        }
        for key in manifest.criticality.keys.sorted() where !used.contains(key) {
            findings.append(ValidationFinding(.warning, file: "story.json", path: "assets.criticality[\"\(key.value)\"]",
                                              message: "no page uses this asset"))
        }
        return ValidationReport(storyId: manifest.id, findings: Array(Set(findings)).sorted(), couldNotRead: false)
    }

    private static func check(_ asset: AssetPath, isSound: Bool, source: any StorySource, probe: any AssetProbe) async -> String? {
        let bytes: [UInt8]
        do {
            bytes = try await source.read(asset.value)
        } catch {
            if case .notFound = error { return "the file is missing" }
            // The source's own words (the reader's error screen uses the same), e.g. "too large: 21.3 MB,
            // the limit is 16 MB" or "it is a symbolic link that leads outside the story folder".
            return error.reason
        }
        return isSound ? probe.problemWithSound(asset, bytes) : probe.problemWithImage(asset, bytes)
    }
}
