@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawState

/// The text of `openclaw sessions` (list), as the official command prints it (openclaw/openclaw
/// `src/commands/sessions.ts` @00d3a170, `src/commands/sessions-table.ts`): the store line, the
/// count line, the `--active` line, then `No sessions found.` or the table
/// `[Agent] Kind Key Age Model Runtime "Tokens (ctx %)" Flags`.
struct SessionsText {
    /// What the text needs of a listing, local or from the gateway.
    struct Report {
        /// `Session store: <path>`, or the stores' agents when several are listed.
        var storePath: String?
        var storeAgents: [String]
        var aggregate: Bool
        var rows: [JSONObject]
        var runtimeLabels: [String]
        var totalCount: Int
        var limit: Int?
        var activeMinutes: Int?
    }

    let report: Report
    let nowMs: Int64
    let width: Int
    let colour: Bool

    func render() -> String {
        var lines: [String] = []
        if let path = report.storePath, !report.aggregate {
            lines.append("Session store: \(path)")
        } else {
            lines.append("Session stores: \(report.storeAgents.count) (\(report.storeAgents.joined(separator: ", ")))")
        }
        let hasMore = report.rows.count < report.totalCount
        if hasMore, let limit = report.limit {
            lines.append("Sessions listed: \(report.rows.count) of \(report.totalCount) (limit \(limit))")
        } else {
            lines.append("Sessions listed: \(report.rows.count)")
        }
        if let minutes = report.activeMinutes { lines.append("Filtered to last \(minutes) minute(s)") }
        if report.rows.isEmpty {
            lines.append("No sessions found.")
            return lines.joined(separator: "\n") + "\n"
        }
        var columns: [OfficialTable.Column] = []
        if report.aggregate { columns.append(.init(key: "agent", header: "Agent")) }
        columns += [
            .init(key: "kind", header: "Kind"), .init(key: "key", header: "Key"), .init(key: "age", header: "Age"),
            .init(key: "model", header: "Model"), .init(key: "runtime", header: "Runtime"),
            .init(key: "tokens", header: "Tokens (ctx %)"), .init(key: "flags", header: "Flags", flex: true),
        ]
        var percentages: [Int?] = []
        let cells: [[String: String]] = report.rows.enumerated().map { index, row in
            let tokens = tokensCell(row)
            percentages.append(tokens.percent)
            return [
                "agent": Self.sanitize(row["agentId"]?.stringValue ?? ""),
                "kind": row["kind"]?.stringValue ?? "direct",
                "key": Self.keyCell(row["key"]?.stringValue ?? ""),
                "age": ageCell(row["updatedAt"]),
                "model": Self.sanitize(row["model"]?.stringValue ?? "unknown"),
                "runtime": Self.sanitize(index < report.runtimeLabels.count ? report.runtimeLabels[index] : ""),
                "tokens": tokens.text,
                "flags": Self.flagsCell(row),
            ]
        }
        var table = OfficialTable(columns: columns, rows: cells, width: width)
        if colour {
            let percents = percentages
            table.paint = { row, key, text in Self.paint(key: key, text: text, percent: row.flatMap { percents[$0] }) }
        }
        lines.append(table.render())
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: cells

    /// A key longer than 26 graphemes: its first 16, `...`, its last 6.
    static func keyCell(_ key: String) -> String {
        let safe = sanitize(key)
        guard safe.count > 26 else { return safe }
        return String(safe.prefix(16)) + "..." + String(safe.suffix(6))
    }

    /// `formatTimeAgo(now - updatedAt)`, `unknown` without a time.
    func ageCell(_ updatedAt: JSONValue?) -> String {
        guard let stamp = updatedAt?.doubleValue, stamp != 0 else { return "unknown" }
        return Self.timeAgo(Double(nowMs) - stamp)
    }

    static func timeAgo(_ milliseconds: Double) -> String {
        guard milliseconds.isFinite, milliseconds >= 0 else { return "unknown" }
        let seconds = jsRound(milliseconds / 1000)
        let minutes = jsRound(seconds / 60)
        if minutes < 1 { return "just now" }
        if minutes < 60 { return "\(Int(minutes))m ago" }
        let hours = jsRound(minutes / 60)
        if hours < 48 { return "\(Int(hours))h ago" }
        return "\(Int(jsRound(hours / 24)))d ago"
    }

    /// `<total>/<ctx> (<pct>%)`; the percentage only for a fresh total against a known window.
    func tokensCell(_ row: JSONObject) -> (text: String, percent: Int?) {
        let context = row["contextTokens"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil }
        let contextLabel = context.map(Self.tokenCount) ?? "?"
        guard let total = row["totalTokens"]?.doubleValue, total.isFinite, total >= 0 else {
            return ("unknown/\(contextLabel) (?%)", nil)
        }
        var percent: Int? = nil
        if let context, row["totalTokensFresh"]?.boolValue == true {
            percent = Int(min(999, Self.jsRound(total / context * 100)))
        }
        return ("\(Self.tokenCount(total))/\(contextLabel) (\(percent.map(String.init) ?? "?")%)", percent)
    }

    /// `formatTokenCount`: `49`, `1.5k` (one decimal below 10 000), `200k`, `1.0m`.
    static func tokenCount(_ value: Double) -> String {
        let safe = max(0, value)
        if safe < 1_000 { return String(Int64(jsRound(safe))) }
        if safe < 1_000_000 {
            let text = toFixed(safe / 1_000, digits: safe >= 10_000 ? 0 : 1)
            if (Double(text) ?? 0) < 1_000 { return text + "k" }
        }
        return toFixed(safe / 1_000_000, digits: 1) + "m"
    }

    /// The flags in the official order; the owner is the assigned one, else the creator.
    static func flagsCell(_ row: JSONObject) -> String {
        var flags: [String] = []
        func text(_ key: String) -> String? {
            guard let value = row[key], SessionKind.isTruthy(value) else { return nil }
            return value.stringValue ?? value.compactText
        }
        for (key, label) in [("thinkingLevel", "think"), ("verboseLevel", "verbose"), ("traceLevel", "trace"),
                             ("reasoningLevel", "reasoning"), ("elevatedLevel", "elev"), ("responseUsage", "usage"),
                             ("groupActivation", "activation")] {
            if let value = text(key) { flags.append("\(label):\(value)") }
        }
        if let value = row["systemSent"], SessionKind.isTruthy(value) { flags.append("system") }
        if let value = row["abortedLastRun"], SessionKind.isTruthy(value) { flags.append("aborted") }
        if let value = text("visibility") { flags.append("visibility:\(value)") }
        if let owner = row["owner"]?["actor"] ?? row["createdActor"], owner.objectValue != nil {
            flags.append("owner:\(actorLabel(owner))")
        }
        let participants = (row["participants"]?.arrayValue ?? []).prefix(4).map { participant -> String in
            if let label = participant["label"]?.stringValue.map({ TextTrim.trimmed($0) }), !label.isEmpty { return label }
            let identity = participant["identity"]
            return "\(identity?["type"]?.stringValue ?? ""):\(identity?["id"]?.stringValue ?? "")"
        }
        if !participants.isEmpty {
            let count = row["participantCount"]?.intValue ?? participants.count
            let remaining = max(0, count - participants.count)
            flags.append("participants:" + participants.joined(separator: ",") + (remaining > 0 ? ",+\(remaining)" : ""))
        }
        if let value = text("runtimePolicySessionKey") { flags.append("policy:\(value)") }
        if let value = text("sessionId") { flags.append("id:\(value)") }
        return sanitize(flags.joined(separator: " "))
    }

    /// `formatSessionActor`: its label, else its id, else its type.
    static func actorLabel(_ actor: JSONValue) -> String {
        for key in ["label", "id", "type"] {
            if let text = actor[key]?.stringValue.map({ TextTrim.trimmed($0) }), !text.isEmpty { return text }
        }
        return ""
    }

    // MARK: text safety and numbers

    /// Text from a store made safe for a terminal: escape sequences dropped, line breaks and tabs
    /// shown as `\n`, `\r`, `\t`, other control characters dropped.
    static func sanitize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return scalars.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B, 0x9B, 0x9D:
                // CSI (`ESC [` … final byte) or OSC (`ESC ]` … BEL or `ESC \`); a lone ESC and the byte after it.
                var introducer = scalar.value
                if scalar.value == 0x1B {
                    guard let second = next() else { break }
                    introducer = second == "[" ? 0x9B : second == "]" ? 0x9D : 0
                    if introducer == 0 { continue }
                }
                if introducer == 0x9B {
                    while let c = next(), !(0x40...0x7E).contains(c.value) {}
                } else {
                    while let c = next() {
                        if c.value == 0x07 || c.value == 0x9C { break }
                        if c.value == 0x1B { _ = next(); break }
                    }
                }
            case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
            case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
            case 0..<0x20, 0x7F...0x9F: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `Math.round`: halves go up.
    static func jsRound(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

    /// `Number.prototype.toFixed` for the token counts (non-negative, exact halves rounded up).
    static func toFixed(_ value: Double, digits: Int) -> String {
        let scale = digits == 0 ? 1.0 : 10.0
        let scaled = (value * scale + 0.5).rounded(.down)
        let whole = Int64(scaled / scale)
        guard digits > 0 else { return String(whole) }
        return "\(whole).\(Int64(scaled) - whole * 10)"
    }

    // MARK: colour

    private static func sgr(_ code: String, _ text: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[39m\u{1B}[22m" }

    /// The official theme's roles in plain ANSI: heading bold, key accent, age muted, model info,
    /// tokens by how full the window is.
    static func paint(key: String?, text: String, percent: Int?) -> String {
        switch key {
        case nil: return "\u{1B}[1m\(text)\u{1B}[22m"
        case "agent": return sgr("96", text)
        case "kind":
            switch text {
            case "group": return sgr("96", text)
            case "global": return sgr("33", text)
            case "direct": return sgr("36", text)
            default: return sgr("90", text)
            }
        case "key": return sgr("36", text)
        case "age", "flags": return sgr("90", text)
        case "model", "runtime": return sgr("34", text)
        case "tokens":
            guard let percent else { return sgr("90", text) }
            return sgr(percent >= 95 ? "31" : percent >= 80 ? "33" : percent >= 60 ? "32" : "90", text)
        default: return text
        }
    }
}

