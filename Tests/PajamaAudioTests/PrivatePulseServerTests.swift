import Foundation
import PajamaTestSupport
import Testing

/// The test servers themselves: a start that cannot work names pulseaudio's own reason, and servers
/// started in parallel each get a home of their own and answer.
@Suite struct PrivatePulseServerTests {
    @Test func aFailedStartNamesTheRealReason() throws {
        let folder = try TemporaryDirectory(prefix: "pajama-pulse-bad")
        defer { folder.remove() }
        // The socket's folder does not exist: pulseaudio cannot load its protocol module.
        do {
            let server = try PrivatePulseServer(socketPath: folder.path + "/missing/native", folder: folder)
            server.stop()
            Issue.record("a server started on a socket in a missing folder")
        } catch {
            let message = "\(error)"
            #expect(message.contains("attempt \(PrivatePulseServer.attempts)"), "\(message)")
            #expect(message.contains("could not load a module"), "\(message)")
            #expect(message.contains("bind(): No such file or directory") && message.contains("module-native-protocol-unix"),
                    "pulseaudio's own log is in the message: \(message)")
        }
    }

    @Test func serversStartedInParallelEachAnswerFromTheirOwnHome() async throws {
        let homes = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let server = try PrivatePulseServer()
                    defer { server.stop() }
                    return (server.home, server.pactl("info"))
                }
            }
            var all: [(String, String)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(Set(homes.map(\.0)).count == 6)
        for (home, info) in homes { #expect(info.contains("Server Name: pulseaudio"), "\(home): \(info)") }
    }
}
