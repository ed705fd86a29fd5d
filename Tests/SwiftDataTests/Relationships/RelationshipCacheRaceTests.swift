import Foundation
import SwiftData
import Synchronization
import Testing

/// Models used by this test only, so that their first use happens here, on many threads at once.
@Model final class RaceOwner {
    var items: [RaceItem] = []
    init() {}
}

@Model final class RaceItem {
    var owner: RaceOwner?
    init() {}
}

/// Inverses are kept in step for models not inserted yet even when threads first use their class at the same time
/// (each builds the class's entity; all must use one whose schema stays alive).
@Suite struct RelationshipCacheRaceTests {
    @Test func firstUseOnManyThreadsKeepsInverses() {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let owner = RaceOwner()
            let item = RaceItem()
            owner.items = [item]
            if item.owner !== owner { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
