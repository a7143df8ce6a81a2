import AsyncHTTPClient
import Foundation
import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// Downloads under abuse (issue 42): followers that ask for a big declared asset and read nothing. The host
/// streams each from its file with a bounded buffer (its resident memory grows by little whatever the
/// downloads), holds no descriptor on the file between chunks (so downloads never eat the reader's
/// descriptors), and closes a download that makes no progress for `HostLimits.downloadStallTimeout`. A real
/// host on 127.0.0.1, measured by this process's RSS and its descriptors on the asset.
@Suite(.serialized) struct HostDownloadTests {
    static let token = "secret-secret-42"
    static let assetSize = 15 << 20

    /// A package whose first page names a 15 MB picture.
    static func package() throws -> (HostedFolder, String) {
        let folder = try HostedFolder()
        _ = try folder.dir.write("beats/start.json", """
        {"id":"start","pages":[{"id":"p1","type":"text","lines":["one"],"imageUrl":"assets/big.bin"}]}
        """)
        let path = folder.dir.url.appendingPathComponent("assets/big.bin").path
        let bytes = [UInt8](unsafeUninitializedCapacity: assetSize) { buffer, count in
            for i in 0..<assetSize { buffer[i] = UInt8(truncatingIfNeeded: i &* 131 &+ i >> 16) }
            count = assetSize
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    static func request(_ path: String) -> String {
        "GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
    }

    @Test func stalledDownloadsOfABigAssetKeepMemoryAndDescriptorsBoundedAndAreClosed() async throws {
        let (folder, asset) = try Self.package()
        let log = Lines()
        let host = try await startHost(folder, limits: HostLimits(downloadStallTimeout: .seconds(2)), log: { log.append($0) })
        let before = ProcessResources.residentBytes()
        // 40 downloads whose clients read nothing, with small receive buffers: each stalls after a few
        // hundred KB, 600 MB asked for in all.
        let stalled = 40
        var clients: [RawConnection] = []
        for _ in 0..<stalled {
            let client = try RawConnection(port: host.port, receiveBuffer: 4096)
            client.send(Self.request("assets/big.bin"))
            clients.append(client)
        }
        #expect(await eventually(timeout: .seconds(20)) { host.openDownloads == stalled }, "\(host.openDownloads) downloads")
        var peak = 0
        var descriptors = 0
        let closed = await eventually(timeout: .seconds(30)) {
            peak = max(peak, ProcessResources.residentBytes())
            descriptors = max(descriptors, ProcessResources.descriptors(on: asset))
            return host.openDownloads == 0
        }
        #expect(closed, "\(host.openDownloads) downloads still open")
        let growth = peak - before
        #expect(growth < 64 << 20, "RSS grew by \(growth >> 20) MB for \(stalled) stalled downloads")
        // Never one descriptor per download: at most one per thread reading a chunk.
        #expect(descriptors <= ProcessInfo.processInfo.activeProcessorCount, "\(descriptors) descriptors on the asset")
        #expect(log.all.filter { $0.contains("no progress in 2 s") }.count == stalled, "\(log.all.suffix(3))")
        // Each client got part of the file, and then the close.
        for client in clients.prefix(3) {
            let (bytes, gotClose) = client.countUntilClosed(timeout: .seconds(10))
            #expect(gotClose && bytes < Self.assetSize, "\(bytes) bytes, closed: \(gotClose)")
        }
        print("stalled downloads: RSS \(before >> 20) -> peak \(peak >> 20) MB, \(descriptors) descriptors on the asset")
        await host.end()
    }

    @Test func concurrentDownloadsGetTheWholeFileWithBoundedMemory() async throws {
        let (folder, asset) = try Self.package()
        let expected = try Data(contentsOf: URL(fileURLWithPath: asset))
        let host = try await startHost(folder)
        let before = ProcessResources.residentBytes()
        let peak = Locked(0)
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var request = HTTPClientRequest(url: host.joinURL + "assets/big.bin")
                    request.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                    var count = 0
                    var same = true
                    for try await part in response.body {
                        let n = part.readableBytes
                        guard count + n <= expected.count else { return (count + n, false) }
                        same = same && part.withUnsafeReadableBytes { got in
                            expected.withUnsafeBytes { memcmp(got.baseAddress!, $0.baseAddress! + count, n) == 0 }
                        }
                        if (count + n) >> 20 != count >> 20 {
                            let now = ProcessResources.residentBytes()
                            peak.withLock { $0 = max($0, now) }
                        }
                        count += n
                    }
                    return (count, same)
                }
            }
            var all: [(Int, Bool)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8 && results.allSatisfy { $0 == (Self.assetSize, true) }, "\(results)")
        let growth = peak.withLock { $0 } - before
        #expect(growth < 64 << 20, "RSS grew by \(growth >> 20) MB for 8 downloads of 15 MB")
        // The host counts a download done once its last write returned, which may be after the client has
        // read the last byte (seen on a loaded machine): waited for, not assumed.
        #expect(await eventually { host.openDownloads == 0 })
        await host.end()
    }
}
