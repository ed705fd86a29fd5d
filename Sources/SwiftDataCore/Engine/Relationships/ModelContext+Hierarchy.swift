import Foundation

/// Model hierarchies in a context: rows of a hierarchy's table become models of their own classes, and the context
/// finds a row's model among the registered models of every class of the hierarchy.
extension ModelContext {
    /// `withMaterializer` for an entity with subentities. Each row starts with its entity name; the fetched entity's
    /// properties follow, then each subentity's own (`subentityProperties`, see `RowStore.fetch`). A row becomes a
    /// model of its entity's class, with the properties of every level of that class.
    func withHierarchyMaterializer<T: PersistentModel>(
        _ type: T.Type, binding: EntityBinding, properties: [Int], linking: Schema.Relationship?,
        subentityProperties: [SubentityProperties], keysAreDistinct: Bool = true,
        unresolved: inout [UnresolvedReference],
        _ body: (_ materialize: (Int64, any _RowReader, Int32, Int64?) throws -> T) throws -> Void
    ) throws {
        var starts: [ObjectIdentifier: Int32] = [:]
        var next = Int32(properties.count)
        for level in subentityProperties {
            starts[ObjectIdentifier(level.entity)] = next
            next += Int32(level.properties.count)
        }
        // Each class's properties and the columns they are in: the fetched entity's, then each level's below it.
        var plans: [(binding: EntityBinding, properties: [Int], columns: [Int32])] = []
        for entity in binding.entity.selfAndDescendants {
            guard let modelType = entity.modelType, let concrete = container.binding(for: modelType) else { continue }
            var plan = (binding: concrete, properties: properties, columns: (0..<Int32(properties.count)).map { $0 })
            for level in entity.selfAndAncestors.reversed() where level !== binding.entity {
                guard let start = starts[ObjectIdentifier(level)],
                    let own = subentityProperties.first(where: { $0.entity === level })?.properties
                else { continue }
                plan.properties += own
                plan.columns += (0..<Int32(own.count)).map { start + $0 }
            }
            plans.append(plan)
        }
        // Each class's materializer by entity name, in a list of a type that does not depend on T: a dictionary of
        // `T`-returning functions, in this unspecialised code, hashed the name and looked up the function type's
        // metadata for every row (about 1,100 instructions a model). A hierarchy has a few classes: a row finds its
        // own by comparing names.
        var materializers: [(name: String, materialize: RowMaterializer)] = []
        func nest(_ index: Int) throws {
            guard index < plans.count else {
                let classes = materializers
                let fallback = classes.firstIndex { $0.name == binding.entity.name }
                return try body { key, reader, first, owner in
                    // A row of an entity the container lacks loads as the fetched class.
                    let entityName = reader.isNull(first) ? binding.entity.name : try reader.string(first)
                    guard let found = classes.firstIndex(where: { $0.name == entityName }) ?? fallback else {
                        throw SwiftDataError.corruptValue("\(binding.entity.name) has no class for row \(key)")
                    }
                    // unsafeDowncast: each class of the plans is T or one of its subclasses.
                    return unsafeDowncast(try classes[found].materialize(key, reader, first + 1, owner), to: T.self)
                }
            }
            let plan = plans[index]
            func open<C: PersistentModel>(_ concrete: C.Type) throws {
                // Each class's references, collected apart while the nested classes' are.
                var classUnresolved: [UnresolvedReference] = []
                defer { unresolved += classUnresolved }
                try fetcher.withMaterializer(
                    C.self, binding: plan.binding, properties: plan.properties, columns: plan.columns,
                    linking: linking, keysAreDistinct: keysAreDistinct, unresolved: &classUnresolved
                ) { materialize in
                    // The class's materializer serves the rows of the nested calls, which end before it does.
                    try withoutActuallyEscaping(materialize) { materialize in
                        materializers.append((plan.binding.entity.name, { try materialize($0, $1, $2, $3) }))
                        defer { materializers.removeLast() }
                        try nest(index + 1)
                    }
                }
            }
            if let modelType = plan.binding.entity.modelType { try open(modelType) } else { try nest(index + 1) }
        }
        try nest(0)
    }

    /// The registered model of the row `key` of `entity`'s table, whichever class of the entity's hierarchy below
    /// it the model is.
    func registeredModel(key: Int64, in entity: Schema.Entity) -> (any PersistentModel)? {
        if entity.subentities.isEmpty {
            guard let type = entity.modelType else { return nil }
            return registry.anyModel(type, key: key)
        }
        for member in entity.selfAndDescendants {
            guard let type = member.modelType, let model = registry.anyModel(type, key: key) else { continue }
            return model
        }
        return nil
    }

