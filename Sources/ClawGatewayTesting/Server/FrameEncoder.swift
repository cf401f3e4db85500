@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Builds the compact UTF-8 text of outgoing frames, in the key order the real server uses
/// (`JSON.stringify` of `{type,id,ok,payload,error}` and `{type,event,payload,seq,stateVersion}`).
enum FrameEncoder {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var out = [UInt8]()
        value.write(to: &out)
        return out
    }

    static func success(id: String, payload: JSONValue) -> [UInt8] {
        success(id: id, payloadBytes: encode(payload))
    }

    /// A successful `res` around an already encoded payload (history responses are assembled from cached bytes).
    static func success(id: String, payloadBytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(payloadBytes.count + id.utf8.count + 48)
        out.append(contentsOf: #"{"type":"res","id":"#.utf8)
        JSONValue.string(id).write(to: &out)
        out.append(contentsOf: #","ok":true,"payload":"#.utf8)
        out.append(contentsOf: payloadBytes)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func failure(id: String, error: ErrorShape, payload: JSONValue? = nil) -> [UInt8] {
        var frame: JSONObject = ["type": "res", "id": .string(id), "ok": false]
        if let payload { frame["payload"] = payload }
        frame["error"] = error.json
        return encode(.object(frame))
    }

    /// An event; `seq` is omitted for targeted events and the challenge.
    static func event(_ name: String, payloadBytes: [UInt8], seq: Int?, stateVersion: JSONValue? = nil) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(payloadBytes.count + name.utf8.count + 64)
        out.append(contentsOf: #"{"type":"event","event":"#.utf8)
        JSONValue.string(name).write(to: &out)
        out.append(contentsOf: #","payload":"#.utf8)
        out.append(contentsOf: payloadBytes)
        if let seq {
            out.append(contentsOf: #","seq":"#.utf8)
            out.append(contentsOf: String(seq).utf8)
        }
        if let stateVersion {
            out.append(contentsOf: #","stateVersion":"#.utf8)
            stateVersion.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func event(_ name: String, payload: JSONValue, seq: Int?) -> [UInt8] {
        event(name, payloadBytes: encode(payload), seq: seq)
    }
}
