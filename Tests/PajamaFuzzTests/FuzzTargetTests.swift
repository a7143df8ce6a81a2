import Foundation
import PajamaModel
import PajamaFuzz
import PajamaImage
import PajamaFuzzSession
import PajamaTestSupport
import Testing

/// Every fuzz target's `fuzzOne` on seeds like scripts/fuzz-seeds.sh's, in the normal suite, so the targets
/// keep compiling and keep reaching the decoders (a target that stopped decoding its seeds fails here).
@Suite(.serialized) struct FuzzTargetTests {
    static func files(_ folder: URL, _ suffixes: [String]) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { name in suffixes.contains { name.hasSuffix($0) } }.map { folder.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static let stories = ["clockwork-atlas", "lantern-keeper", "night-garden"].map { PackagePaths.stories.appendingPathComponent($0) }

    @Test(arguments: stories)
    func aBundledStoryAsOneInputValidatesCleanly(_ story: URL) async throws {
        let beats = try Self.files(story.appendingPathComponent("beats"), [".json"]).map(Self.bytes)
        let input = StoryFuzz.join([try Self.bytes(story.appendingPathComponent("story.json"))] + beats)
        let report = await StoryFuzz.check(input)
        #expect(report.storyId == story.lastPathComponent)
        #expect(report.errorCount == 0, "\(report.findings)")
        // Cut anywhere, the package is still only findings.
        for cut in stride(from: 0, to: input.count, by: max(1, input.count / 50)) {
            await StoryFuzz.check(Array(input[..<cut]))
        }
    }

    @Test func aBrokenPackageIsFindingsNamingItsFiles() async {
        let story = Array(#"{"format":1,"id":"s","title":"S","startBeatId":"a","beats":["a","b"]}"#.utf8)
        let beatA = Array(#"{"id":"a","pages":[{"id":"p","type":"text","lines":["x"]}],"nextBeatId":"b"}"#.utf8)
        let report = await StoryFuzz.check(StoryFuzz.join([story, beatA, Array("{".utf8)]))
        #expect(report.findings.contains { $0.file == "beats/b.json" })
    }

    @Test func themesDecodeAndMapEveryRole() throws {
        let themes = Self.files(PackagePaths.root.appendingPathComponent("Themes"), [".json"])
        #expect(themes.count >= 4)
        for file in themes {
            #expect(ThemeFuzz.fuzzOne(try Self.bytes(file)) != nil, "\(file.lastPathComponent)")
        }
        for bad in ["", "{", "[]", ##"{"name":"x","roles":{"title":{"fg":"#zzzzzz","bg":"#1234567","fg8":"plaid"}}}"##] {
            _ = ThemeFuzz.fuzzOne(Array(bad.utf8))
        }
    }

    @Test func settingsLoadWithDefaultsForAnythingElse() {
        let (reader, sound) = SettingsFuzz.fuzzOne(Array(#"{"theme":"night","volume":250,"muted":true}"#.utf8))
        #expect(reader.theme == "night")
        #expect(sound.volume == 100 && sound.muted)
        for bad in ["", " ", "{", "null", #"{"volume":-9223372036854775808}"#, "\u{FF}"] {
            let (reader, sound) = SettingsFuzz.fuzzOne(Array(bad.utf8))
            #expect(reader.theme == nil)
            #expect((0...100).contains(sound.volume))
        }
    }

    @Test func progressResumesAndStepsBackThroughItsHistory() async {
        let saved = #"{"finished":false,"history":[{"beatId":"start","lineIndex":0,"pageId":"cover"},{"beatId":"start","lineIndex":2,"pageId":"road"},{"beatId":"left","lineIndex":1,"pageId":"p"}],"location":{"beatId":"left","lineIndex":1,"pageId":"p"},"pagesRead":3}"#
        let (resumed, steps) = await ProgressFuzz.check(Array(saved.utf8))
        #expect(resumed == StoryLocation(beatId: "left", pageId: "p", lineIndex: 1))
        #expect(steps == 2)
        // The dead end fuzz-progress found: the beat "gone" is dropped from the history at resume.
        let gone = #"{"finished":false,"history":[{"beatId":"gone","lineIndex":0,"pageId":"p"},{"beatId":"start","lineIndex":0,"pageId":"cover"},{"beatId":"left","lineIndex":0,"pageId":"p"}],"location":{"beatId":"left","lineIndex":0,"pageId":"p"},"pagesRead":2}"#
        #expect(await ProgressFuzz.check(Array(gone.utf8)).stepsBack == 1)
        for bad in ["", "{", #"{"location":{"beatId":"nowhere","pageId":"p","lineIndex":-4},"history":[],"finished":true,"pagesRead":0}"#] {
            let (resumed, _) = await ProgressFuzz.check(Array(bad.utf8))
            #expect(resumed?.beatId == "start")
        }
    }

    @Test func picturesOfTheStoriesAndGeneratedOnesAreDrawn() throws {
        var drawn = 0
        for story in Self.stories {
            for file in Self.files(story.appendingPathComponent("assets/images"), [".png"]) + Self.files(story.appendingPathComponent("assets/art"), [".txt"]) {
                let images = PictureFuzz.fuzzOne(try Self.bytes(file))
                #expect(!images.isEmpty, "\(file.path)")
                drawn += images.count
            }
        }
        let generated = PNGFile.rgba(width: 3, height: 2, pixels: (0..<24).map { UInt8($0 * 10) })
        #expect(PictureFuzz.fuzzOne(generated).count == 1)
        for cut in 0..<generated.count { _ = PictureFuzz.fuzzOne(Array(generated[..<cut])) }
        #expect(drawn > 10)
    }

    /// fuzz-jpeg, fuzz-webp and fuzz-gif on their seeds (the picture fixtures): each decodes its own
    /// format, refuses the others, and survives every 7th cut of each file; fuzz-picture draws them all.
    @Test(arguments: [(PictureFormat.jpeg, ".jpg"), (.webp, ".webp"), (.gif, ".gif")])
    func eachPictureFormatTargetDecodesItsFixtures(format: PictureFormat, suffix: String) throws {
        let folder = PackagePaths.root.appendingPathComponent("Tests/Fixtures/pictures")
        let files = Self.files(folder, [".png", ".jpg", ".webp", ".gif"])
        #expect(files.count >= 20)
        for file in files {
            let bytes = try Self.bytes(file)
            let image = PictureFormatFuzz.fuzzOne(bytes, as: format)
            #expect((image != nil) == file.lastPathComponent.hasSuffix(suffix), "\(file.lastPathComponent) as \(format)")
            // Every picture target sees these too (fuzz-picture knows the format by the bytes).
            #expect(!PictureFuzz.fuzzOne(bytes).isEmpty, "\(file.lastPathComponent)")
            guard file.lastPathComponent.hasSuffix(suffix) else { continue }
            for cut in stride(from: 0, to: bytes.count, by: 7) { _ = PictureFormatFuzz.fuzzOne(Array(bytes[..<cut]), as: format) }
        }
    }

    @Test func soundsOfTheStoriesDecode() throws {
        let sounds = Self.stories.flatMap { Self.files($0.appendingPathComponent("assets/sounds"), [".wav", ".flac", ".ogg"]) }
        #expect(sounds.count > 10)
        for file in sounds.prefix(12) {
            #expect(SoundFuzz.fuzzOne(try Self.bytes(file)) != nil, "\(file.lastPathComponent)")
        }
        let wav = TestSound.wav(seconds: 0.05, rate: 8000)
        #expect(SoundFuzz.fuzzOne(wav)?.frames == 400)
        for cut in stride(from: 0, to: 64, by: 3) { _ = SoundFuzz.fuzzOne(Array(wav[..<cut])) }
    }

    /// The input after which fuzz-picture once saw glib memory as leaked (docs/security.md, "Fuzzing"; not
    /// seen again): a damaged 6x4 16-bit RGBA PNG that libpng still decodes, kept for replaying under ASan.
    @Test func theInputOfTheOpenPictureFindingIsDrawn() throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAYAAAAEEAYAAAD9lJIAAAAAvUlEQVR4nGNgUPXKn7LzHrOGb9H0PQ/ZtANKZ+1/wqkXXDH30HMew7DqBUdf8ZtE1i0+8VbIPKZx2WkGboPQqvlHXvIZR9QuOv5G0Cy6Yemp9yKWcc0rzn4St0lsW33hq5R9Sue6yz9kndJ7Nl5jELNOaF11/oukXXLH2kvfZRzTujdc/SXvktm3+cZfJfecidtuo7qBQdEte8LWW/9VPPMm77jLpO5TOG33A1Yt/5KZ+x5z6AaVzzn4DNUNAB7RXYGdT9kXAAAAAElFTkSuQmCC"))
        #expect(PictureFuzz.fuzzOne(Array(png)).count == 1)
    }

    /// fuzz-sound's leak: one byte changed in an Ogg Vorbis header (offset 2894 of goodnight.ogg) is refused;
    /// the few KB libvorbis leaks on it are suppressed for LeakSanitizer (scripts/fuzz-lsan.supp).
    @Test func aDamagedOggVorbisHeaderIsRefused() throws {
        var ogg = try Self.bytes(PackagePaths.stories.appendingPathComponent("night-garden/assets/sounds/goodnight.ogg"))
        #expect(SoundFuzz.fuzzOne(ogg) != nil)
        ogg[2894] = 0x93
        #expect(SoundFuzz.fuzzOne(ogg) == nil)
    }

    @Test func everyCoReadingMessageRoundTrips() {
        let messages = [
            #"{"name":"Ada","type":"hello","v":1}"#,
            #"{"location":{"beatId":"storm","lineIndex":1,"pageId":"choice"},"owner":"Bo","participants":["Ada"],"story":{"id":"s","title":"S","url":"http://127.0.0.1:1/s/","version":"1"},"type":"welcome","v":1}"#,
            #"{"location":{"beatId":"shore","lineIndex":0,"pageId":"p"},"type":"location","v":1}"#,
            #"{"choice":1,"cue":"choice","path":"assets/sounds/door-latch.wav","type":"cue","v":1}"#,
            #"{"participants":["Ada","Cy"],"type":"participants","v":1}"#,
            #"{"name":"Bo","type":"end","v":1}"#,
            #"{"countOnly":true,"name":"Ada","type":"hello","v":1}"#,
            #"{"followers":2,"owner":"Bo","story":{"id":"s","url":"/"},"type":"welcome","v":1}"#,
            #"{"followers":3,"owner":"Bo","participants":["Ada"],"story":{"id":"s","url":"/"},"type":"welcome","v":1}"#,
            #"{"followers":2000,"type":"followers","v":1}"#,
        ]
        for text in messages { #expect(SessionFuzz.fuzzOne(Array(text.utf8)) != nil, "\(text)") }
        #expect(SessionFuzz.fuzzOne(Array(#"{"v":1,"type":"cue","path":"../x","cue":"tap"}"#.utf8)) == nil)
        #expect(SessionFuzz.fuzzOne(Array(#"{"v":1,"type":"followers","followers":-1}"#.utf8)) == nil)
    }
}
