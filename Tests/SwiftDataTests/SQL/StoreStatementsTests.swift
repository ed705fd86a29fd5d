import Foundation
import SharedTestModels
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQL

/// Golden tests of the statements both SQL stores share (`SwiftDataSQL/Store`), rendered in each dialect: the same
/// builder, with only the dialect's differences (placeholders, key lists, types, identity columns).
@Suite struct StoreStatementsTests {
    let lite = SQLiteDialect()
    let postgres = PostgreSQLDialect()

    @Test func historyConditionsRenderInEachDialect() {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let condition: HistoryCondition =
            .and(.number(.greater, 3), .or(.text(.author, isEqual: true, "widget"), .not(.timestamp(.less, date))))
        func render(_ condition: HistoryCondition, _ dialect: some SQLDialect) -> (String, [StoreValue]) {
            var parameters = StatementParameters(dialect)
            var values: [StoreValue] = []
            return (HistoryStatements.condition(condition, &parameters, &values), values)
        }
        let values: [StoreValue] = [.int64(3), .string("widget"), .double(1000)]
        #expect(render(condition, lite).0 == "(number > ? AND (author IS ? OR NOT timestamp < ?))")
        #expect(render(condition, lite).1 == values)
        #expect(
            render(condition, postgres).0
                == "(number > $1::bigint AND (author IS NOT DISTINCT FROM $2::text OR NOT timestamp < $3::double precision))"
        )
        #expect(render(condition, postgres).1 == values)

