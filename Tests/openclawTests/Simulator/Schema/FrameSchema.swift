import Foundation
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Checks what a simulator sent (its `--log`) against gateway-frames.schema.json: each outgoing
/// frame's envelope, each event's payload by event name, each successful response's payload by
/// the method of the request with that id on that connection.
struct FrameSchema {
    let validator: JSONSchemaValidator

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("gateway-frames.schema.json")

    init() throws {
        let data = try Data(contentsOf: Self.url)
        validator = JSONSchemaValidator(schema: try JSONValue.parse(Array(data)))
    }

    /// One line per problem, naming the connection, the frame and the violation; empty when all conform.
    func problems(inLog entries: [JSONValue]) throws -> [String] {
        var methods: [String: String] = [:]  // "conn/id" -> method
        var problems: [String] = []
        for entry in entries {
            // Frames only: the "upgrade" lines list the upgrade request's header names.
            guard entry["dir"]?.stringValue != "upgrade", let frame = entry["frame"], let conn = entry["conn"]?.intValue else { continue }
            if entry["dir"]?.stringValue == "in" {
                if let id = frame["id"]?.stringValue, let method = frame["method"]?.stringValue { methods["\(conn)/\(id)"] = method }
                continue
            }
            let label = "conn \(conn) \(frame.compactText.prefix(160))"
            guard frame.objectValue != nil else {
                problems.append("\(label): not a JSON object")
                continue
            }
            problems += try validator.violations(of: frame, against: "#/$defs/GatewayFrame").map { "\(label): \($0)" }
            if let event = frame["event"]?.stringValue {
                let pointer = "#/$defs/events/" + Self.escape(event)
                guard validator.has(pointer) else { problems.append("\(label): no schema for event \(event)"); continue }
                problems += try validator.violations(of: frame["payload"] ?? .null, against: pointer).map { "\(label): payload \($0)" }
            } else if frame["ok"]?.boolValue == true, let id = frame["id"]?.stringValue {
                guard let method = methods["\(conn)/\(id)"] else { problems.append("\(label): no request with this id"); continue }
                let pointer = "#/$defs/results/" + Self.escape(method)
                guard validator.has(pointer) else { problems.append("\(label): no schema for the result of \(method)"); continue }
                problems += try validator.violations(of: frame["payload"] ?? .null, against: pointer).map { "\(label): payload \($0)" }
            }
        }
        return problems
    }

    /// The frames the simulator sent, parsed (for counting what a session covered).
    static func sent(_ entries: [JSONValue]) -> [JSONValue] {
        entries.filter { $0["dir"]?.stringValue == "out" }.compactMap { $0["frame"] }
    }

    /// JSON-pointer escaping of one reference token.
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
