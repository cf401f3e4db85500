import Testing
@_spi(Engine) @testable import ClawJSON

/// Parses `bytes` and returns the error, or nil when it parsed.
private func parseError(_ bytes: [UInt8], maxDepth: Int = 256) -> JSONError? {
    do {
        _ = try JSONValue.parse(bytes, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ text: String) -> JSONError? { parseError(Array(text.utf8)) }

@Suite struct JSONParserTests {
    static let validCases: [(String, JSONValue)] = [
        ("null", nil),
        ("true", true),
        ("false", false),
        ("0", .number("0")),
        ("-0", .number("-0")),
        ("1.0", .number("1.0")),
        ("1e400", .number("1e400")),
        ("-12.5E-3", .number("-12.5E-3")),
        ("1E+2", .number("1E+2")),
        ("12345678901234567890", .number("12345678901234567890")),
        ("\"\"", ""),
        ("\"abc\"", "abc"),
        (" \t\r\n[ ] ", []),
        ("{}", [:]),
        ("[1,[2,[3]],{}]", [1, [2, [3]], [:]]),
        ("{\"a\":1,\"b\":[true,null]}", ["a": 1, "b": [true, nil]]),
        ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\u{8}\u{C}\n\r\t"),
        ("\"\\u0041\\u00e9\\u20AC\"", "Aé€"),
        ("\"\\ud83d\\ude00\"", "😀"),
        ("\"😀 héllo 中文\"", "😀 héllo 中文"),
        ("\"a\\u0000b\"", "a\u{0}b"),
        ("\"\u{7F}\"", "\u{7F}"),
        ("\"\u{10FFFF}\"", "\u{10FFFF}"),
    ]

    @Test(arguments: validCases)
    func parsesValidText(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
        #expect(try JSONValue.parse(Array(text.utf8)) == expected)
    }

    /// Invalid text, with the byte offset the error must point at.
    static let invalidCases: [(String, Int)] = [
        ("", 0),
        ("   ", 3),
        ("01", 1),
        ("-01", 2),
        ("1.", 2),
        ("1.e5", 2),
        (".5", 0),
        ("-", 1),
        ("+1", 0),
        ("1e", 2),
        ("1e+", 3),
        ("NaN", 0),
        ("Infinity", 0),
        ("-Infinity", 1),
        ("tru", 0),
        ("nul", 0),
        ("True", 0),
        ("[1,]", 3),
        ("[1 2]", 3),
        ("{\"a\":1,}", 7),
        ("{\"a\" 1}", 5),
        ("{a:1}", 1),
        ("{'a':1}", 1),
        ("[1", 2),
        ("{\"a\":1", 6),
        ("{\"a\":", 5),
        ("\"abc", 0),
        ("[\"abc", 1),
        ("\"a\\", 2),
        ("\"\\x41\"", 1),
        ("\"\\'\"", 1),
        ("\"\\u12\"", 5),
        ("\"\\u12G4\"", 5),
        ("\"\\ud83d\"", 1),
        ("\"\\ud83dx\"", 1),
        ("\"\\ud83d\\u0041\"", 7),
        ("\"\\ude00\"", 1),
        ("\"a\tb\"", 2),
        ("\"a\nb\"", 2),
        ("1 2", 2),
        ("{} x", 3),
        ("[]]", 2),
        ("\u{FEFF}1", 0),
        ("/* c */ 1", 0),
        ("'a'", 0),
    ]

    @Test(arguments: invalidCases)
    func rejectsInvalidTextAtTheRightOffset(_ text: String, _ offset: Int) {
        let error = parseError(text)
        #expect(error?.offset == offset, "\(text.debugDescription): \(String(describing: error))")
    }

    /// Invalid UTF-8 inside strings, with the offset of the bad sequence's first byte.
    static let invalidUTF8: [([UInt8], Int)] = [
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
        ([0x22, 0xC1, 0xBF, 0x22], 1),  // overlong
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong 3-byte
        ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1),  // overlong 4-byte
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate U+D800
        ([0x22, 0xED, 0xBF, 0xBF, 0x22], 1),  // encoded surrogate U+DFFF
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // U+110000
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
        ([0x22, 0xFF, 0x22], 1),
        ([0x22, 0x41, 0x80, 0x22], 2),  // stray continuation byte
        ([0x22, 0xE2, 0x82, 0x22], 1),  // truncated, then quote
        ([0x22, 0xE2, 0x82], 1),  // truncated at end of input
        ([0x22, 0xF0, 0x9F, 0x98], 1),
        ([0x22, 0xC3], 1),
        ([0x5B, 0xC3, 0xA9, 0x5D], 1),  // valid UTF-8 but not in a string
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ bytes: [UInt8], _ offset: Int) {
        let error = parseError(bytes)
        #expect(error?.offset == offset, "\(bytes): \(String(describing: error))")
    }

    @Test func acceptsUTF8BoundaryScalars() throws {
        for scalar: UInt32 in [0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF] {
            let text = String(Unicode.Scalar(scalar)!)
            #expect(try JSONValue.parse("\"\(text)\"") == .string(text))
        }
    }

    @Test func everyControlCharacterIsRejectedRawAndAcceptedEscaped() throws {
        for byte: UInt8 in 0..<0x20 {
            #expect(parseError([0x22, byte, 0x22])?.offset == 1)
            let hex = Array("0123456789abcdef")
            let escaped = "\"\\u00\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])\""
            #expect(try JSONValue.parse(escaped) == .string(String(Unicode.Scalar(byte))))
        }
    }

    @Test func errorsNameTheProblem() {
        #expect(parseError("01")?.message == "leading zero in number")
        #expect(parseError("[1,2")?.message == "unexpected end of input inside array")
        #expect(parseError([0x22, 0xED, 0xA0, 0x80, 0x22])?.message == "invalid UTF-8 (encoded surrogate)")
        #expect(parseError("\"\\ude00\"")?.message.contains("surrogate") == true)
        #expect(parseError("NaN")?.description == "NaN and Infinity are not JSON numbers at byte 0")
    }

    @Test func errorTextNeverQuotesStringContents() {
        let secret = "sk-very-secret-token"
        for text in ["{\"token\":\"\(secret)\n\"}", "{\"token\":\"\(secret)\\q\"}", "{\"token\":\"\(secret)\"", "[\"\(secret)\" x]"] {
            let error = parseError(text)
            #expect(error != nil)
            #expect(error?.description.contains(secret) == false)
        }
    }

    @Test func keepsMemberOrderAndDuplicateKeys() throws {
        let value = try JSONValue.parse("{\"z\":1,\"a\":2,\"z\":3,\"m\":{\"y\":0,\"b\":0}}")
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "z", "m"])
        #expect(object["z"] == 1)  // first wins for lookup
        #expect(object[2].value == 3)
        #expect(value["m"]?.objectValue?.keys == ["y", "b"])
        #expect(value.compactText == "{\"z\":1,\"a\":2,\"z\":3,\"m\":{\"y\":0,\"b\":0}}")
    }

    @Test func rejectsDuplicateKeysOnlyWhenAsked() throws {
        let text = "{\"a\":1,\"b\":{\"a\":1},\"a\":2}"
        #expect(try JSONValue.parse(text).objectValue?.count == 3)
        #expect(try JSONValue.parse("{\"a\":{\"a\":1},\"b\":2}", rejectDuplicateKeys: true)["a"]?["a"] == 1)
        #expect(throws: JSONError("duplicate key", offset: 19)) {
            try JSONValue.parse(text, rejectDuplicateKeys: true)
        }
    }

    @Test func keepsNumberTextExactly() throws {
        for text in ["1.0", "1e400", "-0", "-0.0", "12345678901234567890", "0.1000", "1E-7", "123456789012345678901234567890.5"] {
            let value = try JSONValue.parse("[\(text)]")
            #expect(value == [.number(text)])
            #expect(value.compactText == "[\(text)]")
        }
        #expect(try JSONValue.parse("9223372036854775807").int64Value == Int64.max)
        #expect(try JSONValue.parse("9223372036854775808").int64Value == nil)
        #expect(try JSONValue.parse("2.5").doubleValue == 2.5)
    }

    @Test func depthLimitIsEnforcedExactly() throws {
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(try JSONValue.parse(ok).arrayValue?.count == 1)
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(parseError(Array(deep.utf8))?.offset == 256)
        #expect(parseError(Array("[{\"a\":[]}]".utf8), maxDepth: 2)?.offset == 6)
        #expect(parseError(Array("[{\"a\":[1]}]".utf8), maxDepth: 3) == nil)
        #expect(parseError(Array("1".utf8), maxDepth: 0) == nil)
        #expect(parseError(Array("[]".utf8), maxDepth: 0)?.offset == 0)
    }

    @Test func hundredThousandOpenBracketsFailWithoutCrashing() {
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(parseError(brackets)?.offset == 256)
        let objects = [UInt8](String(repeating: "{\"a\":", count: 100_000).utf8)
        #expect(parseError(objects)?.offset == 5 * 256)
        // A generous limit still fails cleanly at the end of the input, not in the stack.
        #expect(parseError(brackets, maxDepth: 1_000_000)?.offset == 100_000)
    }

    @Test func parsesFromARawBufferSlice() throws {
        let bytes = Array("xx{\"k\":[1,\"v\"]}yy".utf8)
        let value = try bytes.withUnsafeBytes { buffer in
            try JSONValue.parse(UnsafeRawBufferPointer(rebasing: buffer[2..<15]))
        }
        #expect(value == ["k": [1, "v"]])
    }
}

