import Testing
@_spi(Engine) import ClawSystem

/// `TextSearch`: substring search without _StringProcessing, answering as its `firstRange(of:)`,
/// `contains(_:)` and string `split`-and-join do for the needles this package searches for.
@Suite struct TextSearchTests {
    @Test func theFirstOccurrenceIsFoundAsARangeOfTheText() throws {
        let text = "socks5://user@host:1080://x"
        let range = try #require(text.firstRange(ofText: "://"))
        #expect(text[..<range.lowerBound] == "socks5")
        #expect(text[range.upperBound...] == "user@host:1080://x")
        #expect("host".firstRange(ofText: "://") == nil)
        #expect("ab".firstRange(ofText: "abc") == nil)
        #expect("abc".firstRange(ofText: "") == "abc".startIndex..<"abc".startIndex)
    }

    /// In a substring the range is in the base string's indices, as a `Substring`'s always are.
    @Test func aSubstringIsSearchedFromItsOwnStart() throws {
        let base = "x://y://z"
        let rest = base[base.index(base.startIndex, offsetBy: 3)...]
        let range = try #require(rest.firstRange(ofText: "://"))
        #expect(base[..<range.lowerBound] == "x://y")
        #expect(rest[range.upperBound...] == "z")
    }

    @Test func containsAnswersForAnyPlaceAndNonASCIIText() {
        #expect("agent:main:group:abc".containsText(":group:"))
        #expect(!"agent:main:direct".containsText(":group:"))
        #expect("Permission denied (publickey)".containsText("Permission denied ("))
        #expect("é — ünïcode ::1".containsText("::1"))
        #expect("ünïcode".containsText("nï"))
        #expect("abc".containsText(""))
    }

    @Test func everyOccurrenceIsReplacedLeftToRight() {
        #expect("~/{agentId}/sessions/{agentId}.json".replacingText("{agentId}", with: "main") == "~/main/sessions/main.json")
        #expect("it's".replacingText("'", with: #"'\''"#) == #"it'\''s"#)
        #expect("aaa".replacingText("aa", with: "b") == "ba")
        #expect("none".replacingText("x", with: "y") == "none")
        #expect("same".replacingText("", with: "y") == "same")
        #expect("{agentId}".replacingText("{agentId}", with: "") == "")
    }
}
