import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState

/// A minimal gateway client for end-to-end tests: WebSocket + JSON, reads the challenge, builds and
/// signs `connect`, sends requests, reads frames (and the close that ends them).
final class TestGatewayClient: @unchecked Sendable {
    enum Received {
        case frame(JSONValue, message: WebSocketMessage)
        case closed(code: UInt16?, reason: String)
        /// The connection failed without a close handshake (protocol violation, reset…).
        case failed(WebSocketError)
        case timedOut
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Options for the `connect` request; `device` nil connects token-only.
    struct ConnectOptions {
        var minProtocol = 3
        var maxProtocol = 4
        var clientId = "cli"
        var clientMode = "cli"
        var role: String? = "operator"
        var scopes: [String]? = ["operator.read", "operator.write"]
        var token: String? = nil
        var password: String? = nil
        var deviceToken: String? = nil
        var device: TestDevice? = nil
        var payloadVersion = "v3"
        /// Overrides for tests of the device checks.
        var nonce: String? = nil
        var signedAt: Int64? = nil
        var platform = "linux"
        var deviceFamily: String? = nil
        var id = "c1"
        /// `connect.params.caps` (omitted when nil).
        var caps: [String]? = nil

        init() {}
    }

    let socket: WebSocketConnection
    /// The `connect.challenge` payload (`nonce`, `ts`).
    private(set) var challenge: JSONValue = .null
    private var counter = 0

    init(url: String, readChallenge: Bool = true) throws {
        guard let parsed = WebSocketURL(url) else { throw Failure(description: "bad url \(url)") }
        let pin: [UInt8]? = nil
        socket = try WebSocketConnection.connect(url: parsed, tls: parsed.isSecure ? TLSClientOptions(serverName: parsed.host, pinnedSHA256: pin) : nil,
                                                 deadline: .after(seconds: 10))
        if readChallenge {
            guard case .frame(let frame, _) = next(timeout: 10), frame["event"]?.stringValue == "connect.challenge" else {
                throw Failure(description: "no connect.challenge")
            }
            challenge = frame["payload"] ?? .null
        }
    }

    convenience init(_ simulator: SimulatorProcess) throws { try self.init(url: simulator.url) }

    var nonce: String { challenge["nonce"]?.stringValue ?? "" }

    /// Reads the next frame, or the close, or nothing within `timeout`.
    func next(timeout: Double = 10) -> Received {
        do {
            guard let message = try socket.receive(deadline: .after(seconds: timeout)) else { return .timedOut }
            guard let value = try? JSONValue.parse(message.bytes) else {
                return .frame(.string(String(decoding: message.bytes, as: UTF8.self)), message: message)
            }
            return .frame(value, message: message)
        } catch .closed(let code, let reason) {
            return .closed(code: code, reason: reason)
        } catch {
            return .failed(error)
        }
    }

    /// The next frame; fails on close or timeout.
    func frame(timeout: Double = 10) throws -> JSONValue {
        switch next(timeout: timeout) {
        case .frame(let value, _): return value
        case .closed(let code, let reason): throw Failure(description: "closed \(code.map(String.init) ?? "-") \(reason)")
        case .failed(let error): throw Failure(description: "failed: \(error)")
        case .timedOut: throw Failure(description: "no frame within \(timeout)s")
        }
    }

