import Foundation
import PajamaTestSupport
import Testing

/// The real `pajama doctor` binary against a private PulseAudio server, and with none.
@Suite(.serialized) struct DoctorEndToEndTests {
    private func environment(pulseServer: String, home: TemporaryDirectory) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PULSE_SERVER"] = pulseServer
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.path + "/config"
        env["XDG_CACHE_HOME"] = home.path + "/cache"
        env["XDG_DATA_HOME"] = home.path + "/data"
        env["XDG_STATE_HOME"] = home.path + "/state"
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        env["TERM"] = "xterm-256color"
        env["PAJAMA_SOUND_MODE"] = nil
        return env
    }

    @Test func namesTheServerTheSampleCacheTheSinkAndTheFolders() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "pajama-doctor")
        defer { home.remove() }
        let result = try ChildProcess.run(
            PackagePaths.executable("pajama").path, ["doctor"], environment: environment(pulseServer: server.serverAddress, home: home))
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("server: pulseaudio "))
        #expect(result.stdout.contains(server.serverAddress))
        #expect(result.stdout.contains("sample cache: yes"))
        #expect(result.stdout.contains("mode: sample-cache"))
        #expect(result.stdout.contains("default sink: \(server.sinkName)"))
        #expect(result.stdout.contains("sink latency: "))
        #expect(result.stdout.contains("colours: 256"))
        #expect(result.stdout.contains("UTF-8: yes"))
        #expect(result.stdout.contains("libsndfile: libsndfile-1."))
        #expect(result.stdout.contains("cache: \(home.path)/cache/pajama"))
        #expect(result.stdout.contains("progress: \(home.path)/data/pajama/progress"))
        #expect(result.stdout.contains("log: \(home.path)/state/pajama/pajama.log"))
        #expect(!result.stdout.contains("problem:"))
    }

    @Test func forcedStreamModeIsReported() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "pajama-doctor")
        defer { home.remove() }
        var env = environment(pulseServer: server.serverAddress, home: home)
        env["PAJAMA_SOUND_MODE"] = "stream"
        let result = try ChildProcess.run(PackagePaths.executable("pajama").path, ["doctor"], environment: env)
        #expect(result.status == 0, "stdout: \(result.stdout)")
        #expect(result.stdout.contains("sample cache: yes"))
        #expect(result.stdout.contains("mode: stream (forced by PAJAMA_SOUND_MODE)"))
    }

    /// No LANG (or LANG=C): the reader draws with C.UTF-8 all the same, so doctor says UTF-8 works and exits 0.
    @Test(arguments: [nil, "C"])
    func aLocaleWithoutUTF8IsNoProblemSincePajamaDrawsWithCUTF8(_ lang: String?) throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "pajama-doctor")
        defer { home.remove() }
        var env = environment(pulseServer: server.serverAddress, home: home)
        env["LANG"] = lang
        env["LC_ALL"] = nil
        env["LC_CTYPE"] = nil
        // A terminal that can move the cursor but has no colours.
        env["TERM"] = "vt100"
        let result = try ChildProcess.run(PackagePaths.executable("pajama").path, ["doctor"], environment: env)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("UTF-8: yes (the environment's locale is ANSI_X3.4-1968; Pajama draws with C.UTF-8)"), "\(result.stdout)")
        #expect(!result.stdout.contains("problem:"), "\(result.stdout)")
        // Too few colours is a warning, not a problem.
        #expect(result.stdout.contains("warning: "))
    }
}
