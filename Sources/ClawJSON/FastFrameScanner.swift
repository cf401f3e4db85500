@_spi(Engine) import ClawSystem

/// The scanner's fast path: one loop with its position in a register, for the frames a gateway sends
/// (compact JSON, ASCII member names, routing strings without escapes, nesting under 63 levels). It
/// returns nil for anything else, valid or not, and `JSONReader.scanFrame` then decides, so what it
/// accepts and the fields it reads are exactly the slow path's: a frame it returns would read the same
/// there, byte for byte, including `hasSecretKey` (every member name goes through `SecretKeyName.matches`
/// except the routing names, none of which is a secret's).
enum FastFrameScanner {
    static func scan(_ base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) -> ScannedFrame? {
        var f = ScannedFrame()
        return scan(base, count: count, maxDepth: maxDepth, into: &f) ? f : nil
    }

    /// Scans into `f` (fresh); false: not taken (`f` is then garbage). The frame's own members carry the
    /// routing fields and the payload object's members the run's; below those only validation and the
    /// secret-name check remain, in `skipValue`'s loop.
    ///
    /// `knownFrom..<knownTo`: the first bytes of the string whose contents start at `knownFrom`, checked
    /// before (`LongStringMemo`), which end between two characters or escapes; they are not read again.
    static func scan(_ base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, into f: inout ScannedFrame,
                     knownFrom: Int = -1, knownTo: Int = -1) -> Bool {
        guard count >= 2, base[0] == UInt8(ascii: "{"), maxDepth >= 2 else { return false }
        var i = 1
        var secret = false
        if base[1] == UInt8(ascii: "}") {
            i = 2
        } else {
            var seen: UInt8 = 0  // routing names already met: the first of duplicates wins
            while true {
                guard let (start, length) = key(base, count, &i), i < count else { return false }
                var name = routingName(base + start, length, count &- start)
                if name > 7 { name = 0 }  // the run's names are routed in the payload only
                if name == 0 {
                    if !secret { secret = isSecretKey(base + start, length, count &- start) }
                } else {
                    let bit: UInt8 = 1 &<< UInt8(name &- 1)
                    if seen & bit != 0 { name = 0 }
                    seen |= bit
                }
                let c = base[i]
                let valueStart = i
                switch name {
                case 1...4 where c == UInt8(ascii: "\""):  // one pattern: a `where` binds only the last of a list
                    guard let value = routingString(base, count, &i) else { return false }
                    switch name {
                    case 1: f.type = value
                    case 2: f.event = value
                    case 3: f.id = value
                    default: f.method = value
                    }
                case 5 where c == UInt8(ascii: "-") || isDigit(c):
                    guard sequenceNumber(base, count, &i, into: &f.seq) else { return false }
                case 6 where c == UInt8(ascii: "t") || c == UInt8(ascii: "f"):
                    guard skipValue(base, count, &i, depth: 1, maxDepth: maxDepth, secret: &secret, knownFrom, knownTo) else { return false }
                    f.ok = c == UInt8(ascii: "t")
                case 7 where c == UInt8(ascii: "{"):
                    guard scanPayload(base, count, &i, maxDepth: maxDepth, into: &f, secret: &secret, knownFrom, knownTo) else { return false }
                default:
                    guard skipValue(base, count, &i, depth: 1, maxDepth: maxDepth, secret: &secret, knownFrom, knownTo) else { return false }
                }
                if name == 7 { f.payloadRange = valueStart..<i }
                guard i < count else { return false }
                if base[i] == UInt8(ascii: ",") { i &+= 1; continue }
                guard base[i] == UInt8(ascii: "}") else { return false }
                i &+= 1
                break
            }
        }
        guard i == count else { return false }
        f.hasSecretKey = secret
        return true
    }

