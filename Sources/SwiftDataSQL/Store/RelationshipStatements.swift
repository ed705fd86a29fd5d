import SwiftDataCore

/// The statements an SQL store reads and writes relationships with, in its dialect: foreign keys, and the rows of
/// join tables. A list of owners or members is `SQLDialect.keysCondition`'s, from the first parameter on.
package enum RelationshipStatements {
    /// The `(owner, member)` pairs of `relationship` for `count` owners, or `nil` when it has none of its own.
    package static func pairs(
        _ relationship: Schema.Relationship, owners count: Int, schema: Schema, dialect: some SQLDialect
    ) -> String? {
        let key = dialect.quote(StoreLayout.keyColumn)
        switch relationship.storage {
        case .column:
            let column = dialect.quote(relationship.name)
            let table = dialect.quote(StoreLayout.ownerTable(of: relationship, in: schema))
            return select("\(key), \(column)", from: table, where: key, keys: count, dialect)
                + " AND \(column) IS NOT NULL"
        case .inverseColumn:
            guard let inverse = relationship.inverse else { return nil }
            let column = dialect.quote(inverse.name)
            let table = dialect.quote(StoreLayout.table(named: relationship.destination, in: schema))
            return select("\(column), \(key)", from: table, where: column, keys: count, dialect)
        case .joinTable:
            guard let join = JoinColumns(relationship, dialect: dialect) else { return nil }
            let table = dialect.quote(join.table)
            return select("\(join.owner), \(join.member)", from: table, where: join.owner, keys: count, dialect)
        }
    }

    /// The keys of the rows that refer through `relationship` to one of `count` destinations, or `nil` when its
    /// references are not its own (an inverse column).
    package static func referencing(
        _ relationship: Schema.Relationship, destinations count: Int, schema: Schema, dialect: some SQLDialect
    ) -> String? {
        switch relationship.storage {
        case .column:
            let column = dialect.quote(relationship.name)
            let table = dialect.quote(StoreLayout.ownerTable(of: relationship, in: schema))
            return select(dialect.quote(StoreLayout.keyColumn), from: table, where: column, keys: count, dialect)
        case .joinTable:
            guard let join = JoinColumns(relationship, dialect: dialect) else { return nil }
            return select(join.owner, from: dialect.quote(join.table), where: join.member, keys: count, dialect)
        case .inverseColumn:
            return nil
        }
    }

    /// Clears the references of `relationship` to one of `count` destinations: sets the foreign key (and its
    /// position) to `NULL`, or deletes the join rows. With `returning`, the statement returns the keys of the rows
    /// that referred to them, as `referencing` selects them. `nil` for an inverse column.
    package static func clearing(
        _ relationship: Schema.Relationship, destinations count: Int, schema: Schema, dialect: some SQLDialect,
        returning: Bool
    ) -> String? {
        switch relationship.storage {
        case .column:
            let table = dialect.quote(StoreLayout.ownerTable(of: relationship, in: schema))
            let column = dialect.quote(relationship.name)
            var set = "\(column) = NULL"
            if let position = relationship.positionColumn { set += ", \(dialect.quote(position)) = NULL" }
            return "UPDATE \(table) SET \(set) WHERE " + dialect.keysCondition(column, count: count, first: 1)
                + (returning ? " RETURNING \(dialect.quote(StoreLayout.keyColumn))" : "")
        case .joinTable:
            guard let join = JoinColumns(relationship, dialect: dialect) else { return nil }
            return "DELETE FROM \(dialect.quote(join.table)) WHERE "
                + dialect.keysCondition(join.member, count: count, first: 1)
                + (returning ? " RETURNING \(join.owner)" : "")
        case .inverseColumn:
            return nil
        }
    }

    /// `SELECT columns FROM table` (quoted) of the rows whose `column` is one of `count` keys.
    private static func select(
        _ columns: String, from table: String, where column: String, keys count: Int, _ dialect: some SQLDialect
    ) -> String {
        "SELECT \(columns) FROM \(table) WHERE " + dialect.keysCondition(column, count: count, first: 1)
    }

    /// Deletes the join rows of `count` owners.
    package static func deleteJoinRows(_ join: JoinColumns, owners count: Int, dialect: some SQLDialect) -> String {
        "DELETE FROM \(dialect.quote(join.table)) WHERE " + dialect.keysCondition(join.owner, count: count, first: 1)
    }

    /// The members of the owner of the first parameter.
    package static func members(_ join: JoinColumns, dialect: some SQLDialect) -> String {
        "SELECT \(join.member) FROM \(dialect.quote(join.table)) WHERE \(join.owner) = "
            + dialect.placeholder(1, type: .integer)
    }

    /// Deletes the join row of the owner and the member of the first two parameters.
    package static func deleteMember(_ join: JoinColumns, dialect: some SQLDialect) -> String {
        "DELETE FROM \(dialect.quote(join.table)) WHERE \(join.owner) = \(dialect.placeholder(1, type: .integer)) "
            + "AND \(join.member) = \(dialect.placeholder(2, type: .integer))"
    }

    /// Puts a member at a position of an owner's array (parameters: owner, member, position, and, in a dialect that
    /// does not number its parameters, the member again): a new join row takes the next position in the member's
    /// inverse array, an existing one keeps it and moves to the position.
    package static func upsertMember(_ join: JoinColumns, dialect: some SQLDialect) -> String {
        let table = dialect.quote(join.table)
        var parameters = StatementParameters(dialect)
        let owner = parameters.next(.integer)
        let member = parameters.next(.integer)
        let position = parameters.next(.integer)
        let memberAgain = dialect.numbersParameters ? member : parameters.next(.integer)
        let columns = StoreLayout.joinColumns(isOwner: true)
        return """
            INSERT INTO \(table) (\(join.owner), \(join.member), \(join.position), \(join.otherPosition)) \
            VALUES (\(owner), \(member), \(position), (SELECT coalesce(max(\(join.otherPosition)), -1) + 1 \
            FROM \(table) WHERE \(join.member) = \(memberAgain))) \
            ON CONFLICT (\(dialect.quote(columns.this)), \(dialect.quote(columns.other))) \
            DO UPDATE SET \(join.position) = excluded.\(join.position)
            """
    }

    /// Where a member row of `members(of:destination:columns:owner:dialect:condition:)` holds its owner's key: column
    /// 1, unless the members' own `columns` hold the foreign key, which is then read from there and not selected twice
    /// (`owner`, what to select as column 1 instead: a constant, which the reader's contract leaves to the store).
    package static func ownerColumn(of relationship: Schema.Relationship, columns: [String]) -> (
        column: Int32, owner: String?
    ) {
        guard case .inverseColumn = relationship.storage, let inverse = relationship.inverse,
            let offset = columns.firstIndex(of: inverse.name)
        else { return (1, nil) }
        return (2 + Int32(offset), "NULL")
    }

    /// The `SELECT` of the members of owners that a fetch of `relationship` loads: the member's key, the owner's
    /// key (`owner`, or, for a foreign key, the column itself), then `columns` of the destination, ordered by owner
    /// and position; `condition` makes the condition on the owner's column (a list of keys, `>= ?`, ...). `nil` for
    /// a relationship whose destination holds no list (a column).
    package static func members(
        of relationship: Schema.Relationship, destination: Schema.Entity, columns: [String], owner: String? = nil,
        dialect: some SQLDialect, condition: (_ ownerColumn: String) -> String
    ) -> String? {
        let memberColumns = columns.map { "d.\(dialect.quote($0))" }
        let key = dialect.quote(StoreLayout.keyColumn)
        let table = dialect.quote(StoreLayout.table(of: destination))
        switch relationship.storage {
        case .inverseColumn:
            guard let inverse = relationship.inverse else { return nil }
            let column = "d.\(dialect.quote(inverse.name))"
            let order = [column] + (inverse.positionColumn.map { ["d.\(dialect.quote($0))"] } ?? []) + ["d.\(key)"]
            return
                "SELECT \((["d.\(key)", owner ?? column] + memberColumns).joined(separator: ", ")) FROM \(table) AS d "
                + "WHERE \(condition(column)) ORDER BY \(order.joined(separator: ", "))"
        case .joinTable:
            guard let join = JoinColumns(relationship, dialect: dialect) else { return nil }
            return "SELECT \((["d.\(key)", owner ?? "j.\(join.owner)"] + memberColumns).joined(separator: ", ")) "
                + "FROM \(dialect.quote(join.table)) AS j JOIN \(table) AS d ON d.\(key) = j.\(join.member) "
                + "WHERE \(condition("j.\(join.owner)")) ORDER BY j.\(join.owner), j.\(join.position), d.\(key)"
        case .column:
            return nil
        }
    }
}

extension StoreLayout {
    /// The table of the entity that holds a column relationship: the inverse's destination, or its own entity when
    /// it has no inverse (found through the schema).
    package static func ownerTable(of relationship: Schema.Relationship, in schema: Schema) -> String {
        if let inverse = relationship.inverse { return table(named: inverse.destination, in: schema) }
        return schema.entities.first { $0.ownRelationships.contains { $0 === relationship } }.map(table) ?? ""
    }

    /// The table of the entity with this name (its hierarchy's, for one in a hierarchy).
    package static func table(named entity: String, in schema: Schema) -> String {
        schema.entitiesByName[entity].map(table) ?? entity
    }
}
