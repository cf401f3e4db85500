import Foundation
import Testing
@testable import openclaw

/// The exit statuses are one table: README, docs/cli.md and the man page list exactly the statuses
/// the binary has (`ExitStatus`), no more, no fewer.
@Suite("exit-status tables")
struct ExitStatusTablesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let statuses = Set(ExitStatus.allCases.map { Int($0.rawValue) })

    /// The first column's numbers of the Markdown table under `heading` (`130 / 143` counts both).
    static func codes(in file: String, under heading: String) throws -> Set<Int> {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n\(heading)\n").dropFirst().first, "\(file): no \(heading)")
        let table = section.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return Set(table.dropFirst(2).flatMap { row in
            row.split(separator: "|").first.map { $0.split(separator: "/").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } } ?? []
        })
    }

    @Test func readmeAndTheCLIDocumentListEveryStatus() throws {
        #expect(try Self.codes(in: "README.md", under: "## Exit status") == Self.statuses)
        #expect(try Self.codes(in: "docs/cli.md", under: "## Exit status") == Self.statuses)
    }

    @Test func theManPageListsEveryStatus() throws {
        #expect(Set(ManPageProse.exitStatus.map { Int($0.status.rawValue) }) == Self.statuses)
        #expect(ManPageProse.exitStatus.count == Self.statuses.count)
        let page = try String(contentsOf: Self.root.appendingPathComponent("man/openclaw.1"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: ".SH EXIT STATUS\n").dropFirst().first?.components(separatedBy: "\n.SH ").first)
        // Each status is a tagged paragraph: `.TP`, then `\fBN\fR`.
        let lines = section.split(separator: "\n").map(String.init)
        let listed = Set(zip(lines, lines.dropFirst()).compactMap { tag, term -> Int? in
            tag == ".TP" ? Int(term.replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fR", with: "")) : nil
        })
        #expect(listed == Self.statuses, "\(section)")
    }
}
