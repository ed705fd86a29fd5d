import Foundation
import SwiftData
import Testing

/// Deleting history reclaims the transactions a program has processed and keeps the later ones; a fetch after a
/// token whose successors were deleted says so.
@Suite struct HistoryDeletionTests {
    private func store(_ store: StoreKind, saves: Int) throws -> (ModelContainer, [DefaultHistoryTransaction]) {
        let container = try store.makeContainer(HistoryNote.self)
        let context = ModelContext(container)
        for index in 0..<saves {
            context.insert(HistoryNote(text: "\(index)"))
            try context.save()
        }
        return (container, try history(container))
    }

    @Test(arguments: StoreKind.all) func deletingUpToATokenKeepsLaterHistory(store kind: StoreKind) throws {
        let (container, all) = try store(kind, saves: 5)
        let token = all[2].token
        try ModelContext(container).deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= token }))
        #expect(try history(container).map(\.transactionIdentifier) == all[3...].map(\.transactionIdentifier))
        // The reader that processed up to the token goes on where it was.
        #expect(try history(container, #Predicate { $0.token > token }).count == 2)
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "later"))
        try context.save()
        let after = try history(container)
        #expect(after.count == 3)
        #expect(after.last!.transactionIdentifier > all.last!.transactionIdentifier, "numbers are never reused")
    }

    @Test(arguments: StoreKind.all) func aTokenBeforeDeletedHistoryHasExpired(store kind: StoreKind) throws {
        let (container, all) = try store(kind, saves: 4)
        let old = all[0].token
        let kept = all[2].token
        try ModelContext(container).deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token < kept }))
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(container, #Predicate { $0.token > old }) }
        let previous = all[1].token
        #expect(try history(container, #Predicate { $0.token > previous }).count == 2)
        #expect(try history(container).count == 2, "a fetch from the start is not after a token")
    }

    @Test(arguments: StoreKind.all) func deletingTheNewestKeepsNumbersGrowing(store kind: StoreKind) throws {
        let (container, all) = try store(kind, saves: 2)
        try ModelContext(container).deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(try history(container).isEmpty)
        let context = ModelContext(container)
        context.insert(HistoryNote(text: "next"))
        try context.save()
        #expect(try history(container).map(\.transactionIdentifier) == [all[1].transactionIdentifier + 1])
    }

    @Test(arguments: StoreKind.all) func deletingWithAPredicateEvaluatedInMemory(store kind: StoreKind) throws {
        let (_, log) = try capturingLog {
            let container = try kind.makeContainer(HistoryNote.self)
            let context = ModelContext(container)
            for count in [1, 2, 1, 3] {
                for index in 0..<count { context.insert(HistoryNote(text: "\(index)")) }
                try context.save()
            }
            try context.deleteHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.changes.count == 1 }))
            #expect(try history(container).map(\.changes.count) == [2, 3])
        }
        #expect(
            log == [
                "SwiftData warning: part of a history predicate is evaluated in memory: it reads more than the token, transaction identifier, timestamp, author, store, bundle and process identifiers"
            ], "\(log)")
    }

    @Test(arguments: StoreKind.all) func erasingTheContainerExpiresEveryToken(store kind: StoreKind) throws {
        let (container, all) = try store(kind, saves: 2)
        let last = all[1].token
        try container.erase()
        #expect(try history(container).isEmpty)
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(container, #Predicate { $0.token > last }) }
    }

    @Test(arguments: StoreKind.all) func tokensAreCodableAndOrdered(store kind: StoreKind) throws {
        let (_, all) = try store(kind, saves: 3)
        let data = try JSONEncoder().encode(all[1].token)
        let decoded = try JSONDecoder().decode(DefaultHistoryToken.self, from: data)
        #expect(decoded == all[1].token)
        #expect(decoded > all[0].token && decoded < all[2].token && decoded <= all[1].token && decoded >= all[1].token)
        #expect(decoded.storeIdentifier == all[1].storeIdentifier)
        #expect(decoded.tokenValue == [all[1].storeIdentifier: all[1].transactionIdentifier])
        #expect(decoded.id == Int(all[1].transactionIdentifier))
    }
}
