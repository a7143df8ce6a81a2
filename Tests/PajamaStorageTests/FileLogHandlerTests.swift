import Foundation
import Logging
import PajamaStorage
import PajamaTestSupport
import Testing

/// The log file behind `--log-level`: one line per record, only records at or above the level, and a
/// bounded size (rotation keeps one older file). A folder that cannot be written never stops the caller.
@Suite struct FileLogHandlerTests {
    func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func aRecordIsOneLineWithTimeLevelLabelMessageAndMetadata() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-log-format")
        defer { dir.remove() }
        let file = LogFile(url: dir.url.appendingPathComponent("state/pajama/pajama.log"))
        var logger = Logger(label: "pajama.test") { FileLogHandler(label: $0, file: file, level: .info) }
        logger[metadataKey: "story"] = "s"
        logger.warning("cannot load beat b:\nnot found", metadata: ["status": "404", "path": "beats/b.json"])
        let written = try lines(file.url)
        #expect(written.count == 1, "\(written)")
        let line = try #require(written.first)
        // 2026-11-23T16:40:01.123Z warning pajama.test: cannot load beat b:\nnot found path=beats/b.json status=404 story=s
        let time = try #require(line.split(separator: " ").first)
        #expect(time.count == 24 && time.hasSuffix("Z") && time.contains("T"), "\(time)")
        #expect(line.dropFirst(25) == "warning pajama.test: cannot load beat b:\\nnot found path=beats/b.json status=404 story=s")
    }

    @Test func theTimeIsUTCWithMilliseconds() {
        let line = FileLogHandler.line(time: Date(timeIntervalSince1970: 1_700_000_000.042), level: .error, label: "x",
                                       message: "m", metadata: [:])
        #expect(line == "2023-11-14T22:13:20.042Z error x: m\n")
    }

    @Test func recordsBelowTheLevelAreLeftOut() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-log-level")
        defer { dir.remove() }
        let file = LogFile(url: dir.url.appendingPathComponent("pajama.log"))
        let logger = Logger(label: "pajama.test") { FileLogHandler(label: $0, file: file, level: .warning) }
        logger.debug("debug")
        logger.info("info")
        logger.notice("notice")
        logger.warning("warning")
        logger.error("error")
        logger.critical("critical")
        let levels = try lines(file.url).map { $0.split(separator: " ")[1] }
        #expect(levels == ["warning", "error", "critical"])
        // Nothing logged, no file.
        let quiet = LogFile(url: dir.url.appendingPathComponent("quiet/pajama.log"))
        Logger(label: "q") { FileLogHandler(label: $0, file: quiet, level: .error) }.warning("not written")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("quiet").path))
    }

    @Test func aFullFileIsRotatedKeepingOneOlderFile() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-log-rotate")
        defer { dir.remove() }
        let file = LogFile(url: dir.url.appendingPathComponent("pajama.log"), maximumBytes: 1000)
        let logger = Logger(label: "pajama.test") { FileLogHandler(label: $0, file: file, level: .trace) }
        let padding = String(repeating: "x", count: 40)
        for n in 0..<100 { logger.info("record \(n) \(padding)") }
        let current = try lines(file.url), previous = try lines(file.previousURL)
        #expect(try Data(contentsOf: file.url).count <= 1000)
        #expect(try Data(contentsOf: file.previousURL).count <= 1000)
        #expect(current.last?.contains("record 99 ") == true)
        // The older file ends where the current one begins: no record is lost between them.
        let last = try #require(previous.last?.split(separator: " ")[4]), first = try #require(current.first?.split(separator: " ")[4])
        #expect(Int(last)! + 1 == Int(first)!)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["pajama.log", "pajama.log.1"])
    }

    @Test func anUnwritableFolderDropsRecordsAndNeverThrows() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-log-unwritable")
        defer { dir.remove() }
        // The log folder's place is taken by a file: nothing can be written, and logging goes on.
        try Data().write(to: dir.url.appendingPathComponent("state"))
        let file = LogFile(url: dir.url.appendingPathComponent("state/pajama.log"))
        let logger = Logger(label: "pajama.test") { FileLogHandler(label: $0, file: file, level: .trace) }
        logger.error("lost")
        #expect(!file.append("also lost\n"))
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("state"))
        #expect(file.append("written once the folder can be made\n"))
        #expect(try lines(file.url) == ["written once the folder can be made"])
    }
}
