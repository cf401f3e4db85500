import Testing
@_spi(Engine) @testable import ClawJSON

private func json5Error(_ text: String) -> JSONError? {
    do {
        _ = try JSON5.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSON5Tests {
    /// Each JSON5 feature on its own, with the value it must produce.
    static let features: [(String, JSONValue)] = [
        ("// line comment\n1", 1),
        ("1 // trailing comment", 1),
        ("/* block\n comment */ [ /* inside */ 1 ]", [1]),
        ("/**/1/***/", 1),
        ("[1, 2,]", [1, 2]),
        ("{\"a\": 1,}", ["a": 1]),
        ("[[],{},]", [[], [:]]),
        ("{a: 1, $b_2: 2, _: 3, ключ: 4}", ["a": 1, "$b_2": 2, "_": 3, "ключ": 4]),
        ("{true: 1, null: 2, Infinity: 3}", ["true": 1, "null": 2, "Infinity": 3]),
        ("{'single': 'quoted'}", ["single": "quoted"]),
        ("'it\\'s \"fine\"'", "it's \"fine\""),
        ("\"it's\"", "it's"),
        ("0x1F", .number("31")),
        ("0XfF", .number("255")),
        ("-0x10", .number("-16")),
        ("+0x0", .number("0")),
        ("0xFFFFFFFFFFFFFFFFFFFF", .number("1208925819614629174706175")),
        ("+1", .number("1")),
        ("+1.5e3", .number("1.5e3")),
        (".5", .number("0.5")),
        ("-.5", .number("-0.5")),
        ("5.", .number("5")),
        ("5.e2", .number("5e2")),
        (".5E-2", .number("0.5E-2")),
        ("1.0", .number("1.0")),
        ("-0", .number("-0")),
        ("12345678901234567890", .number("12345678901234567890")),
        ("'line \\\ncontinued'", "line continued"),
        ("'crlf \\\r\ncontinued'", "crlf continued"),
        ("'sep \\\u{2028}continued'", "sep continued"),
        ("'\\v\\0\\x41\\xe9'", "\u{B}\u{0}Aé"),
        ("'\\a\\q\\ \\é'", "aq é"),
        ("'\\u00e9\\ud83d\\ude00\\n\\t\\/'", "é😀\n\t/"),
        ("'raw\ttab'", "raw\ttab"),
        ("'raw \u{2028} separator'", "raw \u{2028} separator"),
        ("\u{FEFF}\u{A0}\u{B}\u{C}\u{2028}\u{2029}\u{3000} 1 \u{2003}", 1),
        ("{\n  a: 1, // one\n  b: [/* none */],\n}", ["a": 1, "b": []]),
        ("{a:1,a:2}", .object(JSONObject([.init("a", 1), .init("a", 2)]))),
        ("true", true),
        ("null", nil),
    ]

    @Test(arguments: features)
    func readsEachFeature(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSON5.parse(text) == expected)
    }

    /// Everything strict JSON accepts reads the same through JSON5.
    @Test func strictJSONReadsTheSame() throws {
        for text in ["{\"a\":[1,-0.5e10,true,null,\"\\u00e9\\n\"],\"b\":{}}", "\"😀\"", "[]", "0"] {
            #expect(try JSON5.parse(text) == JSONValue.parse(text))
        }
    }

    static let invalid: [(String, Int)] = [
        ("", 0),
        ("// only a comment", 17),
        ("/* unterminated", 0),
        ("1 /* unterminated", 2),
        ("Infinity", 0),
        ("-Infinity", 0),
        ("+NaN", 0),
        ("[1, NaN]", 4),
        ("[1,,]", 3),
        ("[,]", 1),
        ("{,}", 1),
        ("01", 1),
        ("0x", 2),
        ("0xG", 2),
        (".", 1),
        ("+", 1),
        ("-.e1", 2),
        ("1e", 2),
        ("'abc", 0),
        ("'a\nb'", 2),
        ("'\\1'", 1),
        ("'\\01'", 1),
        ("'\\xG0'", 3),
        ("{1a: 1}", 1),
        ("{a b: 1}", 3),
        ("{\\u0061: 1}", 1),
        ("{a: 1", 5),
        ("[1] 2", 4),
        ("undefined", 0),
        ("'\\ud800'", 1),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidTextAtTheRightOffset(_ text: String, _ offset: Int) {
        let error = json5Error(text)
        #expect(error?.offset == offset, "\(text.debugDescription): \(String(describing: error))")
    }

    @Test func infinityAndNaNAreRejectedWithAClearMessage() {
        let error = json5Error("{ timeout: Infinity }")
        #expect(error?.offset == 11)
        #expect(error?.message.contains("Infinity and NaN are not allowed") == true)
    }

    @Test func errorsCarryLineAndColumn() {
        let error = json5Error("{\n  a: 1,\n  b: 'x',\n  é: ?\n}")
        #expect(error?.offset == 26)
        #expect(error?.line == 4 && error?.column == 6, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("(line 4, column 6) at byte 26") == true)
        // The message says what, once; the position is beside it, not in it.
        #expect(error?.message.contains("line") == false, "\(String(describing: error))")
        #expect(json5Error("\r\n\r\n x").map { [$0.line, $0.column] } == [3, 2])
        #expect(json5Error("\r\r?").map { [$0.line, $0.column] } == [3, 1])
    }

    @Test func depthLimitHoldsForHostileInput() {
        let hostile = String(repeating: "{a:[", count: 50_000)
        #expect(json5Error(hostile)?.offset == 128 * 4)
        #expect(throws: JSONError.self) { try JSON5.parse("[[1]]", maxDepth: 1) }
    }

    @Test func duplicateKeysCanBeRejected() {
        #expect(throws: JSONError.self) { try JSON5.parse("{a: 1, 'a': 2}", rejectDuplicateKeys: true) }
        #expect((try? JSON5.parse("{a: 1, b: {a: 2}}", rejectDuplicateKeys: true)) != nil)
    }

    @Test func readsARealisticOpenclawJSON() throws {
        let text = """
            { // comment
             gateway: { mode: 'remote', port: 18789, auth: { token: '${OPENCLAW_GATEWAY_TOKEN}', }, \
            remote: { url: "wss://x:443", }, }, }
            """
        let config = try JSON5.parse(text)
        #expect(config["gateway"]?["mode"] == "remote")
        #expect(config["gateway"]?["port"]?.intValue == 18789)
        #expect(config["gateway"]?["auth"]?["token"] == "${OPENCLAW_GATEWAY_TOKEN}")
        #expect(config["gateway"]?["remote"]?["url"] == "wss://x:443")
        #expect(config["gateway"]?.objectValue?.keys == ["mode", "port", "auth", "remote"])
        #expect(config.compactText == """
            {"gateway":{"mode":"remote","port":18789,"auth":{"token":"${OPENCLAW_GATEWAY_TOKEN}"},\
            "remote":{"url":"wss://x:443"}}}
            """)
    }

    @Test func normalisedNumbersAreValidJSON() throws {
        for text in ["0x1F", "+.5", "5.", "-5.e-3", "+0", "0xABCDEF0123456789ABCDEF"] {
            let value = try JSON5.parse(text)
            #expect(try JSONValue.parse(value.compactText) == value, "\(text)")
        }
    }
}
