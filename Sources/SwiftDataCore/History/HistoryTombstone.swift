import Foundation

/// The values a deleted model preserved: those of its attributes marked `.preserveValueOnDeletion`, read when the
/// save deleted it. Read one with its key path (`tombstone[\.name]`), or iterate over the values, in the order
/// the model declares the attributes.
public struct HistoryTombstone<Model: PersistentModel>: Sequence, Sendable {
    /// A preserved value: `Any`, as in Apple's API (a preserved `nil` is an empty optional).
    public typealias Element = Any

    /// A preserved attribute: its key path and its value (`nil` for a preserved `nil`).
    package typealias Entry = (keyPath: any PartialKeyPath<Model> & Sendable, value: (any Sendable)?)

    private let entries: [Entry]

    package init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The preserved value of the attribute at `keyPath`, or `nil` when it was not preserved (or was `nil`).
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        entries.first { ($0.keyPath as AnyKeyPath) == keyPath }?.value
    }

    /// Iterates over the preserved values.
    public struct Iterator: IteratorProtocol {
        private var base: IndexingIterator<[Entry]>

        init(_ entries: [Entry]) { base = entries.makeIterator() }

        /// The next preserved value, or `nil` after the last.
        public mutating func next() -> Any? {
            guard let entry = base.next() else { return nil }
            return entry.value.map { $0 as Any } ?? Optional<Any>.none as Any
        }
    }

    /// An iterator over the preserved values.
    public func makeIterator() -> Iterator { Iterator(entries) }
}
