/// The results of a batched fetch: the identities come first, the models a batch at a time as the collection
/// is read. Only the batch being read is kept: when the reader moves on, the models of the batch it leaves that
/// nothing else holds and that have no unsaved changes leave the context, so memory stays bounded as with
/// `enumerate` (reading a batch again loads it again).
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private let storage: Storage

    final class Storage {
        let count: Int
        let batchSize: Int
        let loadBatch: (Range<Int>) -> [Element]
        /// Called with the positions of a batch the collection no longer holds.
        let releaseBatch: (Range<Int>) -> Void
        var batchStart = -1
        var batch: [Element] = []

        init(
            count: Int, batchSize: Int, loadBatch: @escaping (Range<Int>) -> [Element],
            releaseBatch: @escaping (Range<Int>) -> Void
        ) {
            self.count = count
            self.batchSize = Swift.max(1, batchSize)
            self.loadBatch = loadBatch
            self.releaseBatch = releaseBatch
        }

        func element(at position: Int) -> Element {
            let start = position - position % batchSize
            if start != batchStart {
                releaseCurrentBatch()
                batch = loadBatch(start..<Swift.min(start + batchSize, count))
                batchStart = start
            }
            return batch[position - start]
        }

        private func releaseCurrentBatch() {
            guard batchStart >= 0 else { return }
            let range = batchStart..<Swift.min(batchStart + batchSize, count)
            batch = []
            batchStart = -1
            releaseBatch(range)
        }

        deinit { releaseCurrentBatch() }
    }

    /// `loadBatch` must return one element for each position of the range it is given.
    init(
        count: Int, batchSize: Int, loadBatch: @escaping (Range<Int>) -> [Element],
        releaseBatch: @escaping (Range<Int>) -> Void = { _ in }
    ) {
        storage = Storage(count: count, batchSize: batchSize, loadBatch: loadBatch, releaseBatch: releaseBatch)
    }

    /// A collection of models already loaded.
    package init(_ elements: [Element]) {
        storage = Storage(
            count: elements.count, batchSize: elements.count, loadBatch: { Array(elements[$0]) }, releaseBatch: { _ in }
        )
        storage.batchStart = 0
        storage.batch = elements
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Element {
        precondition(indices.contains(position), "index \(position) is out of range 0..<\(storage.count)")
        return storage.element(at: position)
    }
}
