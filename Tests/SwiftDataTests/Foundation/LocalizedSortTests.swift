import Foundation
import SwiftData
import Testing

/// A sort descriptor type of a query library that wraps Foundation's, as third-party libraries do: generic over
/// any compared type, with the comparator passed in as a `String.StandardComparator` value.
private struct WrappedSort<Compared> {
    let build: (SortOrder) -> SortDescriptor<Compared>

    init(
        _ keyPath: any KeyPath<Compared, String> & Sendable,
        comparator: String.StandardComparator = .localizedStandard, order: SortOrder = .forward
    ) {
        build = { SortDescriptor<Compared>(keyPath, comparator: comparator, order: $0) }
    }

    /// The same with the comparator written in the call, as a library's own code may write it.
    init(localizedStandard keyPath: any KeyPath<Compared, String> & Sendable) {
        build = { SortDescriptor<Compared>(keyPath, comparator: .localizedStandard, order: $0) }
    }
}

/// A descriptor built in code generic over models.
private func localizedSort<M: PersistentModel>(
    _ keyPath: any KeyPath<M, String> & Sendable, order: SortOrder
) -> SortDescriptor<M> {
    SortDescriptor(keyPath, comparator: .localized, order: order)
}

/// `.localizedStandard` and `.localized` sorts, in every form app and library code writes them, run in SQL with
/// the collations that call ICU, and order exactly as `localizedStandardCompare` / `localizedCompare` do.
@Suite struct LocalizedSortTests {
    static let names = ["file10", "File9", "file9", "b", "A", "a", "ä", "Zebra", "é", "10", "9", "Ｂ"]

    private func context() throws -> ModelContext {
        let context = ModelContext(try makeMemoryContainer(Sample.self))
        for name in Self.names {
            let sample = Sample()
            sample.string = name
            sample.optionalString = name
            context.insert(sample)
        }
        try context.save()
        return context
    }

