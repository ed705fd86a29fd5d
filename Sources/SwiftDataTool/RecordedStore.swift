import Foundation
import SwiftDataCore

/// What a store records about itself: its metadata (identifier, schema version, history bookkeeping) and the schema
/// of its tables.
struct RecordedStore {
    let metadata: [String: String]
    let schema: StoredSchema
    let version: Schema.Version

    init(_ store: any ToolStore) throws {
        var metadata: [String: String] = [:]
        try store.forEachRow("SELECT key, value FROM \(StoreTables.metadata)", types: [.string, .string]) { row in
            if case .string(let key) = row[0], case .string(let value) = row[1] { metadata[key] = value }
        }
        guard let json = metadata["schema"] else {
            throw ToolError.failed("\(store.address) records no schema: it was never opened by an app")
        }
        do {
            schema = try JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8))
        } catch {
            throw ToolError.failed("the schema \(store.address) records cannot be read: \(error)")
        }
        let parts = (metadata["schema_version"] ?? "1.0.0").split(separator: ".").compactMap { Int($0) }
        version = parts.count == 3 ? Schema.Version(parts[0], parts[1], parts[2]) : Schema.Version(1, 0, 0)
        self.metadata = metadata
    }

    /// The table that holds an entity's rows: its own, or its hierarchy's root's.
    func table(of entity: String) -> String? {
        schema.entities.first { $0.name == entity || ($0.subentities ?? []).contains { $0.name == entity } }?.name
    }

    /// The relationships that live in a foreign-key column of `entity`'s table, each with its position column when
    /// its inverse is to-many.
    func columnRelationships(of entity: StoredSchema.StoredEntity)
        -> [(relationship: StoredSchema.StoredRelationship, position: String?)]
    {
        let all = [entity] + (entity.subentities ?? [])
        var seen = Set<String>()
        return all.flatMap { $0.relationships ?? [] }.filter { $0.storage == "column" && seen.insert($0.name).inserted }
            .map { relationship in
                let inverse = relationship.inverse.flatMap { name in
                    self.entity(named: relationship.destination)?.relationships?.first { $0.name == name }
                }
                return (
                    relationship,
                    inverse?.isToMany == true ? Schema.Relationship.positionColumn(of: relationship.name) : nil
                )
            }
    }

    /// The join tables, each once, with the entity and relationship that own it. A hierarchy's table records the
    /// relationships of all its entities, and each subentity its inherited ones too: a join table's owner is the
    /// first subentity that has it when not all of them do, the root otherwise.
    var joinTables: [(table: String, owner: String, relationship: StoredSchema.StoredRelationship)] {
        var seen = Set<String>()
        var tables: [(table: String, owner: String, relationship: StoredSchema.StoredRelationship)] = []
        for entity in schema.entities {
            let subentities = entity.subentities ?? []
            for member in subentities + [entity] {
                for relationship in member.relationships ?? [] {
                    guard let join = relationship.joinTable, join.isOwner,
                        member.name == entity.name
                            || !subentities.allSatisfy({ ($0.relationships ?? []).contains(relationship) }),
                        seen.insert(join.name).inserted
                    else { continue }
                    tables.append((join.name, member.name, relationship))
                }
            }
        }
        return tables
    }

    /// An entity, a table's or a subentity's, by name.
    func entity(named name: String) -> StoredSchema.StoredEntity? {
        for entity in schema.entities {
            if entity.name == name { return entity }
            if let sub = entity.subentities?.first(where: { $0.name == name }) { return sub }
        }
        return nil
    }

    /// The attributes kept in a table: its entity's and its subentities'.
    func attributes(of table: StoredSchema.StoredEntity) -> [StoredSchema.StoredAttribute] {
        var seen = Set<String>()
        return ([table] + (table.subentities ?? [])).flatMap(\.attributes).filter { seen.insert($0.name).inserted }
    }

    /// The meaning of each of a table's columns, for reading them: attributes by their layout (externally stored
    /// ones as their reference), keys and positions as integers, anything else as text.
    func columnTypes(of table: StoredSchema.StoredEntity, columns: [String], in store: any ToolStore) throws
        -> [StoreValueType]
    {
        var types: [String: StoreValueType] = [StoreTables.key: .int64]
        for attribute in attributes(of: table) {
            types[attribute.name] =
                attribute.isExternal ? .string : try store.layout(of: attribute, in: table).valueType
        }
        for (relationship, position) in columnRelationships(of: table) {
            types[relationship.name] = .int64
            if let position { types[position] = .int64 }
        }
        return columns.map { types[$0] ?? .string }
    }
}

/// An SQL identifier in double quotes, as both stores' dialects write one.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
