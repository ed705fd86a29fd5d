import Foundation
import SwiftData
import Testing

/// For random predicates over random data, every aggregate and group the store computes in SQL equals what Swift
/// computes from the fetched models, or both throw: integers and `Decimal`s exactly, floating-point sums and
/// averages within `tolerance` of the magnitudes added. `SWIFTDATA_DIFFERENTIAL_COUNT` sets how many predicates run
/// (default 400 on SQLite, 150 on PostgreSQL) and `SWIFTDATA_DIFFERENTIAL_SEED` the seed.
@Suite struct DifferentialAggregateTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["SWIFTDATA_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_261_207

    /// How many predicates run on a store.
    static func count(on store: StoreKind) -> Int {
        environment["SWIFTDATA_DIFFERENTIAL_COUNT"].flatMap(Int.init) ?? (store == .sqlite ? 400 : 150)
    }

    /// The documented tolerance of floating-point sums and averages, relative to the sum of the magnitudes: the
    /// stores add in their own order (SQLite with compensated summation), Swift from left to right.
    static let tolerance = 1e-12

    /// Strings in one Unicode form each, so that keys group alike as stored text and as Swift's `==`.
    static let groupStrings = ["", "a", "A", "b", "é", "Straße", "日本", "z"]

    /// A context with 64 random, related rows, saved: `DifferentialValues`, with finite optional doubles.
    static func rows(on store: StoreKind) throws -> ModelContext {
        let context = ModelContext(try store.makeContainer(Row.self))
        let rows = Row.randomRows(count: 64, seed: seed)
        var random = SeededRandom(seed: seed &+ 5)
        for row in rows {
            row.optionalDouble =
                random.chance(0.3) ? nil : Double(Int.random(in: -100_000...100_000, using: &random)) / 7
            row.optionalString = random.maybe(groupStrings)
        }
        rows.forEach(context.insert)
        Row.link(rows, seed: seed)
        try context.save()
        return context
    }

    @Test(arguments: StoreKind.all) func aggregatesEqualWhatSwiftComputes(store: StoreKind) throws {
        let context = try Self.rows(on: store)
        var generator = PredicateGenerator(seed: Self.seed)
        let (_, log) = try capturingLog {
            for index in 0..<Self.count(on: store) {
                let descriptor = FetchDescriptor<Row>(predicate: generator.predicate())
                try compare(descriptor, in: context, index: index)
            }
        }
        #expect(log.allSatisfy(DifferentialSortTests.isInMemoryWarning), "\(log)")
    }

    /// With unsaved changes, aggregates include them as `fetch` does.
    @Test(arguments: StoreKind.all) func unsavedChangesAreAggregatedAsFetched(store: StoreKind) throws {
        let context = try Self.rows(on: store)
        let rows = try context.fetch(FetchDescriptor<Row>(sortBy: [SortDescriptor(\.number)]))
        var random = SeededRandom(seed: Self.seed &+ 6)
        for row in rows where random.chance(0.2) { row.small = random.pick(DifferentialValues.smalls) }
        for number in 64..<68 {
            let row = Row(number: number)
            row.small = random.pick(DifferentialValues.smalls)
            row.parent = random.pick(rows)
            context.insert(row)
        }
        context.delete(rows[3])
        var generator = PredicateGenerator(seed: Self.seed &+ 7)
        let (_, log) = try capturingLog {
            for index in 0..<max(Self.count(on: store) / 10, 1) {
                try compare(FetchDescriptor<Row>(predicate: generator.predicate()), in: context, index: index)
            }
        }
        #expect(log.allSatisfy(DifferentialSortTests.isInMemoryWarning), "\(log)")
    }

    /// Compares the aggregates and groups of one descriptor.
    private func compare(_ descriptor: FetchDescriptor<Row>, in context: ModelContext, index: Int) throws {
        let models: [Row]
        do {
            models = try context.fetch(descriptor)
        } catch {
            #expect(throws: (any Error).self, "predicate \(index)") {
                _ = try context.fetchAggregate(descriptor, .count)
            }
            return
        }
        let (count, counted, small, smallMean, smallLeast, smallMost, total, totalMean, totalLeast, totalMost) =
            try context.fetchAggregate(
                descriptor, .count, .count(\.optionalInt), .sum(\.small), .average(\.small), .minimum(\.small),
                .maximum(\.small), .sum(\.decimal), .average(\.decimal), .minimum(\.decimal), .maximum(\.decimal))
        let smalls = models.map(\.small)
        let decimals = models.map(\.decimal)
        let exactSmall = smalls.reduce(0) { $0 + Int64($1) }
        #expect(count == models.count, "predicate \(index)")
        #expect(counted == models.count(where: { $0.optionalInt != nil }), "predicate \(index)")
        #expect(Int64(small) == exactSmall, "predicate \(index)")
        #expect(smallMean == (smalls.isEmpty ? nil : Double(exactSmall) / Double(smalls.count)), "predicate \(index)")
        #expect(smallLeast == smalls.min() && smallMost == smalls.max(), "predicate \(index)")
        let exactTotal = decimals.reduce(Decimal(0), +)
        #expect(total == exactTotal, "predicate \(index)")
        #expect(totalMean == (decimals.isEmpty ? nil : exactTotal / Decimal(decimals.count)), "predicate \(index)")
        #expect(totalLeast == decimals.min() && totalMost == decimals.max(), "predicate \(index)")

        let (firstString, lastString, firstDate, lastDate, leastDouble, mostFloat, measured, mean) =
            try context.fetchAggregate(
                descriptor, .minimum(\.string), .maximum(\.optionalString), .minimum(\.date), .maximum(\.date),
                .minimum(\.double), .maximum(\.float), .sum(\.optionalDouble), .average(\.optionalDouble))
        #expect(firstString == models.map(\.string).min(), "predicate \(index)")
        #expect(lastString == models.compactMap(\.optionalString).max(), "predicate \(index)")
        #expect(firstDate == models.map(\.date).min() && lastDate == models.map(\.date).max(), "predicate \(index)")
        #expect(leastDouble == models.map(\.double).filter { !$0.isNaN }.min(), "predicate \(index)")
        #expect(mostFloat == models.map(\.float).max(), "predicate \(index)")
        let doubles = models.compactMap(\.optionalDouble)
        let magnitude = doubles.reduce(0) { $0 + abs($1) }
        #expect(abs(measured - doubles.reduce(0, +)) <= Self.tolerance * magnitude, "predicate \(index)")
        if let mean {
            let expected = doubles.reduce(0, +) / Double(doubles.count)
            #expect(abs(mean - expected) <= Self.tolerance * magnitude / Double(doubles.count), "predicate \(index)")
        } else {
            #expect(doubles.isEmpty, "predicate \(index)")
        }
        if let tiny = Int8(exactly: models.reduce(Int64(0)) { $0 + Int64($1.int8) }) {
            #expect(try context.fetchAggregate(descriptor, .sum(\.int8)) == tiny, "predicate \(index)")
        } else {
            #expect(throws: SwiftDataError.self, "predicate \(index)") {
                _ = try context.fetchAggregate(descriptor, .sum(\.int8))
            }
        }
        try compareGroups(descriptor, models: models, in: context, index: index)
    }

    /// Compares groups by a related attribute and a Boolean, by an enum, and by a string, with a random condition
    /// and sort.
    private func compareGroups(_ descriptor: FetchDescriptor<Row>, models: [Row], in context: ModelContext, index: Int)
        throws
    {
        let groups = try context.fetchGroups(
            descriptor, by: \.parent?.small, \.bool, aggregates: .count, .sum(\.decimal), .maximum(\.string))
        let expected = Dictionary(grouping: models) { GroupKey(small: $0.parent?.small, bool: $0.bool) }
            .sorted { $0.key < $1.key }
        #expect(groups.map { GroupKey(small: $0.key.0, bool: $0.key.1) } == expected.map(\.key), "predicate \(index)")
        #expect(groups.map(\.values.0) == expected.map(\.value.count), "predicate \(index)")
        #expect(groups.map(\.values.1) == expected.map { $0.value.reduce(Decimal(0)) { $0 + $1.decimal } })
        #expect(groups.map(\.values.2) == expected.map { $0.value.map(\.string).max() }, "predicate \(index)")

        let priorities = try context.fetchGroups(descriptor, by: \.priority, aggregates: .average(\.small))
        let byPriority = Dictionary(grouping: models, by: \.priority).sorted { $0.key.rawValue < $1.key.rawValue }
        #expect(priorities.map(\.key) == byPriority.map(\.key), "predicate \(index)")
        #expect(
            priorities.map(\.values)
                == byPriority.map { Double($0.value.reduce(0) { $0 + Int64($1.small) }) / Double($0.value.count) },
            "predicate \(index)")

        let threshold = index % 4
        let reverse = index % 2 == 0
        let strings = try context.fetchGroups(
            descriptor, by: \.optionalString, aggregates: .count, .sum(\.small),
            having: .count > threshold || .sum(\.small) < -5,
            sortBy: [.aggregate(.sum(\.small), order: reverse ? .reverse : .forward)])
        let kept = Dictionary(grouping: models, by: \.optionalString).map { key, members in
            (key: key, count: members.count, sum: members.reduce(Int32(0)) { $0 + $1.small })
        }.filter { $0.count > threshold || $0.sum < -5 }
        let ordered = kept.sorted { lhs, rhs in
            if lhs.sum != rhs.sum { return reverse ? lhs.sum > rhs.sum : lhs.sum < rhs.sum }
            guard let left = lhs.key else { return rhs.key != nil }
            return rhs.key.map { left < $0 } ?? false
        }
        #expect(strings.map(\.key) == ordered.map(\.key), "predicate \(index)")
        #expect(strings.map(\.values.0) == ordered.map(\.count), "predicate \(index)")
        #expect(strings.map(\.values.1) == ordered.map(\.sum), "predicate \(index)")
    }
}

/// A group's keys, ordered as the stores order them: `nil` first, `false` before `true`.
private struct GroupKey: Hashable, Comparable {
    var small: Int32?
    var bool: Bool

    static func < (lhs: GroupKey, rhs: GroupKey) -> Bool {
        if lhs.small != rhs.small {
            guard let left = lhs.small else { return true }
            return rhs.small.map { left < $0 } ?? false
        }
        return !lhs.bool && rhs.bool
    }
}
