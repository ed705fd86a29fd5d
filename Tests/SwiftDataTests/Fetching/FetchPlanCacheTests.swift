import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

@Model final class PlanItem {
    var a: Int
    var b: Int
    var name: String
    var note: String?
    var ratio: Double

    init(a: Int, b: Int, name: String, note: String? = nil, ratio: Double = 0) {
        self.a = a
        self.b = b
        self.name = name
        self.note = note
        self.ratio = ratio
    }
}

/// A fetch is prepared once per shape of request: the store keeps the plan (its SQL and what it leaves to memory)
/// and reuses it with each request's values. These tests would fail if a plan were reused for a request it does
/// not fit, or if a repeated fetch translated its predicate again.
@Suite struct FetchPlanCacheTests {
    /// Items a0 ... a9 with `a` 0 ... 9, `b` 9 ... 0, `note` set on even ones, and `ratio` a / 2.
    func savedItems() throws -> (ModelContext, SQLiteStore) {
        let container = try makeMemoryContainer(PlanItem.self)
        let context = ModelContext(container)
        for index in 0..<10 {
            context.insert(
                PlanItem(
                    a: index, b: 9 - index, name: "a\(index)", note: index.isMultiple(of: 2) ? "even" : nil,
                    ratio: Double(index) / 2))
        }
        try context.save()
        return (context, try sqliteStore(container))
    }

    func names(_ context: ModelContext, _ descriptor: FetchDescriptor<PlanItem>) throws -> [String] {
        try context.fetch(descriptor).map(\.name)
    }

