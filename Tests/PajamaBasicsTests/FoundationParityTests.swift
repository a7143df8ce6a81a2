import Foundation
import PajamaBasics
import Testing

/// PajamaBasics does what the Foundation APIs it replaces did (the product is on FoundationEssentials; this
/// test process has all of Foundation, so each helper is checked against the original, input by input).
@Suite struct FoundationParityTests {
    static let paths = [
        "", "/", "a", "a/", "/a", "/a/", "a/b", "a/b/", "a//b", "/a/b/c.txt", "c.txt", ".hidden", "a/.hidden",
        "a.", "a.b.c", "story.twee", "web/mygame/scenes/startup.txt", "dir.d/file", "dir.d/", "x.ink.json",
    ]

    @Test func pathArithmeticIsNSStrings() {
        for path in Self.paths {
            let ns = path as NSString
            #expect(PathText.lastComponent(path) == ns.lastPathComponent, "lastComponent(\(path))")
            // Foundation's own deletingLastPathComponent traps on a bare name ("a", "a/"): checked below instead.
            if path.contains("/"), path != "a/" {
                #expect(PathText.deletingLastComponent(path) == ns.deletingLastPathComponent, "deletingLastComponent(\(path))")
            }
            // NSString folds "a//b" to "a/b" here and only here; a story's paths have no empty component.
            if !path.contains("//") {
                #expect(PathText.deletingExtension(path) == ns.deletingPathExtension, "deletingExtension(\(path))")
            }
            #expect(PathText.pathExtension(path) == ns.pathExtension, "pathExtension(\(path))")
            for component in ["b", "b.png", "c/d"] {
                #expect(PathText.appending(path, component) == ns.appendingPathComponent(component), "appending(\(path), \(component))")
            }
        }
        #expect(PathText.deletingLastComponent("a") == "")
        #expect(PathText.deletingLastComponent("a/") == "")
        for path in ["/a/./b/../c//d", "/a/b/..", "/../a", "/a/b/./", "/x/y/../../z"] {
            #expect(PathText.standardized(path) == (path as NSString).standardizingPath, "standardized(\(path))")
        }
    }

    @Test func trimmingIsCharacterSets() {
        for text in ["", "  ", " a ", "\t a b \t", "\n a \n", " \r\n x \r\n ", "\u{00A0}a\u{2003}", "\n\n", "a\n", "é "] {
            #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "trimmingSpaces(\(text.debugDescription))")
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines), "trimmingWhitespace(\(text.debugDescription))")
            #expect(text.trimmingNewlines == text.trimmingCharacters(in: .newlines), "trimmingNewlines(\(text.debugDescription))")
        }
    }

    @Test func percentEncodingIsFoundations() {
        for text in ["a%20b", "%E2%80%94", "plain", "100%", "%zz", "%4", "caf%C3%A9", "%FF", "a+b"] {
            #expect(text.percentDecoded == text.removingPercentEncoding, "percentDecoded(\(text))")
        }
        for text in ["a b", "café/ü.png", "x?y#z", "~-._!$&'()*+,;=:@", "100%", "[1]"] {
            #expect(text.percentEncodedForPath == text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed), "percentEncodedForPath(\(text))")
        }
    }

    @Test func cFormatIsStringFormat() {
        #expect(cFormat("%.1f", 2.25) == String(format: "%.1f", 2.25))
        #expect(cFormat("%.2f ms", 0.125) == String(format: "%.2f ms", 0.125))
        #expect(cFormat("%02x", UInt8(7)) == String(format: "%02x", UInt8(7)))
        #expect(cFormat("#%02x%02x%02x", 255, 0, 16) == String(format: "#%02x%02x%02x", 255, 0, 16))
        #expect(cFormat("%06x", 0x1E1E2E) == String(format: "%06x", 0x1E1E2E))
        #expect(cFormat("%04ld-%02ld", 2026, 3) == "2026-03")
        #expect(cFormat("%0300ld", 1) == String(format: "%0300ld", 1))  // longer than the first buffer
    }

    @Test func naturalOrderIsLocalizedStandardCompare() {
        let names = ["chapter 10", "Chapter 2", "chapter 1", "apple", "Banana", "a10", "a9", "a09", "b", "B2", "b10", "x", ""]
        for a in names {
            for b in names where a.localizedStandardCompare(b) != .orderedSame && a.lowercased() != b.lowercased() {
                #expect(a.precedesNaturally(b) == (a.localizedStandardCompare(b) == .orderedAscending), "\(a) < \(b)")
            }
        }
    }

    @Test func errorTextSaysTheReasonAndTheFile() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-pajama/x.json"))
            Issue.record("read a file that does not exist")
        } catch {
            #expect(errorText(error) == "No such file or directory (/nonexistent-pajama/x.json)", "\(errorText(error))")
        }
        struct Described: Error, CustomStringConvertible { var description: String { "what it says" } }
        #expect(errorText(Described()) == "what it says")
        #expect(errorText(POSIXError(.EACCES)) == "Permission denied")
    }

    @Test func localTimeIsTheMachinesZone() {
        let now = Date()
        #expect(LocalTime.zone(at: now).secondsFromGMT(for: now) == TimeZone.current.secondsFromGMT(for: now))
        #expect(LocalTime.utc.secondsFromGMT() == 0)
    }

    @Test func aDetachedThreadRunsItsBody() async {
        let ran = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            #expect(startDetachedThread(named: "pajama-test") { done.resume(returning: true) })
        }
        #expect(ran)
    }

    @Test func fileSizeIsStats() throws {
        let path = NSTemporaryDirectory() + "pajama-basics-\(getpid()).bin"
        try Data(repeating: 7, count: 1234).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        #expect(fileSize(atPath: path) == 1234)
        #expect(fileSize(atPath: path + ".missing") == nil)
    }
}
