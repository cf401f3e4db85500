import CClawOpenSSL

/// Steps through DER one TLV header at a time with OpenSSL's ASN1_get_object (no certificate or name is
/// parsed): where a certificate's subject lies, what a name's entries hold. The caller wraps its walk in
/// ERR_set_mark / ERR_pop_to_mark: a malformed input queues errors that are not the caller's news.
struct DERHeaders {
    /// The next header's start (after `read()`: the contents' start); nil once OpenSSL gave up.
    private(set) var cursor: UnsafePointer<UInt8>?
    let end: UnsafePointer<UInt8>
    /// Of the last header read.
    private(set) var tag: Int32 = 0
    private(set) var tagClass: Int32 = 0
    private(set) var length = 0
    private(set) var isConstructed = false
    /// The last header's contents run past `end` (allowed for a container `der` holds only the start of).
    private(set) var overruns = false

    init?(_ der: UnsafeBufferPointer<UInt8>) {
        guard let base = der.baseAddress else { return nil }
        cursor = base
        end = base + der.count
    }

    /// Reads one header; false at the end or when none could be read.
    mutating func read() -> Bool {
        guard let at = cursor, at < end else { return false }
        let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, end - at)
        isConstructed = flags & V_ASN1_CONSTRUCTED != 0
        overruns = flags & 0x80 != 0
        // 0x80 with the cursor not moved: the header itself was malformed.
        return !overruns || cursor != at
    }

    /// Moves past the contents of the header just read.
    mutating func skipContents() {
        cursor = cursor.map { $0 + length }
    }
}
