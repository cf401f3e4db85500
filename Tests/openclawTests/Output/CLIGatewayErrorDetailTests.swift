import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// Gateway failures worded with their detail: a missing scope and the ways out; a provider's name, model and HTTP status.
@Suite struct CLIGatewayErrorDetailTests {
    @Test func aMissingScopeIsExit4NamingTheScopeAndTheWaysOut() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["call", "nosuch.method"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("needs the operator.admin scope"), "\(result.stderr)")
        #expect(result.stderr.contains("--scope operator.admin") && result.stderr.contains("approve the scope upgrade"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aProviderFailureNamesProviderModelAndHTTPStatus() throws {
        let gateway = try GatewayFixture(["--reply", "error"])
        let result = try gateway.run(["send", "hi", "-o", "text"])
        #expect(result.status == 1)
        let line = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(line.contains("failed:") && line.contains("provider ") && line.contains("model ") && line.contains("HTTP "), "\(result.stderr)")
    }
}
