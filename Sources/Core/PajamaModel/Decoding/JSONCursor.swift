import PajamaJSON

/// A position in a parsed JSON tree that knows its path, its file, and the beat and page it is in,
/// so every decoding error says exactly where it is.
struct JSONCursor {
    let value: JSON
    let path: String
    let file: String
    var beatId: String?
    var pageId: String?

    func error(_ message: String) -> StoryFormatError {
        StoryFormatError(file: file, beatId: beatId, pageId: pageId, path: path, message: message)
    }

    private func childPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The object's members in file order (the parser refused a field that appears twice).
    func object() throws(StoryFormatError) -> [(String, JSON)] {
        guard case .object(let fields) = value else { throw error("expected an object, found \(value.typeDescription)") }
        return fields
    }

    /// The field `key`, or nil when it is absent or null.
    func optionalField(_ key: String) throws(StoryFormatError) -> JSONCursor? {
        let fields = try object()
        guard let child = fields.first(where: { $0.0 == key })?.1, child != .null else { return nil }
        return JSONCursor(value: child, path: childPath(key), file: file, beatId: beatId, pageId: pageId)
    }

    func field(_ key: String) throws(StoryFormatError) -> JSONCursor {
        guard let child = try optionalField(key) else {
            throw JSONCursor(value: .null, path: childPath(key), file: file, beatId: beatId, pageId: pageId)
                .error("the required field \"\(key)\" is missing")
        }
        return child
    }

    func elements() throws(StoryFormatError) -> [JSONCursor] {
        guard case .array(let items) = value else { throw error("expected an array, found \(value.typeDescription)") }
        return items.enumerated().map { index, item in
            JSONCursor(value: item, path: "\(path)[\(index)]", file: file, beatId: beatId, pageId: pageId)
        }
    }

    func string() throws(StoryFormatError) -> String {
        guard case .string(let text) = value else { throw error("expected a string, found \(value.typeDescription)") }
        return text
    }

    func bool() throws(StoryFormatError) -> Bool {
        guard case .bool(let flag) = value else { throw error("expected true or false, found \(value.typeDescription)") }
        return flag
    }

    func integer() throws(StoryFormatError) -> Int {
        switch value {
        case .int(let number) where (-999_999_999_999_999...999_999_999_999_999).contains(number): return number
        case .double(let number) where number == number.rounded() && abs(number) < 1e15: return Int(number)
        default: throw error("expected a whole number, found \(value.typeDescription)")
        }
    }

    /// A finite number, whole or not.
    func number() throws(StoryFormatError) -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number) where number.isFinite: return number
        default: throw error("expected a number, found \(value.typeDescription)")
        }
    }

    /// A string no longer than `limit` characters.
    func text(limit: Int) throws(StoryFormatError) -> String {
        let text = try string()
        if text.unicodeScalars.count > limit {
            throw error("the text is \(text.unicodeScalars.count) characters long (at most \(limit))")
        }
        return text
    }

    func assetPath() throws(StoryFormatError) -> AssetPath {
        let raw = try string()
        do {
            return try AssetPath(validating: raw)
        } catch {
            throw self.error("invalid asset path \"\(StoryFormatError.printable(raw))\": \(error)")
        }
    }

    func identifier(what: String) throws(StoryFormatError) -> String {
        let id = try string()
        guard StoryManifest.isValidId(id) else {
            throw error("the \(what) \"\(StoryFormatError.printable(id))\" is not valid (1 to 128 of A-Z a-z 0-9 _ -)")
        }
        return id
    }
}

extension StoryFormatError {
    /// `text` with control characters shown as escapes, so an error message never carries them to a terminal.
    public static func printable(_ text: String, limit: Int = 80) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if text.unicodeScalars.count > limit { out += "..." }
        return out
    }
}
