import Foundation
@_spi(Engine) import ClawProtocol

// The pairing wait at the simulator level, shared by the pairing and schema suites. (CLIPairingWaitTests
// has its own `pairingGateway`, which wraps the simulator in a `GatewayFixture` for the CLI.)

/// An admin with the pairing scope, pre-approved on a `--require-pairing` gateway.
func pairingGateway(_ extra: [String] = []) throws -> (SimulatorProcess, TestGatewayClient) {
    let admin = try TestDevice()
    let sim = try SimulatorProcess(["--require-pairing", "--approve", admin.id] + extra)
    let client = try TestGatewayClient(sim)
    var options = TestGatewayClient.ConnectOptions()
    options.device = admin
    options.scopes = ["operator.read", "operator.pairing"]
    try client.handshake(options)
    return (sim, client)
}

/// Connect options of `device` advertising the pairing-wait capability (a Control UI unless `clientId` says otherwise).
func waiting(_ device: TestDevice, clientId: String = "openclaw-control-ui", scopes: [String] = ["operator.read"]) -> TestGatewayClient.ConnectOptions {
    var options = TestGatewayClient.ConnectOptions()
    options.device = device
    options.clientId = clientId
    options.clientMode = clientId == "cli" ? "cli" : "webchat"
    options.scopes = scopes
    options.caps = [ConnectRequest.pairingWaitCapability]
    return options
}
