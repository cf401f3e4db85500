@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// Where `send` gets its message: arguments, `--file`, or stdin.
enum MessageInput {
    static let maximumBytes = 25 * 1024 * 1024

    /// `signals`: a signal ends a read that waits (stdin or a FIFO nobody writes yet) with 130/143.
    static func read(arguments: [String], file: String?, signals: SignalWatcher? = nil) throws -> String {
        let bytes: [UInt8]
        if let path = file {
            guard arguments.isEmpty else { throw CommandFailure(.usage, "give the message as arguments or with --file, not both") }
            bytes = try FileInput.read(path, what: "--file", signals: signals)
        } else if arguments == ["-"] || (arguments.isEmpty && !TerminalDevice.isTerminal(0)) {
            bytes = try FileInput.read("-", what: "stdin", signals: signals)
        } else {
            bytes = Array(arguments.joined(separator: " ").utf8)
        }
        guard bytes.count <= maximumBytes else { throw CommandFailure(.usage, "the message is larger than 25 MiB") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure(.usage, "the message is not valid UTF-8")
        }
        guard !text.allSatisfy({ $0.isWhitespace }) else {
            throw CommandFailure(.usage, "empty message: give it as arguments, with --file, or on stdin")
        }
        return text
    }
}

/// Whole-file reads with one-line errors.
enum FileInput {
    /// Reads `path` (`-` = stdin) completely. With `signals`, each read first waits for input or a
    /// signal, so SIGINT/SIGTERM end a read that waits for a writer (exit 130/143).
    static func read(_ path: String, what: String, limit: Int = 64 * 1024 * 1024, signals: SignalWatcher? = nil) throws -> [UInt8] {
        let fd: Int32
        do { fd = path == "-" ? 0 : try FileDescriptor.openForReading(path) } catch {
            throw CommandFailure(.usage, "cannot read \(what) \(path): \(error)")
        }
        defer { if fd != 0 { FileDescriptor.close(fd) } }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let signals { try waitForInput(fd, signals: signals, what: what) }
            let n: Int
            do { n = try FileDescriptor.read(fd, into: &chunk) } catch {
                if error.isInterrupted { continue }
                throw CommandFailure(.usage, "cannot read \(what) \(path): \(error)")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw CommandFailure(.usage, "\(what) \(path) is larger than \(limit / 1024 / 1024) MiB") }
        }
        return out
    }

    /// Returns once `fd` has input (or end of file, or an error the read will report); throws the
    /// signal's status when SIGINT or SIGTERM comes first.
    private static func waitForInput(_ fd: Int32, signals: SignalWatcher, what: String) throws {
        while true {
            if signals.received != 0 { throw CommandFailure(ExitStatus(signal: signals.received), "interrupted while reading \(what)") }
            // Input, or a failed wait whose cause the read reports; else a signal, looked at above.
            if case .input = ConnectionRunner.wait(alert: signals.descriptor, input: fd, until: .never) { return }
        }
    }
}

/// A file for `--attach`, as the chat.send attachment object.
struct Attachment {
    let path: String
    let size: Int
    let isImage: Bool
    /// The chat.send `attachments` entry.
    let json: JSONValue

    static func load(_ path: String) throws -> Attachment {
        let bytes = try FileInput.read(path, what: "--attach", limit: 20 * 1024 * 1024)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let mime = mimeType(forName: name)
        let isImage = mime.hasPrefix("image/")
        return Attachment(path: path, size: bytes.count, isImage: isImage, json: [
            "type": .string(isImage ? "image" : "file"),
            "mimeType": .string(mime),
            "fileName": .string(name),
            "content": .string(Base64.encode(bytes)),
        ])
    }

    /// Exit 2 before anything is sent when the gateway's `policy.attachments` (hello-ok) would refuse it.
    func check(against hello: HelloOk) throws {
        let limit = isImage ? (hello.attachmentMaxImageBytes ?? hello.attachmentMaxBytes) : hello.attachmentMaxBytes
        guard let limit, size > limit else { return }
        throw CommandFailure(.usage, "--attach \(path) is \(size) bytes; the gateway accepts \(isImage ? "images" : "attachments") "
            + "of at most \(limit) bytes (policy.attachments); nothing was sent")
    }

    static func mimeType(forName name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let table = [
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
            "heic": "image/heic", "svg": "image/svg+xml", "pdf": "application/pdf", "txt": "text/plain",
            "md": "text/markdown", "json": "application/json", "csv": "text/csv", "html": "text/html",
            "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "mp4": "video/mp4", "zip": "application/zip",
        ]
        return table[ext] ?? "application/octet-stream"
    }
}
