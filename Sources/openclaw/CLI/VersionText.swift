import CBuildInfo
import ClawProtocol

/// `openclaw version` / `--version`. The first line stays `openclaw VERSION` for scripts that
/// parse it; then the Gateway protocol range and, when the build knew it, the git commit.
enum VersionText {
    /// The commit `make release` compiled in, nil for a plain `swift build`.
    static var commit: String? {
        let text = String(cString: openclaw_build_commit())
        return text.isEmpty ? nil : text
    }

    static var text: String {
        let range = GatewayProtocol.supported
        return "openclaw \(HelpText.version)\n"
            + "protocol \(range.lowerBound)-\(range.upperBound)\n"
            + "commit \(commit ?? "unknown")\n"
    }
}
