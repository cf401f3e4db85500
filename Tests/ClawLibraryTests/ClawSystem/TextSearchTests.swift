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
        #expect(!"abc".containsText(""))  // as `contains(_:)`, though an empty needle's first range is at the start
    }

    /// Against _StringProcessing's own answers, on generated text whose characters are each one scalar
    /// (there, matching bytes and matching `Character`s agree): the same first range, the same
    /// `contains`, and `replacingText` as a string `split` joined again.
    @Test func theAnswersAreTheStandardOnesOnGeneratedText() {
        let alphabet: [String] = ["a", "b", ":", "/", "{", "}", "é", "ü", "—", "日", " "]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func text(_ maxLength: Int) -> String { (0..<next(maxLength + 1)).map { _ in alphabet[next(alphabet.count)] }.joined() }
        for _ in 0..<2_000 {
            let haystack = text(12)
            let needle = text(3)
            let expected = haystack.firstRange(of: needle)
            #expect(haystack.firstRange(ofText: needle) == expected, "\(haystack) / \(needle)")
            #expect(haystack.containsText(needle) == haystack.contains(needle), "\(haystack) / \(needle)")
            if !needle.isEmpty {
                let joined = haystack.split(separator: needle, omittingEmptySubsequences: false).joined(separator: "<>")
                #expect(haystack.replacingText(needle, with: "<>") == joined, "\(haystack) / \(needle)")
            }
        }
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
