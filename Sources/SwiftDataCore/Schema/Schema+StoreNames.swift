extension Schema {
    /// An object a store makes in the namespace SQLite and PostgreSQL share between a schema's tables and indexes, and
    /// what makes it, so that an error can name both objects of a clash.
    package struct StoreObject: Sendable, Equatable {
        /// Whether it is a table or an index (PostgreSQL shortens their long names differently).
        package enum Kind: Sendable, Equatable {
            case table, index
        }

        /// Its name, as the store writes it.
        package var name: String
        package let kind: Kind
        /// What it is, in words: "the table of the model Item".
        package let description: String
        /// The model and the property whose names make its name; none for the store's own objects.
        package let model: String?
        package let property: String?
        /// How a program gives it another name ("rename the model Item"); none for the store's own objects.
        package let remedy: String?

        package init(
            _ name: String, _ kind: Kind, _ description: String, model: String? = nil, property: String? = nil,
            remedy: String? = nil
        ) {
            self.name = name
            self.kind = kind
            self.description = description
            self.model = model
            self.property = property
            self.remedy = remedy
        }

        /// One of the store's own tables (its metadata, its history, ...), which no model may be named after.
        package static func storeTable(_ name: String) -> StoreObject {
            StoreObject(name, .table, "the store's own table \(name)")
        }
    }

    /// The objects every SQL store makes for the schema in the namespace of its tables and indexes: each table (a
    /// hierarchy's, named after its root), each join table and the index of its member column, and the indexes of
    /// unique constraints, `#Index`es and to-one relationships' foreign keys, named as `indexName` and
    /// `foreignKeyIndexName` say. A store adds its own objects and checks them all with `checkStoreNames`.
    package var storeObjects: [StoreObject] {
        var objects: [StoreObject] = []
        var joinTables: Set<String> = []
        for root in entities where root.superentity == nil {
            let table = root.tableEntity
            objects.append(
                StoreObject(
                    root.name, .table, "the table of the model \(root.name)", model: root.name,
                    remedy: "rename the model \(root.name)"))
            for index in table.tableIndexes {
                let entity = index.entities?.first ?? root.name
                let what = index.isUnique ? "unique constraint" : "#Index"
                objects.append(
                    StoreObject(
                        Schema.indexName(index.isUnique ? .unique : .index, of: entity, index.columns), .index,
                        "the index of \(entity)'s \(what) on [\(index.columns.joined(separator: ", "))]",
                        model: entity, property: index.columns.first,
                        remedy:
                            "rename the model \(entity) or a property of that \(what) (@Attribute(originalName:) keeps its values)"
                    ))
            }
            for entity in root.selfAndDescendants {
                for relationship in entity.ownRelationships {
                    let property = "\(entity.name).\(relationship.name)"
                    let remedy =
                        "rename the relationship \(property) (@Relationship(originalName:) keeps what it holds)"
                    switch relationship.storage {
                    case .column:
                        objects.append(
                            StoreObject(
                                Schema.foreignKeyIndexName(of: root.name, relationship.name), .index,
                                "the index of the foreign key of \(property)", model: entity.name,
                                property: relationship.name, remedy: remedy))
                    case .joinTable(let name, true) where joinTables.insert(name).inserted:
                        objects.append(
                            StoreObject(
                                name, .table, "the join table of \(property)", model: entity.name,
                                property: relationship.name, remedy: remedy))
                        objects.append(
                            StoreObject(
                                "\(name)_member", .index, "the index of the join table of \(property)",
                                model: entity.name, property: relationship.name, remedy: remedy))
                    case .joinTable, .inverseColumn:
                        continue
                    }
                }
            }
        }
        return objects
    }

    /// Throws when two different objects of `objects` get one name, which the store would refuse as "already exists"
    /// when it makes the second, or take for the first. `key` is the name as the store compares names: SQLite ignores
    /// the case of ASCII letters, PostgreSQL keeps 63 bytes of a name.
    package static func checkStoreNames(_ objects: [StoreObject], key: (StoreObject) -> String) throws {
        var seen: [String: StoreObject] = [:]
        for object in objects {
            let name = key(object)
            guard let other = seen[name] else {
                seen[name] = object
                continue
            }
            if other == object { continue }
            let names =
                other.name == object.name
                ? "would both be named \(object.name)"
                : "would be named \(other.name) and \(object.name), which the store takes for one name"
            let remedies = [other.remedy, object.remedy].compactMap { $0 }
            throw SwiftDataError.loadIssueModelContainer.with(
                reason:
                    "\(other.description) and \(object.description) \(names); tables and indexes share one set of names in the store",
                model: other.model ?? object.model, property: other.model == nil ? object.property : other.property,
                suggestion: remedies.count == 1
                    ? "Give it another name: \(remedies[0])"
                    : "Give one of them another name: " + remedies.joined(separator: ", or "))
        }
    }
}