@Suite struct JSONPrinterTests {
    @Test func escapesLikeJSONStringify() {
        let value: JSONValue = .string("q\" b\\ s/ \u{8}\u{C}\n\r\t \u{0}\u{1F}\u{7F} é 😀 \u{2028}")
        #expect(value.compactText == "\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t \\u0000\\u001f\u{7F} é 😀 \u{2028}\"")
    }

    @Test func writesEveryKindCompactly() {
        let value: JSONValue = ["a": [1, .number("-2.5e3"), true, false, nil, "x"], "b": [:], "c": []]
        #expect(value.compactText == "{\"a\":[1,-2.5e3,true,false,null,\"x\"],\"b\":{},\"c\":[]}")
        var out: [UInt8] = Array("prefix:".utf8)
        JSONValue.bool(true).write(to: &out)
        #expect(out == Array("prefix:true".utf8))
    }

    @Test func escapesKeys() {
        let value: JSONValue = ["a\"b\n": 1]
        #expect(value.compactText == "{\"a\\\"b\\n\":1}")
    }

    @Test func prettyPrintsLikeJSONStringifyWithTwoSpaces() {
        let value: JSONValue = ["a": 1, "b": [true, [:], [], ["c": nil]], "d": "x"]
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                {},
                [],
                {
                  "c": null
                }
              ],
              "d": "x"
            }
            """
        #expect(value.prettyText == expected)
        #expect(JSONValue.array([]).prettyText == "[]")
        #expect(JSONValue.object([:]).prettyText == "{}")
        #expect(JSONValue.string("s").prettyText == "\"s\"")
    }

    /// Compact text as JSON.stringify writes it prints back byte for byte.
    static let stringifyOutputs = [
        "{\"type\":\"event\",\"event\":\"tick\",\"payload\":{\"ts\":1732260000000},\"seq\":42}",
        "[1,-0,1.5e+300,\"\\u001b[31mred\\u001b[0m\",\"tab\\there\",\"quote\\\"\",\"back\\\\slash\",\"/\"]",
        "{\"a\":{\"b\":{\"c\":[[],[{}],null]}},\"é\":\"😀\",\"a\":2}",
        "\"\u{2028}\u{2029}\"",
        "{\"id\":\"3f2a\",\"ok\":true,\"payload\":{\"sessions\":[{\"key\":\"main\",\"tokens\":12345678901234567890}]}}",
    ]

    @Test(arguments: stringifyOutputs)
    func compactTextRoundTripsByteForByte(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(value.compactText == text)
        var out: [UInt8] = []
        value.write(to: &out)
        #expect(out == Array(text.utf8))
    }

    @Test func printedValuesParseBackEqual() throws {
        var allControls = ""
        for scalar in 0..<0x20 { allControls.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let values: [JSONValue] = [
            nil, true, .number("-0.0"), .string(allControls + "\"\\/é😀"),
            .object(JSONObject([.init("z", 1), .init("a", ["x", [:], []]), .init("z", .number("1e400"))])),
            .object(JSONObject([.init("k", 1), .init("k", 2)])),
        ]
        for value in values {
            #expect(try JSONValue.parse(value.compactText) == value)
            #expect(try JSONValue.parse(value.prettyText) == value)
        }
    }

    @Test func pseudoRandomTreesRoundTrip() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        func tree(_ depth: Int) -> JSONValue {
            switch next(depth > 4 ? 4 : 7) {
            case 0: return nil
            case 1: return .bool(next(2) == 0)
            case 2: return .number(["0", "-1", "3.25", "1e-9", "98765432109876543210"][next(5)])
            case 3:
                let pieces = ["a", "é", "😀", "\"", "\\", "\n", "\u{1}", " ", "/", "\u{2028}"]
                return .string((0..<next(6)).map { _ in pieces[next(pieces.count)] }.joined())
            case 4, 5: return .array((0..<next(4)).map { _ in tree(depth + 1) })
            default:
                return .object(JSONObject((0..<next(4)).map { _ in JSONObject.Member(["k", "", "ключ", "k"][next(4)], tree(depth + 1)) }))
            }
        }
        for _ in 0..<300 {
            let value = tree(0)
            let text = value.compactText
            let parsed = try JSONValue.parse(text)
            #expect(parsed == value)
            #expect(parsed.compactText == text)
            #expect(try JSONValue.parse(value.prettyText) == value)
        }
    }
}
