/// A `SELECT` of a fetch request and, when it reads a range of keys rather than a list of them, the keys of that
/// range the request asked for: the store passes on only the rows of those keys (`keeps(_:)`), in the order the
/// statement yields them (ascending keys).
package struct KeySelect {
    /// The statement to run.
    package let statement: SQLStatement
    /// The keys to keep, ascending, or `nil` to keep every row.
    private let keys: ArraySlice<Int64>?
    /// The position in `keys` of the next key a row may have.
    private var next: Int

    /// A statement whose every row the request asked for.
    package init(_ statement: SQLStatement) {
        self.statement = statement
        keys = nil
        next = 0
    }

    /// A statement of the range of `keys` (ascending), of which only these are kept.
    package init(_ statement: SQLStatement, keeping keys: ArraySlice<Int64>) {
        self.statement = statement
        self.keys = keys
        next = keys.startIndex
    }

    /// Whether a batch of keys is read as a range: they ascend, and the range between the first and the last holds
    /// at most twice as many keys, so that the rows of other keys it reads cost less than looking each key up.
    static func readsRange(of keys: ArraySlice<Int64>) -> Bool {
        guard let first = keys.first, let last = keys.last, keys.count > 1 else { return false }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span >= 0, span < 2 * Int64(keys.count) else { return false }
        var previous = first
        for key in keys.dropFirst() {
            guard key > previous else { return false }
            previous = key
        }
        return true
    }

    /// Whether the row with `key` is one the request asked for; called with the statement's rows' keys in order.
    package mutating func keeps(_ key: Int64) -> Bool {
        guard let keys else { return true }
        while next < keys.endIndex, keys[next] < key { next += 1 }
        guard next < keys.endIndex, keys[next] == key else { return false }
        next += 1
        return true
    }
}
