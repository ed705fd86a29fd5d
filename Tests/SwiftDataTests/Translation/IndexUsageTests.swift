import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Translated predicates and sorts can use indexes: SQLite's query plan shows it. An index on a `String` attribute
/// serves Swift's comparisons when it has the collation they use, which `#Index` and unique constraints give it.
@Suite struct IndexUsageTests {
    @Test func fetchesOnIndexedAttributesUseTheIndex() throws {
        let container = try makeMemoryContainer(Row.self)
        let context = ModelContext(container)
        Row.randomRows(count: 200, seed: 7).forEach(context.insert)
        try context.save()
        let store = try sqliteStore(container)
        try store.withDatabase { database in
            try database.execute(#"CREATE INDEX "Row_int" ON "Row" ("int")"#)
            try database.execute(#"CREATE INDEX "Row_string" ON "Row" ("string" COLLATE SWIFTDATA_STRING)"#)
            try database.execute(
                #"CREATE INDEX "Row_optionalString" ON "Row" ("optionalString" COLLATE SWIFTDATA_STRING)"#)
        }
        let entity = try context.binding(for: Row.self).entity

        func plan(_ predicate: Predicate<Row>?, sortBy: [SortDescriptor<Row>] = []) throws -> String {
            var request = FetchRequest<Row>(entity: entity, predicate: predicate, properties: [])
            request.sortBy = sortBy
            let select = try #require(try store.selectStatements(request).first)
            let rows = try store.withDatabase { try $0.rows("EXPLAIN QUERY PLAN " + select.sql, select.parameters) }
            return rows.compactMap { row in
                if case .text(let detail) = row.last { detail } else { nil }
            }.joined(separator: "; ")
        }

        #expect(try plan(#Predicate { $0.int == 5 }).contains("INDEX Row_int (int=?)"))
        #expect(try plan(#Predicate { $0.int > 5 && $0.int <= 100 }).contains("INDEX Row_int (int>? AND int<?)"))
        #expect(try plan(#Predicate { $0.string == "Straße" }).contains("INDEX Row_string (string=?)"))
        #expect(
            try plan(#Predicate { $0.optionalString == nil }).contains("INDEX Row_optionalString (optionalString=?)"))
        let names = ["a", "b"]
        #expect(try plan(#Predicate { names.contains($0.string) }).contains("INDEX Row_string (string=?)"))
        let sorted = try plan(nil, sortBy: [SortDescriptor(\.string)])
        #expect(
            sorted.contains("INDEX Row_string") && !sorted.contains("TEMP B-TREE"),
            "the index gives the order: \(sorted)")
        #expect(try plan(#Predicate { $0.double == 1 }) == "SCAN Row", "an attribute without an index is scanned")
    }

    @Test func declaredIndexesAndUniqueConstraintsServePredicates() throws {
        let container = try makeMemoryContainer(Country.self, ShopIndexed.Item.self)
        let context = ModelContext(container)
        context.insert(Country(code: "FR", name: "France"))
        try context.save()
        let store = try sqliteStore(container)
        func plan<T: PersistentModel>(_ predicate: Predicate<T>) throws -> String {
            let request = FetchRequest<T>(
                entity: try context.binding(for: T.self).entity, predicate: predicate, properties: [])
            let select = try #require(try store.selectStatements(request).first)
            let rows = try store.withDatabase { try $0.rows("EXPLAIN QUERY PLAN " + select.sql, select.parameters) }
            return rows.compactMap { row in if case .text(let detail) = row.last { detail } else { nil } }.joined(
                separator: "; ")
        }
        #expect(try plan(#Predicate<Country> { $0.code == "FR" }).contains("INDEX Country_unique_code (code=?)"))
        #expect(try plan(#Predicate<ShopIndexed.Item> { $0.price == 3 }).contains("INDEX Item_index_price (price=?)"))
        #expect(
            try plan(#Predicate<ShopIndexed.Item> { $0.name == "a" && $0.price > 1 }).contains("Item_index_name_price"))
    }

    /// Relationship subqueries find related rows by key or through the foreign key's index, never by a scan.
    @Test func relationshipSubqueriesUseKeysAndIndexes() throws {
        let container = try makeMemoryContainer(AnimalCategory.self, Student.self)
        let context = ModelContext(container)
        AnimalCategory.insertSampleData(modelContext: context)
        try context.save()
        let store = try sqliteStore(container)
        func plan<T: PersistentModel>(_ predicate: Predicate<T>) throws -> String {
            let request = FetchRequest<T>(
                entity: try context.binding(for: T.self).entity, predicate: predicate, properties: [])
            let select = try #require(try store.selectStatements(request).first)
            let rows = try store.withDatabase { try $0.rows("EXPLAIN QUERY PLAN " + select.sql, select.parameters) }
            return rows.compactMap { row in if case .text(let detail) = row.last { detail } else { nil } }
                .joined(separator: "; ")
        }
        let name: String? = "Bird"
        let lookup = try plan(#Predicate<Animal> { $0.category?.name == name })
        #expect(lookup.contains("SEARCH _r1 USING INTEGER PRIMARY KEY (rowid=?)"), "\(lookup)")
        let members = try plan(#Predicate<AnimalCategory> { $0.animals.contains { $0.name == "Dog" } })
        #expect(members.contains("SEARCH _r1 USING INDEX Animal_category (category=?)"), "\(members)")
        let joined = try plan(#Predicate<Student> { $0.courses.isEmpty })
        #expect(joined.contains("Course_students_member") && !joined.contains("SCAN _r"), "\(joined)")
    }
}
