import CBuildInfo
@_spi(Engine) import ClawProtocol

/// `openclaw version` / `--version`. The first line stays `openclaw VERSION` for scripts that
/// parse it; then the Gateway protocol range, where the official CLI is, and, when the build knew
/// it, the git commit (always the last line).
enum VersionText {
    /// The commit `make release` compiled in, nil for a plain `swift build`.
    static var commit: String? {
        let text = String(cString: openclaw_build_commit())
        return text.isEmpty ? nil : text
    }

    /// `officialCLI`: where the official CLI is (`OfficialCLI.location`); commands we do not have run it.
    static func text(officialCLI: String) -> String {
        let range = GatewayProtocol.supported
        return "openclaw \(HelpText.version)\n"
            + "protocol \(range.lowerBound)-\(range.upperBound)\n"
            + "official-cli \(officialCLI)\n"
            + "commit \(commit ?? "unknown")\n"
    }
}
