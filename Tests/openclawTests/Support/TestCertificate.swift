import Foundation

/// A self-signed certificate (EC P-256, `CN=localhost`) and its key, made with the `openssl` command in a
/// fresh temporary directory as `cert.pem` and `key.pem`: the one certificate helper of this target's TLS tests.
/// `subjectAltName` nil leaves the extension out; a test that wants the directory gone removes it.
struct TestCertificate {
    let directory: URL
    var cert: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }

    init(subjectAltName: String? = "DNS:localhost,IP:127.0.0.1", days: Int = 2) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-subj", "/CN=localhost"] + (subjectAltName.map { ["-addext", "subjectAltName=\($0)"] } ?? [])
                         + ["-days", String(days), "-keyout", directory.appendingPathComponent("key.pem").path,
                            "-out", directory.appendingPathComponent("cert.pem").path])
    }

    /// `AA:BB:…` SHA-256 of the certificate, as `openssl x509 -fingerprint` prints it.
    func fingerprint() throws -> String {
        let line = try Self.openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", cert])
        return String(line.split(separator: "=").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CLIProcessError(description: "openssl \(arguments[0]) failed") }
        return String(decoding: data, as: UTF8.self)
    }
}
