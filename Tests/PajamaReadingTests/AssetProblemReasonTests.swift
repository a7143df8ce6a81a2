import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// The real reason an asset cannot be used, named the same way by `pajama validate` and by the reader's
/// error screen (a symbolic link out of the package, a file over the size limit).
@MainActor @Suite struct AssetProblemReasonTests {
    /// One beat whose only page has a critical picture at assets/pic.png.
    func story() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-reason")
        try dir.write("story.json", #"{"format":1,"id":"reason","title":"Reason","startBeatId":"a","beats":["a"],"assets":{"criticality":{"assets/pic.png":"critical"}}}"#)
        try dir.write("beats/a.json", #"{"id":"a","pages":[{"id":"p","type":"text","lines":["hi"],"imageUrl":"assets/pic.png"}]}"#)
        return dir
    }

    /// What validation says about the picture.
    func validationMessage(_ source: FolderStorySource) async throws -> String {
        let report = await StoryValidator.validate(source: source, probe: MalformedCorpusTests.FakeProbe())
        #expect(report.exitCode == 1)
        let finding = try #require(report.findings.first { $0.path == "pages[0].imageUrl" }, "\(report.findings)")
        return finding.message
    }

    /// What the reader's error screen says about the picture.
    func readerMessage(_ source: FolderStorySource) async throws -> String {
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false, retry: RetryPolicy(attempts: 1))
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start()
        guard case .failed(let failure) = vm.state else {
            Issue.record("expected the critical picture to stop entry, got \(vm.state)")
            return ""
        }
        return failure.error.readerMessage
    }

    @Test func aSymlinkOutOfThePackageIsNamedAsSuchByValidateAndTheReader() async throws {
        let dir = try story()
        defer { dir.remove() }
        let outside = try TemporaryDirectory(prefix: "pajama-outside")
        defer { outside.remove() }
        try outside.write("secret.png", "PNG secret")
        try FileManager.default.createDirectory(atPath: dir.path + "/assets", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/assets/pic.png", withDestinationPath: outside.path + "/secret.png")
        let source = FolderStorySource(folder: dir.path)
        let reason = "a symbolic link that leads outside the story folder"
        let validation = try await validationMessage(source)
        #expect(validation.contains(reason), "\(validation)")
        let reader = try await readerMessage(source)
        #expect(reader.contains("assets/pic.png") && reader.contains(reason), "\(reader)")
        #expect(!reader.contains("format"), "\(reader)")
    }

    @Test func aFileOverTheSizeLimitIsNamedWithItsSizeAndTheLimit() async throws {
        let dir = try story()
        defer { dir.remove() }
        try dir.write("assets/pic.png", Data(repeating: 0x50, count: 22_334_669))  // 21.3 MB
        let source = FolderStorySource(folder: dir.path)
        let reason = "too large: 21.3 MB, the limit is 16 MB"
        let validation = try await validationMessage(source)
        #expect(validation.contains(reason), "\(validation)")
        let reader = try await readerMessage(source)
        #expect(reader.contains("assets/pic.png") && reader.contains(reason), "\(reader)")
    }

    @Test(arguments: [(100, "100 bytes"), (2048, "2 KB"), (1_572_864, "1.5 MB"), (16 * 1024 * 1024, "16 MB"), (22_334_669, "21.3 MB")])
    func byteSizesReadNaturally(_ bytes: Int, _ text: String) {
        #expect(ByteSize.text(bytes) == text)
    }
}
