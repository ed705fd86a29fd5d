import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// For random predicates over random data, the store selects exactly the models `Predicate.evaluate` selects,
/// or both throw. `SWIFTDATA_DIFFERENTIAL_COUNT` sets how many predicates run (default 10,000) and
/// `SWIFTDATA_DIFFERENTIAL_SEED` the seed (printed on failure).
@Suite struct DifferentialPredicateTests {
    static let environment = ProcessInfo.processInfo.environment
    static let count = environment["SWIFTDATA_DIFFERENTIAL_COUNT"].flatMap(Int.init) ?? 10_000
    static let seed = environment["SWIFTDATA_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_240_601

    /// What a fetch or an in-memory filter produced.
    enum Outcome: Equatable {
        case models([Int])
        case failed
    }

    @Test func sqlSelectsWhatEvaluateSelects() throws {
        let container = try makeMemoryContainer(Row.self)
        let context = ModelContext(container)
        Row.randomRows(count: 48, seed: Self.seed).forEach(context.insert)
        try context.save()
        let rows = try context.fetch(FetchDescriptor<Row>(sortBy: [SortDescriptor(\.number)]))
        let store = try sqliteStore(container)
        let entity = try context.binding(for: Row.self).entity

        var generator = PredicateGenerator(seed: Self.seed)
        var differences = 0
        var inSQL = 0
        var failures = 0
        for index in 0..<Self.count {
            let predicate = generator.predicate()
            let expected: Outcome
            do {
                expected = .models(try rows.filter(predicate.evaluate).map(\.number))
            } catch {
                expected = .failed
            }
            let actual: Outcome
            do {
                let identifiers = Set(try context.fetchIdentifiers(FetchDescriptor(predicate: predicate)))
                actual = .models(rows.filter { identifiers.contains($0.persistentModelID) }.map(\.number))
            } catch {
                actual = .failed
            }
            if store.plan(FetchRequest(entity: entity, predicate: predicate, properties: [])).coverage.predicate {
                inSQL += 1
            }
            if expected == .failed { failures += 1 }
            if actual != expected {
                differences += 1
                Issue.record(
                    """
                    Predicate \(index) of seed \(Self.seed) selects \(actual) in SQL but \(expected) in memory:
                    \(describe(predicate))
                    """)
                if differences >= 5 { break }
            }
        }
        print("Differential test, seed \(Self.seed): \(Self.count) predicates, \(inSQL) in SQL, \(failures) throwing")
        #expect(differences == 0)
        #expect(inSQL >= Self.count * 9 / 10, "the generator's predicates are meant to run in SQL")
    }
}
