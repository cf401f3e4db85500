/// The layout of a frame the fast scanner accepted: its bytes with the scalar values taken out (the
/// constant segments), and what each value was (a string's contents or a number) and which routing
/// field it fed. A gateway sends the same few layouts all day (a chat delta, an agent event, a tick),
/// differing only in their values; a frame of a known layout is checked by comparing each segment
/// with the layout's and scanning only its values.
///
/// Exactly what `FastFrameScanner.scan` accepts and reads, by construction: the frame is the layout's
/// segments, byte for byte, around values of the same kinds, each checked as the scanner checks it
/// (strings by `stringEnd`, routing strings by `keyEnd`, numbers by `numberEnd`). Replacing a scalar
/// by another of its kind changes neither the tree's shape nor its member names, so the depth, the
/// secret-name check, `ok`, the payload's place among the segments and which value is which routing
/// field are the layout's. A layout is kept only when it reads its own frame exactly as the scanner
/// did (`init`), and the fuzzer holds every frame it takes to the scanner's reading.
final class FrameShape {
    /// What follows a segment.
    enum Value: UInt8 {
        /// Nothing: the frame's last segment.
        case end
        /// A string's contents (the segment ends with its opening quote, the next begins with the
        /// closing one) or a number, read for no field.
        case string, number
        /// A routing string (ASCII without escapes, as the scanner reads them) for that field.
        case type, event, id, method, runId, sessionKey, state
        /// A number for `seq` or the payload's `seq`.
        case seq, runSeq
        /// Nothing: the payload's opening brace, or the byte after its closing one, is next.
        case payloadOpen, payloadClose
    }

    struct Segment {
        /// Where the segment ends in `constants` (it starts where the one before ends).
        var end: Int32
        var value: Value
    }

    /// Layouts whose constant bytes are longer than this are not kept.
    static let maxConstantBytes = 4096

    /// A layout's parts, as `cut` finds them.
    struct Parts {
        var constants: [UInt8] = []
        var segments: [Segment] = []
    }

    /// Allocated once and read in place: a frame's scan retains no array.
    private let constants: UnsafeMutableBufferPointer<UInt8>
    private let segments: UnsafeMutableBufferPointer<Segment>
    private let maxDepth: Int
    private let ok: Bool?
    private let hasSecretKey: Bool

    /// The layout of `count` bytes at `p`, which the fast scanner accepted as `f` with `maxDepth`;
    /// nil when it would not read them back exactly so, or its constants are too long to keep.
    init?(_ p: UnsafePointer<UInt8>, count: Int, maxDepth: Int, scanned f: ScannedFrame) {
        var parts = Parts()
        guard Self.cut(p, count, f, into: &parts) else { return nil }
        constants = .allocate(capacity: parts.constants.count)
        _ = constants.initialize(from: parts.constants)
        segments = .allocate(capacity: parts.segments.count)
        _ = segments.initialize(from: parts.segments)
        self.maxDepth = maxDepth
        ok = f.ok
        hasSecretKey = f.hasSecretKey
        var check = ScannedFrame()
        guard scan(p, count: count, maxDepth: maxDepth, into: &check, knownFrom: -1, knownTo: -1), check == f else { return nil }
    }

    deinit {
        constants.deallocate()
        segments.deallocate()
    }