    func sorted(_ predicate: Predicate<PlanItem>) -> FetchDescriptor<PlanItem> {
        FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.a)])
    }

    @Test func aRepeatedFetchIsNotTranslatedAgain() throws {
        let (context, store) = try savedItems()
        func fetch(_ limit: Int) throws -> [String] {
            try names(context, sorted(#Predicate { $0.a < limit }))
        }
        let before = store.translations.load(ordering: .relaxed)
        #expect(try fetch(3) == ["a0", "a1", "a2"])
        #expect(store.translations.load(ordering: .relaxed) == before + 1)
        // A new predicate of the same shape with the same constant (its variables are new) uses the same plan; so
        // does a literal, which is a constant as a captured value is.
        #expect(try fetch(3) == ["a0", "a1", "a2"])
        #expect(try context.fetch(sorted(#Predicate { $0.a < 3 })).count == 3)
        #expect(store.translations.load(ordering: .relaxed) == before + 1)

        let counted = FetchDescriptor<PlanItem>(predicate: #Predicate { $0.b > 4 })
        #expect(try context.fetchCount(counted) == 5)
        #expect(try context.fetchCount(counted) == 5)
        #expect(try context.fetchIdentifiers(counted).count == 5)
        #expect(
            store.translations.load(ordering: .relaxed) == before + 2,
            "a count and the identifiers read no properties: one request shape")
    }

    @Test func deleteWhereTranslatesOnce() throws {
        let (context, store) = try savedItems()
        let before = store.translations.load(ordering: .relaxed)
        try context.delete(model: PlanItem.self, where: #Predicate { $0.a >= 5 })
        #expect(store.translations.load(ordering: .relaxed) == before + 1)
        try context.save()
        #expect(try names(context, FetchDescriptor(sortBy: [SortDescriptor(\.a)])) == ["a0", "a1", "a2", "a3", "a4"])
    }

    @Test func sameShapeWithOtherConstantsSelectsItsOwnRows() throws {
        let (context, _) = try savedItems()
        for limit in [3, 7, 3, 0, 10] {
            #expect(try names(context, sorted(#Predicate { $0.a < limit })) == (0..<limit).map { "a\($0)" })
        }
        // `nil` is SQL's NULL, a value a bound parameter.
        for note in [nil, "even", nil, "odd"] as [String?] {
            let expected =
                note == nil ? ["a1", "a3", "a5", "a7", "a9"] : note == "even" ? ["a0", "a2", "a4", "a6", "a8"] : []
            #expect(try names(context, sorted(#Predicate { $0.note == note })) == expected)
        }
        // NaN is stored as NULL and equals nothing; a number is bound.
        for ratio in [Double.nan, 1.5, .nan, 0] {
            let expected = ratio.isNaN ? [] : ["a\(Int(ratio * 2))"]
            #expect(try names(context, sorted(#Predicate { $0.ratio == ratio })) == expected)
        }
        for flag in [true, false, true] {
            #expect(try context.fetch(sorted(#Predicate { _ in flag })).count == (flag ? 10 : 0))
        }
        for names in [["a1", "a2"], [], ["a9"], ["a1", "a2", "a3"]] {
            #expect(try self.names(context, sorted(#Predicate { names.contains($0.name) })) == names)
        }
    }

    @Test func constantsThatSwiftCallsEqualButPredicatesTellApartAreNotConfused() throws {
        let (context, _) = try savedItems()
        // Canonically equivalent, so `==` between them holds, but their UTF-8 lengths (2 and 3) differ.
        for text in ["\u{E9}", "e\u{301}", "\u{E9}"] {
            let expected = text.utf8.count == 2 ? ["a2"] : ["a3"]
            #expect(try names(context, sorted(#Predicate { $0.a == text.utf8.count })) == expected)
        }
        // 0.0 == -0.0, but their reciprocals are infinities of opposite signs.
        for zero in [0.0, -0.0] {
            let expected = zero.sign == .minus ? [] : ["a9"]
            #expect(try names(context, sorted(#Predicate { $0.ratio * (1 / zero) > 0 && $0.a == 9 })) == expected)
        }
    }

    @Test func shapesThatPrintAlikeStayApart() throws {
        let (_, log) = try capturingLog {
            let (context, _) = try savedItems()
            let five = 5
            // One node type, another operator.
            #expect(try names(context, sorted(#Predicate { $0.a < five })).count == 5)
            #expect(try names(context, sorted(#Predicate { $0.a > five })) == ["a6", "a7", "a8", "a9"])
            #expect(try names(context, sorted(#Predicate { $0.a + 1 == five })) == ["a4"])
            #expect(try names(context, sorted(#Predicate { $0.a - 1 == five })) == ["a6"])
            // One type, another key path.
            #expect(try names(context, sorted(#Predicate { $0.a == five })) == ["a5"])
            #expect(try names(context, sorted(#Predicate { $0.b == five })) == ["a4"])
            // Sorts by other key paths and orders.
            #expect(try names(context, FetchDescriptor(sortBy: [SortDescriptor(\.a)])).first == "a0")
            #expect(try names(context, FetchDescriptor(sortBy: [SortDescriptor(\.a, order: .reverse)])).first == "a9")
            #expect(try names(context, FetchDescriptor(sortBy: [SortDescriptor(\.b)])).first == "a9")
            // A variable of a closure is not the model's.
            #expect(try context.fetch(sorted(#Predicate { item in [1, 2].contains { $0 == item.a } })).count == 2)
        }
        #expect(
            log.count == 1
                && log[0].hasPrefix(
                    "SwiftData warning: part of a predicate on PlanItem is evaluated in memory (Array<Int> is not a collection stored in the row)"
                ), "\(log)")
    }

    @Test func windowsAreBoundPerRequest() throws {
        let (context, store) = try savedItems()
        let before = store.translations.load(ordering: .relaxed)
        for page in 0..<4 {
            var descriptor = FetchDescriptor<PlanItem>(sortBy: [SortDescriptor(\.a)])
            descriptor.fetchOffset = page * 3
            descriptor.fetchLimit = 3
            #expect(try names(context, descriptor) == (page * 3..<min(page * 3 + 3, 10)).map { "a\($0)" })
            #expect(try context.fetchCount(descriptor) == min(3, 10 - page * 3))
        }
        #expect(
            store.translations.load(ordering: .relaxed) == before + 1,
            "a fetch and its count, each prepared once around one translation")
        // A limit alone, an offset alone and neither are other shapes, of the same translation.
        var limited = FetchDescriptor<PlanItem>(sortBy: [SortDescriptor(\.a)])
        limited.fetchLimit = 2
        #expect(try names(context, limited) == ["a0", "a1"])
        var offset = FetchDescriptor<PlanItem>(sortBy: [SortDescriptor(\.a)])
        offset.fetchOffset = 8
        #expect(try names(context, offset) == ["a8", "a9"])
        #expect(try names(context, FetchDescriptor(sortBy: [SortDescriptor(\.a)])).count == 10)
        limited.fetchLimit = -1
        #expect(try names(context, limited) == [], "a negative limit is none, as before")
        #expect(store.translations.load(ordering: .relaxed) == before + 1)
    }

    @Test func requestsThatDifferAroundThePredicateShareItsTranslation() throws {
        let (context, store) = try savedItems()
        let before = store.translations.load(ordering: .relaxed)
        let low = 3
        var descriptor = sorted(#Predicate { $0.a < low && $0.note != nil })
        descriptor.fetchLimit = 1
        #expect(try names(context, descriptor) == ["a0"])
        descriptor.fetchLimit = nil
        #expect(try names(context, descriptor) == ["a0", "a2"])
        #expect(try context.fetchCount(descriptor) == 2)
        descriptor.fetchOffset = 1
        #expect(try names(context, descriptor) == ["a2"])
        #expect(try context.fetchCount(descriptor) == 1)
        descriptor.propertiesToFetch = [\.name]
        #expect(try names(context, descriptor) == ["a2"])
        #expect(store.translations.load(ordering: .relaxed) == before + 1, "one predicate and sort: one translation")
        // Batches load their models by key, a request of its own (no predicate, no sort).
        #expect(try context.fetch(descriptor, batchSize: 1).map(\.name) == ["a2"])
        let batched = store.translations.load(ordering: .relaxed)
        // Another constant, another sort, another predicate: translations of their own, with their own results.
        let high = 6
        #expect(try names(context, sorted(#Predicate { $0.a < high && $0.note != nil })) == ["a0", "a2", "a4"])
        let none: String? = nil
        #expect(try names(context, sorted(#Predicate { $0.a < low && $0.note == none })) == ["a1"])
        var reversed = FetchDescriptor<PlanItem>(
            predicate: #Predicate<PlanItem> { $0.a < low && $0.note != nil },
            sortBy: [SortDescriptor(\.a, order: .reverse)])
        #expect(try names(context, reversed) == ["a2", "a0"])
        reversed.fetchLimit = 1
        #expect(try names(context, reversed) == ["a2"])
        #expect(store.translations.load(ordering: .relaxed) == batched + 3)
    }

    @Test func propertiesToFetchAndPendingChangesKeepTheirMeaning() throws {
        let (context, _) = try savedItems()
        var partial = sorted(#Predicate { $0.a < 2 })
        partial.propertiesToFetch = [\.name]
        #expect(try names(context, partial) == ["a0", "a1"])
        #expect(try context.fetch(sorted(#Predicate { $0.a < 2 })).map(\.b) == [9, 8])
        context.insert(PlanItem(a: -1, b: 0, name: "new"))
        var stored = sorted(#Predicate { $0.a < 2 })
        stored.includePendingChanges = false
        #expect(try names(context, stored) == ["a0", "a1"])
        #expect(try names(context, sorted(#Predicate { $0.a < 2 })) == ["new", "a0", "a1"])
    }

    @Test func aPlanIsOneObjectPerShape() throws {
        let (context, store) = try savedItems()
        let entity = try context.binding(for: PlanItem.self).entity
        func plan(_ predicate: Predicate<PlanItem>, limit: Int? = nil) -> AnyObject? {
            var request = FetchRequest<PlanItem>(entity: entity, predicate: predicate, properties: [])
            request.fetchLimit = limit
            return store.prepare(request).prepared
        }
        let one = 1
        let two = 2
        let first = plan(#Predicate { $0.a == one })
        #expect(first != nil && first === plan(#Predicate { $0.a == one }))
        #expect(first !== plan(#Predicate { $0.a == two }))
        #expect(first !== plan(#Predicate { $0.b == one }))
        #expect(first !== plan(#Predicate { $0.a == one }, limit: 1))
        #expect(plan(#Predicate { $0.a == one }, limit: 1) === plan(#Predicate { $0.a == one }, limit: 5))
        // Constants of each kind a fingerprint holds unboxed: equal values share a plan, others do not.
        let even: String? = "even"
        let none: String? = nil
        let evenAgain: String? = "even"
        #expect(plan(#Predicate { $0.note == even }) === plan(#Predicate { $0.note == evenAgain }))
        #expect(plan(#Predicate { $0.note == even }) !== plan(#Predicate { $0.note == none }))
        let half = 0.5
        let alsoHalf = 0.5
        let zero = 0.0
        #expect(plan(#Predicate { $0.ratio == half }) === plan(#Predicate { $0.ratio == alsoHalf }))
        #expect(plan(#Predicate { $0.ratio == half }) !== plan(#Predicate { $0.ratio == zero }))
        let yes = true
        let no = false
        #expect(plan(#Predicate { _ in yes }) !== plan(#Predicate { _ in no }))
        #expect(plan(#Predicate { $0.a < one }) !== plan(#Predicate { $0.a > one }), "another operator")
    }

    @Test func sortsShareAPlanOnlyWithTheSameKeyPathOrderAndComparator() throws {
        let (context, store) = try savedItems()
        let entity = try context.binding(for: PlanItem.self).entity
        func plan(_ sort: SortDescriptor<PlanItem>...) -> AnyObject? {
            var request = FetchRequest<PlanItem>(entity: entity, properties: [])
            request.sortBy = sort
            return store.prepare(request).prepared
        }
        let byA = plan(SortDescriptor(\.a))
        #expect(byA != nil && byA === plan(SortDescriptor(\.a)), "a new descriptor of the same sort")
        #expect(byA !== plan(SortDescriptor(\.a, order: .reverse)))
        #expect(byA !== plan(SortDescriptor(\.b)))
        #expect(byA !== plan(SortDescriptor(\.a), SortDescriptor(\.b)))
        #expect(plan(SortDescriptor(\.a), SortDescriptor(\.b)) !== plan(SortDescriptor(\.b), SortDescriptor(\.a)))
        // A `String` (or `String?`) sorted through a string comparator is another sort than through `Comparable`.
        let lexical = String.StandardComparator.lexical
        let byName = plan(SortDescriptor(\.name))
        #expect(byName === plan(SortDescriptor(\.name)))
        #expect(byName !== plan(SortDescriptor(\.name, comparator: lexical)))
        #expect(plan(SortDescriptor(\.name, comparator: lexical)) === plan(SortDescriptor(\.name, comparator: lexical)))
        #expect(plan(SortDescriptor(\.note)) !== plan(SortDescriptor(\.note, comparator: lexical)))
        #expect(plan(SortDescriptor(\.note, comparator: lexical)) !== plan(SortDescriptor(\.name, comparator: lexical)))
        // Each returns its own order.
        let descending = try names(
            context, FetchDescriptor(sortBy: [SortDescriptor(\.name, comparator: lexical, order: .reverse)]))
        #expect(descending == (0..<10).reversed().map { "a\($0)" })
        #expect(try names(context, FetchDescriptor(sortBy: [SortDescriptor(\.name)])) == (0..<10).map { "a\($0)" })
    }

    @Test func aMigratedStoreDoesNotReuseTheOldStoresPlans() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(PlanItem.self, in: directory))
            context.insert(PlanItem(a: 1, b: 2, name: "kept"))
            try context.save()
            #expect(try names(context, sorted(#Predicate { $0.a == 1 })) == ["kept"])
        }
        // The same store file opened again with more models is another store, with plans of its own.
        let container = try makeContainer(PlanItem.self, Counter.self, in: directory)
        let context = ModelContext(container)
        let store = try sqliteStore(container)
        let before = store.translations.load(ordering: .relaxed)
        #expect(try names(context, sorted(#Predicate { $0.a == 1 })) == ["kept"])
        #expect(store.translations.load(ordering: .relaxed) == before + 1)
    }
}

/// Requests limited to keys (batches, `enumerate`) reuse one statement per number of keys, binding each batch's keys.
@Suite struct KeyedFetchTests {
    @Test func batchesOfEverySizeLoadTheirOwnRowsInOrder() throws {
        let (_, log) = try capturingLog {
            let container = try makeMemoryContainer(PlanItem.self)
            let context = ModelContext(container)
            for index in 0..<10 { context.insert(PlanItem(a: index, b: 9 - index, name: "a\(index)")) }
            try context.save()
            let store = try sqliteStore(container)
            // Keys in descending order (sorted by `b`), then ascending, through batches of 3, 3, 3 and 1.
            for sort in [SortDescriptor<PlanItem>(\.b), SortDescriptor(\.a)] {
                let fresh = ModelContext(container)
                let descriptor = FetchDescriptor(predicate: #Predicate { $0.a != 4 }, sortBy: [sort])
                let expected = try fresh.fetch(descriptor).map(\.name)
                let batched = try ModelContext(container).fetch(descriptor, batchSize: 3)
                #expect(batched.map(\.name) == expected)
                var enumerated: [String] = []
                try ModelContext(container).enumerate(descriptor, batchSize: 2) { enumerated.append($0.name) }
                #expect(enumerated == expected)
            }
            #expect(store.translations.load(ordering: .relaxed) > 0)
            // A row deleted since the keys were read leaves its place to the context's model for it, as before.
            let reader = ModelContext(container)
            let batched = try reader.fetch(FetchDescriptor<PlanItem>(sortBy: [SortDescriptor(\.a)]), batchSize: 4)
            try context.delete(model: PlanItem.self, where: #Predicate { $0.a == 1 })
            try context.save()
            #expect(batched.count == 10)
            #expect(batched[0].name == "a0" && batched[2].name == "a2" && batched[9].name == "a9")
        }
        #expect(
            log == [
                "SwiftData error: a batched fetch of PlanItem found 1 of 4 rows gone since the fetch (deleted by another context or process); their models' values cannot be read"
            ], "\(log)")
    }
}