        let list: HistoryCondition = .or(.numbers([4, 7]), .text(.processIdentifier, isEqual: false, nil))
        #expect(render(list, lite).0 == "(number IN (SELECT value FROM json_each(?)) OR process IS NOT ?)")
        #expect(render(list, lite).1 == [.string("[4,7]"), .null])
        #expect(render(list, postgres).0 == "(number = ANY($1::bigint[]) OR process IS DISTINCT FROM $2::text)")
        #expect(render(list, postgres).1 == [.string("{4,7}"), .null])
        #expect(render(.constant(false), lite).0 == "0" && render(.constant(false), postgres).0 == "FALSE")
    }

    @Test func historyTableAndRecords() {
        #expect(
            HistoryStatements.definition(lite)
                == "CREATE TABLE IF NOT EXISTS _swiftdata_history (number INTEGER PRIMARY KEY, timestamp REAL NOT NULL, "
                + "author TEXT, bundle TEXT NOT NULL, process TEXT NOT NULL, changes BLOB NOT NULL)")
        #expect(
            HistoryStatements.definition(postgres)
                == "CREATE TABLE IF NOT EXISTS _swiftdata_history (number bigint GENERATED ALWAYS AS IDENTITY PRIMARY "
                + "KEY, timestamp double precision NOT NULL, author text, bundle text NOT NULL, process text NOT NULL, "
                + "changes bytea NOT NULL)")
        #expect(
            HistoryStatements.record(lite)
                == "INSERT INTO _swiftdata_history (timestamp, author, bundle, process, changes) VALUES (?, ?, ?, ?, ?)"
        )
        #expect(
            HistoryStatements.record(postgres, returning: true)
                == "INSERT INTO _swiftdata_history (timestamp, author, bundle, process, changes) VALUES "
                + "($1::double precision, $2::text, $3::text, $4::text, $5::bytea) RETURNING number")
        let request = HistoryRequest(condition: .number(.greater, 3), limit: 2, newestFirst: true)
        let select = HistoryStatements.select(request, dialect: lite, filter: "length(changes) > 0")
        #expect(
            select.sql
                == "SELECT number, timestamp, author, bundle, process, changes FROM _swiftdata_history "
                + "WHERE length(changes) > 0 AND number > ? ORDER BY number DESC LIMIT ?")
        #expect(select.parameters == [.int64(3), .int64(2)])
        #expect(
            HistoryStatements.select(request, dialect: postgres, first: 2).sql
                == "SELECT number, timestamp, author, bundle, process, changes FROM _swiftdata_history "
                + "WHERE number > $2::bigint ORDER BY number DESC LIMIT $3::bigint")
    }

    @Test func rowStatementsRenderInEachDialect() throws {
        let schema = Schema([Node.self])
        let entity = try #require(schema.entitiesByName["Node"])
        let name = try #require(entity.orderedAttributes.first { $0.name == "name" })
        let row = RowWrite(model: nil, key: 1, attributes: [name.index], references: [])
        let liteInsert = RowStatements.insert(row, entity: entity, dialect: lite)
        #expect(liteInsert.sql == #"INSERT INTO "Node" ("_pk", "name") VALUES (?, ?)"#)
        #expect(liteInsert.keyFirst)
        let postgresInsert = RowStatements.insert(row, entity: entity, dialect: postgres)
        #expect(postgresInsert.sql == #"INSERT INTO "Node" ("_pk", "name") VALUES ($1::bigint, $2::text)"#)
        #expect(postgresInsert.parameterTypes == [.integer, .text])
        let liteUpdate = RowStatements.update(row, entity: entity, dialect: lite)
        #expect(liteUpdate.sql == #"UPDATE "Node" SET "name" = ? WHERE "_pk" = ?"# && !liteUpdate.keyFirst)
        let postgresUpdate = RowStatements.update(row, entity: entity, dialect: postgres)
        #expect(postgresUpdate.sql == #"UPDATE "Node" SET "name" = $2::text WHERE "_pk" = $1::bigint"#)
        #expect(postgresUpdate.keyFirst)
        #expect(RowStatements.delete(entity, keys: 2, dialect: lite) == #"DELETE FROM "Node" WHERE "_pk" IN (?, ?)"#)
        #expect(
            RowStatements.delete(entity, keys: 2, dialect: postgres)
                == #"DELETE FROM "Node" WHERE "_pk" = ANY($1::bigint[])"#)
        #expect(
            RowStatements.select(["name"], of: entity, dialect: lite)
                == #"SELECT "_pk", "name" FROM "Node" WHERE "_pk" IN (SELECT value FROM json_each(?))"#)
        #expect(
            RowStatements.select(["name"], of: entity, dialect: postgres)
                == #"SELECT "_pk", "name" FROM "Node" WHERE "_pk" = ANY($1::bigint[])"#)
    }

    @Test func relationshipStatementsRenderInEachDialect() throws {
        let schema = Schema([Node.self])
        let node = try #require(schema.entitiesByName["Node"])
        let children = try #require(node.orderedRelationships.first { $0.name == "children" })
        func members(_ dialect: some SQLDialect) -> String? {
            RelationshipStatements.members(
                of: children, destination: node, columns: ["name"], dialect: dialect,
                condition: { dialect.keysCondition($0, count: 2, first: 1) })
        }
        #expect(
            members(lite) == #"SELECT d."_pk", d."parent", d."name" FROM "Node" AS d WHERE d."parent" IN (?, ?) "#
                + #"ORDER BY d."parent", d."_parent_position", d."_pk""#)
        #expect(
            members(postgres)
                == #"SELECT d."_pk", d."parent", d."name" FROM "Node" AS d WHERE d."parent" = ANY($1::bigint[]) "#
                + #"ORDER BY d."parent", d."_parent_position", d."_pk""#)
        #expect(
            RelationshipStatements.pairs(children, owners: 2, schema: schema, dialect: lite)
                == #"SELECT "parent", "_pk" FROM "Node" WHERE "parent" IN (?, ?)"#)
        #expect(
            RelationshipStatements.clearing(
                try #require(children.inverse), destinations: 2, schema: schema, dialect: postgres, returning: true)
                == #"UPDATE "Node" SET "parent" = NULL, "_parent_position" = NULL WHERE "parent" = ANY($1::bigint[]) "#
                + #"RETURNING "_pk""#)
    }

    /// A member row's owner key is read from the members' own foreign key when they select it, which is then not
    /// selected a second time as column 1 (both stores read members so).
    @Test func membersSelectTheirForeignKeyOnce() throws {
        let schema = Schema([Node.self])
        let node = try #require(schema.entitiesByName["Node"])
        let children = try #require(node.orderedRelationships.first { $0.name == "children" })
        let (column, owner) = RelationshipStatements.ownerColumn(of: children, columns: ["name", "parent"])
        #expect(column == 3)
        #expect(
            RelationshipStatements.members(
                of: children, destination: node, columns: ["name", "parent"], owner: owner, dialect: postgres,
                condition: { postgres.keysCondition($0, count: 0, first: 1) })
                == #"SELECT d."_pk", NULL, d."name", d."parent" FROM "Node" AS d WHERE d."parent" = ANY($1::bigint[]) "#
                + #"ORDER BY d."parent", d."_parent_position", d."_pk""#)
        let without = RelationshipStatements.ownerColumn(of: children, columns: ["name"])
        #expect(without.column == 1 && without.owner == nil)
    }

    @Test func joinRowStatementsRenderInEachDialect() throws {
        let schema = Schema([Student.self, Course.self])
        let student = try #require(schema.entitiesByName["Student"])
        let courses = try #require(student.orderedRelationships.first { $0.name == "courses" })
        let liteJoin = try #require(JoinColumns(courses, dialect: lite))
        let postgresJoin = try #require(JoinColumns(courses, dialect: postgres))
        #expect(
            RelationshipStatements.upsertMember(liteJoin, dialect: lite)
                == #"INSERT INTO "Course_students" ("member", "owner", "inverse_position", "position") VALUES (?, ?, ?, "#
                + #"(SELECT coalesce(max("position"), -1) + 1 FROM "Course_students" WHERE "owner" = ?)) "#
                + #"ON CONFLICT ("owner", "member") DO UPDATE SET "inverse_position" = excluded."inverse_position""#)
        #expect(
            RelationshipStatements.upsertMember(postgresJoin, dialect: postgres)
                == #"INSERT INTO "Course_students" ("member", "owner", "inverse_position", "position") VALUES "#
                + #"($1::bigint, $2::bigint, $3::bigint, (SELECT coalesce(max("position"), -1) + 1 "#
                + #"FROM "Course_students" WHERE "owner" = $2::bigint)) ON CONFLICT ("owner", "member") "#
                + #"DO UPDATE SET "inverse_position" = excluded."inverse_position""#)
        #expect(
            RelationshipStatements.deleteJoinRows(liteJoin, owners: 3, dialect: lite)
                == #"DELETE FROM "Course_students" WHERE "member" IN (?, ?, ?)"#)
        #expect(
            RelationshipStatements.deleteJoinRows(postgresJoin, owners: 3, dialect: postgres)
                == #"DELETE FROM "Course_students" WHERE "member" = ANY($1::bigint[])"#)
    }

    @Test func uniqueLookupsRenderInEachDialect() throws {
        let schema = Schema([Node.self])
        let node = try #require(schema.entitiesByName["Node"])
        let name = try #require(node.orderedAttributes.first { $0.name == "name" }).index
        let compare: UniqueStatements.Comparison = { column, value, _ in "\(column) = \(value)" }
        #expect(
            UniqueStatements.existingKey(in: node, properties: [name], dialect: lite, compare: compare)
                == #"SELECT "_pk" FROM "Node" WHERE "name" = ? LIMIT 1"#)
        #expect(
            UniqueStatements.existingKey(in: node, properties: [name], dialect: postgres, compare: compare)
                == #"SELECT "_pk" FROM "Node" WHERE "name" = $1::text LIMIT 1"#)
        #expect(
            UniqueStatements.existingKeys(in: node, properties: [name], candidates: 2, dialect: lite, compare: compare)
                == #"WITH v(i, c0) AS (VALUES (?, ?), (?, ?)) SELECT v.i, t."_pk" FROM v JOIN "Node" AS t "#
                + #"ON t."name" = v.c0"#)
        #expect(
            UniqueStatements.existingKeys(
                in: node, properties: [name], candidates: 2, dialect: postgres, compare: compare)
                == #"WITH v(i, c0) AS (VALUES ($1::bigint, $2::text), ($3::bigint, $4::text)) SELECT v.i, t."_pk" "#
                + #"FROM v JOIN "Node" AS t ON t."name" = v.c0"#)
    }

    @Test func schemaStatementsRenderInEachDialect() throws {
        #expect(
            SchemaStatements.createJoinTable("Course_students", dialect: lite)
                == [
                    #"CREATE TABLE "Course_students" ("owner" INTEGER NOT NULL, "member" INTEGER NOT NULL, "#
                        + #""position" INTEGER, "inverse_position" INTEGER, PRIMARY KEY ("owner", "member")) "#
                        + "WITHOUT ROWID",
                    #"CREATE INDEX "Course_students_member" ON "Course_students" ("member")"#,
                ])
        let long = String(repeating: "x", count: 60)
        #expect(
            SchemaStatements.createJoinTable(long, dialect: postgres)
                == [
                    #"CREATE TABLE ""# + long + #"" ("owner" bigint NOT NULL, "member" bigint NOT NULL, "#
                        + #""position" bigint, "inverse_position" bigint, PRIMARY KEY ("owner", "member"))"#,
                    #"CREATE INDEX ""# + postgres.indexName(long + "_member") + #"" ON ""# + long + #"" ("member")"#,
                ])
        #expect(postgres.indexName(long + "_member").utf8.count <= 63 && lite.indexName(long) == long)
        #expect(
            SchemaStatements.storeTables(postgres)
                == [
                    "CREATE TABLE IF NOT EXISTS _swiftdata_metadata (key text PRIMARY KEY, value text NOT NULL)",
                    "CREATE TABLE IF NOT EXISTS _swiftdata_sequence (entity text PRIMARY KEY, last_key bigint NOT NULL)",
                ])
        #expect(
            SchemaStatements.duplicates(in: "Node", columns: ["name"], dialect: lite)
                == #"SELECT "name", count(*) FROM "Node" WHERE "name" IS NOT NULL GROUP BY "name" "#
                + "HAVING count(*) > 1 LIMIT 3")
    }

    @Test func entityTablesRenderInEachDialect() throws {
        let schema = Schema([Node.self, Student.self, Course.self])
        let node = try #require(schema.entitiesByName["Node"])
        func create(_ entity: Schema.Entity, _ dialect: some SQLDialect, tableName: String? = nil) -> [String] {
            let columns = SchemaStatements.columns(of: entity, dialect: dialect) {
                (dialect.typeName(.text), !$0.isOptional)
            }
            return SchemaStatements.createTable(entity, columns: columns, tableName: tableName, dialect: dialect)
        }
        #expect(
            create(node, lite) == [
                #"CREATE TABLE "Node" ("_pk" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "parent" INTEGER, "#
                    + #""_parent_position" INTEGER)"#,
                #"CREATE INDEX "Node_parent" ON "Node" ("parent", "_parent_position")"#,
            ])
        #expect(
            create(node, postgres) == [
                #"CREATE TABLE "Node" ("_pk" bigint PRIMARY KEY, "name" text NOT NULL, "parent" bigint, "#
                    + #""_parent_position" bigint)"#,
                #"CREATE INDEX "Node_parent" ON "Node" ("parent", "_parent_position")"#,
            ])
        // A table made under another name (a rebuild) has no indexes yet.
        #expect(create(node, lite, tableName: "Node__migrating").count == 1)
        let course = try #require(schema.entitiesByName["Course"])
        #expect(
            create(course, postgres) == [#"CREATE TABLE "Course" ("_pk" bigint PRIMARY KEY, "title" text NOT NULL)"#]
                + SchemaStatements.createJoinTable("Course_students", dialect: postgres))
        let column = TableColumn(name: "value", type: "", isRequired: false)
        #expect(column.definition(lite) == #""value""#)
    }

    @Test func indexesRenderInEachDialect() throws {
        let schema = Schema([Node.self])
        let node = try #require(schema.entitiesByName["Node"])
        let foreignKeys = SchemaStatements.foreignKeyIndexes(node, dialect: postgres)
        #expect(foreignKeys.map(\.name) == ["Node_parent"] && foreignKeys[0].earlierNames.isEmpty)
        let unique = SchemaStatements.index(node, columns: ["name"], unique: true, dialect: lite) { column, attribute in
            column + (attribute?.name == "name" ? " COLLATE swift_string" : "")
        }
        #expect(unique.name == "Node_unique_name" && unique.earlierNames.isEmpty)
        #expect(unique.statement == #"CREATE UNIQUE INDEX "Node_unique_name" ON "Node" ("name" COLLATE swift_string)"#)
        let partial = SchemaStatements.index(
            node, columns: ["name", "parent"], unique: true, entities: ["Leaf"], dialect: postgres
        ) { column, _ in "(normalize(\(column), NFC))" }
        #expect(partial.name == "Leaf_unique_name_parent")
        #expect(partial.earlierNames == ["Node_unique_nameparent_Leaf", "Node_unique_name_parent_Leaf"])
        #expect(
            partial.statement
                == #"CREATE UNIQUE INDEX "Leaf_unique_name_parent" ON "Node" ((normalize("name", NFC)), "#
                + #"(normalize("parent", NFC))) WHERE "_entity" IN ('Leaf')"#)
        let long = String(repeating: "x", count: 60)
        #expect(
            SchemaStatements.indexName(of: long, ["name"], unique: false, dialect: postgres)
                == postgres.indexName(long + "_index_name"))
        #expect(
            SchemaStatements.foreignKeyIndexNames(of: "Item_Box", "owner", dialect: lite)
                == ["8Item_Box5owner", "Item_Box_owner"])
    }

    @Test func migrationStepsRenderInEachDialect() {
        for dialect in [lite, postgres] as [any SQLDialect] {
            #expect(
                MigrationStatements.dropTable("Tag_items", dialect: dialect) == #"DROP TABLE IF EXISTS "Tag_items""#)
            #expect(MigrationStatements.dropIndex("Node_parent", dialect: dialect) == #"DROP INDEX "Node_parent""#)
            #expect(
                MigrationStatements.renameColumn(of: "Node", "name", to: "title", dialect: dialect)
                    == #"ALTER TABLE "Node" RENAME COLUMN "name" TO "title""#)
        }
        #expect(
            MigrationStatements.dropIndex("Node_parent", ifExists: true, dialect: postgres)
                == #"DROP INDEX IF EXISTS "Node_parent""#)
        #expect(
            MigrationStatements.addColumn("stock", type: "bigint", to: "Item", dialect: postgres)
                == #"ALTER TABLE "Item" ADD COLUMN "stock" bigint"#)
        #expect(
            MigrationStatements.moveJoinTable(from: "A_tags", to: "A_labels", reversed: true, dialect: lite)
                == SchemaStatements.createJoinTable("A_labels", dialect: lite) + [
                    #"INSERT INTO "A_labels" ("owner", "member", "position", "inverse_position") "#
                        + #"SELECT "member", "owner", "inverse_position", "position" FROM "A_tags""#,
                    #"DROP TABLE "A_tags""#,
                ])
        #expect(
            MigrationStatements.moveJoinTable(from: "A_tags", to: "A_tags", reversed: false, dialect: postgres)
                == [#"CREATE TEMP TABLE "A_tags__moving" AS SELECT * FROM "A_tags""#, #"DROP TABLE "A_tags""#]
                + SchemaStatements.createJoinTable("A_tags", dialect: postgres) + [
                    #"INSERT INTO "A_tags" ("owner", "member", "position", "inverse_position") "#
                        + #"SELECT "owner", "member", "position", "inverse_position" FROM "A_tags__moving""#,
                    #"DROP TABLE "A_tags__moving""#,
                ])
    }
}
