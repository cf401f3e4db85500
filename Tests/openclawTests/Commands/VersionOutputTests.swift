import Foundation
import Testing
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// `openclaw version`: the first line stays `openclaw VERSION`; then the protocol range the client
/// sends in `connect`, then the commit (`unknown` for a plain `swift build`; packaging/package-test.sh
/// checks the commit `make release` compiles in).
@Suite struct VersionOutputTests {
    @Test func versionPrintsTheProtocolRangeAndTheCommit() throws {
        let cli = CLIEnvironment()
        let result = try cli.run(["version"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.lines.count == 4, "\(result.stdout)")
        #expect(result.lines.first == "openclaw \(try #require(result.lines.first?.split(separator: " ").last))")
        #expect(result.lines.dropFirst().first == "protocol 3-4")
        #expect(result.lines.dropFirst(2).first?.hasPrefix("official-cli ") == true, "\(result.stdout)")
        let commit = try #require(result.lines.last)
        let hash = commit.dropFirst("commit ".count).replacingOccurrences(of: "-dirty", with: "")
        #expect(commit.hasPrefix("commit ") && (hash == "unknown" || (hash.count >= 7 && hash.allSatisfy(\.isHexDigit))), "\(commit)")
        #expect(try cli.run(["--version"]).stdout == result.stdout)
    }

    @Test func theConnectRequestOffersTheSameRange() {
        let params = ConnectRequest(clientVersion: "0", platform: "linux", scopes: [], token: nil, password: nil,
                                    instanceID: "i", device: nil).params
        #expect(GatewayProtocol.supported == 3...4)
        #expect(params["minProtocol"]?.intValue == GatewayProtocol.supported.lowerBound)
        #expect(params["maxProtocol"]?.intValue == GatewayProtocol.supported.upperBound)
    }
}
