@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// One logical session of a store: its key and its entry, the `entry_json` document of its
/// `session_nodes` row (the canonical record; the other columns are projections) with the owner
/// and participants the row's columns and `session_participants` add, as the official reader
/// attaches them (`src/config/sessions/session-accessor.sqlite-owner-projection.ts`,
/// `…-participant-projection.ts`).
@_spi(Engine) public struct SessionEntryRecord: Sendable, Equatable {
    @_spi(Engine) public let sessionKey: String
    /// The entry as `JSON.parse` gives it (the last of duplicated members wins).
    @_spi(Engine) public let entry: JSONObject

    @_spi(Engine) public init(sessionKey: String, entry: JSONObject) {
        self.sessionKey = sessionKey
        self.entry = entry
    }

    @_spi(Engine) public subscript(key: String) -> JSONValue? { entry[key] }

    /// `updatedAt` (epoch ms); every admitted entry has a finite one.
    @_spi(Engine) public var updatedAt: Double { entry["updatedAt"]?.doubleValue ?? 0 }

    /// `parseSqliteSessionEntryRecord` (`src/config/sessions/session-entry-json.ts`): a JSON object
    /// whose `sessionId` is a string (empty, or not only white space, and without NUL) and whose
    /// `updatedAt` is a finite number, neither member duplicated at the top level, and both equal to
    /// the row's `current_session_id` and `updated_at`. Anything else is nil.
    static func parse(entryJSON: String, currentSessionId: String?, updatedAt: Int64?) -> JSONObject? {
        guard let value = try? JSONValue.parse(entryJSON), case .object(let raw) = value else { return nil }
        for key in ["sessionId", "updatedAt"] where raw.members.filter({ $0.key == key }).count > 1 { return nil }
        let entry = raw.javaScriptNormalized
        guard let sessionId = entry["sessionId"]?.stringValue,
              sessionId.isEmpty || !TextTrim.trimmed(sessionId).isEmpty,
              !sessionId.unicodeScalars.contains("\0"),
              let stamp = entry["updatedAt"]?.doubleValue, stamp.isFinite
        else { return nil }
        if let currentSessionId, currentSessionId != sessionId { return nil }
        if let updatedAt, Double(updatedAt) != stamp { return nil }
        return entry
    }

    /// `readSqliteSessionOwner`: an owner from the `owner_*` columns, when the actor's type is
    /// `human`, `agent` or `system` and its id is not blank.
    static func owner(actorType: String?, actorId: String?, assignedByType: String?, assignedById: String?,
                      assignedAt: Int64?) -> JSONValue? {
        func actor(_ type: String?, _ id: String?) -> JSONValue? {
            guard let type, ["human", "agent", "system"].contains(type),
                  let id = id.map(TextTrim.trimmed), !id.isEmpty else { return nil }
            return ["type": .string(type), "id": .string(id)]
        }
        guard let owner = actor(actorType, actorId) else { return nil }
        var object: JSONObject = ["actor": owner]
        if let by = actor(assignedByType, assignedById) { object["assignedBy"] = by }
        if let assignedAt { object["assignedAt"] = JSONValue(assignedAt) }
        return .object(object)
    }

    /// `readParticipantIdentity`: the namespace's members, then `id`; a namespace that is not a JSON
    /// object makes the store unreadable, as for the official reader.
    static func participantIdentity(namespace: String, actorId: String) throws(SessionStoreError) -> JSONValue {
        guard let value = try? JSONValue.parse(namespace), case .object(var identity) = value.javaScriptNormalized,
              identity["type"]?.stringValue != nil else {
            throw SessionStoreError(.database, "Session participant identity is invalid; run openclaw doctor --fix.")
        }
        identity["id"] = .string(actorId)
        return .object(identity)
    }

    /// The entry with the owner and participants the database projects over it.
    func projecting(owner: JSONValue?, participants: [JSONValue]) -> SessionEntryRecord {
        var entry = self.entry
        if let owner { entry["owner"] = owner }
        if !participants.isEmpty {
            entry["participants"] = .array(participants.map { ["identity": $0] })
            entry["participantCount"] = JSONValue(participants.count)
        }
        return SessionEntryRecord(sessionKey: sessionKey, entry: entry)
    }
}
