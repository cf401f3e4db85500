import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `isAcceptedAck` reads `payload.status` from the frame's bytes (`JSONMemberLookup`), never from its
/// tree: it must answer exactly as the tree would, for every way a reply can spell it.
@Suite struct AcceptedAckTests {
    /// The tree's answer: an ok response whose payload's first `status` member is the string "accepted".
    static func treeAnswer(_ frame: GatewayFrame) -> Bool {
        guard case .response(_, true) = frame.kind else { return false }
        return frame.payload?["status"]?.stringValue == "accepted"
    }

    static let accepted: [String] = [
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"accepted","runId":"r"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"runId":"r","meta":{"status":"x"},"status":"accepted"}}"#,
        #"{ "type" : "res" , "id" : "1" , "ok" : true , "payload" : { "a" : [1, {"status":"no"}, "}"] , "status" : "accepted" } }"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"st\u0061tus":"acc\u0065pted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"q\"\\":"\"","status":"accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"accepted","status":"final"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"accepted"},"payload":{"status":"final"}}"#,
    ]

    static let notAccepted: [String] = [
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"final","runId":"r"}}"#,
        #"{"type":"res","id":"1","ok":false,"payload":{"status":"accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"ok","status":"accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"status":1,"status":"accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"meta":{"status":"accepted"}}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"statuses":"accepted","state":"accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"Accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{"status":"accepted "}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":5,"payload":{"status":"accepted"}}"#,
        #"{"type":"res","id":"1","ok":true,"payload":["status","accepted"]}"#,
        #"{"type":"res","id":"1","ok":true,"payload":{}}"#,
        #"{"type":"res","id":"1","ok":true}"#,
        #"{"type":"event","event":"x","payload":{"status":"accepted"}}"#,
    ]

    @Test(arguments: accepted + notAccepted)
    func theBytesAnswerAsTheTreeDoes(_ text: String) throws {
        let frame = try GatewayFrame(message: Array(text.utf8))
        #expect(frame.isAcceptedAck == Self.treeAnswer(frame))
    }

    @Test func theListsSayWhatTheyMean() throws {
        for text in Self.accepted { #expect(try GatewayFrame(message: Array(text.utf8)).isAcceptedAck, "\(text)") }
        for text in Self.notAccepted { #expect(try !GatewayFrame(message: Array(text.utf8)).isAcceptedAck, "\(text)") }
    }

    @Test func aNameIsComparedAsADecodedString() throws {
        // "K" and the Kelvin sign (U+212A) are canonically equivalent, so equal as Strings.
        let bytes = Array(#"{"\u212A":"kelvin","K":"letter"}"#.utf8)
        let found = bytes.withUnsafeBytes { JSONMemberLookup.string(named: "K", inObject: 0..<bytes.count, of: $0) }
        let tree = try JSONValue.parse(bytes)
        #expect(found == tree["K"]?.stringValue)
        #expect(found == "kelvin")
    }

    @Test func bytesThatAreNoObjectGiveNothing() {
        for text in ["", "{", "[]", #"{"a""#, #"{"a":"#, #"{"a":"b"#, #"{"a":1"#] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { JSONMemberLookup.string(named: "a", inObject: 0..<bytes.count, of: $0) } == nil)
        }
    }
}
