import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaJSON

/// Writes the model back as the format's JSON (`StoryDecoder` reads it back to the same values): for sources
/// that make their story as it is read (ink) and hand it to the loading engine like files of a package.
public enum StoryEncoder {
    /// `story.json` for a manifest.
    public static func encode(_ manifest: StoryManifest) -> [UInt8] {
        var object: [String: Any] = ["format": manifest.format, "id": manifest.id, "title": manifest.title, "startBeatId": manifest.startBeatId]
        if let author = manifest.author { object["author"] = author }
        if let description = manifest.description { object["description"] = description }
        if let version = manifest.version { object["version"] = version }
        if let beats = manifest.beats { object["beats"] = beats }
        var presentation: [String: Any] = [:]
        if manifest.lineByLine { presentation["lineByLine"] = true }
        if let theme = manifest.theme { presentation["theme"] = theme.rawValue }
        if !presentation.isEmpty { object["presentation"] = presentation }
        var assets: [String: Any] = [:]
        if !manifest.criticality.isEmpty {
            assets["criticality"] = Dictionary(uniqueKeysWithValues: manifest.criticality.map { ($0.key.value, $0.value.description) })
        }
        if let level = manifest.defaultCriticality { assets["defaultCriticality"] = level.description }
        if !assets.isEmpty { object["assets"] = assets }
        return serialize(object)
    }

    /// `beats/<id>.json` for a beat.
    public static func encode(_ beat: Beat) -> [UInt8] {
        var object: [String: Any] = ["id": beat.id, "pages": beat.pages.map(page)]
        if let next = beat.nextBeatId { object["nextBeatId"] = next }
        if let origin = beat.origin {
            var entry: [String: Any] = ["seed": origin.seed, "steps": BeatOrigin.stepsText(origin.steps)]
            if let state = origin.state { entry["state"] = state }
            if let version = origin.version { entry["version"] = version }
            if let stopped = origin.stopped { entry["stopped"] = stopped }
            if let loop = origin.loop { entry["loop"] = loop }
            if let background = origin.background { entry["background"] = background }
            if let alt = origin.backgroundAlt { entry["backgroundAlt"] = alt }
            if let answers = origin.answers { entry["answers"] = answers }
            object["origin"] = entry
        }
        return serialize(object)
    }

    private static func page(_ page: Page) -> [String: Any] {
        var object: [String: Any] = ["id": page.id, "type": page.kind.typeName]
        switch page.kind {
        case .title(let title, let subtitle):
            object["title"] = title
            if let subtitle { object["subtitle"] = subtitle }
        case .text(let lines):
            object["lines"] = lines
        case .choice(let prompt, let choices):
            if let prompt { object["prompt"] = prompt }
            object["choices"] = choices.map { choice -> [String: Any] in
                var entry: [String: Any] = ["text": choice.text, "targetBeatId": choice.targetBeatId]
                if let sound = choice.soundURL { entry["sound_url"] = sound.value }
                return entry
            }
        case .question(let question):
            switch question.kind {
            case .text(let allowsBlank):
                object["answer"] = "text"
                if allowsBlank { object["allowBlank"] = true }
            case .number(let minimum, let maximum, let whole):
                object["answer"] = "number"
                object["minimum"] = minimum
                object["maximum"] = maximum
                if whole { object["whole"] = true }
            }
            if let label = question.label { object["label"] = label }
            object["answerBeat"] = question.answerBeatPrefix
            if let test = question.testAnswer { object["testAnswer"] = test }
        }
        if let image = page.imageUrl { object["imageUrl"] = image.value }
        if let alt = page.imageAlt { object["imageAlt"] = alt }
        if !page.tools.isEmpty { object["tools"] = page.tools.map { ["name": $0.name, "args": $0.args.mapValues(value)] } }
        if !page.marks.isEmpty { object["marks"] = page.marks.map(marks) }
        return object
    }

    private static func marks(_ marks: LineMarks) -> [String: Any] {
        var object: [String: Any] = ["line": marks.line]
        if !marks.spans.isEmpty {
            object["spans"] = marks.spans.map { span -> [String: Any] in
                var object: [String: Any] = ["from": span.from, "to": span.to, "style": TextAttributes.names.filter { span.attributes.contains($0.1) }.map(\.0)]
                if let color = span.color { object["color"] = TextColor.hex(color) }
                return object
            }
        }
        if !marks.breaks.isEmpty { object["breaks"] = marks.breaks }
        if let alignment = marks.alignment { object["align"] = alignment.rawValue }
        return object
    }

    /// A tool argument as it was read: kept as JSON.
    private static func value(_ json: JSON) -> Any { json }

    /// Only strings, numbers, booleans, arrays, dictionaries and JSON go in; written with sorted keys by
    /// PajamaJSON, so the same model is the same bytes.
    private static func serialize(_ object: [String: Any]) -> [UInt8] {
        JSONWriter.bytes(json(object), format: JSONWriter.Format(sortedKeys: true))
    }

    private static func json(_ value: Any) -> JSON {
        switch value {
        case let json as JSON: json
        case let flag as Bool: .bool(flag)
        case let number as Int: .int(number)
        case let number as Double: .double(number)
        case let text as String: .string(text)
        case let object as [String: Any]: .object(object.map { ($0.key, json($0.value)) })
        case let items as [Any]: .array(items.map(json))
        default: .null
        }
    }
}
