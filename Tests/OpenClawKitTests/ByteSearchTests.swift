import Testing
@testable import OpenClawKit

@Suite struct ByteSearchTests {
    private func find(_ haystack: String, _ needle: String, anchor: Int, ignoringCase: Bool = false) -> Bool {
        Array(haystack.utf8).withUnsafeBytes { h in
            Array(needle.utf8).withUnsafeBytes { n in
                ignoringCase ? ByteSearch.containsIgnoringASCIICase(h, n, anchor: anchor) : ByteSearch.contains(h, n, anchor: anchor)
            }
        }
    }

    @Test func findsNeedlesAnywhereWithAnyAnchor() {
        for anchor in 0..<5 {
            #expect(find("token\"", "oken\"", anchor: anchor))
            #expect(find("oken\"xx", "oken\"", anchor: anchor))
            #expect(find("{\"a\":1,\"apiToken\":2}", "oken\"", anchor: anchor))
            #expect(!find("oken", "oken\"", anchor: anchor))
            #expect(!find("okn\"okex\"", "oken\"", anchor: anchor))
        }
        #expect(!find("", "a", anchor: 0))
        #expect(find("abc", "", anchor: 0))
    }

    @Test func foldsASCIICaseOnlyWhenAsked() {
        #expect(find("\"API_TOKEN\":1", "oken\"", anchor: 1, ignoringCase: true))
        #expect(!find("\"API_TOKEN\":1", "oken\"", anchor: 1))
        #expect(find("DB_PassWord", "assword", anchor: 3, ignoringCase: true))
        #expect(!find("pasword", "assword", anchor: 3, ignoringCase: true))
    }
}
