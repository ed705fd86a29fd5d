import Foundation

/// Fetches and deletes the history of stores (a container's, or one store's) for a `HistoryDescriptor`: what its
/// predicate says in terms a store evaluates runs in each store, the rest in memory, then the transactions of all
/// stores are merged, sorted and limited.
package struct HistoryQuery {
    let stores: [any RowStore]
    /// The entity of a name, with its model type, to decode changes with.
    let entityNamed: (String) -> Schema.Entity?

    /// The history of a container's stores.
    init(container: ModelContainer) {
        stores = container.stores
        entityNamed = { container.binding(forEntityName: $0)?.entity }
    }

    /// The history of one store, whose models `schema` describes.
    package init(store: any RowStore, schema: Schema) {
        stores = [store]
        entityNamed = { schema.entitiesByName[$0] }
    }

    package func fetch(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction]
    {
        let (filter, isExact) = translate(descriptor)
        let limit = descriptor.fetchLimit == 0 ? nil : Int(clamping: descriptor.fetchLimit)
        // A store can apply the limit when it selects exactly the transactions, in the final order.
        let storeLimit = isExact && descriptor.sortBy.isEmpty && stores.count == 1 ? limit : nil
        var decoder = HistoryDecoder(entityNamed: entityNamed)
        var transactions: [DefaultHistoryTransaction] = []
        for store in stores {
            let condition = filter?.condition(storeIdentifier: store.identifier)
            if condition == .constant(false) { continue }
            let request = HistoryRequest(condition: condition == .constant(true) ? nil : condition, limit: storeLimit)
            for record in try store.fetchHistory(request) {
                transactions.append(try decoder.transaction(record, store: store))
            }
        }
        if !isExact, let predicate = descriptor.predicate { transactions = try transactions.filter(predicate.evaluate) }
        if !descriptor.sortBy.isEmpty {
            transactions.sort(using: descriptor.sortBy)
        } else if stores.count > 1 {
            transactions.sort {
                ($0.timestamp, $0.storeIdentifier, $0.transactionIdentifier)
                    < ($1.timestamp, $1.storeIdentifier, $1.transactionIdentifier)
            }
        }
        if let limit, transactions.count > limit { transactions.removeLast(transactions.count - limit) }
        return transactions
    }

    package func delete(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        let (filter, isExact) = translate(descriptor)
        if isExact && descriptor.fetchLimit == 0 {
            for store in stores {
                let condition = filter?.condition(storeIdentifier: store.identifier)
                if condition == .constant(false) { continue }
                try store.deleteHistory(HistoryRequest(condition: condition == .constant(true) ? nil : condition))
            }
            return
        }
        // The predicate needs memory, or only some of the transactions go: delete those the fetch selects.
        let selected = try fetch(descriptor)
        for store in stores {
            let numbers = selected.filter { $0.storeIdentifier == store.identifier }.map(\.transactionIdentifier)
            if !numbers.isEmpty { try store.deleteHistory(HistoryRequest(condition: .numbers(numbers))) }
        }
    }

    private func translate(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>)
        -> (filter: HistoryFilter?, isExact: Bool)
    {
        guard let predicate = descriptor.predicate else { return (nil, true) }
        let translation = HistoryPredicateTranslator.translate(predicate)
        if !translation.isExact {
            Log.warningOnce(
                "part of a history predicate is evaluated in memory: it reads more than the token, transaction "
                    + "identifier, timestamp, author, store, bundle and process identifiers")
        }
        return translation
    }
}
