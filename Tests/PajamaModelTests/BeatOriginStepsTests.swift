import Foundation
@testable import PajamaModel
import Testing

/// A made beat's origin in its JSON: the steps as one string (`"0,2,-1"`), read back exactly; the older
/// array form still reads; anything else is refused naming the field.
@Suite struct BeatOriginStepsTests {
    @Test func stepsGoAsOneStringAndComeBackTheSame() throws {
        let steps = [0, 2, -1, 11, 0] + Array(repeating: 1, count: 1_200)
        let beat = Beat(id: "i-1", pages: [Page(id: "p1", kind: .text(lines: ["Hello."]))], origin: BeatOrigin(seed: 7, steps: steps, version: "v"))
        let bytes = StoryEncoder.encode(beat)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"steps\":\"0,2,-1,11,0,1,"))
        let decoded = try StoryDecoder.decodeBeat(bytes, file: "beats/i-1.json", expectedId: "i-1")
        #expect(decoded.origin?.steps == steps)
        #expect(BeatOrigin.steps(fromText: "") == [])
        #expect(BeatOrigin.stepsText([]) == "")
    }

    @Test func theArrayFormStillReadsAndBadStepsAreRefused() throws {
        func beat(_ steps: String) -> [UInt8] {
            Array(#"{"id":"b","pages":[{"id":"p","type":"text","lines":["x"]}],"origin":{"seed":1,"steps":\#(steps)}}"#.utf8)
        }
        #expect(try StoryDecoder.decodeBeat(beat("[0,-1,3]"), file: "beats/b.json", expectedId: "b").origin?.steps == [0, -1, 3])
        #expect(try StoryDecoder.decodeBeat(beat(#""4,-1""#), file: "beats/b.json", expectedId: "b").origin?.steps == [4, -1])
        for bad in [#""1,,2""#, #""-3""#, #""1,x""#, #""1 ,2""#, #""99999999999""#] {
            #expect(throws: StoryFormatError.self, "\(bad)") { try StoryDecoder.decodeBeat(beat(bad), file: "beats/b.json", expectedId: "b") }
        }
    }
}
