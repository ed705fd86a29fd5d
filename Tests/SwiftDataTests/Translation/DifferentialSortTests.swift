import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// For random sort descriptors (with random predicates, limits and offsets), the store returns the models in the
/// order `Array.sorted(using:)` gives them, ties in insertion order; descriptors also sort by attributes of the
/// parent and grandparent, which many rows lack. `SWIFTDATA_DIFFERENTIAL_SEED` sets the seed.
@Suite struct DifferentialSortTests {
    static let count = 2_000

    /// Sort descriptors on every kind of attribute, with each `String` comparator; the last has no SQL translation.
    static let descriptors: [@Sendable (SortOrder) -> SortDescriptor<Row>] = [
        { SortDescriptor(\.int, order: $0) }, { SortDescriptor(\.small, order: $0) },
        { SortDescriptor(\.optionalInt, order: $0) }, { SortDescriptor(\.int8, order: $0) },
        { SortDescriptor(\.uint64, order: $0) }, { SortDescriptor(\.optionalDouble, order: $0) },
        { SortDescriptor(\.float, order: $0) }, { SortDescriptor(\.string, order: $0) },
        { SortDescriptor(\.optionalString, order: $0) }, { SortDescriptor(\.string, comparator: .lexical, order: $0) },
        { SortDescriptor(\.string, comparator: .localizedStandard, order: $0) },
        { SortDescriptor(\.string, comparator: .localized, order: $0) },
        { SortDescriptor(\.optionalString, comparator: .localizedStandard, order: $0) },
        { SortDescriptor(\.date, order: $0) }, { SortDescriptor(\.decimal, order: $0) },
        { SortDescriptor(\.uuid, order: $0) }, { SortDescriptor(\.priority, order: $0) },
        { SortDescriptor(\.bool, order: $0) }, { SortDescriptor(\.optionalBool, order: $0) },
        { SortDescriptor(\.parent?.string, order: $0) }, { SortDescriptor(\.parent?.int, order: $0) },
        { SortDescriptor(\.parent?.optionalInt, order: $0) }, { SortDescriptor(\.parent?.priority, order: $0) },
        { SortDescriptor(\.parent?.string, comparator: .localizedStandard, order: $0) },
        { SortDescriptor(\.parent?.optionalString, comparator: .lexical, order: $0) },
        { SortDescriptor(\.parent?.bool, order: $0) }, { SortDescriptor(\.parent?.parent?.decimal, order: $0) },
        { SortDescriptor(\.address.city, order: $0) },
    ]

    /// Descriptors without SQL translation sort in memory, and say so in a warning, which is captured.
    @Test(arguments: StoreKind.all) func storeOrderIsSortedUsingOrder(store kind: StoreKind) throws {
        let (_, log) = try capturingLog {
            let seed = DifferentialPredicateTests.seed
            let (context, _) = try DifferentialPredicateTests.randomRows(on: kind)
            let rows = try context.fetch(FetchDescriptor<Row>(sortBy: [SortDescriptor(\.number)]))
            var random = SeededRandom(seed: seed)
            var predicates = PredicateGenerator(seed: seed &+ 1)
            let store = try #require(context.container.stores.first)
            let entity = try context.binding(for: Row.self).entity
            var differences = 0
            var sortedInSQL = 0
            for index in 0..<Self.count {
                var descriptor = FetchDescriptor<Row>(
                    sortBy: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                        random.pick(Self.descriptors)(random.chance(0.5) ? .forward : .reverse)
                    })
                if random.chance(0.3) { descriptor.predicate = predicates.predicate() }
                if random.chance(0.3) { descriptor.fetchLimit = Int.random(in: 0...10, using: &random) }
                if random.chance(0.3) { descriptor.fetchOffset = Int.random(in: 0...10, using: &random) }
                guard let selected = try? rows.filter({ try descriptor.predicate?.evaluate($0) ?? true }) else {
                    continue
                }
                let sorted = selected.sorted(using: descriptor.sortBy)
                let offset = min(descriptor.fetchOffset ?? 0, sorted.count)
                let end = descriptor.fetchLimit.map { min(offset + $0, sorted.count) } ?? sorted.count
                let expected = sorted[offset..<end].map(\.number)
                let actual = try context.fetch(descriptor).map(\.number)
                var request = FetchRequest<Row>(entity: entity, properties: [])
                request.sortBy = descriptor.sortBy
                if store.prepare(request).coverage.sort { sortedInSQL += 1 }
                if actual != expected {
                    differences += 1
                    Issue.record(
                        """
                        Sort \(index) of seed \(seed) (\(descriptor.sortBy), limit \(descriptor.fetchLimit as Any), \
                        offset \(descriptor.fetchOffset as Any)) gives \(actual), but sorted(using:) gives \(expected); \
                        predicate: \(descriptor.predicate.map(describe) ?? "none")
                        """)
                    if differences >= 5 { break }
                }
            }
            #expect(differences == 0)
            // PostgreSQL cannot sort as Foundation's .lexical, .localized and .localizedStandard comparators do.
            #expect(
                sortedInSQL >= Self.count * (kind == .sqlite ? 3 : 1) / 4, "the descriptors are meant to sort in SQL")
            for (index, descriptor) in Self.descriptors.dropLast().enumerated() where kind == .sqlite {
                var request = FetchRequest<Row>(entity: entity, properties: [])
                request.sortBy = [descriptor(.forward), descriptor(.reverse)]
                #expect(store.prepare(request).coverage.sort, "descriptor \(index) sorts in SQL")
            }
        }
        #expect(
            log.contains { $0.hasPrefix("SwiftData warning: sorting Row happens in memory") },
            "the descriptor without SQL translation is reported")
        #expect(log.allSatisfy(Self.isInMemoryWarning), "\(log.filter { !Self.isInMemoryWarning($0) })")
    }

    /// Whether a logged line is the warning of a sort or predicate on `Row` left to memory.
    static func isInMemoryWarning(_ line: String) -> Bool {
        line.hasPrefix("SwiftData warning: sorting Row happens in memory")
            || line.hasPrefix("SwiftData warning: part of a predicate on Row is evaluated in memory")
    }
}
