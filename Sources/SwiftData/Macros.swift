/// Turns a class into a stored model: every stored `var` becomes a persisted property with change tracking
/// and observation, and the class conforms to `PersistentModel` and `Observable`. A subclass of a `@Model` class
/// is marked `@Model` too: its persisted properties add to the ones it inherits.
///
/// ```swift
/// @Model final class Trip {
///     var name: String
///     var startDate: Date
///     var notes: String?  // optional: a trip may have none
///     init(name: String, startDate: Date) {
///         self.name = name
///         self.startDate = startDate
///     }
/// }
/// ```
@attached(
    member, conformances: PersistentModel, names: named(_$persistentState), named(_$observationRegistrar),
    named(_$isObserved), named(init), named(persistentBackingData), named(schemaMetadata), named(_$load),
    named(_$loadRow), named(_$store), named(_$get), named(_$set), named(_$uniquenessConstraints), named(_$indices),
    named(_$spatialIndices), named(_$searchIndices), named(_$RootModel), named(_$propertyMetadata),
    named(_$InheritedProperties))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model() = #externalMacro(module: "SwiftDataMacros", type: "ModelMacro")

/// Configures a persisted attribute: options such as `.unique` or `.externalStorage`, and the name the
/// property had in an earlier schema.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacros", type: "AttributeMacro")

/// Configures a relationship: its delete rule, cardinality bounds, earlier name and inverse.
///
/// ```swift
/// @Model final class Trip {
///     var name: String
///     @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) var items: [BucketListItem] = []
///     init(name: String) { self.name = name }
/// }
///
/// @Model final class BucketListItem {
///     var title: String
///     var trip: Trip?
///     init(title: String) { self.title = title }
/// }
/// ```
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacros", type: "RelationshipMacro")

/// Excludes a property from storage. A stored transient property needs a default value: models loaded from
/// a store start with it.
@attached(peer)
public macro Transient() = #externalMacro(module: "SwiftDataMacros", type: "TransientMacro")

/// Makes a stored property persisted (added by `@Model`; not written by hand). `afterInherited` numbers it after
/// the persisted properties the class may inherit.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(`_$`), prefixed(`_$keyPath$`))
public macro _PersistedProperty(_ index: Int, afterInherited: Bool = false) =
    #externalMacro(module: "SwiftDataMacros", type: "PersistedPropertyMacro")

/// Declares unique constraints of a model: each array is one constraint over one or more properties
/// (attributes or to-one relationships). Inserting a model whose values match a stored one updates it.
///
/// ```swift
/// @Model final class Person {
///     #Unique<Person>([\.email], [\.firstName, \.lastName])
///     var email: String
///     var firstName: String
///     var lastName: String
///     init(email: String, firstName: String, lastName: String) {
///         self.email = email
///         self.firstName = firstName
///         self.lastName = lastName
///     }
/// }
/// ```
@freestanding(declaration)
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataMacros", type: "ConstraintMacro")

/// Declares indexes of a model: each array is one index over one or more properties.
///
/// ```swift
/// @Model final class Flight {
///     #Index<Flight>([\.number], [\.departure, \.arrival])
///     var number: String
///     var departure: Date
///     var arrival: Date
///     init(number: String, departure: Date, arrival: Date) {
///         self.number = number
///         self.departure = departure
///         self.arrival = arrival
///     }
/// }
/// ```
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataMacros", type: "ConstraintMacro")

/// Declares indexes of a model by kind: `.binary([...])` for an ordinary index, `.rtree([...])` for a spatial
/// index on numeric attributes (SQLite's R*Tree module), which range queries on them use.
///
/// ```swift
/// @Model final class Place {
///     #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
///     var name: String
///     var latitude: Double
///     var longitude: Double
///     init(name: String, latitude: Double, longitude: Double) {
///         self.name = name
///         self.latitude = latitude
///         self.longitude = longitude
///     }
/// }
/// ```
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: Schema.Index<T>.Types<T>...) =
    #externalMacro(module: "SwiftDataMacros", type: "ConstraintMacro")

/// Makes an actor a `ModelActor`: adds `modelContainer`, `modelExecutor` and `init(modelContainer:)`, which
/// creates a context of its own for the actor.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "SwiftDataMacros", type: "ModelActorMacro")
