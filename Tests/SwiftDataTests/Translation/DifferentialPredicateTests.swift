import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// For random predicates over random data, the store selects exactly the models `Predicate.evaluate` selects,
/// or both throw; predicates reach related rows too (`nil` parents, no children). `SWIFTDATA_DIFFERENTIAL_COUNT`
/// sets how many predicates run (default 10,000 on SQLite, 2,000 on PostgreSQL, where each is a round trip to the
/// server) and `SWIFTDATA_DIFFERENTIAL_SEED` the seed (printed on failure).
@Suite struct DifferentialPredicateTests {
    static let environment = ProcessInfo.processInfo.environment
    static let count = environment["SWIFTDATA_DIFFERENTIAL_COUNT"].flatMap(Int.init) ?? 10_000
    static let postgresCount = environment["SWIFTDATA_DIFFERENTIAL_COUNT"].flatMap(Int.init) ?? 2_000

    /// How many predicates run on a store.
    static func count(on store: StoreKind) -> Int { store == .sqlite ? count : postgresCount }
    static let seed = environment["SWIFTDATA_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_240_601

    /// What a fetch or an in-memory filter produced.
    enum Outcome: Equatable {
        case models([Int])
        case failed
    }

    /// A context with 48 random, related rows, saved.
    static func randomRows(on store: StoreKind = .sqlite) throws -> (ModelContext, [Row]) {
        let context = ModelContext(try store.makeContainer(Row.self))
        let rows = Row.randomRows(count: 48, seed: seed)
        rows.forEach(context.insert)
        Row.link(rows, seed: seed)
        try context.save()
        return (context, rows)
    }

    @Test(arguments: StoreKind.all) func sqlSelectsWhatEvaluateSelects(store: StoreKind) throws {
        let (context, rows) = try Self.randomRows(on: store)
        var generator = PredicateGenerator(seed: Self.seed)
        generator.identifiers = rows.map(\.persistentModelID) + [Row(number: -1).persistentModelID]
        let count = Self.count(on: store)
        let result = try compare(count: count, generator: &generator, context: context)
        #expect(result.differences == 0)
        // PostgreSQL leaves more to memory: string containment and Double arithmetic (see PostgreSQLDialect).
        let (share, relationalShare) = store == .sqlite ? (9, 8) : (6, 5)
        #expect(result.inSQL >= count * share / 10, "the generator's predicates are meant to run in SQL")
        #expect(result.relational >= count / 5, "a good part of the predicates reach related rows")
        #expect(result.relationalInSQL >= result.relational * relationalShare / 10, "and most of those run in SQL")
    }

    /// With unsaved changes (renamed, moved and new rows, a deleted one), a fetch selects what `evaluate` selects
    /// among the context's rows, whatever the store holds, and sorts them as `sorted(using:)` does.
    @Test(arguments: StoreKind.all) func unsavedChangesSelectWhatEvaluateSelects(store: StoreKind) throws {
        let (context, rows) = try Self.randomRows(on: store)
        var random = SeededRandom(seed: Self.seed &+ 3)
        for row in rows.filter({ _ in random.chance(0.2) }) { row.string = random.pick(DifferentialValues.strings) }
        for row in rows.dropFirst().filter({ _ in random.chance(0.1) }) { row.parent = random.maybe(rows) }
        for row in rows.filter({ _ in random.chance(0.05) }) { row.peers.removeAll() }
        for number in 48..<52 {
            let new = Row(number: number)
            new.string = random.pick(DifferentialValues.strings)
            new.parent = random.pick(rows)
            context.insert(new)
        }
        context.delete(rows[Int.random(in: 1..<rows.count, using: &random)])
        var generator = PredicateGenerator(seed: Self.seed &+ 4)
        generator.identifiers = rows.map(\.persistentModelID)
        let count = max(Self.count(on: store) / 10, 1)
        #expect(try compare(count: count, generator: &generator, context: context).differences == 0)
        let all = try context.fetch(FetchDescriptor<Row>()).sorted { $0.number < $1.number }
        let (_, log) = try capturingLog {
            for (index, descriptor) in DifferentialSortTests.descriptors.enumerated() {
                for order in [SortOrder.forward, .reverse] {
                    let sortBy = [descriptor(order)]
                    let fetched = try context.fetch(FetchDescriptor(sortBy: sortBy)).map(\.number)
                    #expect(fetched == all.sorted(using: sortBy).map(\.number), "sort \(index), \(order)")
                }
            }
        }
        #expect(log.allSatisfy(DifferentialSortTests.isInMemoryWarning), "\(log)")
    }

    /// Runs `count` random predicates in the store and in memory; the number of differences recorded, of
    /// predicates that ran wholly in SQL, of those that reach related rows, and of those that ran wholly in SQL.
    /// Each predicate left partly to memory is reported by a warning, which is captured: there is one for each
    /// predicate shape, and no other.
    func compare(
        count: Int, generator: inout PredicateGenerator, context: ModelContext
    ) throws -> (differences: Int, inSQL: Int, relational: Int, relationalInSQL: Int) {
        let (result, log) = try capturingLog {
            try compareWithoutChecks(count: count, generator: &generator, context: context)
        }
        let inMemory = log.filter {
            $0.hasPrefix("SwiftData warning: part of a predicate on Row is evaluated in memory")
        }
        #expect(inMemory.count == log.count, "\(log.filter { !inMemory.contains($0) })")
        #expect(inMemory.count <= count - result.inSQL, "at most one warning per predicate not wholly in SQL")
        #expect(!inMemory.isEmpty || result.inSQL == count, "a predicate left to memory is reported")
        return result
    }

    private func compareWithoutChecks(
        count: Int, generator: inout PredicateGenerator, context: ModelContext
    ) throws -> (differences: Int, inSQL: Int, relational: Int, relationalInSQL: Int) {
        let rows = try context.fetch(FetchDescriptor<Row>()).sorted { $0.number < $1.number }
        let store = try #require(context.container.stores.first)
        let entity = try context.binding(for: Row.self).entity
        var differences = 0
        var inSQL = 0
        var failures = 0
        var relational = 0
        var relationalInSQL = 0
        for index in 0..<count {
            let predicate = generator.predicate()
            let expected: Outcome
            do {
                expected = .models(try rows.filter(predicate.evaluate).map(\.number))
            } catch {
                expected = .failed
            }
            let actual: Outcome
            do {
                let selected = Set(try context.fetch(FetchDescriptor(predicate: predicate)).map(ObjectIdentifier.init))
                actual = .models(rows.filter { selected.contains(ObjectIdentifier($0)) }.map(\.number))
            } catch {
                actual = .failed
            }
            let isRelational = ["parent", "children", "peers", "peerOf", "persistentModelID"].contains {
                describe(predicate).contains(".\($0)")
            }
            if isRelational { relational += 1 }
            if store.prepare(FetchRequest(entity: entity, predicate: predicate, properties: [])).coverage.predicate {
                inSQL += 1
                if isRelational { relationalInSQL += 1 }
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
        print(
            "Differential test on \(type(of: store)), seed \(Self.seed): \(count) predicates over \(rows.count) rows, \(inSQL) in SQL, "
                + "\(failures) throwing, \(relational) through relationships (\(relationalInSQL) in SQL), "
                + "\(context.hasChanges ? "with" : "without") unsaved changes")
        return (differences, inSQL, relational, relationalInSQL)
    }
}
