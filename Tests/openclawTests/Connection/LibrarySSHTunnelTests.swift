import Foundation
import Testing
import ClawGatewayClient

/// The library over `gateway.remote.transport: "ssh"`, as a program using `GatewayConfiguration.official()`
/// meets it: the same real `sshd` and simulator as `CLISSHTunnelTests`, the same engine driver.
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root: the test's sshd runs as root (privilege separation)"),
       .enabled(if: PasswordDatabaseOverride.library != nil, "needs nss_wrapper (Debian package libnss-wrapper, which make deps installs)"))
struct LibrarySSHTunnelTests {
    @Test func aLostTunnelEndsTheConnectionWithWhatSSHSaid() async throws {
        let tunnel = try CLISSHTunnelTests.Tunnel()
        let environment = tunnel.cli.variables.merging(try PasswordDatabaseOverride.variables(home: tunnel.cli.home)) { $1 }
        let configuration = try GatewayConfiguration.official(environment: environment)
        let connection = try await GatewayConnection.connect(configuration)
        #expect(tunnel.forwardsToGateway == 1)
        let ssh = try #require(tunnel.sshLeft.first)
        kill(ssh, SIGKILL)
        let failure = try #require(await connection.closed())
        #expect(failure.code == .connectionLost)
        #expect(failure.isRetryable)
        #expect(failure.description.contains("the SSH tunnel to \(tunnel.sshd.target) closed (ssh was killed by signal 9)"),
                "\(failure.description)")
        await connection.close()
        #expect(tunnel.sshLeft.isEmpty)
    }
}
