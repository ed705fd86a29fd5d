import SwiftData

/// Our side: each workload written as an app would write it, with `import SwiftData` and its public API only.
enum SwiftDataWorkloads {
    /// Fills a new store at `url` with a template's data.
    static func makeTemplate(_ template: Template, rows: Int, at url: URL) throws {
        let context = ModelContext(try container(for: template, at: url))
        switch template {
        case .records, .manyRecords:
            // Saved a slice at a time: the context lets go of saved models, so memory stays bounded.
            for (index, values) in SampleData.records(template.recordCount(rows: rows)).enumerated() {
                context.insert(Record(values))
                if index % 100_000 == 99_999 { try context.save() }
            }
        case .graph:
            for index in 0..<SampleData.parentCount(rows: rows) {
                let parent = Parent(name: SampleData.parentName(index), rank: index)
                context.insert(parent)
                let first = index * SampleData.childrenPerParent
                parent.children = (first..<first + SampleData.childrenPerParent).map {
                    Child(name: SampleData.childName($0), value: $0)
                }
            }
        case .hierarchy:
            for values in AssetValues.all(rows) {
                switch values.kind {
                case 1: context.insert(Stock(values))
                case 2: context.insert(Bond(values))
                default: context.insert(Asset(values))
                }
            }
        }
        try context.save()
    }

    /// What our side does for one repetition of `workload` on the store at `url` (a copy of its template, or no
    /// file); `TrialSetup` decides what runs before the timed part. A query runs in a new context each time, as the
    /// timed context of an app's fetch starts empty.
    static func plan(_ workload: Workload, rows: Int, store url: URL) throws -> Plan {
        let container = try container(for: workload.template ?? .records, at: url)
        return try plan(workload, rows: rows, container: container, stored: { try storedDigest(container) })
    }

    /// Our side's plan on any store: `stored` is the digest of the records the store holds after a write.
    static func plan(_ workload: Workload, rows: Int, container: ModelContainer, stored: @escaping () throws -> Int)
        throws -> Plan
    {
        func query(_ body: @escaping (ModelContext) throws -> Int) -> Plan {
            .query {
                let context = ModelContext(container)
                return { try body(context) }
            }
        }

        switch workload {
        case .insert:
            let context = ModelContext(container)
            let values = TrialSetup.insertedRecords(rows: rows)
            return .write(
                { range in
                    for value in values[range] { context.insert(Record(value)) }
                    try context.save()
                }, stored: stored)

        case .updateAll, .changeOne:
            // The N models stay registered through the timed part, as the raw side keeps its N records.
            let context = ModelContext(container)
            let records = try context.fetch(FetchDescriptor<Record>())
            return .write(
                { range in
                    for record in records[range] { record.amount += 1 }
                    try context.save()
                }, stored: stored)

        case .deleteAll:
            let context = ModelContext(container)
            let records = try context.fetch(FetchDescriptor<Record>())
            return .write(
                { range in
                    for record in records[range] { context.delete(record) }
                    try context.save()
                }, stored: stored)

        case .fetchAll:
            return query { context in
                try context.fetch(FetchDescriptor<Record>()).reduce(0) { $0 &+ RecordValues($1).digest }
            }

        case .fetchIndexed:
            let group = SampleData.selectedGroup
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.group == group })
            return query { context in try context.fetch(descriptor).reduce(0) { $0 &+ RecordValues($1).digest } }

        case .count:
            let limit = SampleData.amountLimit
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.amount < limit })
            return query { context in try context.fetchCount(descriptor) }

        case .graph:
            return query { context in
                try context.fetch(FetchDescriptor<Parent>()).reduce(0) { digest, parent in
                    digest
                        &+ GraphDigest.parent(
                            rank: parent.rank, name: parent.name,
                            children: parent.children.lazy.map { ($0.name, $0.value) })
                }
            }

        case .enumerate:
            // One long-lived context walks every record, reading each and keeping none.
            return query { context in
                var digest = 0
                try context.enumerate(FetchDescriptor<Record>()) { record in digest &+= RecordValues(record).digest }
                return digest
            }

        case .pages:
            let pages = (0..<SampleData.pageCount).map { page in
                var descriptor = FetchDescriptor<Record>(sortBy: [SortDescriptor(\.key)])
                descriptor.fetchOffset = page * SampleData.pageSize
                descriptor.fetchLimit = SampleData.pageSize
                return descriptor
            }
            return query { context in
                var digest = 0
                for page in pages {
                    for record in try context.fetch(page) { digest = digest &* 31 &+ RecordValues(record).digest }
                }
                return digest
            }

        case .aggregate, .groups:
            return query { try AggregateWorkloads.ours(workload, context: $0) }

        case .fetchHierarchy:
            return query { context in
                try context.fetch(FetchDescriptor<Asset>()).reduce(0) { $0 &+ AssetValues($1).digest }
            }

        case .fetchDuringSave:
            // Another thread fetches the 1% again and again while this context saves N new models, each time in a
            // new context, as workload 3's timed context starts empty; its first fetch is setup.
            let group = SampleData.selectedGroup
            let fetches = try ConcurrentFetches {
                let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.group == group })
                return { try ModelContext(container).fetch(descriptor).reduce(0) { $0 &+ RecordValues($1).digest } }
            }
            let context = ModelContext(container)
            for values in SampleData.records(rows, after: rows) { context.insert(Record(values)) }
            return .concurrent(
                Trial(
                    run: { try fetches.during { try context.save() } }, check: stored,
                    latencies: { try fetches.latencies() }))
        }
    }

    private static func container(for template: Template, at url: URL) throws -> ModelContainer {
        let configuration = ModelConfiguration(url: url)
        switch template {
        case .records, .manyRecords: return try ModelContainer(for: Record.self, configurations: configuration)
        case .graph: return try ModelContainer(for: Parent.self, Child.self, configurations: configuration)
        case .hierarchy:
            return try ModelContainer(for: Asset.self, Stock.self, Bond.self, configurations: configuration)
        }
    }

    /// The count and digest of every record the store holds, read in a new context.
    private static func storedDigest(_ container: ModelContainer) throws -> Int {
        let records = try ModelContext(container).fetch(FetchDescriptor<Record>(sortBy: [SortDescriptor(\.key)]))
        return records.reduce(records.count) { $0 &* 31 &+ RecordValues($1).digest }
    }
}

extension RecordValues {
    /// Every attribute of a model.
    init(_ record: Record) {
        self.init(
            key: record.key, group: record.group, amount: record.amount, rank: record.rank, price: record.price,
            weight: record.weight, ratio: record.ratio, name: record.name, city: record.city, note: record.note)
    }
}

extension AssetValues {
    /// Every attribute of a model of the hierarchy, by its class.
    init(_ asset: Asset) {
        self.init(kind: 0, key: asset.key, name: asset.name, price: asset.price)
        if let stock = asset as? Stock {
            kind = 1
            ticker = stock.ticker
            shares = stock.shares
        } else if let bond = asset as? Bond {
            kind = 2
            coupon = bond.coupon
            maturity = bond.maturity
        }
    }
}
