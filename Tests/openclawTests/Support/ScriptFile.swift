import Foundation
@_spi(Engine) import ClawJSON

/// A `--script` file for the simulator (format: `openclaw-gateway-sim --help`), written to a
/// temporary path and removed when released:
///
///     let script = try ScriptFile([["state": "delta", "deltaText": "Hi", "message": "Hi"],
///                                  ["text": "not json {"], ["state": "final", "message": "Hi"]])
///     let sim = try SimulatorProcess(["--script", script.path])
final class ScriptFile: @unchecked Sendable {
    let url: URL
    var path: String { url.path }

    init(_ steps: [JSONValue]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sim-script-\(UUID().uuidString).json")
        try Data(FrameText.encode(.array(steps))).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
