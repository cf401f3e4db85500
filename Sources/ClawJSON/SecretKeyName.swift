
/// Which JSON member names hold secrets (tokens, passwords, keys). A JSON-level fact because the frame
/// scanner notes such names while it validates (`JSONFrameHeader.hasSecretKey`); the protocol layer's
/// `Redaction` replaces the strings under them.
@_spi(Engine) public enum SecretKeyName {
    /// Member names the protocol uses for secrets; `matches`'s rules accept all of them (and more).
    @_spi(Engine) public static let protocolNames: [String] = [
        "token", "password", "deviceToken", "bootstrapToken", "approvalRuntimeToken",
        "agentRuntimeIdentityToken", "privateKey", "privateKeyPem", "secret", "apiKey",
    ]

    /// ASCII case folding only, so a byte scan (`SecretFilter`) can find every such key.
    /// Every name in `protocolNames` matches one of these rules (a test checks); the check runs on the UTF-8 bytes
    /// (the generic `String.contains` is far slower per key, and a handshake has hundreds; bench/README.md).
    @_spi(Engine) public static func matches(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { matches($0) }
    }

    /// The same test on a name's UTF-8 bytes (the frame scanner checks every member name with it):
    /// one pass that compares only where a needle's first letter is.
    @_spi(Engine) public static func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard n >= 5, let p = bytes.baseAddress else { return false }  // "token" is the shortest match
        @inline(__always) func folded(_ k: Int) -> UInt8 {
            let c = p[k]
            return c &- 0x41 < 26 ? c | 0x20 : c
        }
        @inline(__always) func matches(at k: Int, _ needle: StaticString) -> Bool {
            let count = needle.utf8CodeUnitCount
            guard k >= 0, k &+ count <= n else { return false }
            let q = needle.utf8Start
            var m = 0
            while m < count {  // wrapping arithmetic: k + count <= n bounds every index
                if folded(k &+ m) != q[m] { return false }
                m &+= 1
            }
            return true
        }
        let last = folded(n &- 1)
        if last == UInt8(ascii: "n"), matches(at: n &- 5, "token") { return true }
        if last == UInt8(ascii: "y"), matches(at: n &- 6, "apikey") { return true }
        var k = 0
        while k &+ 6 <= n {  // "secret" is the shortest inner needle
            switch folded(k) {
            case UInt8(ascii: "p"): if matches(at: k, "password") || matches(at: k, "privatekey") { return true }
            case UInt8(ascii: "s"): if matches(at: k, "secret") { return true }
            default: break
            }
            k &+= 1
        }
        return false
    }
}