    /// The payload object at `i` (its `{`): `runId`, `sessionKey` and `state` when strings, `seq` when a
    /// number, each the first such member (as `JSONReader.scanPayload` reads them).
    @inline(__always)
    private static func scanPayload(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int, maxDepth: Int,
                                    into f: inout ScannedFrame, secret: inout Bool, _ knownFrom: Int, _ knownTo: Int) -> Bool {
        i &+= 1
        guard i < count else { return false }
        if base[i] == UInt8(ascii: "}") { i &+= 1; return true }
        while true {
            guard let (start, length) = key(base, count, &i), i < count else { return false }
            let name = routingName(base + start, length, count &- start)
            let c = base[i]
            switch name {
            case 8 where f.runId == nil && c == UInt8(ascii: "\""):
                guard let value = routingString(base, count, &i) else { return false }
                f.runId = value
            case 9 where f.sessionKey == nil && c == UInt8(ascii: "\""):
                guard let value = routingString(base, count, &i) else { return false }
                f.sessionKey = value
            case 10 where f.state == nil && c == UInt8(ascii: "\""):
                guard let value = routingString(base, count, &i) else { return false }
                f.state = value
            case 5 where f.runSeq == nil && (c == UInt8(ascii: "-") || isDigit(c)):
                guard sequenceNumber(base, count, &i, into: &f.runSeq) else { return false }
            default:
                if name == 0 && !secret { secret = isSecretKey(base + start, length, count &- start) }
                guard skipValue(base, count, &i, depth: 2, maxDepth: maxDepth, secret: &secret, knownFrom, knownTo) else { return false }
            }
            guard i < count else { return false }
            if base[i] == UInt8(ascii: ",") { i &+= 1; continue }
            guard base[i] == UInt8(ascii: "}") else { return false }
            i &+= 1
            return true
        }
    }

