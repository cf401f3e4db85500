import Foundation

/// A root CA and a leaf it signs for `localhost` and 127.0.0.1 (P-256, 2 days), made once with the `openssl`
/// command, plus a root with the same subject and another key, and an unrelated root: what the trust-file
/// tests put in bundles and hashed directories.
struct TestCertificateChain: Sendable {
    let directory: String
    var rootPath: String { directory + "/root.pem" }
    /// The same subject as the root, another key: it signed nothing the tests see.
    var sameSubjectRootPath: String { directory + "/same-subject-root.pem" }
    var otherRootPath: String { directory + "/other-root.pem" }
    var leafPath: String { directory + "/leaf.pem" }
    var keyPath: String { directory + "/leaf.key" }
    /// A hashed directory (`openssl rehash`) that holds only the unrelated root.
    var hashedDirectoryWithoutRoot: String { directory + "/certs" }

    static let shared: TestCertificateChain? = try? TestCertificateChain.make()

    static func make() throws -> TestCertificateChain {
        let directory = NSTemporaryDirectory() + "openclaw-chain-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory + "/certs", withIntermediateDirectories: true)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        let ca = ["-addext", "basicConstraints=critical,CA:true", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                  "-addext", "subjectKeyIdentifier=hash"]
        for (name, subject) in [("root", "/O=OpenClaw Test/CN=Trust Files Root"),
                                ("same-subject-root", "/O=OpenClaw Test/CN=Trust Files Root"),
                                ("other-root", "/O=Somebody Else/CN=Other Root")] {
            try TestCertificate.run(["req", "-x509"] + ec + ["-days", "3", "-subj", subject] + ca
                    + ["-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).pem"])
        }
        try "basicConstraints=critical,CA:false\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nauthorityKeyIdentifier=keyid\n"
            .write(toFile: directory + "/leaf.ext", atomically: true, encoding: .utf8)
        try TestCertificate.run(["req", "-new"] + ec + ["-subj", "/CN=localhost", "-keyout", directory + "/leaf.key", "-out", directory + "/leaf.csr"])
        try TestCertificate.run(["x509", "-req", "-in", directory + "/leaf.csr", "-CA", directory + "/root.pem", "-CAkey", directory + "/root.key",
                 "-set_serial", "4242", "-days", "2", "-extfile", directory + "/leaf.ext", "-out", directory + "/leaf.pem"])
        try FileManager.default.copyItem(atPath: directory + "/other-root.pem", toPath: directory + "/certs/other-root.pem")
        try TestCertificate.run(["rehash", directory + "/certs"])
        return TestCertificateChain(directory: directory)
    }

    /// Writes the concatenation of `parts` (file paths) to a new file in the chain's directory.
    func bundle(_ name: String, of parts: [String]) throws -> String {
        var text = Data()
        for part in parts { text.append(try Data(contentsOf: URL(fileURLWithPath: part))) }
        let path = directory + "/" + name
        try text.write(to: URL(fileURLWithPath: path))
        return path
    }
}
