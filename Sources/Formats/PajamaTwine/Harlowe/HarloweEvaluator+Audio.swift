/// The Harlowe Audio Library's macros (`HarloweAudio`, docs/twine.md, "Sound"): a page sound or the background
/// loop written where the macro is, as the `<audio>` HTML the flattener takes sounds from.
extension HarloweEvaluator {
    static let audioMacros: Set<String> = ["track", "masteraudio", "newtrack", "newplaylist", "newgroup"]

    func audio(_ name: String, _ values: [HarloweValue]) throws(Interrupt) -> HarloweValue {
        func text(_ index: Int, _ what: String) throws(Interrupt) -> String {
            guard values.indices.contains(index), case .string(let text) = values[index] else { throw .failure("needs \(what) as a string") }
            return text
        }
        switch name {
        case "newtrack":
            let track = try text(0, "a track's name")
            let sources = values.dropFirst().compactMap { value -> String? in if case .string(let text) = value { text } else { nil } }
            guard let source = HarloweAudio.sources(of: sources).first else { throw .failure("needs a source for track \"\(track)\"") }
            state.tracks[track] = source
            return .command(.nothing)
        case "newplaylist", "newgroup":
            return .command(.nothing)  // their (playlist:) and (group:) are not played: they say so where used
        case "masteraudio":
            let command = try text(0, "a command").lowercased()
            guard HarloweAudio.masterCommands.contains(command) else { return unplayed("(masteraudio: '\(command)')") }
            switch command {
            case "stopall": stopLoop()
            case "ismuted": return .bool(false)
            case "getvolume": return .number(1)
            default: break
            }
            return .command(.nothing)
        default:
            let track = try text(0, "a track's name")
            let command = try text(1, "a command").lowercased()
            guard HarloweAudio.trackCommands.contains(command) else { return unplayed("(track: '\(command)')") }
            guard let source = state.tracks[track] ?? runtime.halTracks[track] else { throw .failure("there is no track named \"\(track)\"") }
            switch command {
            case "play", "playwhenpossible", "fadein":
                guard !source.contains(where: { $0 == "\"" || $0 == "<" || $0 == ">" }) else { throw .failure("\"\(source)\" is not a file") }
                if state.looping.contains(track) {
                    guard state.loop != source else { break }  // already looping: it goes on
                    state.loop = source
                    current.items.append(.text("<audio src=\"\(source)\" loop>"))
                } else {
                    current.items.append(.text("<audio src=\"\(source)\">"))
                }
            case "stop", "pause", "fadeout":
                if state.loop == source { stopLoop() }
            case "loop", "unloop", "toggleloop":
                let on = command == "toggleloop" ? !state.looping.contains(track) : command == "loop" && (values.count < 3 || values[2] == .bool(true))
                if on { state.looping.insert(track) } else { state.looping.remove(track) }
            case "isplaying": return .bool(state.loop == source)
            case "islooping": return .bool(state.looping.contains(track))
            case "ismuted": return .bool(false)
            case "getvolume": return .number(1)
            default: break  // volume, mute, seek, fades to a level: the reader's own volume and mute rule
            }
            return .command(.nothing)
        }
    }

    private func stopLoop() {
        guard state.loop != nil else { return }
        state.loop = nil
        current.items.append(.text(String(HarloweFlattener.loopStop)))
    }

    private func unplayed(_ written: String) -> HarloweValue {
        note(unsupported: written)
        return .command(.unsupported(written))
    }
}
