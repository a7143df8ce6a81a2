import Foundation

/// The HTML Twine 2 publishes: a `<tw-storydata name startnode format format-version ifid>` element holding
/// one `<tw-passagedata pid name tags>` element per passage, whose text is HTML-escaped (decoded here).
public enum TwineHTML {
    public static func parse(_ html: String) throws(TwineParseError) -> TwineStory {
        let scalars = Array(html.unicodeScalars)
        guard let storyStart = find("<tw-storydata", in: scalars, from: 0) else { throw TwineParseError("no <tw-storydata> element") }
        guard let (storyAttributes, storyEnd) = attributes(in: scalars, at: storyStart + "<tw-storydata".count) else {
            throw TwineParseError("the <tw-storydata> tag is not closed")
        }
        let close = find("</tw-storydata", in: scalars, from: storyEnd) ?? scalars.count
        var passages: [TwinePassage] = []
        var pids: [String: String] = [:]
        var cursor = storyEnd
        while let open = find("<tw-passagedata", in: scalars, from: cursor), open < close {
            guard let (passageAttributes, bodyStart) = attributes(in: scalars, at: open + "<tw-passagedata".count) else {
                throw TwineParseError("passage \(passages.count + 1): its <tw-passagedata> tag is not closed")
            }
            let bodyEnd = find("</tw-passagedata", in: scalars, from: bodyStart) ?? close
            guard let name = passageAttributes["name"] else { throw TwineParseError("passage \(passages.count + 1): a <tw-passagedata> without a name") }
            let tags = (passageAttributes["tags"] ?? "").split(separator: " ").map(String.init)
            var text = String(String.UnicodeScalarView(scalars[bodyStart..<bodyEnd]))
            text = decodeEntities(text)
            passages.append(TwinePassage(name: name, tags: tags, text: text.replacingCRLF()))
            if let pid = passageAttributes["pid"] { pids[pid] = name }
            cursor = bodyEnd + 1
        }
        guard !passages.isEmpty else { throw TwineParseError("the story has no <tw-passagedata> passage") }
        let startNode = storyAttributes["startnode"] ?? ""
        guard let start = pids[startNode] ?? (startNode.isEmpty ? passages.first?.name : nil) else {
            throw TwineParseError("the start node \"\(startNode)\" of <tw-storydata> is no passage's pid")
        }
        return TwineStory(title: storyAttributes["name"] ?? "", ifid: storyAttributes["ifid"], format: storyAttributes["format"],
                          formatVersion: storyAttributes["format-version"], start: start, passages: passages)
    }

    /// The position of `needle` (ASCII, matched without regard to case) in `scalars` from `start`.
    static func find(_ needle: String, in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        guard let first = pattern.first, scalars.count >= pattern.count else { return nil }
        var index = start
        let last = scalars.count - pattern.count
        while index <= last {
            if lower(scalars[index]) == first {
                var matched = true
                for offset in 1..<pattern.count where lower(scalars[index + offset]) != pattern[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    /// The attributes of a tag from `start` (after its name) to its `>`, and the position after the `>`;
    /// nil when the tag does not close. Values are entity-decoded; names are lowercased.
    static func attributes(in scalars: [Unicode.Scalar], at start: Int) -> ([String: String], Int)? {
        var result: [String: String] = [:]
        var index = start
        func skipSpace() { while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 } }
        while true {
            skipSpace()
            guard index < scalars.count else { return nil }
            if scalars[index] == ">" { return (result, index + 1) }
            if scalars[index] == "/" { index += 1; continue }
            var name = ""
            while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != "=", scalars[index] != ">", scalars[index] != "/" {
                name.unicodeScalars.append(lower(scalars[index]))
                index += 1
            }
            skipSpace()
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                skipSpace()
                guard index < scalars.count else { return nil }
                let quote = scalars[index]
                if quote == "\"" || quote == "'" {
                    index += 1
                    while index < scalars.count, scalars[index] != quote {
                        value.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    guard index < scalars.count else { return nil }
                    index += 1
                } else {
                    while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != ">" {
                        value.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                }
            }
            if !name.isEmpty { result[name] = decodeEntities(value) }
        }
    }

    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©", "eacute": "é", "egrave": "è", "agrave": "à",
        "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß", "laquo": "«", "raquo": "»", "middot": "·", "bull": "•",
        "times": "×", "deg": "°", "iexcl": "¡", "iquest": "¿", "ntilde": "ñ", "aacute": "á", "iacute": "í", "oacute": "ó", "uacute": "ú",
    ]

    /// `text` with its HTML entities decoded (`&amp;`, `&#39;`, `&#x27;`, the common named ones); an
    /// unknown entity stays as it is.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semi]
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = namedEntities[String(name)]
                }
                if let decoded {
                    result += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            result.append("&")
            rest = after
        }
        result += rest
        return result
    }
}

extension String {
    func replacingCRLF() -> String { contains("\r") ? replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") : self }
}
