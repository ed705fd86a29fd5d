import Foundation
import SwiftData
import SwiftDataCore
import Testing

/// Core's lightweight-change rules on a store that is not SQLite: the store only answers what its tables hold and
/// records the changes it is asked to make, and Core decides which changes are lightweight.
@Suite struct SchemaDiffTests {
    /// A store whose tables are described by its answers, recording the tables it creates and the migrations it
    /// applies.
    struct AnsweringStore: SchemaMigrationTarget {
        var recorded: StoredSchema
        var rows: Int64 = 0
        var nils: Int64 = 0
        var columns: [String] = []
        var tables: Set<String> = []
        var keepsNoValue = false
        var duplicateValues: [String] = []
        var created: [String] = []
        var migrations: [EntityMigration] = []
        var indexed: [String] = []

        init(recording models: [any PersistentModel.Type]) {
            recorded = StoredSchema(entities: [])
            recorded = StoredSchema(Schema(models), storage: storage)
            columns = recorded.entities.first?.attributes.map(\.name) ?? []
        }

        func storage(of attribute: Schema.Attribute) -> String { "value" }
        func acceptsNoValue(storage: String) -> Bool { keepsNoValue }
        func rowCount(of table: String) throws -> Int64 { rows }
        func nilCount(of table: String, column: String) throws -> Int64 { nils }
        func columnNames(of table: String) throws -> [String] { columns }
        func hasTable(_ table: String) throws -> Bool { tables.contains(table) }
        func duplicates(in table: String, columns: [String]) throws -> [String] { duplicateValues }
        mutating func createTable(for entity: Schema.Entity) throws { created.append(entity.name) }
        mutating func migrateTable(_ migration: EntityMigration) throws { migrations.append(migration) }
        mutating func createIndexes(of entity: Schema.Entity) throws { indexed.append(entity.name) }
        func stageStore(for schema: Schema) throws -> (configuration: any DataStoreConfiguration, store: any RowStore) {
            throw SwiftDataError.storeError
        }
    }

    @Test func addedPropertiesBecomeColumnsFilledWithTheirDefault() throws {
        var store = AnsweringStore(recording: [Shop.Item.self])
        store.rows = 3
        try LightweightMigration.migrate(&store, to: Schema([ShopAdded.Item.self]))
        let migration = try #require(store.migrations.first)
        #expect(store.migrations.count == 1 && migration.changesColumns)
        #expect(migration.columns.map(\.name) == ["name", "price", "note", "stock", "barcode"])
        #expect(migration.columns.map(\.source) == ["name", "price", "note", nil, nil])
        #expect(migration.columns[3].fill == .int64(7) && migration.columns[4].fill == nil)
        #expect(store.indexed == ["Item"], "the table changed, so its indexes are made again")
        #expect(store.recorded == StoredSchema(Schema([ShopAdded.Item.self]), storage: store.storage))

        // Once recorded, the same models change nothing.
        try LightweightMigration.migrate(&store, to: Schema([ShopAdded.Item.self]))
        #expect(store.migrations.count == 1)
    }

    @Test func renamesTakeTheirValuesFromTheOriginalColumn() throws {
        var store = AnsweringStore(recording: [NotesV1.Note.self])
        try LightweightMigration.migrate(&store, to: Schema([NotesV2.Note.self]))
        let migration = try #require(store.migrations.first)
        #expect(migration.columns.map(\.name) == ["title", "text", "words"])
        #expect(migration.columns.map(\.source) == ["title", "body", nil])
        #expect(migration.changesIndexes, "the title became unique")
    }

    @Test func aRequiredPropertyWithoutValuesIsRefusedUnlessTheStoreKeepsNoValue() throws {
        var store = AnsweringStore(recording: [Shop.Item.self])
        store.rows = 2
        store.nils = 1
        let error = try #require(throws: SwiftDataError.self) {
            try LightweightMigration.migrate(&store, to: Schema([ShopRequiredWithoutDefault.Item.self]))
        }
        #expect(error == .loadIssueModelContainer)
        #expect("\(error)".contains("Item.note") && "\(error)".contains("became required"))
        #expect(
            store.migrations.isEmpty && store.recorded == StoredSchema(Schema([Shop.Item.self]), storage: store.storage)
        )

        // Without models lacking a value, or on a store that can keep none, it is lightweight.
        store.nils = 0
        try LightweightMigration.migrate(&store, to: Schema([ShopRequiredWithoutDefault.Item.self]))
        var keeping = AnsweringStore(recording: [Shop.Item.self])
        keeping.rows = 2
        keeping.nils = 1
        keeping.keepsNoValue = true
        try LightweightMigration.migrate(&keeping, to: Schema([ShopRequiredWithoutDefault.Item.self]))
        #expect(store.migrations.count == 1 && keeping.migrations.count == 1)
    }

    @Test func typeChangesDuplicatesAndForeignTablesAreRefused() throws {
        var retyped = AnsweringStore(recording: [Shop.Item.self])
        retyped.rows = 2
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try LightweightMigration.migrate(&retyped, to: Schema([ShopRetyped.Item.self]))
        }
        #expect(retyped.migrations.isEmpty)

        var duplicated = AnsweringStore(recording: [Shop.Item.self])
        duplicated.duplicateValues = ["name = a (2 models)"]
        let error = try #require(throws: SwiftDataError.self) {
            try LightweightMigration.migrate(&duplicated, to: Schema([ShopUnique.Item.self]))
        }
        #expect("\(error)".contains("name = a (2 models)"))
        #expect(duplicated.indexed.isEmpty)

        // A store that records nothing yet creates the models' tables, unless one exists that it did not create.
        var fresh = AnsweringStore(recording: [])
        try LightweightMigration.migrate(&fresh, to: Schema([Shop.Item.self]), checkingForeignTables: true)
        #expect(fresh.created == ["Item"])
        var foreign = AnsweringStore(recording: [])
        foreign.tables = ["Item"]
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try LightweightMigration.migrate(&foreign, to: Schema([Shop.Item.self]), checkingForeignTables: true)
        }
        #expect(foreign.created.isEmpty)
    }
}
