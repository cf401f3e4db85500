import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// The simulator's `--operator-access-file`: operators are refused with `OPERATOR_ACCESS_DENIED` until the file exists.
@Suite(.serialized) struct SimulatorAccessPolicyTests {
    @Test func theAccessPolicyRefusesOperatorsUntilTheFileExists() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let sim = try SimulatorProcess(["--token", "t", "--operator-access-file", file.path])
        let refused = try HandshakeRejection.probe(sim, try .device(token: "t"))
        #expect(refused.error == ["code": "FORBIDDEN",
                                  "message": "Gateway access is no longer active; ask a Gateway administrator to restore it.",
                                  "details": ["code": "OPERATOR_ACCESS_DENIED"]])
        #expect(refused.code == 1008)
        #expect(refused.reason == "Gateway access is no longer active; ask a Gateway administrator to restore it.")
        try Data().write(to: file)
        #expect((try? TestGatewayClient(sim).handshake(try .device(token: "t"))) != nil)
    }
}
