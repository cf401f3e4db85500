@_spi(Engine) import ClawJSON

extension JSONValue {
    /// The value as `JSON.stringify(JSON.parse(text))` gives it back: of duplicated object members the
    /// last value wins, in the place of the first; numbers are written as JavaScript writes them
    /// (`1.50` → `1.5`, `1e3` → `1000`, `1e-7` → `1e-7`). What the official CLI prints of a row it read.
    var javaScriptNormalized: JSONValue {
        switch self {
        case .number(let text): return .number(Self.javaScriptNumberText(text))
        case .array(let elements): return .array(elements.map(\.javaScriptNormalized))
        case .object(let object): return .object(object.javaScriptNormalized)
        default: return self
        }
    }

    /// ECMAScript `Number::toString` of the number `text` denotes (the shortest digits that round-trip).
    static func javaScriptNumberText(_ text: String) -> String {
        guard let value = Double(text), value.isFinite else { return text }
        if value == 0 { return "0" }
        let negative = value < 0
        // Swift's description is the shortest round-trip form too; only its layout differs.
        var description = "\(abs(value))"
        var exponent = 0
        if let e = description.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(description[description.index(after: e)...]) ?? 0
            description = String(description[..<e])
        }
        let parts = description.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        // value = 0.digits × 10^n, digits without leading or trailing zeros
        var n = whole.count + exponent
        while digits.hasPrefix("0") { digits.removeFirst(); n -= 1 }
        while digits.hasSuffix("0") { digits.removeLast() }
        if digits.isEmpty { return "0" }
        let k = digits.count
        var out: String
        if k <= n && n <= 21 {
            out = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            let cut = digits.index(digits.startIndex, offsetBy: n)
            out = digits[..<cut] + "." + digits[cut...]
        } else if -6 < n && n <= 0 {
            out = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let power = n - 1
            let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
            out = mantissa + "e" + (power < 0 ? "-" : "+") + String(abs(power))
        }
        return negative ? "-" + out : out
    }
}

extension JSONObject {
    /// `javaScriptNormalized` of an object.
    var javaScriptNormalized: JSONObject {
        var out: [JSONObject.Member] = []
        var index: [String: Int] = [:]
        for member in members {
            let value = member.value.javaScriptNormalized
            if let at = index[member.key] { out[at].value = value } else {
                index[member.key] = out.count
                out.append(JSONObject.Member(member.key, value))
            }
        }
        return JSONObject(out)
    }
}
