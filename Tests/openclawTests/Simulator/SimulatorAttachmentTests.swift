import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawProtocol

/// `hello-ok.policy.attachments` and chat.send's per-attachment decoded size check
/// (official src/gateway/chat-attachments.ts).
@Suite(.serialized) struct SimulatorAttachmentTests {
    private func attachment(bytes: Int, mimeType: String, fileName: String? = nil, type: String? = nil) -> JSONValue {
        var object: JSONObject = [:]
        if let type { object["type"] = .string(type) }
        object["mimeType"] = .string(mimeType)
        if let fileName { object["fileName"] = .string(fileName) }
        object["content"] = .string(Base64.encode(Array(repeating: UInt8(ascii: "a"), count: bytes)))
        return .object(object)
    }

    private func send(_ client: TestGatewayClient, _ key: String, _ attachments: [JSONValue]) throws -> JSONValue {
        try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "see attached", "idempotencyKey": .string(key),
                                                 "attachments": .array(attachments)])
    }

    @Test func thePolicyIsAnnouncedOnlyWhenConfiguredAndOnlyInV4() throws {
        let sim = try SimulatorProcess(["--attachment-max-bytes", "16", "--attachment-max-image-bytes", "8"])
        let hello = try TestGatewayClient(sim).handshake(try .device())
        #expect(hello["policy"]?["attachments"] == ["maxBytes": 16, "maxImageBytes": 8])
        #expect(try FrameSchema().validator.violations(of: hello, against: "#/$defs/HelloOk") == [])

        let imageOnly = try SimulatorProcess(["--attachment-max-image-bytes", "8"])
        #expect(try TestGatewayClient(imageOnly).handshake(try .device())["policy"]?["attachments"]
            == ["maxBytes": 5_000_000, "maxImageBytes": 8])
        let plain = try SimulatorProcess()
        #expect(try TestGatewayClient(plain).handshake(try .device())["policy"]?.objectValue?.keys
            == ["maxPayload", "maxBufferedBytes", "tickIntervalMs"])
        let v3 = try SimulatorProcess(["--protocol", "3", "--attachment-max-bytes", "16"])
        #expect(try TestGatewayClient(v3).handshake(try .device())["policy"]?["attachments"] == nil)
    }

    @Test func oversizedAttachmentsAreRefusedWithTheGatewaysWords() throws {
        let sim = try SimulatorProcess(["--attachment-max-bytes", "16", "--attachment-max-image-bytes", "8"])
        let client = try TestGatewayClient.connected(sim)
        let fits = try send(client, "k1", [attachment(bytes: 16, mimeType: "text/plain", fileName: "notes.txt"),
                                           attachment(bytes: 8, mimeType: "image/png")])
        #expect(fits["payload"]?["status"]?.stringValue == "started")

        let big = try send(client, "k2", [attachment(bytes: 17, mimeType: "text/plain", fileName: "notes.txt")])
        #expect(big["error"] == ["code": "INVALID_REQUEST", "message": "Error: attachment notes.txt: exceeds size limit (17 > 16 bytes)"])
        let image = try send(client, "k3", [attachment(bytes: 4, mimeType: "text/plain"), attachment(bytes: 9, mimeType: "image/jpeg")])
        #expect(image["error"]?["message"]?.stringValue == "Error: attachment attachment-2: exceeds size limit (9 > 8 bytes)")
        // The gateway names an attachment by fileName, else type, else its position.
        let typed = try send(client, "k4", [attachment(bytes: 9, mimeType: "image/png", type: "image")])
        #expect(typed["error"]?["message"]?.stringValue == "Error: attachment image: exceeds size limit (9 > 8 bytes)")
        let dataURL: JSONValue = ["mimeType": "image/png", "fileName": "a.png",
                                  "content": .string("data:image/png;base64," + Base64.encode(Array(repeating: 1, count: 12)))]
        #expect(try send(client, "k5", [dataURL])["error"]?["message"]?.stringValue
            == "Error: attachment a.png: exceeds size limit (12 > 8 bytes)")
        let notBase64: JSONValue = ["mimeType": "text/plain", "content": "not base64!"]
        #expect(try send(client, "k6", [notBase64])["error"]?["message"]?.stringValue
            == "Error: attachment attachment-1: invalid base64 content")
        // A refused send started nothing: its key is still free.
        #expect(try send(client, "k2", [attachment(bytes: 3, mimeType: "text/plain")])["payload"]?["status"]?.stringValue == "started")
    }

    @Test func withoutALimitAttachmentsAreNotChecked() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let big = try send(client, "k1", [attachment(bytes: 5_000_001, mimeType: "image/png")])
        #expect(big["payload"]?["status"]?.stringValue == "started")
    }
}
