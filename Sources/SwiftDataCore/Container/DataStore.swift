import Foundation

/// What a container needs from a store: fetches, counts and all-or-nothing writes (internal to the package;
/// the SQLite store implements it, and a PostgreSQL store will).
package protocol DataStore: AnyObject, Sendable {
    /// A stable identifier of the store, kept in the store itself.
    var identifier: String { get }
    /// The configuration the store was opened with.
    var configuration: ModelConfiguration { get }

    /// Calls `row` for every row the request selects, with the row's primary key and a reader whose column
    /// `i + 1` holds property `request.properties[i]`.
    func fetch<T: PersistentModel>(_ request: FetchRequest<T>, row: (Int64, any _RowReader) throws -> Void) throws
    /// Which parts of the request the store runs itself (see `FetchCoverage`); the context does the rest.
    func coverage<T: PersistentModel>(of request: FetchRequest<T>) -> FetchCoverage
    /// The number of rows the request selects (limit and offset applied).
    func fetchCount<T: PersistentModel>(_ request: FetchRequest<T>) throws -> Int
    /// Runs `body` in one write transaction: every change it makes is committed together, or none is.
    func write<Result>(_ body: (any DataStoreTransaction) throws -> Result) throws -> Result
    /// Removes every row of every entity.
    func erase() throws
}

/// The writes a store offers inside a transaction.
package protocol DataStoreTransaction {
    /// Inserts the models, all of `entity`, and returns their new primary keys in order.
    func insert(_ models: [any PersistentModel], entity: Schema.Entity) throws -> [Int64]
    /// Writes the given properties of a registered model.
    func update(_ model: any PersistentModel, entity: Schema.Entity, properties: PropertyMask) throws
    /// Deletes the rows with the given keys.
    func delete(keys: [Int64], entity: Schema.Entity) throws
    /// The primary keys of the rows a request selects, read inside the transaction; exact even when the store
    /// cannot translate the whole predicate.
    func fetchKeys<T: PersistentModel>(_ request: FetchRequest<T>) throws -> [Int64]
}

/// A fetch as a store sees it.
package struct FetchRequest<T: PersistentModel> {
    package var entity: Schema.Entity
    package var predicate: Predicate<T>?
    package var sortBy: [SortDescriptor<T>] = []
    package var fetchLimit: Int?
    package var fetchOffset: Int?
    /// The property indexes to read; the row's key is always read.
    package var properties: [Int]
    /// Restricts the fetch to these primary keys.
    package var keys: [Int64]?

    package init(entity: Schema.Entity, predicate: Predicate<T>? = nil, properties: [Int]) {
        self.entity = entity
        self.predicate = predicate
        self.properties = properties
    }
}

/// The entity of a model type and the store that holds it.
package final class EntityBinding: Sendable {
    package let entity: Schema.Entity
    package let store: any DataStore
    package let storeIdentifier: String

    init(entity: Schema.Entity, store: any DataStore) {
        self.entity = entity
        self.store = store
        self.storeIdentifier = store.identifier
    }

    /// Every persisted attribute's property index, in order.
    package var attributeIndexes: [Int] { entity.orderedAttributes.map(\.index) }
}
