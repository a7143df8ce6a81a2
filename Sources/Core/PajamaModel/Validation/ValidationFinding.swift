/// One problem `pajama validate` found, with where it is.
public struct ValidationFinding: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

    public var severity: Severity
    public var file: String
    public var beatId: String?
    public var pageId: String?
    /// JSON path of the field (`pages[2].choices[0].targetBeatId`), empty for the whole file.
    public var path: String
    public var message: String

    public init(_ severity: Severity, file: String, beatId: String? = nil, pageId: String? = nil, path: String = "", message: String) {
        self.severity = severity
        self.file = file
        self.beatId = beatId
        self.pageId = pageId
        self.path = path
        self.message = message
    }

    init(_ error: StoryFormatError) {
        self.init(.error, file: error.file, beatId: error.beatId, pageId: error.pageId, path: error.path, message: error.message)
    }

    public var description: String {
        let location = StoryFormatError(file: file, beatId: beatId, pageId: pageId, path: path, message: message).description
        return "\(severity.rawValue): \(location)"
    }

    public static func < (a: ValidationFinding, b: ValidationFinding) -> Bool {
        if a.severity != b.severity { return a.severity == .error }
        return (a.file, a.path, a.message) < (b.file, b.path, b.message)
    }
}

/// What validation found, and the exit code it means.
public struct ValidationReport: Sendable {
    public var storyId: String?
    public var findings: [ValidationFinding]
    /// True when the story could not be read at all (no story.json, source unreachable).
    public var couldNotRead: Bool

    public init(storyId: String?, findings: [ValidationFinding], couldNotRead: Bool) {
        self.storyId = storyId
        self.findings = findings
        self.couldNotRead = couldNotRead
    }

    public var errorCount: Int { findings.filter { $0.severity == .error }.count }
    public var warningCount: Int { findings.filter { $0.severity == .warning }.count }

    /// 0 clean (warnings allowed), 1 errors, 2 could not read the story at all.
    public var exitCode: Int32 { couldNotRead ? 2 : errorCount > 0 ? 1 : 0 }
}

/// Checks whether asset bytes decode; injected so the core stays free of C libraries.
public protocol AssetProbe: Sendable {
    /// nil when the bytes are a playable sound, else the problem.
    func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String?
    /// nil when the bytes are a drawable picture, else the problem.
    func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String?
}
