/// Pajama's version, for `pajama --version` and the HTTP User-Agent.
public enum PajamaVersion {
    public static let current = "0.2.0"
}
