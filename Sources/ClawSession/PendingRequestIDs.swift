/// The ids of requests sent and not yet finally answered. A short list while there are few (a command
/// has one or two in flight), a set past 16 (a library caller with many): the usual session builds no
/// hash table, whose first `String` one costs a one-shot command 0.1 M instructions of run-time
/// conformance lookup (bench/README.md).
struct PendingRequestIDs {
    private var few: [String] = []
    private var many: Set<String>?
    private static let listLimit = 16

    mutating func insert(_ id: String) {
        if many != nil {
            many!.insert(id)
        } else if few.count < Self.listLimit {
            if !few.contains(id) { few.append(id) }
        } else {
            many = Set(few)
            many!.insert(id)
            few = []
        }
    }

    func contains(_ id: String) -> Bool { many?.contains(id) ?? few.contains(id) }

    mutating func remove(_ id: String) {
        if many != nil {
            many!.remove(id)
        } else if let index = few.firstIndex(of: id) {
            few.swapAt(index, few.count - 1)
            few.removeLast()
        }
    }
}
