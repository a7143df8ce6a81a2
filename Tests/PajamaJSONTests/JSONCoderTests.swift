import PajamaJSON
import Testing

private struct Place: Codable, Equatable {
    var beat: String
    var page: Int
    var line: Int?
}

private struct Record: Codable, Equatable {
    var name: String
    var places: [Place]
    var counts: [String: Int]
    var ratio: Double
    var small: Float
    var flag: Bool
    var note: String?
    var tags: [String?]
    var nested: [[Int]]
    var big: UInt64
    var tiny: Int8
}

private enum Mood: Codable, Equatable {
    case calm
    case loud(volume: Double)
    case named(String, Int)
}

private let record = Record(
    name: "The \"wolf\" / path\n\ttab \u{1}", places: [Place(beat: "a", page: 0, line: 2), Place(beat: "b", page: 3, line: nil)],
    counts: ["x": 1, "y": -2], ratio: 0.1, small: 1.5, flag: true, note: nil, tags: ["a", nil], nested: [[1, 2], []],
    big: UInt64(Int.max), tiny: -128)

@Suite("JSON coder")
struct JSONCoderTests {
    @Test("a record round-trips, absent optionals left out, nulls in arrays kept")
    func roundTrip() throws {
        let text = try JSONValueEncoder.sorted.encodeString(record)
        #expect(!text.contains("\"note\""), "an absent optional is left out: \(text)")
        #expect(text.contains("\"tags\":[\"a\",null]"))
        #expect(text.contains("\"ratio\":0.1"), "a double written exactly: \(text)")
        #expect(text.contains("\"page\":3,\"beat\":\"b\"") == false, "keys sorted: \(text)")
        #expect(text.contains("{\"beat\":\"b\",\"page\":3}"))
        #expect(try JSONValueDecoder().decode(Record.self, from: text) == record)
        let pretty = try JSONValueEncoder.pretty.encodeString(record)
        #expect(pretty.hasPrefix("{\n  \"big\" : 9223372036854775807,\n  \"counts\" : {\n    \"x\" : 1,"), "\(pretty)")
        #expect(try JSONValueDecoder().decode(Record.self, from: pretty) == record)
    }

    @Test("enums with associated values, nested keyed and unkeyed containers")
    func enums() throws {
        let moods: [Mood] = [.calm, .loud(volume: 0.25), .named("x", 7)]
        let text = try JSONValueEncoder.sorted.encodeString(moods)
        #expect(text == #"[{"calm":{}},{"loud":{"volume":0.25}},{"named":{"_0":"x","_1":7}}]"#)
        #expect(try JSONValueDecoder().decode([Mood].self, from: text) == moods)
    }

    @Test("doubles and integers: exact round trips, 3.0 read as an int, 3.5 refused as one")
    func numbers() throws {
        for value in [0.1, 1e-5, 123456.789, -2.5e300, 1.0, Double.leastNonzeroMagnitude] {
            let text = try JSONValueEncoder().encodeString([value])
            #expect(try JSONValueDecoder().decode([Double].self, from: text) == [value], "\(text)")
        }
        #expect(try JSONValueDecoder().decode([Int].self, from: "[3.0, 4, -0]") == [3, 4, 0])
        #expect(try JSONValueDecoder().decode([Double].self, from: "[3]") == [3.0])
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int].self, from: "[3.5]") }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([UInt8].self, from: "[256]") }
        // Beyond 2^53 a double is not the integer its text said: refused rather than read wrong.
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([UInt64].self, from: "[18446744073709551615]") }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([UInt64.max]) }
    }

    @Test("a type error names the field's path and both types")
    func typeErrors() throws {
        let text = #"{"name":"n","places":[{"beat":"a","page":0},{"beat":"b","page":"three"}],"counts":{},"ratio":1,"small":1,"flag":true,"tags":[],"nested":[],"big":1,"tiny":1}"#
        do {
            _ = try JSONValueDecoder().decode(Record.self, from: text)
            Issue.record("decoded a string as an int")
        } catch {
            #expect(JSONValueDecoder.describe(error) == #""places[1].page" has the wrong type (expected an integer, found a string)"#)
        }
        do {
            _ = try JSONValueDecoder().decode(Record.self, from: #"{"name":"n","places":[{"page":0}]}"#)
            Issue.record("decoded without a field")
        } catch {
            #expect(JSONValueDecoder.describe(error) == #"the field "places[0].beat" is missing"#)
        }
        do {
            _ = try JSONValueDecoder().decode(Place.self, from: #"[1]"#)
            Issue.record("decoded an array as an object")
        } catch {
            #expect(JSONValueDecoder.describe(error) == "the document has the wrong type (expected an object, found an array)")
        }
        do {
            _ = try JSONValueDecoder().decode(Place.self, from: #"{"beat":null,"page":1}"#)
            Issue.record("decoded null as a string")
        } catch {
            #expect(JSONValueDecoder.describe(error) == #""beat" has the wrong type (expected a string, found null)"#)
        }
    }

    @Test("a syntax error keeps the parser's line and column")
    func syntaxErrors() throws {
        do {
            _ = try JSONValueDecoder().decode(Place.self, from: "{\n  \"beat\": \"a\",,\n}")
            Issue.record("decoded bad JSON")
        } catch let error as JSONParser.SyntaxError {
            #expect(error.line == 2 && error.column == 15, "\(error)")
            #expect(JSONValueDecoder.describe(error) == "not valid JSON: line 2, column 15: expected a quoted field name")
        }
    }

    @Test("the limits: size, nesting depth on reading and on writing")
    func limits() throws {
        #expect(throws: JSONValueDecoder.TooLarge(size: 11, limit: 10)) {
            try JSONValueDecoder(maximumSize: 10).decode([Int].self, from: "[1,2,3,4,5]")
        }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONValueDecoder().decode(Nest.self, from: deep) }
        var nest = Nest(children: [])
        for _ in 0..<20 { nest = Nest(children: [nest]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder(maximumDepth: 10).encode(nest) }
        let text = try JSONValueEncoder().encodeString(nest)
        #expect(try JSONValueDecoder().decode(Nest.self, from: text) == nest)
    }

    @Test("unknown fields are ignored, a field's last value wins on encoding")
    func unknownAndRepeated() throws {
        #expect(try JSONValueDecoder().decode(Place.self, from: #"{"beat":"a","page":1,"extra":[1,{"x":null}]}"#) == Place(beat: "a", page: 1))
        #expect(try JSONValueEncoder().encodeString(Twice()) == #"{"a":2}"#)
    }

    @Test("a large dictionary (indexed members) round-trips")
    func largeDictionary() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<500).map { ("k\($0)", $0) })
        let bytes = try JSONValueEncoder.sorted.encode(dictionary)
        #expect(try JSONValueDecoder().decode([String: Int].self, from: bytes) == dictionary)
    }

    @Test("strings: escapes written and read back, slashes left alone")
    func strings() throws {
        let strings = ["a/b", "quote \" backslash \\", "\u{0}\u{1f}\n\r\t", "ünï😀"]
        let text = try JSONValueEncoder().encodeString(strings)
        #expect(text == #"["a/b","quote \" backslash \\","\u0000\u001f\n\r\t","ünï😀"]"#)
        #expect(try JSONValueDecoder().decode([String].self, from: text) == strings)
    }
}

private struct Nest: Codable, Equatable {
    var children: [Nest]
}

private struct Twice: Encodable {
    enum Keys: CodingKey { case a }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .a)
    }
}
