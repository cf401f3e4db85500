
extension JSONValue {
    /// Appends the compact JSON text of this value (RFC 8259 escapes, numbers as written).
    ///
    /// Byte-identical to JavaScript's `JSON.stringify` for values it parsed: only `"`, `\` and control
    /// characters are escaped, `/` and non-ASCII are written raw. Number text is written as stored, so a
    /// `.number` built in code must hold valid JSON number text.
    @_spi(Engine) public func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(true): output.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        case .bool(false): output.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of this value.
    @_spi(Engine) public var compactText: String {
        var out = [UInt8]()
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented text for people (`call -o text`): two spaces per level, like `JSON.stringify(v, null, 2)`.
    @_spi(Engine) public var prettyText: String {
        var out = [UInt8]()
        writePretty(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the indented text (`prettyText`) of this value, starting at nesting level `level`.
    @_spi(Engine) public func writePretty(to output: inout [UInt8], level: Int = 0) {
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.newline(&output, level: level + 1)
                element.writePretty(to: &output, level: level + 1)
            }
            JSONValue.newline(&output, level: level)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.members.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.newline(&output, level: level + 1)
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                output.append(UInt8(ascii: " "))
                member.value.writePretty(to: &output, level: level + 1)
            }
            JSONValue.newline(&output, level: level)
            output.append(UInt8(ascii: "}"))
        default:
            write(to: &output)
        }
    }

    private static func newline(_ output: inout [UInt8], level: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// Appends `text` as a quoted JSON string, copying unescaped runs in one go.
    @_spi(Engine) public static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for k in 0..<bytes.count {
                let b = bytes[k]
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { continue }
                if run < k { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<k])) }
                run = k + 1
                output.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(b)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
                }
            }
            if run < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
        }
        output.append(UInt8(ascii: "\""))
    }
}
