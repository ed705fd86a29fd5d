import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Fetching: predicates, sorting, windows, counts, identifiers, batches, and unsaved changes.
@Suite struct FetchTests {
    /// Ten counters `c0` ... `c9` with values 0 ... 9, saved.
    func savedCounters() throws -> ModelContext {
        let context = ModelContext(try makeMemoryContainer(Counter.self))
        for value in 0..<10 {
            let counter = Counter(label: "c\(value)")
            counter.value = value
            context.insert(counter)
        }
        try context.save()
        return context
    }

    @Test func comparisonsWithLiteralsAndCapturedValues() throws {
        let context = try savedCounters()
        let limit = 7
        let label = "c3"
        func labels(_ predicate: Predicate<Counter>) throws -> [String] {
            try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.value)])).map(\.label)
        }
        #expect(try labels(#Predicate { $0.value > limit }) == ["c8", "c9"])
        #expect(try labels(#Predicate { $0.value >= 8 && $0.value != 9 }) == ["c8"])
        #expect(try labels(#Predicate { $0.value < 1 || $0.label == label }) == ["c0", "c3"])
        #expect(try labels(#Predicate { !($0.value <= 8) }) == ["c9"])
        #expect(try labels(#Predicate { $0.label == "nope" }) == [])
        #expect(try labels(#Predicate { _ in true }).count == 10)
    }

    @Test(arguments: StoreKind.all) func optionalsCompareAsInSwift(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Sample.self))
        let withValue = Sample()
        withValue.optionalString = "x"
        withValue.int = 1
        let withoutValue = Sample()
        withoutValue.int = 2
        context.insert(withValue)
        context.insert(withoutValue)
        try context.save()
        func ints(_ predicate: Predicate<Sample>) throws -> [Int] {
            try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.int)])).map(\.int)
        }
        #expect(try ints(#Predicate { $0.optionalString == nil }) == [2])
        #expect(try ints(#Predicate { $0.optionalString != nil }) == [1])
        #expect(try ints(#Predicate { $0.optionalString != "x" }) == [2], "nil differs from every value, as in Swift")
        #expect(try ints(#Predicate { !($0.optionalString == "x") }) == [2])
        let mood = Mood.grumpy
        withoutValue.mood = .grumpy
        try context.save()
        #expect(try ints(#Predicate { $0.mood == mood }) == [2])
        #expect(try ints(#Predicate { $0.bool }) == [])
    }

    @Test func untranslatablePartsRunInMemory() throws {
        let (_, log) = try capturingLog {
            let context = try savedCounters()
            // `String.count` counts Characters, which SQL cannot; the comparison of `value` narrows the candidates.
            let predicate = #Predicate<Counter> { $0.value > 3 && $0.label.count == 2 }
            let log = StatementLog(context.container)
            var descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.value, order: .reverse)])
            descriptor.fetchLimit = 2
            descriptor.fetchOffset = 1
            #expect(try context.fetch(descriptor).map(\.label) == ["c8", "c7"])
            #expect(
                log.selects == [
                    #"SELECT "_pk", "label", "value" FROM "Counter" WHERE ("value" > ?) ORDER BY "value" DESC, "_pk""#
                ], "the SQL part selects the candidates; limit and offset apply after the rest ran in memory")
            #expect(try context.fetchCount(descriptor) == 2)
            #expect(try context.fetchIdentifiers(descriptor).count == 2)
            #expect(try context.fetch(FetchDescriptor(predicate: #Predicate<Counter> { $0.label.count == 3 })).isEmpty)
            try context.delete(model: Counter.self, where: #Predicate { $0.label.count == 2 && $0.value > 0 })
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<Counter>()) == 1)
        }
        #expect(
            log.count == 3
                && log.allSatisfy {
                    $0.hasPrefix(
                        "SwiftData warning: part of a predicate on Counter is evaluated in memory (count of a String has no SQL translation)"
                    )
                }, "\(log)")
    }

    @Test func sortingLimitAndOffset() throws {
        let context = try savedCounters()
        var descriptor = FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value, order: .reverse)])
        descriptor.fetchLimit = 3
        descriptor.fetchOffset = 2
        #expect(try context.fetch(descriptor).map(\.value) == [7, 6, 5])
        #expect(try context.fetchCount(descriptor) == 3)
        descriptor.fetchOffset = 9
        #expect(try context.fetch(descriptor).map(\.value) == [0])
        let byLabel = try context.fetch(
            FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.label, comparator: .lexical, order: .reverse)]))
        #expect(byLabel.first?.label == "c9")
    }

    @Test(arguments: StoreKind.all) func stringSortMatchesSwift(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let context = ModelContext(try store.makeContainer(Counter.self))
            let labels = ["b", "B", "a", "é", "e", "Z", "", "aa", "ä"]
            labels.forEach { context.insert(Counter(label: $0)) }
            try context.save()
            let sorted = try context.fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.label)])).map(\.label)
            #expect(sorted == labels.sorted())
            let lexical = try context.fetch(
                FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.label, comparator: .lexical)])
            ).map(\.label)
            #expect(lexical == labels.sorted { String.StandardComparator.lexical.compare($0, $1) == .orderedAscending })
        }
        #expect(
            log.allSatisfy {
                $0.hasPrefix("SwiftData warning: sorting Counter happens in memory: PostgreSQL cannot order strings")
            }, "\(log)")
        #expect(
            store == .sqlite ? log.isEmpty : !log.isEmpty,
            "PostgreSQL leaves the lexical comparator to memory, and says so: \(log)")
    }

    @Test(arguments: StoreKind.all) func decimalsSortNumerically(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Sample.self))
        let values: [Decimal] = [10, 9.5, -1, 100.25, 0, Decimal(string: "1e20")!]
        for value in values {
            let sample = Sample()
            sample.decimal = value
            context.insert(sample)
        }
        try context.save()
        let sorted = try context.fetch(FetchDescriptor<Sample>(sortBy: [SortDescriptor(\.decimal)])).map(\.decimal)
        #expect(sorted == values.sorted())
        let big = try context.fetch(FetchDescriptor<Sample>(predicate: #Predicate { $0.decimal > 9.75 })).map(\.decimal)
            .sorted()
        #expect(big == [10, 100.25, Decimal(string: "1e20")!])
    }

    @Test(arguments: StoreKind.all) func tiesKeepInsertionOrder(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Counter.self))
        for index in 0..<20 { context.insert(Counter(label: "\(index)")) }
        try context.save()
        let labels = try context.fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value)])).map(\.label)
        #expect(labels == (0..<20).map(String.init))
    }

    @Test func unsavedChangesAreIncludedByDefault() throws {
        let context = try savedCounters()
        let all = try context.fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value)]))
        all[9].value = -1  // moves to the front
        all[0].value = 100  // leaves a `< 5` predicate
        context.delete(all[1])
        let fresh = Counter(label: "new")
        fresh.value = 4
        context.insert(fresh)
        let small = FetchDescriptor<Counter>(predicate: #Predicate { $0.value < 5 }, sortBy: [SortDescriptor(\.value)])
        #expect(try context.fetch(small).map(\.label) == ["c9", "c2", "c3", "c4", "new"])
        #expect(try context.fetchCount(small) == 5)
        #expect(try context.fetchIdentifiers(small).count == 5)
        var windowed = small
        windowed.fetchOffset = 1
        windowed.fetchLimit = 2
        #expect(try context.fetch(windowed).map(\.label) == ["c2", "c3"])
        var stored = small
        stored.includePendingChanges = false
        #expect(try context.fetch(stored).map(\.label) == ["c0", "c1", "c2", "c3", "c4"], "the store's rows, as saved")
    }

    @Test func identifiersAndBatches() throws {
        let context = try savedCounters()
        let descriptor = FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value)])
        let identifiers = try context.fetchIdentifiers(descriptor)
        #expect(identifiers.count == 10)
        let batched = try context.fetch(descriptor, batchSize: 3)
        #expect(batched.count == 10)
        #expect(batched.map(\.value) == Array(0..<10))
        #expect(batched.map(\.persistentModelID) == identifiers)
        #expect(batched[4].value == 4)
        let batchedIDs = try context.fetchIdentifiers(descriptor, batchSize: 4)
        #expect(Array(batchedIDs) == identifiers)
    }

    @Test func batchedFetchRefusesUnsavedChanges() throws {
        let context = try savedCounters()
        context.insert(Counter(label: "pending"))
        #expect(throws: SwiftDataError.includePendingChangesWithBatchSize) {
            try context.fetch(FetchDescriptor<Counter>(), batchSize: 5)
        }
        var descriptor = FetchDescriptor<Counter>()
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor, batchSize: 5).count == 10)
    }

    @Test func enumerateVisitsEveryModelInBatchesAndReleasesThem() throws {
        let context = try savedCounters()
        #expect(context.registry.keys(of: Counter.self).isEmpty, "saved models nobody holds are not kept")
        var seen: [Int] = []
        try context.enumerate(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value)]), batchSize: 4) { counter in
            seen.append(counter.value)
        }
        #expect(seen == Array(0..<10))
        #expect(context.registry.keys(of: Counter.self).isEmpty, "enumerated models are not kept registered")
        #expect {
            try context.enumerate(FetchDescriptor<Counter>(), batchSize: 4) { $0.value += 1 }
        } throws: { error in (error as? SwiftDataError) == .modelValidationFailure }
        context.rollback()
        try context.enumerate(FetchDescriptor<Counter>(), batchSize: 4, allowEscapingMutations: true) { $0.value += 1 }
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Counter>()).map(\.value).reduce(0, +) == 55)
    }
}

/// Predicates and sorting run in SQL, not in memory: the statement log shows them.
@Suite struct SQLTranslationTests {
    @Test func predicateAndSortRunInTheStore() throws {
        let container = try makeMemoryContainer(Counter.self)
        let context = ModelContext(container)
        context.insert(Counter(label: "a"))
        try context.save()
        let log = StatementLog(container)
        let minimum = 3
        var descriptor = FetchDescriptor<Counter>(
            predicate: #Predicate { $0.value >= minimum && $0.label != "b" },
            sortBy: [SortDescriptor(\.label, order: .reverse)])
        descriptor.fetchLimit = 5
        _ = try context.fetch(descriptor)
        #expect(
            log.selects == [
                #"SELECT "_pk", "label", "value" FROM "Counter" "#
                    + #"WHERE (("value" >= ?) AND ("label" COLLATE SWIFTDATA_STRING <> ?)) "#
                    + #"ORDER BY "label" COLLATE SWIFTDATA_STRING DESC, "_pk" LIMIT ? OFFSET ?"#
            ])
    }
}
