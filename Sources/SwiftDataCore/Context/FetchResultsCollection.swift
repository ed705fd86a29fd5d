/// The results of a batched fetch: the identities come first, the models a batch at a time as the collection
/// is read.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private let storage: Storage

    final class Storage {
        let count: Int
        let batchSize: Int
        let loadBatch: (Range<Int>) -> [Element]
        var batchStart = -1
        var batch: [Element] = []

        init(count: Int, batchSize: Int, loadBatch: @escaping (Range<Int>) -> [Element]) {
            self.count = count
            self.batchSize = Swift.max(1, batchSize)
            self.loadBatch = loadBatch
        }

        func element(at position: Int) -> Element {
            let start = position - position % batchSize
            if start != batchStart {
                batch = loadBatch(start..<Swift.min(start + batchSize, count))
                batchStart = start
            }
            return batch[position - start]
        }
    }

    init(count: Int, batchSize: Int, loadBatch: @escaping (Range<Int>) -> [Element]) {
        storage = Storage(count: count, batchSize: batchSize, loadBatch: loadBatch)
    }

    /// A collection of models already loaded.
    package init(_ elements: [Element]) {
        storage = Storage(count: elements.count, batchSize: elements.count) { Array(elements[$0]) }
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