    /// Splits the (valid, compact) frame into segments and values; false when the constants are too long.
    private static func cut(_ p: UnsafePointer<UInt8>, _ count: Int, _ f: ScannedFrame, into shape: inout Parts) -> Bool {
        let payloadOpen = f.payloadRange?.lowerBound ?? -1
        let payloadClose = f.payloadRange?.upperBound ?? -1
        var runFrom = 0         // where the current constant run starts in the frame
        var depth = 0
        var inPayload = false   // the members at depth 2 are the payload's
        var topSeqSeen = false  // the first top-level "seq" is the frame's, whatever its kind
        var runSeqTaken = false // the payload's first numeric "seq" is the run's
        var numberRole = Value.number
        var i = 0
        func close(_ value: Value, before end: Int) -> Bool {
            guard shape.constants.count + (end - runFrom) <= maxConstantBytes else { return false }
            shape.constants.append(contentsOf: UnsafeBufferPointer(start: p + runFrom, count: end - runFrom))
            shape.segments.append(Segment(end: Int32(shape.constants.count), value: value))
            return true
        }
        /// The payload's braces are constant bytes: a segment ends at each, to mark the place.
        func note(_ position: Int) -> Bool {
            guard position == payloadOpen || position == payloadClose else { return true }
            guard close(position == payloadOpen ? .payloadOpen : .payloadClose, before: position) else { return false }
            runFrom = position
            return true
        }
        while i < count {
            let c = p[i]
            if c == UInt8(ascii: "\"") {
                var j = i &+ 1
                while p[j] != UInt8(ascii: "\"") { j &+= p[j] == UInt8(ascii: "\\") ? 2 : 1 }
                if j &+ 1 < count && p[j &+ 1] == UInt8(ascii: ":") {
                    // A member name: constant. Note what a number after it would be.
                    let isSeq = j &- i == 4 && p[i &+ 1] == UInt8(ascii: "s") && p[i &+ 2] == UInt8(ascii: "e") && p[i &+ 3] == UInt8(ascii: "q")
                    numberRole = .number
                    if isSeq && depth == 1 {
                        if !topSeqSeen { numberRole = .seq }
                        topSeqSeen = true
                    } else if isSeq && depth == 2 && inPayload && !runSeqTaken {
                        numberRole = .runSeq
                    }
                    i = j &+ 1
                    continue
                }
                let start = i &+ 1
                let value: Value = start == f.type?.start ? .type : start == f.event?.start ? .event
                    : start == f.id?.start ? .id : start == f.method?.start ? .method
                    : start == f.runId?.start ? .runId : start == f.sessionKey?.start ? .sessionKey
                    : start == f.state?.start ? .state : .string
                guard close(value, before: start) else { return false }
                numberRole = .number
                runFrom = j
                i = j &+ 1
            } else if c == UInt8(ascii: "-") || isDigit(c) {
                guard let end = FastFrameScanner.numberEnd(p, count, from: i) else { return false }
                if numberRole == .runSeq { runSeqTaken = true }
                guard close(numberRole, before: i) else { return false }
                numberRole = .number
                runFrom = end
                i = end
            } else {
                guard note(i) else { return false }
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    numberRole = .number  // a number inside this container is not the member's own value
                    depth &+= 1
                    if i == payloadOpen { inPayload = true }
                } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    if depth == 2 { inPayload = false }
                    depth &-= 1
                }
                i &+= 1
            }
        }
        guard note(count) else { return false }
        return close(.end, before: count)
    }

    /// Scans `count` bytes at `p` into `f` (fresh) when they are laid out as this shape, exactly as
    /// `FastFrameScanner.scan` would (`knownFrom`, `knownTo`: its long-string memo's bytes); false
    /// otherwise (`f` is then garbage).
    func scan(_ p: UnsafePointer<UInt8>, count: Int, maxDepth: Int, into f: inout ScannedFrame,
              knownFrom: Int, knownTo: Int) -> Bool {
        guard maxDepth == self.maxDepth else { return false }
        let (ok, hasSecretKey) = (self.ok, self.hasSecretKey)
        let segments = self.segments
        let c = UnsafePointer(constants.baseAddress!)
        var pos = 0
        var from = 0
        var payloadStart = -1
        var payloadEnd = 0
        for index in 0..<segments.count {
            let segment = segments[index]
            let end = Int(segment.end)
            let length = end &- from
            guard length <= count &- pos, Self.equal(p + pos, c + from, length) else { return false }
            pos &+= length
            from = end
            switch segment.value {
            case .end:
                break
            case .payloadOpen:
                payloadStart = pos
            case .payloadClose:
                payloadEnd = pos
            case .string:
                guard let end = Self.stringEnd(p, count, from: pos, knownFrom: knownFrom, knownTo: knownTo) else { return false }
                pos = end
            case .number:
                guard pos < count, p[pos] == UInt8(ascii: "-") || isDigit(p[pos]),
                      let end = FastFrameScanner.numberEnd(p, count, from: pos) else { return false }
                pos = end
            case .seq, .runSeq:
                guard pos < count, p[pos] == UInt8(ascii: "-") || isDigit(p[pos]) else { return false }
                if segment.value == .seq {
                    guard FastFrameScanner.sequenceNumber(p, count, &pos, into: &f.seq) else { return false }
                } else {
                    guard FastFrameScanner.sequenceNumber(p, count, &pos, into: &f.runSeq) else { return false }
                }
            default:
                guard let end = FastFrameScanner.keyEnd(p, count, from: pos) else { return false }
                let value = ScannedString(start: pos, end: end, escaped: false,
                                          word: FastFrameScanner.routingWord(p + pos, end &- pos, count &- pos))
                switch segment.value {
                case .type: f.type = value
                case .event: f.event = value
                case .id: f.id = value
                case .method: f.method = value
                case .runId: f.runId = value
                case .sessionKey: f.sessionKey = value
                default: f.state = value
                }
                pos = end
            }
        }
        guard pos == count else { return false }
        f.ok = ok
        f.hasSecretKey = hasSecretKey
        if payloadStart >= 0 { f.payloadRange = payloadStart..<payloadEnd }
        return true
    }

    /// The closing quote of the string whose contents start at `from`, as the scanner's `skipValue` finds
    /// it: a short plain string in one 8-byte step, anything else by `stringEnd`.
    @inline(__always)
    private static func stringEnd(_ p: UnsafePointer<UInt8>, _ count: Int, from: Int, knownFrom: Int, knownTo: Int) -> Int? {
        if from &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(p + from).loadUnaligned(as: UInt64.self))
            let special = JSONReader.specialStringBytes(word, quotes: 0x2222_2222_2222_2222)
            let first = from &+ (special.trailingZeroBitCount &>> 3)
            if special != 0 && p[first] == UInt8(ascii: "\"") { return first }
        }
        return FastFrameScanner.stringEnd(p, count, from: from == knownFrom ? knownTo : from)
    }

    /// `length` bytes at `a` and `b` are equal: whole words, then the last word overlapping them.
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        if length >= 8 {
            var k = 0
            while k &+ 8 < length {
                if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) { return false }
                k &+= 8
            }
            let last = length &- 8
            return UnsafeRawPointer(a + last).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(b + last).loadUnaligned(as: UInt64.self)
        }
        var k = 0
        if length & 4 != 0 {
            if UnsafeRawPointer(a).loadUnaligned(as: UInt32.self) != UnsafeRawPointer(b).loadUnaligned(as: UInt32.self) { return false }
            k = 4
        }
        if length & 2 != 0 {
            if UnsafeRawPointer(a + k).loadUnaligned(as: UInt16.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt16.self) { return false }
            k &+= 2
        }
        return length & 1 == 0 || a[k] == b[k]
    }
}

