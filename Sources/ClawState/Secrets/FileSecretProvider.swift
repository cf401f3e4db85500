@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// `{source:"file", path, mode?, timeoutMs?, maxBytes?}`: secrets read from a file only its owner can
/// read, as the official `readSecureFile` requires: a regular file (a symbolic link is refused),
/// owned by the user running the command, with no read or write permission for group or others.
/// `json` (the default) takes a JSON object and the ref's id as a JSON pointer into it; `singleValue`
/// takes the whole file (id `value`) minus one trailing line break. A leading UTF-8 BOM is dropped.
struct FileSecretProvider: Sendable, Equatable {
    enum Mode: String, Sendable { case json, singleValue }

    static let singleValueID = "value"
    static let defaultTimeoutMs = 5000
    static let defaultMaxBytes = 1 << 20

    /// Home-expanded.
    let path: String
    let mode: Mode
    /// Accepted as the schema has it; a regular file is read without blocking, so nothing waits on it.
    let timeoutMs: Int
    let maxBytes: Int

    init(_ fields: ProviderFields, environment: Environment) throws(SecretResolutionError) {
        try fields.allow(["source", "path", "mode", "timeoutMs", "maxBytes"])
        guard let path = try fields.string("path").flatMap(TextTrim.nonEmpty) else {
            throw .problem(.providerInvalid("\(fields.name).path must be a file path"))
        }
        self.path = StatePaths.expandUser(path, environment: environment)
        let modeText = try fields.string("mode") ?? Mode.json.rawValue
        guard let mode = Mode(rawValue: modeText) else {
            throw .problem(.providerInvalid("\(fields.name).mode must be \"json\" or \"singleValue\""))
        }
        self.mode = mode
        timeoutMs = try fields.integer("timeoutMs", in: 1...120_000) ?? Self.defaultTimeoutMs
        maxBytes = try fields.integer("maxBytes", in: 1...(20 << 20)) ?? Self.defaultMaxBytes
    }

    func value(for id: String) throws(SecretResolutionError) -> String {
        switch mode {
        case .singleValue:
            guard id == Self.singleValueID else { throw .problem(.singleValueIDRequired) }
        case .json:
            guard SecretRef.isJSONPointer(id) else { throw .problem(.jsonPointerRequired) }
        }
        var bytes = try readSecurely()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        switch mode {
        case .singleValue:
            if bytes.last == UInt8(ascii: "\n") {
                bytes.removeLast()
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            }
            return String(decoding: bytes, as: UTF8.self)
        case .json:
            guard let root = try? JSONValue.parse(bytes), root.objectValue != nil else {
                throw .problem(.fileNotJSONObject(path: path))
            }
            guard let found = Self.lookUp(pointer: id, in: root) else { throw .problem(.pointerNotFound) }
            guard let text = found.stringValue else { throw .problem(.valueNotAString) }
            return text
        }
    }

    /// The file's bytes once it has passed the ownership and permission checks, checked on the
    /// open descriptor so the file read is the file checked.
    private func readSecurely() throws(SecretResolutionError) -> [UInt8] {
        let file: ReadOnlyFile
        do {
            file = try ReadOnlyFile.open(path, followSymbolicLinks: false)
        } catch {
            if error.isSymbolicLink { throw .problem(.fileIsSymbolicLink(path: path)) }
            throw .problem(.fileUnreadable(path: path, reason: error.reason))
        }
        let status: FileStatus
        do { status = try file.status() } catch { throw .problem(.fileUnreadable(path: path, reason: error.reason)) }
        guard status.kind == .regular else { throw .problem(.fileNotRegular(path: path)) }
        let user = FileSystem.currentUserID()
        guard status.ownerID == user else { throw .problem(.fileNotOwned(path: path, owner: status.ownerID, user: user)) }
        guard !status.isGroupOrOtherReadableOrWritable else {
            throw .problem(.fileInsecurePermissions(path: path, permissions: status.permissions))
        }
        do {
            return try file.readAll(limit: maxBytes)
        } catch {
            if error.isTooLarge { throw .problem(.fileTooLarge(path: path, limit: maxBytes)) }
            throw .problem(.fileUnreadable(path: path, reason: error.reason))
        }
    }

    /// RFC 6901: `/`-separated reference tokens, `~1` for `/` and `~0` for `~`; array elements by index.
    static func lookUp(pointer: String, in root: JSONValue) -> JSONValue? {
        var current = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let name = unescape(token)
            if let object = current.objectValue {
                guard let next = object[name] else { return nil }
                current = next
            } else if let array = current.arrayValue {
                guard let index = Int(name), String(index) == name, index >= 0, index < array.count else { return nil }
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// One reference token with `~1` and `~0` decoded (in that order, as RFC 6901 says).
    private static func unescape(_ token: Substring) -> String {
        guard token.contains("~") else { return String(token) }
        var out = ""
        var iterator = token.makeIterator()
        while let c = iterator.next() {
            if c == "~", let next = iterator.next() {
                out.append(next == "1" ? "/" : next == "0" ? "~" : next)
            } else {
                out.append(c)
            }
        }
        return out
    }
}
