import Testing
@_spi(Engine) @testable import ClawJSON

@Suite struct JSONEventScannerTests {
    @Test func readsTheRoutingFieldsOfAnEvent() throws {
        let frame = #"{"type":"event","event":"chat","seq":42,"payload":{"runId":"k1","seq":3,"state":"delta","message":{"content":[{"type":"text","text":"Hello wor"}]}},"stateVersion":{"presence":4}}"#
        let bytes = Array(frame.utf8)
        let header = try JSONEventScanner.scan(bytes)
        #expect(header.type == "event")
        #expect(header.event == "chat")
        #expect(header.seq == 42)
        #expect(header.id == nil && header.ok == nil && header.method == nil)
        let range = try #require(header.payloadRange)
        let payload = try JSONValue.parse(Array(bytes[range]))
        #expect(try payload == JSONValue.parse(bytes)["payload"])
        #expect(payload["state"] == "delta")
    }

    @Test func readsTheRoutingFieldsOfAResponse() throws {
        let header = try JSONEventScanner.scan(Array(#" { "type" : "res" , "id" : "c\u00f3" , "ok" : false , "error" : {"code":"X"} } "#.utf8))
        #expect(header.type == "res")
        #expect(header.id == "có")
        #expect(header.ok == false)
        #expect(header.payloadRange == nil)
        let request = try JSONEventScanner.scan(Array(#"{"type":"req","id":"1","method":"connect","params":{}}"#.utf8))
        #expect(request.method == "connect")
    }

    @Test func firstDuplicateWinsAndOddlyTypedFieldsAreIgnored() throws {
        let header = try JSONEventScanner.scan(Array(#"{"seq":1.5,"type":7,"event":"a","event":"b","seq":9,"ok":null}"#.utf8))
        #expect(header.seq == nil)
        #expect(header.type == nil)
        #expect(header.event == "a")
        #expect(header.ok == nil)
    }

    /// The scanner must accept and reject exactly what the parser does (for objects), at the same offset.
    @Test(arguments: [
        #"{}"#, #"{"a":[1,{"b":[]},"x\n",-0.5e3,true,false,null]}"#, #"{"a":1,}"#, #"{"a":[1,]}"#,
        #"{"a":01}"#, #"{"a":"\ud800"}"#, #"{"a":"x"#, #"{"a":{"b":1}"#, #"{"a" 1}"#, #"{"a":1}x"#,
        #"{"a":[1 2]}"#, #"{"a":{"b" "c"}}"#, #"{"a":{1:2}}"#, #"{"a":NaN}"#, #"{"a":tru}"#, #"{"a":}"#,
        #"{"payload":{"x":[[[[]]]]}}"#, #"{"a":"\x"}"#, #"{"a":"#, #"{"#, "", " ", #"{"seq":-}"#,
    ])
    func agreesWithTheParser(_ text: String) {
        let bytes = Array(text.utf8)
        var parseError: JSONError?
        var scanError: JSONError?
        do { _ = try JSONValue.parse(bytes) } catch { parseError = error }
        do { _ = try JSONEventScanner.scan(bytes) } catch { scanError = error }
        #expect(parseError?.offset == scanError?.offset, "\(text)")
    }

    @Test func agreesWithTheParserOnEveryTruncationAndByteFlip() {
        let frame = Array(#"{"type":"event","event":"agent","seq":7,"payload":{"a":[1,2.5,{"b":"\u00e9\n"}],"c":null}}"#.utf8)
        var cases: [[UInt8]] = (0..<frame.count).map { Array(frame[..<$0]) }
        for k in frame.indices.dropFirst() {  // byte 0 decides "not an object", tested below
            for replacement: UInt8 in [UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "\""), 0x80] {
                var flipped = frame
                flipped[k] = replacement
                cases.append(flipped)
            }
        }
        for bytes in cases {
            var parseOffset: Int?
            var scanOffset: Int?
            do { _ = try JSONValue.parse(bytes) } catch { parseOffset = error.offset }
            do { _ = try JSONEventScanner.scan(bytes) } catch { scanOffset = error.offset }
            #expect(parseOffset == scanOffset, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func rejectsNonObjects() {
        for text in ["[1]", "\"event\"", "null", "1"] {
            #expect(throws: JSONError("frame is not a JSON object", offset: 0)) { try JSONEventScanner.scan(Array(text.utf8)) }
        }
    }

    @Test func depthLimitMatchesTheParserWithoutRecursion() {
        let hostile = Array(("{\"a\":" + String(repeating: "[", count: 100_000)).utf8)
        #expect(throws: JSONError("nesting deeper than 256 levels", offset: 5 + 255)) {
            try JSONEventScanner.scan(hostile)
        }
        let exact = Array(("{\"a\":" + String(repeating: "[", count: 255) + String(repeating: "]", count: 255) + "}").utf8)
        #expect((try? JSONEventScanner.scan(exact)) != nil)
        #expect((try? JSONValue.parse(exact)) != nil)
    }
}

@Suite struct JSONEventScannerPayloadTests {
    @Test func readsThePayloadRoutingFields() throws {
        let frame = #"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":7,"state":"delta","message":{"seq":99,"state":"x"}},"seq":42}"#
        let header = try JSONEventScanner.scan(Array(frame.utf8))
        #expect(header.runId == "r1" && header.sessionKey == "main" && header.state == "delta")
        #expect(header.runSeq == 7)
        #expect(header.seq == 42)
    }

    @Test func escapedKeysAndWrongTypesBehaveLikeTheFullParser() throws {
        let frame = #"{"typ\u0065":"event","event":"agent","payload":{"run\u0049d":"r2","seq":"7","state":3,"sessionKey":null}}"#
        let header = try JSONEventScanner.scan(Array(frame.utf8))
        let value = try JSONValue.parse(frame)
        #expect(header.type == value["type"]?.stringValue)
        #expect(header.runId == value["payload"]?["runId"]?.stringValue)
        #expect(header.runSeq == nil && header.state == nil && header.sessionKey == nil)
    }

    @Test func aNonObjectPayloadHasNoRoutingFields() throws {
        let header = try JSONEventScanner.scan(Array(#"{"type":"event","event":"x","payload":[{"runId":"r"}]}"#.utf8))
        #expect(header.runId == nil && header.payloadRange != nil)
    }

    @Test func malformedPayloadsFailAtTheSameOffsetAsTheParser() {
        for text in [#"{"type":"event","payload":{"runId":"r","seq":01}}"#, #"{"payload":{"a":1,}}"#, #"{"payload":{"runId":"\u12"}}"#] {
            var scanOffset = -1, parseOffset = -2
            do { _ = try JSONEventScanner.scan(Array(text.utf8)) } catch { scanOffset = error.offset }
            do { _ = try JSONValue.parse(text) } catch { parseOffset = error.offset }
            #expect(scanOffset == parseOffset, "\(text)")
        }
    }

    /// The exact scanner alone, without the fast path in front of it.
    static func exactFields(_ bytes: [UInt8]) throws(JSONError) -> ScannedFrame {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> ScannedFrame in
                var reader = JSONReader(base: buffer.baseAddress!, count: buffer.count, maxDepth: 256, json5: false, rejectDuplicateKeys: false)
                return try reader.scanFrame()
            }
        }
        return try result.get()
    }

    static func fastFields(_ bytes: [UInt8], maxDepth: Int = 256) -> ScannedFrame? {
        bytes.withUnsafeBufferPointer { FastFrameScanner.scan($0.baseAddress!, count: $0.count, maxDepth: maxDepth) }
    }

    /// Whatever the fast path returns is what the exact scanner reads, field for field; it declines
    /// (nil) whatever it does not handle, valid or not.
    @Test(arguments: [
        #"{}"#, #"{"type":"event","event":"chat","payload":{"runId":"blast","sessionKey":"main","seq":1,"state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"xx"}],"timestamp":1763873400000},"deltaText":"x"},"seq":2}"#,
        #"{"type":"res","id":"7","ok":true,"payload":{"status":"accepted"}}"#, #"{"type":"res","id":"7","ok":false,"error":{"code":"X"}}"#,
        #"{"type":"req","id":"1","method":"connect","params":{}}"#, #"{"type":"event","event":"tick","payload":null}"#,
        #"{"type":"event","event":"x","payload":[{"runId":"r"}],"payload":{"runId":"s"}}"#,
        #"{"seq":1.5,"type":7,"event":"a","event":"b","seq":9,"ok":null,"ok":true}"#,
        #"{"payload":{"seq":2.5,"seq":3,"runId":1,"runId":"r","state":"final","state":"aborted","sessionKey":"a\u00e9"}}"#,
        #"{"type":"event","event":"agent","payload":{"a":[1,-0.5e3,true,false,null,"\n\u00e9é",[],{}],"b":{"c":{"d":[]}}}}"#,
        #"{"typ\u0065":"event"}"#, #"{"type":"ev\u0065nt"}"#, #"{ "type":"event"}"#, #"{"type":"event"} "#, "{\"a\":\"\u{1F600}\"}",
        #"{"apiKey":"s","payload":{"token":"t"}}"#, #"{"payload":{"x":{"clientSecretValue":1}}}"#, #"{"a":[{"password":"p"}]}"#,
        #"{"a":"\ud83d\ude00"}"#, #"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":01}"#, #"{"a":tru}"#, #"{"a":"x"#, #"{"a""#, #"{"#,
        #"{"type":"event","event":"shutdown","payload":{"state":"status"}}"#, #"{"event":"health","type":"event","sessionKey":"main"}"#,
        #"{"payload":{"sessionKey":"k","seq":-9223372036854775808,"runId":"r"},"seq":9223372036854775808}"#,
    ])
    func theFastPathReadsWhatTheExactScannerReads(_ text: String) {
        let bytes = Array(text.utf8)
        guard let fast = Self.fastFields(bytes) else { return }
        #expect(fast == (try? Self.exactFields(bytes)), "\(text)")
    }

    /// A `seq` of up to seven digits is read in one word: every length, with what may follow it, in
    /// the payload, mid-frame and as the frame's last bytes (read past the frame's end as no digit).
    @Test func aSeqOfAnyLengthReadsAsTheExactScannerReadsIt() throws {
        let numbers = ["1", "9", "10", "42", "999", "1000", "65536", "123456", "9999999", "10000000", "12345678",
                       "123456789012345678", "1234567890123456789", "0", "-1", "-1234567", "1.5", "12e3", "7E-1",
                       "1234567.0", "1234567e1", "00", "1-", "2.", "3e"]
        for number in numbers {
            for frame in [#"{"seq":\#(number)}"#, #"{"seq":\#(number),"type":"event"}"#, #"{"a":1,"seq":\#(number)}"#,
                          #"{"payload":{"seq":\#(number)},"seq":\#(number)}"#, #"{"payload":{"x":"y","seq":\#(number)}}"#] {
                let bytes = Array(frame.utf8)
                let exact = try? Self.exactFields(bytes)
                guard let fast = Self.fastFields(bytes) else {
                    #expect(exact == nil || number.contains(".") || number.contains("e") || number.contains("E") || number.count > 18 || number.hasPrefix("-") || number.hasPrefix("0"),
                            "the fast path declined \(frame)")
                    continue
                }
                #expect(fast == exact, "\(frame)")
                if number.allSatisfy(\.isNumber) && number.count < 19 && !(number.hasPrefix("0") && number.count > 1) {
                    #expect(fast.seq == Int64(number) || fast.runSeq == Int64(number), "\(frame)")
                }
            }
        }
    }

    @Test func theFastPathTakesTheGatewaysFrames() throws {
        for text in [#"{"type":"event","event":"chat","payload":{"runId":"blast","sessionKey":"main","seq":1,"state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"x\"y\\n"}]}},"seq":2}"#,
                     #"{"type":"res","id":"12","ok":true,"payload":{"messages":[]}}"#] {
            let fast = try #require(Self.fastFields(Array(text.utf8)))
            #expect(fast == (try Self.exactFields(Array(text.utf8))))
        }
        // Every routing word is recognised on the fast path as on the exact one.
        for word in (0...14).compactMap({ RoutingWord(rawValue: UInt8($0))?.text }) {
            for text in [#"{"type":"event","event":"\#(word)","payload":{"state":"\#(word)"}}"#, #"{"event":"\#(word)"}"#] {
                let bytes = Array(text.utf8)
                let fast = try #require(Self.fastFields(bytes))
                #expect(fast == (try Self.exactFields(bytes)))
                #expect(fast.event?.word.text == word)
            }
        }
    }

    /// The common member names the fast path exempts from the secret check are not secret names, are
    /// recognised only exactly, and a secret name beside them is still found.
    @Test func commonNamesSkipTheSecretCheckOnlyWhenExact() throws {
        for name in FastFrameScanner.commonPlainNames {
            #expect(!SecretKeyName.matches(name), "\(name)")
            let plain = Array(#"{"payload":{"x":{"\#(name)":"v"}}}"#.utf8)
            #expect(try #require(Self.fastFields(plain)).hasSecretKey == false)
            for secretName in [name + "Token", name.dropLast() + "secret", name + "_password"] {
                let bytes = Array(#"{"payload":{"x":{"\#(name)":1,"\#(secretName)":"v"}}}"#.utf8)
                let fast = try #require(Self.fastFields(bytes))
                #expect(fast.hasSecretKey, "\(secretName)")
                #expect(fast == (try Self.exactFields(bytes)))
            }
        }
        // The word compares accept exactly the listed names (the list is what the test above vets):
        // each one, and none of its near misses (a byte changed, one short, one long, upper case).
        func accepted(_ name: String) -> Bool {
            let bytes = Array(name.utf8) + Array(repeating: UInt8(ascii: "\""), count: 8)  // 8 readable bytes
            return bytes.withUnsafeBufferPointer { FastFrameScanner.isCommonPlainName($0.baseAddress!, name.utf8.count) }
        }
        for name in FastFrameScanner.commonPlainNames {
            #expect(accepted(name), "\(name)")
            for miss in [String(name.dropLast()) + "x", String(name.dropLast()), name + "s", name.uppercased(),
                         "x" + name.dropFirst()] {
                #expect(!accepted(miss), "\(miss)")
            }
        }
        let plain = FastFrameScanner.commonPlainNames.map { #""\#($0)":0"# }.joined(separator: ",")
        #expect(try #require(Self.fastFields(Array("{\(plain)}".utf8))).hasSecretKey == false)
    }

    @Test func theFastPathLeavesDepthLimitsToTheExactScanner() {
        let deep = Array(("{\"a\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}").utf8)
        #expect(Self.fastFields(deep) == nil)
        #expect((try? Self.exactFields(deep)) != nil)
        let shallow = Array(#"{"a":[[1]]}"#.utf8)
        #expect(Self.fastFields(shallow, maxDepth: 2) == nil)
        #expect(throws: JSONError.self) { try JSONEventScanner.scan(shallow, maxDepth: 2) }
    }
}
