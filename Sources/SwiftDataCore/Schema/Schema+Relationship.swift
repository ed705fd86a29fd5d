extension Schema {
    /// A property of a model class whose value is another model, an optional model, or an array of models.
    /// `Codable` as Apple's is, without its key paths, which cannot be archived. `@unchecked Sendable` as `Schema`
    /// is: settable only while it is built, before it is shared.
    public final class Relationship: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        /// The property's name in the model class.
        public var name: String
        /// The name the relationship had in an earlier version of the schema (`@Relationship(originalName:)`); its
        /// own name when it was not renamed.
        public var originalName: String
        /// The model's key path to the relationship.
        public var keypath: AnyKeyPath?
        /// The `@Relationship` options.
        public var options: [Option]
        /// The property's type: a model, an optional model or an array of models.
        public var valueType: any Any.Type
        /// The entity name of the related model.
        public var destination: String
        /// What deleting a model does to the models this relationship holds.
        public var deleteRule: DeleteRule
        /// The name of the inverse relationship on the related model, given or inferred; `nil` without one.
        public var inverseName: String?
        /// The key path of the inverse relationship, as `@Relationship(inverse:)` gives it.
        public var inverseKeyPath: AnyKeyPath?
        /// The fewest models a to-many relationship may hold when saved; `0` or `nil` for no bound.
        public var minimumModelCount: Int?
        /// The most models a to-many relationship may hold when saved; `0` or `nil` for no bound.
        public var maximumModelCount: Int?
        /// `@Relationship(hashModifier:)`, kept in the schema; unlike Apple's, changing it alone does not migrate a
        /// store.
        public var hashModifier: String?
        /// Whether the relationship's type is optional.
        public var isOptional: Bool = false
        /// Whether the relationship holds at most one model.
        public var isToOneRelationship: Bool = true

        /// The property's position in `schemaMetadata`.
        package var index = 0
        /// The model type at the other end.
        package var destinationType: (any PersistentModel.Type)?
        /// The inverse relationship on the destination, once the schema has paired them.
        package weak var inverse: Relationship?
        /// Where the store keeps the relationship.
        package var storage = Storage.column

        /// Where a relationship lives in a store's tables.
        package enum Storage: Equatable, Sendable {
            /// A foreign-key column of this entity, named after the relationship (to-one relationships whose
            /// inverse is to-many or absent, and one side of a one-to-one).
            case column
            /// The inverse's foreign-key column (to-many relationships whose inverse is to-one, and the other side
            /// of a one-to-one).
            case inverseColumn
            /// A join table of (owner, member) pairs; `isOwner` tells whether this side is its owner column.
            case joinTable(name: String, isOwner: Bool)
        }

        /// The column that keeps a to-many inverse's order, on the foreign-key side.
        package var positionColumn: String? {
            guard case .column = storage, inverse?.isToOneRelationship == false else { return nil }
            return Relationship.positionColumn(of: name)
        }

        /// The name of the position column of a to-one relationship named `name` whose inverse is to-many.
        package static func positionColumn(of name: String) -> String { "_\(name)_position" }

        /// A rule applied to related models when a model is deleted.
        public enum DeleteRule: String, Codable, Hashable, Sendable {
            /// Change nothing; the program keeps the data consistent.
            case noAction
            /// Clear the related models' references to the deleted model.
            case nullify
            /// Delete the related models too.
            case cascade
            /// Refuse to delete a model that still has related models.
            case deny
        }

        /// An option of a relationship.
        public struct Option: Codable, Hashable, Sendable, CustomDebugStringConvertible {
            private let kind: String
            /// The related model is unique: no two models relate to the same one.
            public static var unique: Option { Option(kind: "unique") }
            public var debugDescription: String { kind }
        }

        /// The form `@Relationship(...)` takes, with the rest filled in from the property.
        public init(
            _ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.valueType = Any.self
            self.destination = ""
            self.deleteRule = deleteRule
            self.inverseKeyPath = inverse
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.hashModifier = hashModifier
        }

        /// `true`: the property is a relationship.
        public var isRelationship: Bool { true }
        /// Whether the relationship is `.unique`.
        public var isUnique: Bool { options.contains(.unique) }

        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.destination == rhs.destination
                && lhs.deleteRule == rhs.deleteRule && lhs.inverseName == rhs.inverseName
                && lhs.options == rhs.options && lhs.isToOneRelationship == rhs.isToOneRelationship
                && lhs.minimumModelCount == rhs.minimumModelCount && lhs.maximumModelCount == rhs.maximumModelCount
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
        }

        public var debugDescription: String {
            "Relationship(\(name) -> \(isToOneRelationship ? destination : "[\(destination)]"), \(deleteRule))"
        }
    }
}
