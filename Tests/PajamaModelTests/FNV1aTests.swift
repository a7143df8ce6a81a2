import PajamaModel
import PajamaTestSupport
import Testing

/// The one FNV-1a of the project: the published 64-bit test vectors, and the test server's ETags use it.
@Suite struct FNV1aTests {
    @Test func publishedVectors() {
        #expect(FNV1a.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.hash("foobar") == 0x8594_4171_f739_67e8)
        #expect(FNV1a.hash(Array("foobar".utf8)) == FNV1a.hash("foobar"))
    }

    @Test func theTestServersETagIsTheSameHash() {
        let bytes: [UInt8] = Array("a picture".utf8)
        #expect(TestHTTPServer.eTag(bytes) == "\"\(String(FNV1a.hash(bytes), radix: 16))-\(bytes.count)\"")
    }
}
