import Foundation
@_spi(Engine) import ClawJSON

/// `--script FILE`: the exact frames every `chat.send` (and `agent`) run replays instead of the
/// `--reply` agent, so client tests can drive duplicates, reordering, `replace`, `status`, tool
/// events, unknown frames and garbage over a real socket. The format is in `SimulatorOptions.helpText`.
struct RunScript: Sendable, Equatable {
    enum Action: Sendable, Equatable {
        /// A `chat` event: the members after `runId, sessionKey, seq, state`, in file order.
        case chat(state: String, members: JSONObject, seq: Int?, runId: String?, sessionKey: String?)
        /// An `agent` event of `stream` with `data`.
        case agent(stream: String, data: JSONValue, seq: Int?)
        /// A JSON value sent as one message as written (after `$runId`/`$sessionKey` substitution).
        case frame(JSONValue)
        /// A text message sent byte for byte (need not be JSON).
        case text(String)
    }

    struct Step: Sendable, Equatable {
        var action: Action
        /// Pause before this step.
        var delayMs: Int
    }

    var steps: [Step]

    static let runIdPlaceholder = "$runId"
    static let sessionKeyPlaceholder = "$sessionKey"

    static func load(path: String) throws(UsageError) -> RunScript {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--script: cannot read '\(path)'")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(data))
        } catch {
            throw UsageError("--script: '\(path)' is not JSON: \(error)")
        }
        return try parse(value)
    }

    static func parse(_ value: JSONValue) throws(UsageError) -> RunScript {
        guard let entries = value.arrayValue else { throw UsageError("--script: the file must hold a JSON array of steps") }
        var steps: [Step] = []
        for (index, entry) in entries.enumerated() {
            steps.append(try step(entry, at: index))
        }
        return RunScript(steps: steps)
    }

    private static func step(_ entry: JSONValue, at index: Int) throws(UsageError) -> Step {
        func fail(_ why: String) -> UsageError { UsageError("--script: step \(index): \(why)") }
        guard var object = entry.objectValue else { throw fail("must be an object") }
        var delayMs = 0
        if let delay = object["delayMs"] {
            guard let ms = delay.intValue, ms >= 0 else { throw fail("delayMs must be an integer >= 0") }
            delayMs = ms
            object["delayMs"] = nil
        }
        let kinds = ["state", "agent", "frame", "text"].filter { object[$0] != nil }
        guard kinds.count == 1 else { throw fail("needs exactly one of state, agent, frame, text (has \(kinds))") }
        var seq: Int? = nil
        if let given = object["seq"], kinds[0] == "state" || kinds[0] == "agent" {
            // Bounded so that the next step's `seq + 1` (and an abort's) cannot overflow.
            guard let n = given.intValue, (0...Int(Int32.max)).contains(n) else {
                throw fail("seq must be an integer from 0 to \(Int32.max)")
            }
            seq = n
            object["seq"] = nil
        }
        switch kinds[0] {
        case "state":
            guard let state = object["state"]?.stringValue else { throw fail("state must be a string") }
            object["state"] = nil
            let runId = try optionalString(&object, "runId", fail)
            let sessionKey = try optionalString(&object, "sessionKey", fail)
            return Step(action: .chat(state: state, members: object, seq: seq, runId: runId, sessionKey: sessionKey), delayMs: delayMs)
        case "agent":
            guard let stream = object["agent"]?.stringValue else { throw fail("agent must be a stream name") }
            object["agent"] = nil
            let data = object["data"] ?? .object(JSONObject())
            object["data"] = nil
            guard object.members.isEmpty else { throw fail("unexpected member '\(object.keys[0])' in an agent step") }
            return Step(action: .agent(stream: stream, data: data, seq: seq), delayMs: delayMs)
        case "frame":
            guard object.members.count == 1, let frame = object["frame"] else { throw fail("a frame step has only frame (and delayMs)") }
            return Step(action: .frame(frame), delayMs: delayMs)
        default:
            guard object.members.count == 1, let text = object["text"]?.stringValue else {
                throw fail("a text step has only a string text (and delayMs)")
            }
            return Step(action: .text(text), delayMs: delayMs)
        }
    }

    private static func optionalString(_ object: inout JSONObject, _ key: String,
                                       _ fail: (String) -> UsageError) throws(UsageError) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else { throw fail("\(key) must be a string") }
        object[key] = nil
        return text
    }

    /// `$runId` and `$sessionKey` string values, anywhere in `value`, replaced by the run's own.
    static func substitute(_ value: JSONValue, runId: String, sessionKey: String) -> JSONValue {
        switch value {
        case .string(runIdPlaceholder): return .string(runId)
        case .string(sessionKeyPlaceholder): return .string(sessionKey)
        case .array(let items): return .array(items.map { substitute($0, runId: runId, sessionKey: sessionKey) })
        case .object(let object):
            return .object(JSONObject(object.members.map {
                JSONObject.Member($0.key, substitute($0.value, runId: runId, sessionKey: sessionKey))
            }))
        default: return value
        }
    }
}
