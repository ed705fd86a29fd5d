import Foundation

extension Schema {
    /// The indexes of a model, as `#Index<T>` declares them: `.binary` (B-tree) indexes for lookups and sorts,
    /// `.rtree` indexes (SQLite's R*Tree module) for range queries on numeric attributes, such as a latitude and
    /// a longitude, and `.search` indexes (an addition to Apple's API) for substring search in `String` attributes.
    /// Given to `Schema.Entity(_:properties:)`, it becomes the entity's `indices`. Archived by property names.
    public final class Index<T: PersistentModel>: SchemaProperty, CustomDebugStringConvertible {
        /// The kinds of index.
        public enum Types<P: PersistentModel> {
            /// An ordinary (B-tree) index on the properties, in order.
            case binary([PartialKeyPath<P>])
            /// A spatial index on numeric attributes, one dimension each (at most five): a query that bounds them,
            /// `$0.latitude >= south && $0.latitude <= north && ...`, finds its candidates through the index.
            case rtree([PartialKeyPath<P>])
            /// A substring search index on each of the `String` attributes (not in Apple's API): predicates that use
            /// `contains`, `localizedStandardContains` or `starts(with:)` on one find their candidates through it
            /// (SQLite's FTS5 trigram tokenizer, PostgreSQL's `pg_trgm`), and the predicate itself decides.
            case search([PartialKeyPath<P>])

            /// The key paths indexed.
            var keyPaths: [PartialKeyPath<P>] {
                switch self {
                case .binary(let keyPaths), .rtree(let keyPaths), .search(let keyPaths): keyPaths
                }
            }

            /// The kind's name, as `#Index` spells it.
            var kind: String {
                switch self {
                case .binary: "binary"
                case .rtree: "rtree"
                case .search: "search"
                }
            }

            var isSpatial: Bool {
                if case .rtree = self { return true }
                return false
            }

            var isSearch: Bool {
                if case .search = self { return true }
                return false
            }
        }

        /// `<Entity>_index`.
        public var name: String
        public var originalName: String
        /// The model type.
        public var valueType: any Any.Type
        public var isUnique: Bool { false }
        /// The indexes.
        public let indices: [Types<T>]

        /// Indexes of the given kinds.
        public init(_ indices: Types<T>...) {
            self.indices = indices
            name = "\(Schema.entityName(for: T.self))_index"
            originalName = name
            valueType = T.self
        }

        /// Ordinary (B-tree) indexes, each on a list of properties.
        public init(_ binaryIndices: [PartialKeyPath<T>]...) {
            self.indices = binaryIndices.map { .binary($0) }
            name = "\(Schema.entityName(for: T.self))_index"
            originalName = name
            valueType = T.self
        }

        /// The keys of the archived form.
        public enum CodingKeys: CodingKey {
            /// The indexes, each with its kind and property names.
            case indices
        }

        private struct Archived: Codable {
            var binary: [String]?
            var rtree: [String]?
            var search: [String]?
        }

        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            indices = try container.decode([Archived].self, forKey: .indices).map { archived in
                let keyPaths = try (archived.search ?? archived.rtree ?? archived.binary ?? []).map {
                    try PropertyNames.keyPath(named: $0, in: T.self, container)
                }
                if archived.search != nil { return .search(keyPaths) }
                return archived.rtree != nil ? .rtree(keyPaths) : .binary(keyPaths)
            }
            name = "\(Schema.entityName(for: T.self))_index"
            originalName = name
            valueType = T.self
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let archived = try indices.map { index in
                let names = try PropertyNames.names(of: [index.keyPaths], encoder)[0]
                switch index {
                case .binary: return Archived(binary: names)
                case .rtree: return Archived(rtree: names)
                case .search: return Archived(search: names)
                }
            }
            try container.encode(archived, forKey: .indices)
        }

        public static func == (lhs: Index<T>, rhs: Index<T>) -> Bool {
            lhs.indices.map(\.kind) == rhs.indices.map(\.kind)
                && lhs.indices.map(\.keyPaths) == rhs.indices.map(\.keyPaths)
        }

        public func hash(into hasher: inout Hasher) {
            for index in indices {
                hasher.combine(index.kind)
                hasher.combine(index.keyPaths)
            }
        }

        public var debugDescription: String {
            "Index<\(T.self)>(\(indices.map { "\($0.kind)(\($0.keyPaths))" }))"
        }
    }
}

/// A unique constraint or an index, which an entity keeps as lists of property names.
protocol EntityConstraints {
    /// The unique constraints, binary, spatial and search indexes, as property names of the model; `nil` for a
    /// key path that is not a stored property.
    var propertyNames: ConstraintNames { get }
}

/// The property names of unique constraints and indexes, by kind.
struct ConstraintNames {
    var unique: [[String?]] = []
    var binary: [[String?]] = []
    var spatial: [[String?]] = []
    var search: [[String?]] = []
}

extension Schema.Unique: EntityConstraints {
    var propertyNames: ConstraintNames {
        ConstraintNames(unique: constraints.map { $0.map { PropertyNames.name(of: $0, in: T.self) } })
    }
}

extension Schema.Index: EntityConstraints {
    var propertyNames: ConstraintNames {
        let names = { (index: Types<T>) in index.keyPaths.map { PropertyNames.name(of: $0, in: T.self) } }
        return ConstraintNames(
            binary: indices.filter { $0.kind == "binary" }.map(names), spatial: indices.filter(\.isSpatial).map(names),
            search: indices.filter(\.isSearch).map(names))
    }
}
