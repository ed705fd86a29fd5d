import Foundation
import SwiftData
import Testing

/// A model of plain attributes loads a fetched row in one call of its generated `_$loadRow`: its values are the
/// stored ones, and a value of the wrong type is still an error naming the model and the property.
@Suite struct RowLoaderTests {
    @Test func plainModelsLoadEveryValue() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Counter.self, in: directory))
            for index in 0..<50 {
                let counter = Counter(label: "counter \(index)")
                counter.value = index * 7
                context.insert(counter)
            }
            try context.save()
        }
        let context = ModelContext(try makeContainer(Counter.self, in: directory))
        let counters = try context.fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.value)]))
        #expect(counters.map(\.label) == (0..<50).map { "counter \($0)" })
        #expect(counters.map(\.value) == (0..<50).map { $0 * 7 })
        #expect(counters.allSatisfy { !$0.hasChanges && $0.lastRead == -1 })
    }

    @Test(arguments: [("label", "x'41'", "1 bytes of data"), ("value", "'abc'", "the text 'abc'")])
    func aValueOfTheWrongTypeNamesItsProperty(column: String, value: String, described: String) throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Counter.self, in: directory))
            context.insert(Counter(label: "first"))
            context.insert(Counter(label: "second"))
            try context.save()
        }
        _ = try sqlite(directory.store(), "UPDATE Counter SET \"\(column)\" = \(value) WHERE label = 'second'")
        let context = ModelContext(try makeContainer(Counter.self, in: directory))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Counter>()) }
        #expect(error == SwiftDataError.storeError)
        #expect(error.modelName == "Counter")
        #expect(error.propertyName == column)
        #expect(error.reason?.contains(described) == true, "\(error)")
    }
}