    /// Reads frames until one satisfies `match`; returns it (the others are dropped).
    func frame(timeout: Double = 10, where match: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "no matching frame within \(timeout)s") }
            let value = try frame(timeout: left)
            if match(value) { return value }
        }
    }

    /// Reads frames until the connection closes; returns the frames before it and the close.
    func readUntilClosed(timeout: Double = 10) -> (frames: [JSONValue], code: UInt16?, reason: String) {
        var frames: [JSONValue] = []
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            switch next(timeout: deadline.timeIntervalSinceNow) {
            case .frame(let value, _): frames.append(value)
            case .closed(let code, let reason): return (frames, code, reason)
            case .failed(let error): return (frames, nil, "\(error)")
            case .timedOut: break
            }
        }
        return (frames, nil, "timed out")
    }

    func send(_ frame: JSONValue) throws { try socket.send(text: FrameText.encode(frame), deadline: .after(seconds: 10)) }
    func send(text: String) throws { try socket.send(text: Array(text.utf8), deadline: .after(seconds: 10)) }

    /// Sends a `req` and returns its id.
    @discardableResult
    func request(_ method: String, _ params: JSONValue? = nil, id: String? = nil) throws -> String {
        counter += 1
        let requestId = id ?? "r\(counter)"
        var frame: JSONObject = ["type": "req", "id": .string(requestId), "method": .string(method)]
        if let params { frame["params"] = params }
        try send(.object(frame))
        return requestId
    }

    /// Sends a `req` and reads frames until its `res` arrives.
    func call(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10) throws -> JSONValue {
        let id = try request(method, params)
        return try frame(timeout: timeout) { $0["type"]?.stringValue == "res" && $0["id"]?.stringValue == id }
    }

    /// The `connect` params for `options`, signed for this socket's challenge when a device is given.
    func connectParams(_ options: ConnectOptions) throws -> JSONValue {
        var client: JSONObject = ["id": .string(options.clientId), "displayName": "test", "version": "0.1.0",
                                  "platform": .string(options.platform)]
        if let family = options.deviceFamily { client["deviceFamily"] = .string(family) }
        client["mode"] = .string(options.clientMode)
        var params: JSONObject = ["minProtocol": JSONValue(options.minProtocol), "maxProtocol": JSONValue(options.maxProtocol),
                                  "client": .object(client)]
        if let role = options.role { params["role"] = .string(role) }
        if let scopes = options.scopes { params["scopes"] = JSONValue(scopes) }
        if let caps = options.caps { params["caps"] = JSONValue(caps) }
        var auth = JSONObject()
        if let token = options.token { auth["token"] = .string(token) }
        if let deviceToken = options.deviceToken { auth["deviceToken"] = .string(deviceToken) }
        if let password = options.password { auth["password"] = .string(password) }
        if !auth.members.isEmpty { params["auth"] = .object(auth) }
        if let device = options.device {
            let signedAt = options.signedAt ?? challenge["ts"]?.int64Value ?? WallClock.milliseconds()
            let nonce = options.nonce ?? self.nonce
            let token = options.token ?? options.deviceToken
            let role = options.role ?? "operator"
            let scopes = options.scopes ?? []
            let payload = options.payloadVersion == "v2"
                ? DeviceAuthPayload.v2(deviceId: device.id, clientId: options.clientId, clientMode: options.clientMode, role: role,
                                       scopes: scopes, signedAtMs: signedAt, token: token, nonce: nonce)
                : DeviceAuthPayload.v3(deviceId: device.id, clientId: options.clientId, clientMode: options.clientMode, role: role,
                                       scopes: scopes, signedAtMs: signedAt, token: token, nonce: nonce,
                                       platform: options.platform, deviceFamily: options.deviceFamily)
            var deviceObject: JSONObject = ["id": .string(device.id), "publicKey": .string(device.publicKeyBase64URL),
                                            "signature": .string(try device.sign(payload)), "signedAt": JSONValue(signedAt)]
            if !nonce.isEmpty { deviceObject["nonce"] = .string(nonce) }
            params["device"] = .object(deviceObject)
        }
        return .object(params)
    }

    /// Sends `connect` and returns its `res` frame (hello-ok or the error).
    func connect(_ options: ConnectOptions) throws -> JSONValue {
        try send(["type": "req", "id": .string(options.id), "method": "connect", "params": try connectParams(options)])
        return try frame { $0["type"]?.stringValue == "res" && $0["id"]?.stringValue == options.id }
    }

    /// Connects and requires `hello-ok`; returns its payload.
    @discardableResult
    func handshake(_ options: ConnectOptions) throws -> JSONValue {
        let response = try connect(options)
        guard response["ok"]?.boolValue == true, let payload = response["payload"] else {
            throw Failure(description: "connect failed: \(response.compactText)")
        }
        return payload
    }

    func close() { socket.close(code: 1000, reason: "", deadline: .after(seconds: 2)) }
}

/// JSON text helpers for tests.
enum FrameText {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var out = [UInt8]()
        value.write(to: &out)
        return out
    }
}
