import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// `history --all`: every page of a long transcript, oldest first, in NDJSON and in text.
@Suite struct CLIHistoryPagingTests {
    @Test func historyAllExportsEveryPageOldestFirst() throws {
        let gateway = try GatewayFixture(["--history-fixture", "2500:16"])
        let result = try gateway.run(["history", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        let pages = result.frames
        #expect(pages.count == 3)
        let messages = pages.flatMap { $0["payload"]?["messages"]?.arrayValue ?? [] }
        #expect(messages.count == 2500)
        let stamps = messages.compactMap { $0["timestamp"]?.intValue }
        #expect(stamps.count == 2500 && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "not oldest first")
        let asked = requests(gateway, "chat.history")
        #expect(asked.map { $0["offset"]?.intValue } == [0, 1000, 2000])
        #expect(asked.allSatisfy { ($0["limit"]?.intValue ?? 0) <= 1000 })
    }

    @Test func historyAllInTextIsEveryMessageOnceWithThePageSizeFromLimit() throws {
        let gateway = try GatewayFixture(["--history-fixture", "1501:12"])
        let result = try gateway.run(["history", "--all", "--limit", "500", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 1501)
        #expect(result.lines.first?.hasPrefix("user: ") == true && result.lines.last?.hasPrefix("user: ") == true)
        #expect(requests(gateway, "chat.history").map { $0["limit"]?.intValue } == [500, 500, 500, 500])
    }
}
