extension Schema {
    /// The part of a store's name for an index (a unique constraint's, an index's, an `.rtree` index's table) that
    /// lists its columns: joined by `_` when no column's name holds an `_` (the name stores have always had),
    /// otherwise each prefixed with its length (`3a_b` for `[a_b]`, `1x3a_b` for `[x, a_b]`), so that `[a_b]`
    /// and `[a, b]` (`a_b`) get different names. A property's name cannot begin with a digit, so the two forms never meet.
    package static func indexNameColumns(_ columns: [String]) -> String {
        guard columns.contains(where: { $0.contains("_") }) else { return legacyIndexNameColumns(columns) }
        return columns.map { "\($0.utf8.count)\($0)" }.joined()
    }

    /// The columns part of the name stores written before names were unambiguous gave an index: joined by `_`.
    package static func legacyIndexNameColumns(_ columns: [String]) -> String {
        columns.joined(separator: "_")
    }
}