    /// The registered model of the row `key` of a relationship's destination, whichever class of its hierarchy it
    /// is.
    func registeredTarget(of relationship: Schema.Relationship, key: Int64) -> (any PersistentModel)? {
        guard let type = relationship.destinationType else { return nil }
        guard let entity = container.binding(for: type)?.entity, entity.fetchReadsEntity else {
            return registry.anyModel(type, key: key)
        }
        return registeredModel(key: key, in: entity)
    }

    /// Sets the to-one relationships whose models only their rows could tell the class of: one query per
    /// destination reads the rows' entity names, then each becomes the registered model or one that loads when
    /// first read (linked rather than held when that model holds the model back, see `_PersistentState`). A key
    /// without a row (a dangling reference) becomes a model of the destination's class.
    func resolve(_ references: [UnresolvedReference]) throws {
        var keys: [ObjectIdentifier: (binding: EntityBinding, keys: Set<Int64>)] = [:]
        for item in references {
            guard let type = item.relationship.destinationType, let binding = container.binding(for: type) else {
                continue
            }
            keys[ObjectIdentifier(binding), default: (binding, [])].keys.insert(item.key)
        }
        var models: [ObjectIdentifier: [Int64: any PersistentModel]] = [:]
        for (binding, destinationKeys) in keys.values {
            models[ObjectIdentifier(binding)] = try self.models(forKeys: destinationKeys, of: binding)
        }
        for item in references {
            guard let type = item.relationship.destinationType, let binding = container.binding(for: type),
                let model = models[ObjectIdentifier(binding)]?[item.key]
            else { continue }
            if let inverse = item.relationship.inverse, model._$get(inverse.index).isLoaded {
                item.model.link(item.property, to: item.key)
            } else {
                item.model.setBuilt(item.property, model)
            }
        }
    }

    /// The models of the rows `keys` of the table of `binding`'s entity, each of the class its row names: the
    /// registered ones, and models that load when first read for the others.
    func models(forKeys keys: Set<Int64>, of binding: EntityBinding) throws -> [Int64: any PersistentModel] {
        guard let type = binding.entity.modelType else { return [:] }
        let missing = keys.filter { registeredModel(key: $0, in: binding.entity) == nil }
        let names = missing.isEmpty ? [:] : try entityNames(of: Array(missing), type, binding: binding)
        var found: [Int64: any PersistentModel] = [:]
        for key in keys {
            if let model = registeredModel(key: key, in: binding.entity) {
                found[key] = model
                continue
            }
            let concrete = names[key].flatMap { name in
                binding.entity.selfAndDescendants.first { $0.name == name }?.modelType
            }
            let classBinding = concrete.flatMap { container.binding(for: $0) } ?? binding
            func hollow<C: PersistentModel>(_ modelType: C.Type) -> any PersistentModel {
                registeredOrHollow(C.self, key: key, binding: classBinding)
            }
            let modelType: any PersistentModel.Type = classBinding.entity.modelType ?? type
            found[key] = hollow(modelType)
        }
        return found
    }

    /// The entity names of the rows with the given keys in the table of `binding`'s entity.
    private func entityNames<D: PersistentModel>(of keys: [Int64], _ type: D.Type, binding: EntityBinding) throws
        -> [Int64: String]
    {
        var request = FetchRequest<D>(entity: binding.entity, properties: [])
        request.keys = keys
        var names: [Int64: String] = [:]
        try binding.store.fetch(request) { key, reader in
            if !reader.isNull(1) { names[key] = try reader.string(1) }
        }
        return names
    }
}

/// Turns a row (its key, its properties from a reader's column onward, and the key of the owner whose members are
/// loading, if they are) into the context's model for it, of a class the caller knows.
typealias RowMaterializer = (Int64, any _RowReader, Int32, Int64?) throws -> AnyObject

/// A to-one relationship of a model being loaded whose related model is found after the rows are read.
struct UnresolvedReference {
    let model: any PersistentModel
    let property: Int
    let relationship: Schema.Relationship
    let key: Int64

    init(_ model: any PersistentModel, property: Int, _ relationship: Schema.Relationship, key: Int64) {
        self.model = model
        self.property = property
        self.relationship = relationship
        self.key = key
    }
}
