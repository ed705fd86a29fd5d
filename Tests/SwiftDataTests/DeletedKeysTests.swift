import Testing

@testable import SwiftDataCore

/// The keys a save deletes: each once, in the order deleted, with sets made only when asked.
@Suite struct DeletedKeysTests {
    @Test func keysAreKeptOnceInTheOrderDeleted() {
        let deleted = DeletedKeys()
        #expect(deleted.isEmpty)
        #expect(deleted.add([3, 1, 2], of: "A", distinct: true) == [3, 1, 2])
        // A cascade that reaches keys already deleted, and repeats its own.
        #expect(deleted.add([2, 5, 5, 4, 1], of: "A", distinct: false) == [5, 4])
        #expect(deleted.add([7, 7], of: "B", distinct: false) == [7])
        #expect(deleted.add([], of: "C", distinct: true) == [])
        #expect(deleted.order == ["A": [3, 1, 2, 5, 4], "B": [7]])
        #expect(deleted.count == 6)
        #expect(deleted.contains(4, of: "A") && !deleted.contains(7, of: "A") && !deleted.contains(1, of: "C"))
        #expect(deleted.keySets() == ["A": [1, 2, 3, 4, 5], "B": [7]])
    }

    @Test func aSetMadeBeforeMoreKeysArriveStaysInStep() {
        let deleted = DeletedKeys()
        #expect(deleted.add([1], of: "A", distinct: true) == [1])
        #expect(deleted.contains(1, of: "A") && !deleted.contains(2, of: "A"))
        #expect(deleted.add([2, 1], of: "A", distinct: true) == [2])
        #expect(deleted.contains(2, of: "A"))
        #expect(deleted.order == ["A": [1, 2]])
    }
}
