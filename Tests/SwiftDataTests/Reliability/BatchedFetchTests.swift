import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// A batched fetch keeps only the batch being read, and survives rows deleted after it was made.
@Suite struct BatchedFetchTests {
    func store(_ directory: TemporaryDirectory, rows: Int) throws -> ModelContainer {
        let container = try makeContainer(User.self, in: directory)
        let context = ModelContext(container)
        for index in 0..<rows { context.insert(User(name: String(format: "u%04d", index), email: "\(index)")) }
        try context.save()
        return container
    }

    func registeredUsers(_ context: ModelContext) -> Int {
        context.registry.keys(of: User.self).count
    }

    @Test func readingABatchedFetchKeepsOnlyTheBatchBeingRead() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try store(directory, rows: 200))
        let results = try context.fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)]), batchSize: 10)
        var names: [String] = []
        var mostRegistered = 0
        for user in results {
            names.append(user.name)
            mostRegistered = max(mostRegistered, registeredUsers(context))
        }
        #expect(names == (0..<200).map { String(format: "u%04d", $0) })
        #expect(mostRegistered <= 20, "at most two batches registered at once, not \(mostRegistered)")
        // A model the caller keeps stays the context's: fetching it again gives the same object.
        let kept = results[3]
        _ = results[150]
        #expect(try context.fetch(FetchDescriptor<User>(predicate: #Predicate { $0.name == "u0003" })).first === kept)
        // A model with unsaved changes stays too.
        results[42].email = "changed"
        _ = results[190]
        #expect(context.hasChanges)
        #expect(
            try context.fetch(FetchDescriptor<User>(predicate: #Predicate { $0.name == "u0042" })).first?.email
                == "changed")
    }

    @Test func rowsDeletedAfterABatchedFetchDoNotStopIt() throws {
        let (_, log) = try capturingLog {
            let directory = TemporaryDirectory()
            let container = try store(directory, rows: 50)
            let context = ModelContext(container)
            let results = try context.fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)]), batchSize: 10)
            #expect(results[0].name == "u0000")
            // Another context deletes rows of later batches.
            let other = ModelContext(container)
            try other.delete(model: User.self, where: #Predicate { $0.name >= "u0015" && $0.name < "u0035" })
            try other.save()
            #expect(results.count == 50)
            let identifiers = results.map(\.persistentModelID)
            #expect(Set(identifiers).count == 50)
            let surviving = results.indices.filter { $0 < 15 || $0 >= 35 }.map { results[$0].name }
            #expect(surviving == (0..<50).filter { $0 < 15 || $0 >= 35 }.map { String(format: "u%04d", $0) })
        }
        #expect(!log.isEmpty, "the rows found gone are reported")
        #expect(
            log.allSatisfy {
                $0.hasPrefix("SwiftData error: a batched fetch of User found ")
                    && $0.contains("rows gone since the fetch")
            }, "\(log)")
    }
}
