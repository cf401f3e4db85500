import Foundation
import Testing

/// Runs every ```sh block of the README's "Recipes with jq" section with the real jq
/// against the simulator: a recipe that breaks fails the build.
@Suite struct ReadmeRecipeTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    static var recipes: [String] {
        guard let text = try? String(contentsOf: readme, encoding: .utf8),
              let start = text.range(of: "\n## Recipes with jq\n") else { return [] }
        let section = text[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        return section.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
    }

    static let transcriptLength = 3018

    /// The role count is the whole transcript's: 1509 of each, not the last page's.
    @Test func theRoleCountRecipeCountsEveryMessage() throws {
        let recipe = try #require(Self.recipes.first { $0.contains("each role wrote") })
        let gateway = try GatewayFixture(["--history-fixture", "\(Self.transcriptLength):40"])
        let result = try CLIProcess(["-c", "set -euo pipefail\n" + recipe + " | jq -c 'map(.count)'"],
                                    environment: Self.environment(gateway), executable: URL(fileURLWithPath: "/bin/bash")).finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "[1509,1509]\n")
        #expect(result.stderr.isEmpty)
    }

    static func environment(_ gateway: GatewayFixture) -> [String: String] {
        var environment = gateway.cli.variables
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    @Test func theReadmeHasRecipes() {
        #expect(Self.recipes.count >= 6)
    }

    @Test(arguments: recipes)
    func recipeRunsWithRealJq(_ recipe: String) throws {
        _ = try DocsTestSupport.program("jq")  // a missing jq is named, not a bare exit 127
        // More than one page of history (200 a page by default, 1000 with --all): a recipe must give the
        // whole answer, not the last page's.
        let gateway = try GatewayFixture(["--reply", "lorem:6", "--history-fixture", "\(Self.transcriptLength):40"])
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "set -euo pipefail\n" + recipe]
        shell.environment = Self.environment(gateway)
        let out = Pipe(), err = Pipe()
        shell.standardOutput = out
        shell.standardError = err
        try shell.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "\(recipe)\n\(stderr)")
        #expect(!stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(recipe)")
        #expect(stderr.isEmpty, "\(stderr)")
        #expect(!stdout.contains("null"), "\(stdout)")
    }
}
