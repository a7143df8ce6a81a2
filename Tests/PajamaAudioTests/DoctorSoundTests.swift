import Foundation
import PajamaTestSupport
import Testing

/// `pajama doctor` with no sound server: reading works, so it says so and exits 0, with advice for sound.
@Suite struct DoctorSoundTests {
    private func environment(noServerIn home: TemporaryDirectory) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PULSE_SERVER"] = "unix:" + home.path + "/no-such-socket"
        env["HOME"] = home.path
        for (name, folder) in [("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data")] {
            env[name] = home.path + "/" + folder
        }
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        env["TERM"] = "xterm-256color"
        return env
    }

    @Test func withoutAServerReadingWorksAndSoundIsOff() throws {
        let home = try TemporaryDirectory(prefix: "pajama-doctor")
        defer { home.remove() }
        let result = try ChildProcess.run(
            PackagePaths.executable("pajama").path, ["doctor"],
            environment: environment(noServerIn: home))
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.contains("server: none"))
        #expect(result.stdout.contains("reading works; sound is off: no server"), "\(result.stdout)")
        #expect(!result.stdout.contains("problem:"), "no sound server is not a problem for reading: \(result.stdout)")
        #expect(!result.stdout.contains("all good"))
        #expect(result.stdout.contains("pulseaudio --start"))
        #expect(result.stdout.contains("PULSE_SERVER"))
    }
}
