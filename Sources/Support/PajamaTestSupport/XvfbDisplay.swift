import Foundation

/// A private X server (Xvfb) for end-to-end tests of real terminals: it picks a free display number itself
/// (`-displayfd`) and says it once it is ready; `screenshot` dumps the screen with `xwd`.
public final class XvfbDisplay: Sendable {
    /// The display number (`:N`).
    public let number: Int
    public var name: String { ":\(number)" }
    private let pid: pid_t
    private let folder: TemporaryDirectory

    /// Starts Xvfb with a `width` x `height` screen; throws when it is missing or not ready within `timeout`.
    public init(width: Int = 1280, height: Int = 800, timeout: TimeInterval = 30) throws {
        let folder = try TemporaryDirectory(prefix: "pajama-xvfb")
        let output = folder.url.appendingPathComponent("display").path
        let pid = try ChildProcess.spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
                                         outputFile: output, errorFile: folder.url.appendingPathComponent("log").path)
        (self.folder, self.pid) = (folder, pid)
        var number: Int?
        Poll.until(timeout: timeout) {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if text.hasSuffix("\n") { number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return number != nil || ChildProcess.exitDescription(pid) != nil
        }
        guard let number else {
            let log = (try? String(contentsOfFile: folder.url.appendingPathComponent("log").path, encoding: .utf8)) ?? ""
            ChildProcess.terminate(pid)
            folder.remove()
            throw ChildProcess.Failure(message: "Xvfb did not start: \(log.suffix(600))")
        }
        self.number = number
    }

    /// The environment of a program on this display.
    public func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["DISPLAY"] = name
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return environment
    }

    /// Runs an X client (`xdotool`, ...) on this display; throws when it fails.
    @discardableResult
    public func run(_ program: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(program, arguments, environment: environment(), timeout: 30)
        guard result.status == 0 else {
            throw ChildProcess.Failure(message: "\(program) \(arguments.joined(separator: " ")): status \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// The whole screen now.
    public func screenshot() throws -> RGBImage {
        let file = folder.url.appendingPathComponent("screen.xwd").path
        try run("xwd", ["-root", "-silent", "-out", file])
        return try XWDImage.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
    }

    public func stop() {
        ChildProcess.terminate(pid)
        folder.remove()
    }
}

/// Reads an X window dump (`xwd`, ZPixmap, 24 or 32 bits a pixel, true colour) as RGB.
public enum XWDImage {
    public static func decode(_ bytes: [UInt8]) throws -> RGBImage {
        func field(_ index: Int) -> Int {
            let at = index * 4
            guard at + 4 <= bytes.count else { return -1 }
            return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        let headerSize = field(0), format = field(2), width = field(4), height = field(5), byteOrder = field(7)
        let bitsPerPixel = field(11), bytesPerLine = field(12), masks = (field(14), field(15), field(16)), colors = field(19)
        guard field(1) == 7, format == 2, bitsPerPixel == 32 || bitsPerPixel == 24, width > 0, height > 0, colors >= 0 else {
            throw ChildProcess.Failure(message: "not a 24/32-bit ZPixmap window dump (version \(field(1)), format \(format), \(bitsPerPixel) bits)")
        }
        let start = headerSize + colors * 12, step = bitsPerPixel / 8
        guard start + bytesPerLine * height <= bytes.count else { throw ChildProcess.Failure(message: "the window dump is cut short") }
        func shift(_ mask: Int) -> Int { mask == 0 ? 0 : mask.trailingZeroBitCount }
        let shifts = (shift(masks.0), shift(masks.1), shift(masks.2))
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = start + y * bytesPerLine + x * step
                var value = 0
                for b in 0..<step { value |= Int(bytes[at + b]) << (byteOrder == 0 ? 8 * b : 8 * (step - 1 - b)) }
                let out = (y * width + x) * 3
                rgb[out] = UInt8(truncatingIfNeeded: (value & masks.0) >> shifts.0)
                rgb[out + 1] = UInt8(truncatingIfNeeded: (value & masks.1) >> shifts.1)
                rgb[out + 2] = UInt8(truncatingIfNeeded: (value & masks.2) >> shifts.2)
            }
        }
        return RGBImage(width: width, height: height, rgb: rgb)
    }
}
