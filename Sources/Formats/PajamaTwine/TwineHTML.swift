import FoundationEssentials
import Glibc
import PajamaBasics

/// The HTML Twine 2 publishes: a `<tw-storydata name startnode format format-version ifid>` element holding
/// one `<tw-passagedata pid name tags>` element per passage, whose text is HTML-escaped (decoded here), and
/// the Story JavaScript and Stylesheet (read as passages tagged `script` and `stylesheet`).
///
/// Read as UTF-8 bytes: every delimiter it looks for is ASCII, so a byte scan finds them without decoding
/// the megabyte of passage text around them (a published story is often 1 MB, its format's script included).
public enum TwineHTML {
    public static func parse(_ html: String) throws(TwineParseError) -> TwineStory {
        var html = html
        let story: Result<TwineStory, TwineParseError> = html.withUTF8 { bytes in
            Result { () throws(TwineParseError) in try parse(bytes) }
        }
        return try story.get()
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(TwineParseError) -> TwineStory {
        guard let storyStart = ASCIISearch.find("<tw-storydata", in: bytes, from: 0) else { throw TwineParseError("no <tw-storydata> element") }
        guard let (storyAttributes, storyEnd) = attributes(in: bytes, at: storyStart + "<tw-storydata".utf8.count) else {
            throw TwineParseError("the <tw-storydata> tag is not closed")
        }
        let close = ASCIISearch.find("</tw-storydata", in: bytes, from: storyEnd) ?? bytes.count
        var passages: [TwinePassage] = []
        var pids: [String: String] = [:]
        var cursor = storyEnd
        while let open = ASCIISearch.find("<tw-passagedata", in: bytes, from: cursor), open < close {
            guard let (passageAttributes, bodyStart) = attributes(in: bytes, at: open + "<tw-passagedata".utf8.count) else {
                throw TwineParseError("passage \(passages.count + 1): its <tw-passagedata> tag is not closed")
            }
            let bodyEnd = ASCIISearch.find("</tw-passagedata", in: bytes, from: bodyStart) ?? close
            guard let name = passageAttributes["name"] else { throw TwineParseError("passage \(passages.count + 1): a <tw-passagedata> without a name") }
            let tags = (passageAttributes["tags"] ?? "").split(separator: " ").map(String.init)
            let text = decodeEntities(UnsafeBufferPointer(rebasing: bytes[bodyStart..<max(bodyStart, bodyEnd)]))
            passages.append(TwinePassage(name: name, tags: tags, text: text.replacingCRLF()))
            if let pid = passageAttributes["pid"] { pids[pid] = name }
            cursor = bodyEnd + 1
        }
        guard !passages.isEmpty else { throw TwineParseError("the story has no <tw-passagedata> passage") }
        // The Story JavaScript and Stylesheet Twine publishes beside the passages (`<script role="script">`,
        // `<style role="stylesheet">`, their text as written): passages tagged `script` and `stylesheet`,
        // as Twee's are.
        let elements: [(open: StaticString, close: StaticString, role: String, name: String)] = [
            ("<script", "</script", "script", "Story JavaScript"), ("<style", "</style", "stylesheet", "Story Stylesheet"),
        ]
        for (openTag, closeTag, role, name) in elements {
            var from = storyEnd
            while let open = ASCIISearch.find(openTag, in: bytes, from: from), open < close {
                guard let (elementAttributes, bodyStart) = attributes(in: bytes, at: open + openTag.utf8CodeUnitCount) else { break }
                let bodyEnd = ASCIISearch.find(closeTag, in: bytes, from: bodyStart) ?? close
                from = bodyEnd + 1
                guard elementAttributes["role"] == role, bodyEnd > bodyStart else { continue }
                var unique = name
                while passages.contains(where: { $0.name == unique }) { unique += " " }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[bodyStart..<bodyEnd]), as: UTF8.self)
                passages.append(TwinePassage(name: unique, tags: [role], text: text.replacingCRLF()))
            }
        }
        let startNode = storyAttributes["startnode"] ?? ""
        guard let start = pids[startNode] ?? (startNode.isEmpty ? passages.first?.name : nil) else {
            throw TwineParseError("the start node \"\(startNode)\" of <tw-storydata> is no passage's pid")
        }
        return TwineStory(title: storyAttributes["name"] ?? "", ifid: storyAttributes["ifid"], format: storyAttributes["format"],
                          formatVersion: storyAttributes["format-version"], start: start, passages: passages)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// The attributes of a tag from `start` (after its name) to its `>`, and the position after the `>`;
    /// nil when the tag does not close. Values are entity-decoded; names are lowercased.
    static func attributes(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> ([String: String], Int)? {
        var result: [String: String] = [:]
        var index = start
        func skipSpace() { while index < bytes.count, isSpace(bytes[index]) { index += 1 } }
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") { return (result, index + 1) }
            if bytes[index] == UInt8(ascii: "/") { index += 1; continue }
            var name: [UInt8] = []
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">"),
                  bytes[index] != UInt8(ascii: "/") {
                name.append(ASCIISearch.lower(bytes[index]))
                index += 1
            }
            skipSpace()
            var valueStart = index, valueEnd = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipSpace()
                guard index < bytes.count else { return nil }
                let quote = bytes[index]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    index += 1
                    valueStart = index
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    guard index < bytes.count else { return nil }
                    valueEnd = index
                    index += 1
                } else {
                    valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    valueEnd = index
                }
            }
            if !name.isEmpty {
                result[String(decoding: name, as: UTF8.self)] = decodeEntities(UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]))
            }
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
        var text = text
        return text.withUTF8 { decodeEntities($0) }
    }

    /// The UTF-8 `bytes` as a string with their HTML entities decoded (an entity is ASCII from `&` to `;`,
    /// at most 12 bytes after the `&`).
    static func decodeEntities(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            let limit = min(bytes.count, index + 13)
            var semi = index + 1
            while semi < limit, bytes[semi] != UInt8(ascii: ";") { semi += 1 }
            if semi < limit, let decoded = entity(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<semi]), as: UTF8.self)) {
                result += decoded.utf8
                index = semi + 1
            } else {
                result.append(byte)
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What one entity's name (between `&` and `;`) stands for; nil when it is unknown.
    private static func entity(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
        }
        return namedEntities[name]
    }
}

extension String {
    func replacingCRLF() -> String {
        utf8.contains(13) ? replacing("\r\n", with: "\n").replacing("\r", with: "\n") : self
    }
}
