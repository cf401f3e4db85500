import Foundation

/// A self-signed certificate (RSA 2048, 2 days) for `localhost` and 127.0.0.1, made once with the `openssl`
/// command: the one certificate of this target's TLS tests.
struct TestCertificate: Sendable {
    let directory: String
    var certificatePath: String { directory + "/cert.pem" }
    var keyPath: String { directory + "/key.pem" }
    /// SHA-256 of the DER certificate as `openssl x509 -fingerprint -sha256` prints it.
    let fingerprint: String

    static let shared: TestCertificate? = try? TestCertificate.make()

    static func make() throws -> TestCertificate {
        let directory = NSTemporaryDirectory() + "openclaw-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                     "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                     "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem"])
        let output = try run(["x509", "-noout", "-fingerprint", "-sha256", "-in", directory + "/cert.pem"])
        guard let equals = output.firstIndex(of: "=") else { throw CocoaError(.fileReadCorruptFile) }
        let fingerprint = output[output.index(after: equals)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return TestCertificate(directory: directory, fingerprint: fingerprint)
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}
