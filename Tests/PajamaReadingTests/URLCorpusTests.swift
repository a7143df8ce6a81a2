import Foundation
import PajamaHTTP
import PajamaModel
import PajamaTestSupport
import Testing

/// The bad-input corpus for story URLs (issue 11, section 3): the corpus's valid base story served by the
/// real test server on 127.0.0.1, misbehaving one way per case; `pajama validate`'s report names the file
/// and the real reason, with exit 2 when the story cannot be read at all and 1 when one file is bad.
@Suite(.serialized) struct URLCorpusTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var options: TestHTTPServer.Options
        var files: [String: String?] = [:]
        var maximumResponseSize = 16 << 20
        var exit: Int32
        var file: String
        var contains: String
        var description: String { name }
    }

    static func options(_ change: (inout TestHTTPServer.Options) -> Void) -> TestHTTPServer.Options {
        var options = TestHTTPServer.Options()
        change(&options)
        return options
    }

    static let html = "<!DOCTYPE html>\n<html><head><title>Error</title></head><body><h1>Something went wrong</h1></body></html>\n"

    static let cases: [Case] = [
        Case(name: "story.json 404", options: options { $0.statuses = ["story.json": 404] }, exit: 2, file: "story.json", contains: "cannot read the story: not found"),
        Case(name: "story.json 500", options: options { $0.statuses = ["story.json": 500] }, exit: 2, file: "story.json", contains: "the server failed (HTTP 500)"),
        Case(name: "story.json 403", options: options { $0.statuses = ["story.json": 403] }, exit: 2, file: "story.json", contains: "refused by the server (HTTP 403)"),
        Case(name: "story.json is a 200 HTML error page", options: .init(), files: ["story.json": html], exit: 1, file: "story.json",
             contains: "not valid JSON: line 1, column 1: unexpected character '<'"),
        Case(name: "a beat is a 200 HTML error page", options: .init(), files: ["beats/b.json": html], exit: 1, file: "beats/b.json",
             contains: "not valid JSON: line 1, column 1: unexpected character '<'"),
        Case(name: "story.json larger than the limit", options: .init(), maximumResponseSize: 50, exit: 2, file: "story.json", contains: "too large"),
        Case(name: "a beat larger than the limit", options: .init(),
             files: ["beats/c.json": #"{"id":"c","pages":[{"id":"e","type":"text","lines":[""# + String(repeating: "x", count: 5000) + #""]}]}"#],
             maximumResponseSize: 2000, exit: 1, file: "beats/c.json", contains: "too large"),
        Case(name: "story.json redirect loop", options: options { $0.redirects = ["story.json": "/loop.json", "loop.json": "/story.json"] },
             exit: 2, file: "story.json", contains: "cannot read the story: the server redirects in a loop"),
        Case(name: "story.json redirected too often", options: options {
                 $0.redirects = Dictionary(uniqueKeysWithValues: (0..<25).map { ($0 == 0 ? "story.json" : "hop\($0)", "/hop\($0 + 1)") })
             }, exit: 2, file: "story.json", contains: "cannot read the story: too many redirects"),
        Case(name: "a beat cut mid-body", options: options { $0.truncated = TestHTTPServer.Options.always(["beats/b.json"]) }, exit: 1, file: "beats/b.json",
             contains: "beats/b.json: truncated ("),
        Case(name: "an asset refused (403)", options: options { $0.statuses = ["assets/pic.png": 403] }, exit: 1, file: "beats/a.json",
             contains: "assets/pic.png: refused by the server (HTTP 403)"),
    ]

    func serve(_ c: Case, progressTimeout: Duration = .seconds(20)) async throws -> (ValidationReport, TestHTTPServer, TemporaryDirectory) {
        let dir = try MalformedCorpusTests().makeStory(c.files)
        let server = try await TestHTTPServer(root: dir.url, options: c.options)
        let source = HTTPStorySource(baseURL: URL(string: server.baseURL)!, progressTimeout: progressTimeout, maximumResponseSize: c.maximumResponseSize)
        let report = await StoryValidator.validate(source: source, probe: MalformedCorpusTests.FakeProbe())
        return (report, server, dir)
    }

    @Test func theValidBaseStoryIsCleanOverHTTP() async throws {
        let (report, server, dir) = try await serve(Case(name: "clean", options: .init(), exit: 0, file: "", contains: ""))
        defer { server.stopSoon(); dir.remove() }
        #expect(report.exitCode == 0, "\(report.findings)")
    }

    @Test(arguments: cases)
    func aMisbehavingServerIsReportedWithTheFileAndTheReason(_ c: Case) async throws {
        let (report, server, dir) = try await serve(c)
        defer { server.stopSoon(); dir.remove() }
        #expect(report.exitCode == c.exit, "\(report.findings)")
        #expect(report.findings.contains { $0.severity == .error && $0.file == c.file && $0.message.contains(c.contains) }, "\(report.findings)")
    }

    /// A server that accepts the connection and never answers: the progress timeout ends the read.
    @Test func aServerThatNeverAnswersTimesOutWithTheFileNamed() async throws {
        var options = TestHTTPServer.Options()
        options.held = ["story.json"]
        let (report, server, dir) = try await serve(Case(name: "held", options: options, exit: 2, file: "story.json", contains: ""),
                                                    progressTimeout: .milliseconds(300))
        defer { server.stopSoon(); dir.remove() }
        #expect(report.exitCode == 2, "\(report.findings)")
        #expect(report.findings.contains { $0.file == "story.json" && $0.message == "cannot read the story: timed out: no data arrived for 0.3 s" },
                "\(report.findings)")
    }

    /// Percent-encoding never becomes a way out of the package: "%2e%2e" is a file name, sent encoded
    /// again, and the server sees the literal name, not "..".
    @Test func percentEncodedDotsAreSentAsLiteralNames() async throws {
        let (report, server, dir) = try await serve(Case(name: "encoded", options: .init(),
                                                         files: ["beats/a.json": MalformedCorpusTests.beatA.replacingOccurrences(of: "assets/pic.png", with: "%2e%2e/pic.png")],
                                                         exit: 1, file: "", contains: ""))
        defer { server.stopSoon(); dir.remove() }
        #expect(report.findings.contains { $0.path == "pages[0].imageUrl" && $0.message.contains("the file is missing") }, "\(report.findings)")
        #expect(server.requestCount(for: "%2e%2e/pic.png") == 1)
        #expect(server.requestCount(for: "../pic.png") == 0 && server.requestCount(for: "pic.png") == 0)
        let source = HTTPStorySource(baseURL: URL(string: "http://example.org/tale/")!)
        #expect(try source.url(for: "%2e%2e/pic.png").absoluteString == "http://example.org/tale/%252e%252e/pic.png")
    }
}
