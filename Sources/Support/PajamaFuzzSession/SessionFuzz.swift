import PajamaCoReading

/// The co-reading message codec: the bytes are one WebSocket text message from a peer. A message that
/// decodes must encode to text that decodes to the same message (what the host sends is what followers
/// read), unless the text is over the size limit: escaping can lengthen it (`/` is sent as `\/`), and the
/// host never sends such a message (it cuts names to 32 characters).
public enum SessionFuzz {
    /// The message, when the bytes are one.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8]) -> SessionMessage? {
        guard let message = try? SessionCodec.decode(bytes) else { return nil }
        let text = SessionCodec.encode(message)
        guard text.utf8.count <= SessionCodec.maximumSize else { return message }
        let again: SessionMessage
        do {
            again = try SessionCodec.decode(text)
        } catch {
            preconditionFailure("\(message) encodes to \(text), which does not decode: \(error)")
        }
        precondition(again == message, "\(message) encodes to \(text), which decodes to \(again)")
        return message
    }
}
