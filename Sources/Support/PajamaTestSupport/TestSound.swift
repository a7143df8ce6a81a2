import Foundation

/// Test sounds written in Swift: a 16-bit PCM WAV of a sine tone.
public enum TestSound {
    public static func wav(seconds: Double, frequency: Double = 440, rate: Int = 44_100, channels: Int = 1, amplitude: Double = 0.5) -> [UInt8] {
        let frames = Int(seconds * Double(rate))
        var pcm: [UInt8] = []
        pcm.reserveCapacity(frames * channels * 2)
        for i in 0..<frames {
            let value = Int16(amplitude * 32767 * sin(2 * .pi * frequency * Double(i) / Double(rate)))
            for _ in 0..<channels { withUnsafeBytes(of: value.littleEndian) { pcm += $0 } }
        }
        func le32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian) { Array($0) } }
        func le16(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(v).littleEndian) { Array($0) } }
        var header = Array("RIFF".utf8) + le32(36 + pcm.count) + Array("WAVE".utf8)
        header += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate) + le32(rate * channels * 2) + le16(channels * 2) + le16(16)
        header += Array("data".utf8) + le32(pcm.count)
        return header + pcm
    }
}