    /// The strings a fetch sorted by `descriptor` returns, checking that it ran as one `SELECT` ordered in SQL by
    /// `orderBy`.
    private func sortedInSQL(
        _ descriptor: SortDescriptor<Sample>, _ context: ModelContext, orderBy: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let log = StatementLog(context.container)
        let strings = try context.fetch(FetchDescriptor(sortBy: [descriptor])).map(\.string)
        #expect(log.selects.count == 1, sourceLocation: sourceLocation)
        #expect(
            log.selects.allSatisfy { $0.hasSuffix(" ORDER BY \(orderBy), \"_pk\"") }, sourceLocation: sourceLocation)
        return strings
    }

    private func icuOrder(standard: Bool, reverse: Bool = false) -> [String] {
        let sorted = Self.names.sorted {
            (standard ? $0.localizedStandardCompare($1) : $0.localizedCompare($1)) == .orderedAscending
        }
        return reverse ? sorted.reversed() : sorted
    }

    @Test func modelDescriptorsRunInSQLInICUOrder() throws {
        let context = try context()
        let standard = #""string" COLLATE SWIFTDATA_LOCALIZED_STANDARD"#
        let localized = #""string" COLLATE SWIFTDATA_LOCALIZED"#
        #expect(
            try sortedInSQL(SortDescriptor(\Sample.string, comparator: .localizedStandard), context, orderBy: standard)
                == icuOrder(standard: true))
        #expect(
            try sortedInSQL(
                SortDescriptor(\Sample.string, comparator: .localizedStandard, order: .reverse), context,
                orderBy: standard + " DESC") == icuOrder(standard: true, reverse: true))
        #expect(
            try sortedInSQL(SortDescriptor<Sample>(\.string, comparator: .localized), context, orderBy: localized)
                == icuOrder(standard: false))
        #expect(
            try sortedInSQL(
                SortDescriptor(\Sample.optionalString, comparator: .localized, order: .reverse), context,
                orderBy: #""optionalString" COLLATE SWIFTDATA_LOCALIZED DESC"#)
                == icuOrder(standard: false, reverse: true))
        #expect(
            try sortedInSQL(localizedSort(\Sample.string, order: .forward), context, orderBy: localized)
                == icuOrder(standard: false))
        let comparator = LocalizedStringComparator.localizedStandard
        #expect(
            try sortedInSQL(SortDescriptor(\Sample.string, comparator: comparator), context, orderBy: standard)
                == icuOrder(standard: true))
    }

    @Test func libraryDescriptorsGenericOverAnyTypeRunInSQL() throws {
        let context = try context()
        // Written in the library's generic code: the package's comparator, in ICU order.
        #expect(
            try sortedInSQL(
                WrappedSort<Sample>(localizedStandard: \.string).build(.reverse), context,
                orderBy: #""string" COLLATE SWIFTDATA_LOCALIZED_STANDARD DESC"#)
                == icuOrder(standard: true, reverse: true))
        // Passed through a `String.StandardComparator` parameter: on Linux that value is `.lexical`, and the store
        // sorts lexically, in SQL, as the README says.
        let lexical = Self.names.sorted { String.StandardComparator.lexical.compare($0, $1) == .orderedAscending }
        #expect(
            try sortedInSQL(
                WrappedSort<Sample>(\.string).build(.forward), context,
                orderBy: #""string" COLLATE SWIFTDATA_LEXICAL"#) == lexical)
        #expect(
            try sortedInSQL(
                WrappedSort<Sample>(\.string, comparator: .localized).build(.reverse), context,
                orderBy: #""string" COLLATE SWIFTDATA_LEXICAL DESC"#) == lexical.reversed())
    }

    @Test func sortsThroughRelationshipsRunInSQL() throws {
        let context = ModelContext(try makeMemoryContainer(Node.self))
        for name in Self.names { context.insert(Node(name: "child", parent: Node(name: name))) }
        try context.save()
        let log = StatementLog(context.container)
        let children = try context.fetch(
            FetchDescriptor(
                predicate: #Predicate<Node> { $0.parent != nil },
                sortBy: [SortDescriptor(\Node.parent?.name, comparator: .localizedStandard)]))
        #expect(children.compactMap(\.parent?.name) == icuOrder(standard: true))
        #expect(log.selects.first?.contains("COLLATE SWIFTDATA_LOCALIZED_STANDARD") == true)
    }

    @Test func inMemorySortsOrderAsTheStoreDoes() throws {
        let context = try context()
        let samples = try context.fetch(FetchDescriptor<Sample>())
        for descriptor in [
            SortDescriptor(\Sample.string, comparator: .localizedStandard),
            SortDescriptor(\Sample.string, comparator: .localized, order: .reverse),
        ] {
            #expect(
                samples.sorted(using: descriptor).map(\.string)
                    == (try context.fetch(FetchDescriptor(sortBy: [descriptor])).map(\.string)))
        }
        // Unsaved changes make the fetch sort in memory, in the same order.
        let extra = Sample()
        extra.string = "file1"
        context.insert(extra)
        let descriptor = SortDescriptor(\Sample.string, comparator: .localizedStandard)
        let withPending = try context.fetch(FetchDescriptor(sortBy: [descriptor])).map(\.string)
        #expect(withPending == (Self.names + ["file1"]).sorted { $0.localizedStandardCompare($1) == .orderedAscending })
    }

    @Test func comparatorsWhereAnySortComparatorIsExpected() {
        struct Named { var name: String }
        let people = Self.names.map(Named.init)
        #expect(
            people.sorted(using: KeyPathComparator(\Named.name, comparator: .localizedStandard)).map(\.name)
                == icuOrder(standard: true))
        #expect(Self.names.sorted(using: .localized) == icuOrder(standard: false))
        #expect(
            people.sorted(using: SortDescriptor(\Named.name, comparator: .localizedStandard, order: .reverse))
                .map(\.name) == icuOrder(standard: true, reverse: true))
        #expect(LocalizedStringComparator.localizedStandard.compare("file9", "file10") == .orderedAscending)
        #expect(LocalizedStringComparator.localizedStandard.compare("a", "B") == .orderedAscending)
    }

    @Test func standardComparatorValuesAreLexicalOnLinux() {
        // Foundation on Linux cannot make another `String.StandardComparator`; stored as one, the names are lexical.
        let stored: String.StandardComparator = .localizedStandard
        #expect(stored == .lexical)
        #expect(String.StandardComparator.localized == .lexical)
        #expect(SortDescriptor(\Sample.string, comparator: .lexical).stringComparator == .lexical)
        #expect(SortDescriptor(\Sample.string, comparator: .localizedStandard).stringComparator == nil)
    }
}
