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

    /// Sets up one repetition of `workload` on the store at `url` (a copy of its template, or no file).
    /// A workload's timed query: it runs in the given context and folds what it reads into the digest.
    typealias Query = (ModelContext, inout Int) throws -> Void

    static func prepare(_ workload: Workload, rows: Int, store url: URL) throws -> Trial {
        let container = try container(for: workload.template ?? .records, at: url)
        let context = ModelContext(container)
        var digest = 0

        switch workload {
        case .insert:
            try warmUp(FetchDescriptor<Record>(), in: context) { RecordValues($0).digest }
            let values = SampleData.records(rows)
            return Trial(
                run: {
                    for value in values { context.insert(Record(value)) }
                    try context.save()
                },
                check: { try storedDigest(container) })

        case .fetchAll:
            try warmUp(FetchDescriptor<Record>(), in: context) { RecordValues($0).digest }
            return Trial(
                run: {
                    for record in try context.fetch(FetchDescriptor<Record>()) {
                        digest &+= RecordValues(record).digest
                    }
                },
                check: { digest })

        case .fetchIndexed:
            let group = SampleData.selectedGroup
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.group == group })
            let query: Query = { context, digest in
                for record in try context.fetch(descriptor) { digest &+= RecordValues(record).digest }
            }
            try warmUp(descriptor, in: context, running: query)
            return Trial(run: { try query(context, &digest) }, check: { digest })

        case .count:
            let limit = SampleData.amountLimit
            let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.amount < limit })
            let query: Query = { context, digest in digest = try context.fetchCount(descriptor) }
            try warmUp(descriptor, in: context, running: query)
            return Trial(run: { try query(context, &digest) }, check: { digest })

        case .updateAll:
            let records = try context.fetch(FetchDescriptor<Record>())
            return Trial(
                run: {
                    for record in records { record.amount += 1 }
                    try context.save()
                },
                check: { try storedDigest(container) })

        case .deleteAll:
            let records = try context.fetch(FetchDescriptor<Record>())
            return Trial(
                run: {
                    for record in records { context.delete(record) }
                    try context.save()
                },
                check: { try storedDigest(container) })

        case .changeOne:
            let records = try context.fetch(FetchDescriptor<Record>())
            // One change saved first, so that the timed save is not the first of the context.
            records[0].amount += 1
            try context.save()
            // The N models stay registered through the timed part, as the raw side keeps its N records.
            let changed = records.count / 2
            return Trial(
                run: {
                    records[changed].amount += 1
                    try context.save()
                },
                check: { try storedDigest(container) })

        case .graph:
            try warmUp(FetchDescriptor<Parent>(), in: context) { $0.rank &+ ($0.children.first?.value ?? 0) }
            return Trial(
                run: {
                    for parent in try context.fetch(FetchDescriptor<Parent>()) {
                        digest = digest &* 31 &+ parent.rank
                        for child in parent.children { digest = digest &* 31 &+ child.value }
                    }
                },
                check: { digest })

        case .enumerate:
            // One long-lived context walks every record, reading each and keeping none.
            try warmUp(FetchDescriptor<Record>(), in: context) { RecordValues($0).digest }
            return Trial(
                run: {
                    try context.enumerate(FetchDescriptor<Record>()) { record in
                        digest &+= RecordValues(record).digest
                    }
                },
                check: { digest })

        case .pages:
            let query: Query = { context, digest in
                for page in 0..<SampleData.pageCount {
                    var descriptor = FetchDescriptor<Record>(sortBy: [SortDescriptor(\.key)])
                    descriptor.fetchOffset = page * SampleData.pageSize
                    descriptor.fetchLimit = SampleData.pageSize
                    for record in try context.fetch(descriptor) {
                        digest = digest &* 31 &+ RecordValues(record).digest
                    }
                }
            }
            try warmUp(FetchDescriptor<Record>(sortBy: [SortDescriptor(\.key)]), in: context, running: query)
            return Trial(run: { try query(context, &digest) }, check: { digest })

        case .fetchHierarchy:
            try warmUp(FetchDescriptor<Asset>(), in: context) { AssetValues($0).digest }
            return Trial(
                run: {
                    for asset in try context.fetch(FetchDescriptor<Asset>()) { digest &+= AssetValues(asset).digest }
                },
                check: { digest })

        case .fetchDuringSave:
            // Another thread fetches the 1% again and again while this context saves N new models, each time in a
            // new context, as workload 3's timed context starts empty; its first fetch is setup.
            let group = SampleData.selectedGroup
            let fetches = try ConcurrentFetches {
                let descriptor = FetchDescriptor<Record>(predicate: #Predicate { $0.group == group })
                return { try ModelContext(container).fetch(descriptor).reduce(0) { $0 &+ RecordValues($1).digest } }
            }
            for values in SampleData.records(rows, after: rows) { context.insert(Record(values)) }
            return Trial(
                run: { try fetches.during { try context.save() } },
                check: { try storedDigest(container) },
                latencies: { try fetches.latencies() })
        }
    }

    /// Runs a workload's query once for one row, in a context of its own, and reads that model: the store's
    /// reading connection opens, its schema is read, and Swift's one-time work for the query's types and the
    /// model's properties (type lookups, key paths) happens before the timed part, as in a program that has run
    /// for a while. The timed context starts empty. (The raw side prepares a statement for the same reason.)
    private static func warmUp<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, in context: ModelContext, read: (T) -> Int
    ) throws {
        var descriptor = descriptor
        descriptor.fetchLimit = 1
        let scratch = ModelContext(context.container)
        try withExtendedLifetime(scratch) {
            for model in try scratch.fetch(descriptor) { _ = read(model) }
        }
        descriptor.fetchLimit = 0
        _ = try context.fetch(descriptor)
    }

    /// Warms up as above, and runs a small workload's whole timed query once in a context of its own, so that the
    /// plan and statement of the timed query itself are made and prepared before the timed part, as the raw side
    /// prepares its statement. (Workloads that read every row keep the one-row warm-up: reading and freeing N models
    /// beforehand would leave a heap the raw side does not have.)
    private static func warmUp<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, in context: ModelContext, running query: Query
    ) throws {
        try warmUp(descriptor, in: context) { _ in 0 }
        let scratch = ModelContext(context.container)
        var scratchDigest = 0
        try withExtendedLifetime(scratch) { try query(scratch, &scratchDigest) }
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
