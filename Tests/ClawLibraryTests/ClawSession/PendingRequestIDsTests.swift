import Testing
@testable import ClawSession

/// The session's pending request ids: a list while short, a set past 16, the same answers either way.
@Suite struct PendingRequestIDsTests {
    @Test(arguments: [3, 16, 17, 200])
    func answersTheSameAtEverySize(_ count: Int) {
        var pending = PendingRequestIDs()
        for n in 0..<count { pending.insert("id-\(n)") }
        pending.insert("id-0")  // twice: still one
        #expect((0..<count).allSatisfy { pending.contains("id-\($0)") })
        #expect(!pending.contains("id-\(count)"))
        for n in stride(from: 0, to: count, by: 2) { pending.remove("id-\(n)") }
        pending.remove("never-sent")
        #expect((0..<count).allSatisfy { pending.contains("id-\($0)") == ($0 % 2 == 1) })
        for n in stride(from: 1, to: count, by: 2) { pending.remove("id-\(n)") }
        #expect(!(0..<count).contains { pending.contains("id-\($0)") })
    }
}