/// The layouts of a connection's latest frames (`FrameShape`). Owned by the one thread that receives
/// the connection's frames; not thread-safe.
@_spi(Engine) public final class FrameShapes {
    static let capacity = 4
    // Used by one thread, never across a call that could reach them again: no runtime exclusivity check.
    @exclusivity(unchecked) private var shapes: [FrameShape] = []
    /// For each layout, the one that took the frame after its last frame: streams alternate (an agent
    /// event, then the chat delta of the same update), so that one is tried first.
    @exclusivity(unchecked) private var successor: [Int] = []
    /// The layout that took the last frame (-1: none did).
    @exclusivity(unchecked) private var last = -1
    /// Where the next layout learnt goes once all are taken (the oldest learnt).
    @exclusivity(unchecked) private var nextSlot = 0
    /// Frames in a row that no layout took: a new one is learnt at the 1st, 2nd, 4th, 8th, … of them,
    /// so a stream of ever-different frames pays for a learning pass only now and then.
    @exclusivity(unchecked) private var misses = 0
    /// Frames a layout took, and layouts learnt (for the tests).
    @exclusivity(unchecked) private(set) var hits = 0
    @exclusivity(unchecked) private(set) var learnt = 0

    @_spi(Engine) public init() {}

    /// `FastFrameScanner.scan`, through a layout when one fits; a frame none fits is scanned and may
    /// teach a new layout.
    func scan(_ base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, into f: inout ScannedFrame,
              knownFrom: Int, knownTo: Int) -> Bool {
        let predicted = last >= 0 ? successor[last] : -1
        if predicted >= 0 {
            if shapes[predicted].scan(base, count: count, maxDepth: maxDepth, into: &f, knownFrom: knownFrom, knownTo: knownTo) {
                return took(predicted)
            }
            f = ScannedFrame()
        }
        for slot in shapes.indices where slot != predicted {
            if shapes[slot].scan(base, count: count, maxDepth: maxDepth, into: &f, knownFrom: knownFrom, knownTo: knownTo) {
                return took(slot)
            }
            f = ScannedFrame()
        }
        guard FastFrameScanner.scan(base, count: count, maxDepth: maxDepth, into: &f, knownFrom: knownFrom, knownTo: knownTo) else {
            last = -1
            return false
        }
        misses &+= 1
        last = -1
        if misses & (misses &- 1) == 0, let shape = FrameShape(base, count: count, maxDepth: maxDepth, scanned: f) {
            let slot = nextSlot
            if slot < shapes.count { shapes[slot] = shape; successor[slot] = -1 } else { shapes.append(shape); successor.append(-1) }
            nextSlot = (slot &+ 1) % Self.capacity
            last = slot
            learnt &+= 1
        }
        return true
    }

    private func took(_ slot: Int) -> Bool {
        if last >= 0 { successor[last] = slot }
        last = slot
        misses = 0
        hits &+= 1
        return true
    }
}
