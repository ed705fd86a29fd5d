extension Schema {
    /// The kinds of index a store names: a unique constraint's, an `#Index`'s, an `.rtree` index's table, and a
    /// `.search` index's.
    package enum IndexKind: String, Sendable {
        case unique, index, rtree, search
    }

    /// The name of a store's object (an index, an `.rtree` index's table) made of `parts`, each an entity's or a
    /// property's name or a kind's word: joined by `_` when no part holds an `_` (`Item_index_name_price`),
    /// otherwise each part after its length in UTF-8 bytes (`7M_index5index1a` for `[M_index, index, a]`).
    ///
    /// Two different lists of parts never get one name. A part is never empty and never begins with a digit (a Swift
    /// identifier cannot). The joined form begins with a part, so never with a digit, and splitting it at each `_`
    /// gives back the parts, none holding an `_`. The other form begins with a digit, and reading a length (the
    /// digits up to the first character that is not one, since a part begins with none) then that many bytes, over
    /// and over, gives back the parts too. So a name gives back its list of parts, whichever its form.
    package static func storeName(_ parts: [String]) -> String {
        guard parts.contains(where: { $0.contains("_") }) else { return parts.joined(separator: "_") }
        return parts.map { "\($0.utf8.count)\($0)" }.joined()
    }

    /// The name of a unique constraint's, an index's or an `.rtree` index's: `[entity, kind] + columns` (see
    /// `storeName`), `entity` being the entity whose rows it covers (a table's, or a subentity's for its unique
    /// constraints). The index of a to-one relationship's foreign key is named `[entity, relationship]` (see
    /// `foreignKeyIndexName`): two parts where these have three or more. So two indexes of different entities,
    /// kinds or columns never share a name.
    package static func indexName(_ kind: IndexKind, of entity: String, _ columns: [String]) -> String {
        storeName([entity, kind.rawValue] + columns)
    }

    /// The name of the index of a to-one relationship's foreign key: `[entity, relationship]` (see `indexName`).
    package static func foreignKeyIndexName(of entity: String, _ relationship: String) -> String {
        storeName([entity, relationship])
    }

    /// The names stores made by earlier versions gave an index of `table` (see `indexName`), newest first: a
    /// subentity's unique index named after the table with the subentity's name last (`subentity`), the columns
    /// joined by `_` unless one holds an `_` (then each after its length), or always joined by `_`. Some are the
    /// same as its name; those are left out.
    package static func earlierIndexNames(
        _ kind: IndexKind, table: String, _ columns: [String], subentity: String? = nil
    ) -> [String] {
        let prefix = "\(table)_\(kind.rawValue)_"
        let suffix = subentity.map { "_\($0)" } ?? ""
        let lengths = columns.contains(where: { $0.contains("_") }) ? columns.map { "\($0.utf8.count)\($0)" } : columns
        let names = [lengths.joined(), columns.joined(separator: "_")].map { prefix + $0 + suffix }
        let name = indexName(kind, of: subentity ?? table, columns)
        return names.enumerated().filter { $0.element != name && !names[..<$0.offset].contains($0.element) }
            .map(\.element)
    }

    /// The name stores made by earlier versions gave the index of a to-one relationship's foreign key, if it was
    /// another: the entity's and the relationship's names joined by `_`.
    package static func earlierForeignKeyIndexName(of entity: String, _ relationship: String) -> String? {
        let name = "\(entity)_\(relationship)"
        return name == foreignKeyIndexName(of: entity, relationship) ? nil : name
    }

    /// The beginnings of the names of an entity's indexes of a kind, in this version and earlier ones: those that
    /// migrations look for to drop the indexes a store made (see `indexName`).
    package static func indexNamePrefixes(_ kind: IndexKind, of entity: String) -> [String] {
        ["\(entity)_\(kind.rawValue)_", "\(entity.utf8.count)\(entity)\(kind.rawValue.utf8.count)\(kind.rawValue)"]
    }
}
