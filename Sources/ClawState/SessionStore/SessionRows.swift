@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// The `session_nodes` rows of an admitted database, in `session_key` order, checked as the official
/// reader checks them before it lists anything (openclaw/openclaw `src/config/sessions/session-canonical-key.ts`,
/// `session-accessor.sqlite-entry-cache-projection.ts`, `session-accessor.sqlite-entry-read.ts`):
/// - a retained-window placeholder (`entry_json` `{}` whose `current_session_id` still has its
///   `session_windows` row) is no session and is skipped;
/// - any other row whose entry does not parse (`SessionEntryRecord.parse`), or is marked invalid
///   (`entry_valid = -1`), or whose key is not canonical, stops the listing: the store needs
///   `openclaw doctor --fix`, and nothing is printed;
/// - rows pending validation (`entry_valid = 0`, left by a writer that did not settle them) are
///   validated here, as newer readers do, instead of refused;
/// - the gateway's `agent:<id>:internal-session-effects:…` rows are never listed.
enum SessionRows {
    static func read(_ db: SQLiteConnection) throws(SessionStoreError) -> [SessionEntryRecord] {
        guard try db.hasTable("session_nodes") else { return [] }
        let columns = try db.columns("session_nodes")
        let ownerColumns = ["owner_actor_type", "owner_actor_id", "owner_assigned_by_type", "owner_assigned_by_id", "owner_assigned_at"]
        let hasOwner = ownerColumns.allSatisfy(columns.contains)
        let hasValid = columns.contains("entry_valid")
        var select = "SELECT session_key, current_session_id, entry_json, updated_at, "
            + (hasValid ? "entry_valid" : "1")
        if hasOwner { select += ", " + ownerColumns.joined(separator: ", ") }
        select += " FROM session_nodes ORDER BY session_key"
        let rows = try db.run(select)

        let mainKey = try self.mainKey(db)
        let hasWindows = try db.hasTable("session_windows")
        let participants = try self.participants(db)
        var records: [SessionEntryRecord] = []
        for row in rows {
            guard let key = row[0].text, let entryJSON = row[2].text else {
                throw .repair("invalid persisted session row requires repair for \(row[0].text ?? "")")
            }
            let currentSessionId = row[1].text
            let valid = row[4].integer ?? 0
            if entryJSON == "{}", valid != 1, hasWindows, let sessionId = currentSessionId,
               !(try db.run("SELECT 1 FROM session_windows WHERE session_id = ? AND session_key = ?",
                            [.text(sessionId), .text(key)])).isEmpty {
                continue
            }
            guard valid != -1,
                  let entry = SessionEntryRecord.parse(entryJSON: entryJSON, currentSessionId: currentSessionId,
                                                       updatedAt: row[3].integer)
            else { throw .repair("invalid persisted session row requires repair for \(key)") }
            try checkCanonical(key, mainKey: mainKey)
            if AgentSessionKey.isInternalSessionEffects(key) { continue }
            let owner = hasOwner
                ? SessionEntryRecord.owner(actorType: row[5].text, actorId: row[6].text, assignedByType: row[7].text,
                                           assignedById: row[8].text, assignedAt: row[9].integer)
                : nil
            records.append(SessionEntryRecord(sessionKey: key, entry: entry)
                .projecting(owner: owner, participants: participants[key] ?? []))
        }
        return records
    }

    /// `session_key_contract.main_key` (`main` when unset), lower-cased as `normalizeMainKey` does.
    static func mainKey(_ db: SQLiteConnection) throws(SessionStoreError) -> String {
        guard try db.hasTable("session_key_contract"),
              let key = try db.run("SELECT main_key FROM session_key_contract WHERE id = 1").first?.first?.text,
              !TextTrim.trimmed(key).isEmpty
        else { return "main" }
        return TextTrim.trimmed(key).lowercased()
    }

    /// A stored key is `global`, `unknown` or `agent:<id>:<rest>`, trimmed; `agent:<id>:main` only while
    /// the store's main key is `main`.
    static func checkCanonical(_ key: String, mainKey: String) throws(SessionStoreError) {
        let trimmed = TextTrim.trimmed(key)
        let parsed = AgentSessionKey.parse(trimmed)
        if key != trimmed || (parsed == nil && trimmed != "global" && trimmed != "unknown")
            || (parsed?.rest == "main" && mainKey != "main") {
            throw .repair("non-canonical persisted row resolves to session key \(trimmed.isEmpty ? key : trimmed)")
        }
    }

    /// Every session's participants, in the official order (`first_prompted_at`, `actor_id`, namespace).
    static func participants(_ db: SQLiteConnection) throws(SessionStoreError) -> [String: [JSONValue]] {
        guard try db.hasTable("session_participants") else { return [:] }
        var out: [String: [JSONValue]] = [:]
        for row in try db.run("SELECT session_key, identity_namespace, actor_id FROM session_participants"
                              + " ORDER BY session_key, first_prompted_at, actor_id, identity_namespace") {
            guard let key = row[0].text else { continue }
            let identity = try SessionEntryRecord.participantIdentity(namespace: row[1].text ?? "", actorId: row[2].text ?? "")
            out[key, default: []].append(identity)
        }
        return out
    }
}
