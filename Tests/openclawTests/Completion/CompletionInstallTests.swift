import Foundation
import Testing

/// `make install` and `make uninstall` into a scratch DESTDIR. Builds the release binary, so slow:
/// the one test that runs make.
@Suite("Completion and man page install")
struct CompletionInstallTests {
    static let installed: [(path: String, mode: Int, source: String?)] = [
        ("usr/local/bin/openclaw", 0o755, nil),
        ("usr/local/share/man/man1/openclaw.1", 0o644, "man/openclaw.1"),
        ("usr/local/share/bash-completion/completions/openclaw", 0o644, "completions/openclaw.bash"),
        ("usr/local/share/zsh/site-functions/_openclaw", 0o644, "completions/_openclaw"),
        ("usr/local/share/fish/vendor_completions.d/openclaw.fish", 0o644, "completions/openclaw.fish"),
    ]

    @Test("make install DESTDIR=… PREFIX=/usr/local installs exactly the expected tree; make uninstall removes it")
    func installAndUninstall() throws {
        let destination = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: destination) }
        let make = try DocsTestSupport.program("make")
        // `swift test` holds the lock on .build while tests run, so the release build make starts
        // would wait for it forever; the same command with SwiftPM's --ignore-lock does not.
        let tools = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tools) }
        let swift = tools.appendingPathComponent("swift")
        try DocsTestSupport.write("#!/bin/sh\nexec '\(try DocsTestSupport.program("swift").path)' \"$@\" --ignore-lock\n", to: swift, executable: true)
        let variables = ["DESTDIR=\(destination.path)", "PREFIX=/usr/local", "SWIFT=\(swift.path)"]

        let install = try DocsTestSupport.run(make, ["install"] + variables, limit: 1800)
        #expect(install.status == 0, "\(install.stdout)\n\(install.stderr)")

        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: destination.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue { files.append(path) }
        }
        #expect(Set(files) == Set(Self.installed.map(\.path)))

        for (path, mode, source) in Self.installed {
            let url = destination.appendingPathComponent(path)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path) mode")
            if let source {
                #expect(try Data(contentsOf: url) == Data(contentsOf: DocsTestSupport.repository.appendingPathComponent(source)), "\(path)")
            }
        }
        let version = try DocsTestSupport.run(destination.appendingPathComponent("usr/local/bin/openclaw"), ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("openclaw "))

        // Something else in the same directories must survive uninstall.
        let neighbour = destination.appendingPathComponent("usr/local/share/man/man1/other.1")
        try DocsTestSupport.write(".TH OTHER 1\n", to: neighbour)
        let uninstall = try DocsTestSupport.run(make, ["uninstall"] + variables)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        for (path, _, _) in Self.installed {
            #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent(path).path), "\(path) left behind")
        }
        #expect(FileManager.default.fileExists(atPath: neighbour.path))
    }
}