    /// `"name":` at `i` (ASCII without escapes): where the name starts and its length; `i` ends after
    /// the colon.
    @inline(__always)
    private static func key(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> (Int, Int)? {
        guard i < count, base[i] == UInt8(ascii: "\"") else { return nil }
        let start = i &+ 1
        guard let end = keyEnd(base, count, from: start) else { return nil }
        i = end &+ 1
        guard i < count, base[i] == UInt8(ascii: ":") else { return nil }
        i &+= 1
        return (start, end &- start)
    }

    /// A routing string at `i` (its opening quote): ASCII without escapes, else nil.
    @inline(__always)
    private static func routingString(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> ScannedString? {
        let start = i &+ 1
        guard let end = keyEnd(base, count, from: start) else { return nil }
        i = end &+ 1
        return ScannedString(start: start, end: end, escaped: false, word: routingWord(base + start, end &- start, count &- start))
    }

    /// A `seq` value at `i` (a digit or "-"): moves `i` past the number `numberEnd` accepts there and
    /// sets `value` to what `JSONReader.int64` reads from it. The usual seq, up to 18 digits without
    /// a sign, a leading zero, a fraction or an exponent, is read in the one pass that finds its end.
    @inline(__always)
    static func sequenceNumber(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int,
                                       into value: inout Int64?) -> Bool {
        let start = i
        // Up to seven digits (every seq of a day's stream) in one word: find where they end, then
        // combine them in three multiplications.
        if base[start] != UInt8(ascii: "0"), let word = eightBytes(base, count, at: start) {
            let x = word ^ 0x3030_3030_3030_3030
            let notDigits = nonDigitLanes(x)
            let digits = notDigits.trailingZeroBitCount &>> 3  // 8 when all are: the loop below takes those
            let next = UInt8(truncatingIfNeeded: word >> (UInt64(digits & 7) &* 8))
            if digits > 0 && digits < 8 && next != UInt8(ascii: ".") && next | 0x20 != UInt8(ascii: "e") {
                value = Int64(eightDigits(x &<< (UInt64(8 &- digits) &* 8)))
                i = start &+ digits
                return true
            }
        }
        if base[start] != UInt8(ascii: "0") {
            var j = start
            var result: Int64 = 0
            while j < count && j &- start < 18 {
                let digit = base[j] &- UInt8(ascii: "0")
                if digit >= 10 { break }
                result = result &* 10 &+ Int64(digit)
                j &+= 1
            }
            // Ended by anything but a 19th digit, a fraction or an exponent: numberEnd ends here too.
            if j > start && (j == count || (!isDigit(base[j]) && base[j] != UInt8(ascii: ".")
                                            && base[j] | 0x20 != UInt8(ascii: "e"))) {
                value = result
                i = j
                return true
            }
        }
        guard let end = numberEnd(base, count, from: start) else { return false }
        value = JSONReader.int64(UnsafeBufferPointer(start: base + start, count: end &- start))
        i = end
        return true
    }

    /// The eight bytes at `j` (`j < count`), little-endian; past `count` they read as 0xFF (no digit,
    /// no ASCII), so a number that ends the frame is read in the same step. Nil for a frame under 8 bytes.
    @inline(__always)
    static func eightBytes(_ base: UnsafePointer<UInt8>, _ count: Int, at j: Int) -> UInt64? {
        if j &+ 8 <= count { return UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)) }
        guard count >= 8 else { return nil }
        let shift = UInt64(j &- (count &- 8)) &* 8  // 8 to 56: j is within the last word
        let word = UInt64(littleEndian: UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self))
        return word &>> shift | ~(UInt64.max &>> shift)
    }

    /// The top bit of each byte of `x` (bytes XOR "0") that was no digit: a digit's lane is below 10,
    /// and adding 0x76 to the low seven bits sets the top bit of any other lane without a carry into
    /// the next.
    @inline(__always)
    static func nonDigitLanes(_ x: UInt64) -> UInt64 {
        (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
    }

    /// The value of eight decimal digits, one per byte (0 to 9, the first in the lowest byte).
    @inline(__always)
    static func eightDigits(_ digits: UInt64) -> UInt64 {
        let pairs = digits &* 10 &+ (digits &>> 8)
        let low: UInt64 = 0x0000_00FF_0000_00FF
        return ((pairs & low) &* 0x000F_4240_0000_0064 &+ ((pairs &>> 16) & low) &* 0x0000_2710_0000_0001) &>> 32
    }

    /// Validates the value at `i` (`i < count`), inside `depth` open containers, moving `i` past it;
    /// containers are walked in one loop with a bit per open level (object or array), noting secret names.
    @inline(__always)
    private static func skipValue(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int, depth: Int,
                                  maxDepth: Int, secret: inout Bool, _ knownFrom: Int, _ knownTo: Int) -> Bool {
        var j = i
        defer { i = j }
        var objects: UInt64 = 0  // bit k: the container opened k levels below the top of this walk is an object
        var level = 0            // containers open in this walk
        var inObject = false
        while true {
            // A value at j.
            guard j < count else { return false }
            let c = base[j]
            switch c {
            case UInt8(ascii: "\""):
                // A short plain string ends in its first eight bytes: found here without the call.
                let from = j &+ 1
                if from &+ 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + from).loadUnaligned(as: UInt64.self))
                    let special = JSONReader.specialStringBytes(word, quotes: 0x2222_2222_2222_2222)
                    let first = from &+ (special.trailingZeroBitCount &>> 3)
                    if special != 0 && base[first] == UInt8(ascii: "\"") {
                        j = first &+ 1
                        break
                    }
                }
                guard let end = stringEnd(base, count, from: from == knownFrom ? knownTo : from) else { return false }
                j = end &+ 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let end = numberEnd(base, count, from: j) else { return false }
                j = end
            case UInt8(ascii: "t"):
                guard j &+ 4 <= count, UnsafeRawPointer(base + j).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6575_7274) else { return false }
                j &+= 4
            case UInt8(ascii: "f"):
                guard j &+ 5 <= count, UnsafeRawPointer(base + (j &+ 1)).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6573_6c61) else { return false }
                j &+= 5
            case UInt8(ascii: "n"):
                guard j &+ 4 <= count, UnsafeRawPointer(base + j).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6c6c_756e) else { return false }
                j &+= 4
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth &+ level < maxDepth, depth &+ level < 63, j &+ 1 < count else { return false }
                inObject = c == UInt8(ascii: "{")
                objects = objects &<< 1 | (inObject ? 1 : 0)
                level &+= 1
                j &+= 1
                if base[j] != (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if inObject {
                        guard let (start, length) = key(base, count, &j) else { return false }
                        if !secret { secret = isSecretKey(base + start, length, count &- start) }
                    }
                    continue
                }
                // Empty: j is at its closing bracket, closed below like any other.
            default:
                return false
            }
            // After a value: a comma and the next member or element, or the ends of containers.
            while true {
                if level == 0 { return true }
                guard j < count else { return false }
                let next = base[j]
                if next == UInt8(ascii: ",") {
                    j &+= 1
                    if inObject {
                        guard let (start, length) = key(base, count, &j) else { return false }
                        if !secret { secret = isSecretKey(base + start, length, count &- start) }
                    }
                    break
                }
                guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                j &+= 1
                level &-= 1
                objects &>>= 1
                inObject = objects & 1 != 0
            }
        }
    }

    /// The routing name `length` bytes at `p` spell (`available` bytes are readable there): 1 type,
    /// 2 event, 3 id, 4 method, 5 seq, 6 ok, 7 payload, 8 runId, 9 sessionKey, 10 state; 0 none.
    @inline(__always)
    private static func routingName(_ p: UnsafePointer<UInt8>, _ length: Int, _ available: Int) -> Int {
        guard length >= 2 && length <= 10 && available >= 8 else {
            return length >= 2 && length <= 10 ? slowRoutingName(p, length) : 0
        }
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        let masked = length >= 8 ? word : word & ((1 &<< UInt64(length &* 8)) &- 1)
        switch length {
        case 2: return masked == 0x6469 ? 3 : masked == 0x6b6f ? 6 : 0
        case 3: return masked == 0x71_6573 ? 5 : 0
        case 4: return masked == 0x6570_7974 ? 1 : 0
        case 5: return masked == 0x74_6e65_7665 ? 2 : masked == 0x64_496e_7572 ? 8 : masked == 0x65_7461_7473 ? 10 : 0
        case 6: return masked == 0x646f_6874_656d ? 4 : 0
        case 7: return masked == 0x64_616f_6c79_6170 ? 7 : 0
        case 10:
            return masked == 0x4b6e_6f69_7373_6573 && p[8] == UInt8(ascii: "e") && p[9] == UInt8(ascii: "y") ? 9 : 0
        default: return 0
        }
    }

    /// `SecretKeyName.matches` for the member name of `length` bytes at `p` (`available` bytes readable
    /// there), without the call for names shorter than "token", the shortest secret name, or for the
    /// common names of the gateway's events.
    @inline(__always)
    private static func isSecretKey(_ p: UnsafePointer<UInt8>, _ length: Int, _ available: Int) -> Bool {
        guard length >= 5 else { return false }
        if available >= 8 && isCommonPlainName(p, length) { return false }
        return SecretKeyName.matches(UnsafeBufferPointer(start: p, count: length))
    }

    /// Member names every chat and agent event carries (`message`, `content`, `timestamp`, …), none of
    /// them a secret's (a test holds `SecretKeyName.matches` to that): recognised on one 8-byte compare,
    /// so they skip its byte loop. Exact, so a name that only begins like one (`messageToken`) is still
    /// checked. At least 8 bytes must be readable at `p`.
    @inline(__always)
    static func isCommonPlainName(_ p: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        switch length {
        case 5:
            let name = word & 0xFF_FFFF_FFFF
            return name == 0x65_6761_7375 || name == 0x65_7361_6870  // usage, phase
        case 6:
            let name = word & 0xFFFF_FFFF_FFFF
            return name == 0x6d61_6572_7473 || name == 0x746c_7573_6572  // stream, result
        case 7:
            let name = word & 0xFF_FFFF_FFFF_FFFF
            return name == 0x65_6761_7373_656d || name == 0x74_6e65_746e_6f63  // message, content
        case 8:
            return word == 0x676e_696b_6e69_6874  // thinking
        case 9:
            return (word == 0x6d61_7473_656d_6974 && p[8] == UInt8(ascii: "p"))  // timestamp
                || (word == 0x7865_5461_746c_6564 && p[8] == UInt8(ascii: "t"))  // deltaText
        case 10:
            return word == 0x7361_6552_706f_7473 && p[8] == UInt8(ascii: "o") && p[9] == UInt8(ascii: "n")  // stopReason
        default:
            return false
        }
    }

    /// Exactly the names `isCommonPlainName` accepts: tests hold the two together and vet each name.
    static let commonPlainNames = ["usage", "phase", "stream", "result", "message", "content", "thinking",
                                   "timestamp", "deltaText", "stopReason"]

    /// `JSONReader.knownWord` on one 8-byte load when that many bytes are readable at `p`.
    @inline(__always)
    static func routingWord(_ p: UnsafePointer<UInt8>, _ length: Int, _ available: Int) -> RoutingWord {
        guard length >= 3 && length <= 8 else { return .other }
        guard available >= 8 else { return JSONReader.knownWord(UnsafeBufferPointer(start: p, count: length)) }
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        let masked = length == 8 ? word : word & ((1 &<< UInt64(length &* 8)) &- 1)
        switch length {
        case 3: return masked == 0x73_6572 ? .res : masked == 0x71_6572 ? .req : .other
        case 4: return masked == 0x7461_6863 ? .chat : masked == 0x6e69_616d ? .main : masked == 0x6b63_6974 ? .tick : .other
        case 5:
            switch masked {
            case 0x74_6e65_7665: return .event
            case 0x61_746c_6564: return .delta
            case 0x6c_616e_6966: return .final
            case 0x74_6e65_6761: return .agent
            case 0x72_6f72_7265: return .error
            default: return .other
            }
        case 6: return masked == 0x6874_6c61_6568 ? .health : masked == 0x7375_7461_7473 ? .status : .other
        case 7: return masked == 0x64_6574_726f_6261 ? .aborted : .other
        default: return masked == 0x6e77_6f64_7475_6873 ? .shutdown : .other
        }
    }

    private static func slowRoutingName(_ p: UnsafePointer<UInt8>, _ length: Int) -> Int {
        switch JSONReader.routingKey(UnsafeBufferPointer(start: p, count: length)) {
        case .type: return 1
        case .event: return 2
        case .id: return 3
        case .method: return 4
        case .seq: return 5
        case .ok: return 6
        case .payload: return 7
        case .runId: return 8
        case .sessionKey: return 9
        case .state: return 10
        case .other: return 0
        }
    }

    /// The closing quote of a string starting at `from` that holds only ASCII without escapes or
    /// control characters; nil otherwise.
    @inline(__always)
    static func keyEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from: Int) -> Int? {
        var j = from
        let quotes: UInt64 = 0x2222_2222_2222_2222
        while j &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
            let special = JSONReader.specialStringBytes(word, quotes: quotes)
            if special == 0 { j &+= 8; continue }
            j &+= special.trailingZeroBitCount &>> 3
            return base[j] == UInt8(ascii: "\"") ? j : nil
        }
        while j < count {
            let b = base[j]
            if b == UInt8(ascii: "\"") { return j }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return nil }
            j &+= 1
        }
        return nil
    }

    /// The closing quote of a valid string starting at `from` (simple escapes, `\u` outside the
    /// surrogates, UTF-8 checked); nil for anything else.
    @inline(__always)
    static func stringEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from: Int) -> Int? {
        var j = from
        let quotes: UInt64 = 0x2222_2222_2222_2222
        while true {
            while j &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                let special = JSONReader.specialStringBytes(word, quotes: quotes)
                if special == 0 { j &+= 8; continue }
                j &+= special.trailingZeroBitCount &>> 3
                break
            }
            guard j < count else { return nil }
            let b = base[j]
            if b == UInt8(ascii: "\"") { return j }
            if b == UInt8(ascii: "\\") {
                guard let next = escapeEnd(base, count, at: j) else { return nil }
                j = next
            } else if b >= 0x80 {
                guard let next = utf8End(base, count, at: j) else { return nil }
                j = next
            } else if b < 0x20 {
                return nil
            } else {
                j &+= 1
            }
        }
    }

    private static func escapeEnd(_ base: UnsafePointer<UInt8>, _ count: Int, at j: Int) -> Int? {
        guard j &+ 1 < count else { return nil }
        switch base[j &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return j &+ 2
        case UInt8(ascii: "u"):
            guard j &+ 6 <= count else { return nil }
            var scalar: UInt32 = 0
            for k in (j &+ 2)..<(j &+ 6) {
                guard let digit = hexValue(base[k]) else { return nil }
                scalar = scalar << 4 | UInt32(digit)
            }
            return scalar >= 0xD800 && scalar <= 0xDFFF ? nil : j &+ 6  // surrogates: the slow path pairs them
        default:
            return nil
        }
    }

    /// The end of the valid UTF-8 sequence whose lead byte is at `j` (RFC 3629), or nil.
    private static func utf8End(_ base: UnsafePointer<UInt8>, _ count: Int, at j: Int) -> Int? {
        guard let sequence = UTF8Sequence.starting(with: base[j]) else { return nil }
        let length = sequence.length
        guard j + length <= count else { return nil }
        let second = base[j &+ 1]
        guard second >= sequence.low && second <= sequence.high else { return nil }
        for k in 2..<length where base[j + k] & 0xC0 != 0x80 { return nil }
        return j + length
    }

    /// The end of the strict JSON number at `from`, or nil.
    @inline(__always)
    static func numberEnd(_ base: UnsafePointer<UInt8>, _ count: Int, from: Int) -> Int? {
        var j = from
        if base[j] == UInt8(ascii: "-") { j &+= 1 }
        guard j < count, isDigit(base[j]) else { return nil }
        if base[j] == UInt8(ascii: "0") {
            j &+= 1
            if j < count && isDigit(base[j]) { return nil }
        } else {
            // Eight digits per step (a timestamp has 13).
            while j &+ 8 <= count {
                let notDigits = nonDigitLanes(UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)) ^ 0x3030_3030_3030_3030)
                if notDigits == 0 { j &+= 8; continue }
                j &+= notDigits.trailingZeroBitCount &>> 3
                break
            }
            while j < count && isDigit(base[j]) { j &+= 1 }
        }
        if j < count && base[j] == UInt8(ascii: ".") {
            j &+= 1
            guard j < count, isDigit(base[j]) else { return nil }
            while j < count && isDigit(base[j]) { j &+= 1 }
        }
        if j < count && (base[j] == UInt8(ascii: "e") || base[j] == UInt8(ascii: "E")) {
            j &+= 1
            if j < count && (base[j] == UInt8(ascii: "+") || base[j] == UInt8(ascii: "-")) { j &+= 1 }
            guard j < count, isDigit(base[j]) else { return nil }
            while j < count && isDigit(base[j]) { j &+= 1 }
        }
        return j
    }
}
