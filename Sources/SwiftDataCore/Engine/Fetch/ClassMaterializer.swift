import Foundation

/// Turns the rows of one fetch into the context's models of one class (see `Fetcher.withMaterializer`): what every row
/// needs (the identity map, where references lead, which loading path the rows take) is found once, in `init`, and
/// `materialize` runs for each row.
///
/// It is a class so that the function a store calls for each row captures one reference: a closure that captured
/// these values itself had its two dozen captures unpacked, and some retained and released, at each call.
final class ClassMaterializer<T: PersistentModel> {
    private let fetcher: Fetcher
    private let binding: EntityBinding
    private let properties: [Int]
    private let linking: Schema.Relationship?
    private let contiguous: Bool
    private let offsets: [Int32]
    private let map: IdentityMap
    /// `map`, unretained, for the calls made for every row: a call on the stored `map` retained and released it.
    private let unretainedMap: Unmanaged<IdentityMap>
    private let backingData: any BackingData<T>
    private let references: [Schema.Relationship?]
    private let hasReferences: Bool
    private let inverses: [Schema.Relationship?]
    private let destinations: [(type: any PersistentModel.Type, binding: EntityBinding)?]
    private let polymorphic: [Bool]
    private let targets: [RegisteredTargets?]
    private let coded: Set<Int>
    private let isPartial: Bool
    private let fetched: Set<Int>
    private let lazyRelationships: [Int]
    private let isPlain: Bool
    private let loadsRows: Bool
    private let rootCount: Int
    private let loadsRootRow: Bool
    private let wasEmpty: Bool
    private let referenceOffsets: [Int]
    private let linksOwner: [Bool]
    /// The property a new model links to the owner whose members are loading as it registers, in the same access to
    /// its state (a later access retained and released the model), when its row loads in one call and that link is
    /// its only reference; `-1` otherwise.
    private let ownerLink: Int32
    /// References to models whose class only their row tells, found once the rows are read.
    private(set) var unresolved: [UnresolvedReference] = []

    /// The fetcher's context and registry, stored (a context is weakly referenced, so each retain of it takes the
    /// runtime's slow path: read from a stored `let`, it is lent to the calls below without one).
    private let context: ModelContext
    private let registry: ModelRegistry

    /// Property `properties[i]` is read from column `first + i`, or `first + columns[i]` when given.
    /// `keysAreDistinct` is `false` when rows may repeat a key (the members of a many-to-many relationship of
    /// several owners).
    init(
        _ type: T.Type, fetcher: Fetcher, binding: EntityBinding, properties: [Int], columns: [Int32]?,
        linking: Schema.Relationship?, keysAreDistinct: Bool
    ) throws {
        // A class's columns given in order from the first (a hierarchy's root class, or a subclass whose own columns
        // follow its superclasses') are read as when none are given.
        let contiguous = columns.map { $0.elementsEqual(0..<Int32($0.count)) } ?? true
        let offsets = columns ?? []
        let map = fetcher.registry.map(for: ObjectIdentifier(T.self))
        let backingData: any BackingData<T> = DefaultBackingData(for: T.self)
        // A fetch of the binding's own properties (most are) finds its relationships in the binding.
        let references =
            properties == binding.fetchedProperties
            ? binding.fetchedRelationships : properties.map { binding.entity.relationship(at: $0) }
        let hasReferences = references.contains { $0 != nil }
        let inverses = hasReferences ? references.map { $0?.inverse } : []
        // Where each reference leads, and where its targets are registered, looked up once rather than for every row.
        let destinations = hasReferences ? try references.map { try $0.map(fetcher.context.destination) } : []
        let polymorphic = destinations.map { $0?.binding.entity.fetchReadsEntity ?? false }
        let targets = destinations.map { $0.map { RegisteredTargets($0.type, in: fetcher.registry) } }
        let coded = binding.codedAttributes
        let isPartial = properties.count < binding.fetchedProperties.count
        // Only a partial fetch asks which properties it read.
        let fetched: Set<Int> = isPartial ? Set(properties) : []
        // Rows of models not registered yet, with plain attributes only, load in one tight loop.
        let lazyRelationships = binding.lazyRelationships
        let isPlain = !hasReferences && coded.isEmpty && lazyRelationships.isEmpty && !isPartial
        // Rows of all of a class's properties, in order, with no attribute that Core converts, load in one call of the
        // model's generated code, which leaves to-one relationships not loaded (their keys are resolved below).
        let loadsRows = coded.isEmpty && !isPartial && contiguous && properties.elementsEqual(0..<properties.count)
        // A subclass's rows (of plain attributes) start with its root class's properties, which load in one call of the
        // row loader the subclass inherits from its root class; its own properties follow one by one.
        let rootCount = binding.entity.superentity == nil ? 0 : binding.entity.rootEntity.indexedProperties.count
        let loadsRootRow =
            isPlain && !loadsRows && rootCount > 0 && properties.count > rootCount
            && properties.prefix(rootCount).elementsEqual(0..<rootCount)
            && (contiguous || offsets.prefix(rootCount).elementsEqual(0..<Int32(rootCount)))
        // A type with no registered models (the first fetch, or the first walk of a relationship to it) needs no
        // lookup per row, unless the rows may repeat a key or refer to models of their own type, which may register
        // them on the way (a model of a hierarchy whose class its row tells is registered after the rows).
        let wasEmpty =
            keysAreDistinct && map.isEmpty
            && !destinations.contains { $0.map { ObjectIdentifier($0.type) == ObjectIdentifier(T.self) } ?? false }
        // The offsets of the properties that are references: all that a row loaded in one call still reads.
        let referenceOffsets = hasReferences ? references.indices.filter { references[$0] != nil } : []
        let linksOwner =
            hasReferences ? Self.ownerReferences(references, inverses, destinations, linking: linking) : []
        self.fetcher = fetcher
        context = fetcher.context
        registry = fetcher.registry
        self.binding = binding
        self.properties = properties
        self.linking = linking
        self.contiguous = contiguous
        self.offsets = offsets
        self.map = map
        unretainedMap = Unmanaged.passUnretained(map)
        self.backingData = backingData
        self.references = references
        self.hasReferences = hasReferences
        self.inverses = inverses
        self.destinations = destinations
        self.polymorphic = polymorphic
        self.targets = targets
        self.coded = coded
        self.isPartial = isPartial
        self.fetched = fetched
        self.lazyRelationships = lazyRelationships
        self.isPlain = isPlain
        self.loadsRows = loadsRows
        self.rootCount = rootCount
        self.loadsRootRow = loadsRootRow
        self.wasEmpty = wasEmpty
        self.referenceOffsets = referenceOffsets
        self.linksOwner = linksOwner
        let onlyReference = referenceOffsets.count == 1 ? referenceOffsets[0] : -1
        ownerLink =
            loadsRows && linksOwner.indices.contains(onlyReference) && linksOwner[onlyReference]
            ? Int32(properties[onlyReference]) : -1
    }

    /// Which references lead to the owner whose members are loading (the inverse of `linking`), which a model links
    /// to, found once: a schema's relationships are weakly referenced (by their inverses), so each retain of one takes
    /// the slow path, twice a row when the loop over the rows looked them up. Empty when no members are loading.
    private static func ownerReferences(
        _ references: [Schema.Relationship?], _ inverses: [Schema.Relationship?],
        _ destinations: [(type: any PersistentModel.Type, binding: EntityBinding)?], linking: Schema.Relationship?
    ) -> [Bool] {
        guard linking != nil else { return [] }
        return references.indices.map { offset in
            references[offset] != nil && references[offset] === linking && inverses[offset] != nil
                && destinations[offset] != nil
        }
    }

    /// The context's object for a row (its key, and its properties from the reader's column `first` onward; the key
    /// of the owner whose members are loading, if any): the registered one, refreshed where it has no unsaved changes,
    /// or a new one.
    func materialize(_ key: Int64, _ reader: any _RowReader, _ first: Int32, _ owner: Int64?) throws -> T {
        let model: T
        let isNew: Bool
        // Whether the row's attributes are loaded, and its to-one relationships left not loaded.
        var rowLoaded = false
        // Whether a new model was linked to `owner` as it registered (see `ownerLink`).
        var linkedOwner = false
        if !wasEmpty, let existing = map.model(key) {
            model = unsafeDowncast(existing, to: T.self)  // filed under T's ObjectIdentifier
            isNew = false
        } else {
            model = T(backingData: backingData)
            // As `registry.register`, for a state with its initial values, and a key the map does not hold (it
            // was looked up above, or the map was empty and rows do not repeat keys).
            if ownerLink >= 0, let owner {
                linkedOwner = true
                model._$persistentState.registerNew(
                    in: context, key: key, binding: binding, map: map, link: ownerLink, to: owner)
            } else {
                model._$persistentState.registerNew(in: context, key: key, binding: binding, map: map)
            }
            unretainedMap._withUnsafeGuaranteedRef { $0.append(model, for: key) }
            // A value that fails to load is read again below, which names its property in the error.
            rowLoaded = loadsRows && (try? model._$loadRow(properties.count, from: reader, column: first)) == true
            if rowLoaded && linkedOwner && lazyRelationships.isEmpty {
                // A walked member whose one reference, to its owner, was linked as it registered: nothing is left to
                // do (the loop below would find only that link).
                return model
            }
            if isPlain {
                if rowLoaded { return model }
                // The properties before `start` are loaded.
                let start =
                    loadsRootRow && (try? model._$loadRow(rootCount, from: reader, column: first)) == true
                    ? rootCount : 0
                if !contiguous {
                    for offset in start..<properties.count {
                        do {
                            try model._$load(properties[offset], from: reader, column: first + offsets[offset])
                        } catch {
                            throw fetcher.naming(error, property: properties[offset], binding: binding)
                        }
                    }
                    return model
                }
                var column = first + Int32(start)
                for property in properties[start...] {
                    do {
                        try model._$load(property, from: reader, column: column)
                    } catch {
                        throw fetcher.naming(error, property: property, binding: binding)
                    }
                    column += 1
                }
                return model
            }
            isNew = true
        }
        let changes = isNew ? PropertyMask() : model._$persistentState.changes
        // A row loaded in one call has only its references left to read.
        for index in 0..<(rowLoaded ? referenceOffsets.count : properties.count) {
            let offset = rowLoaded ? referenceOffsets[index] : index
            let property = properties[offset]
            if !isNew, changes.contains(property) { continue }
            let column = first + (contiguous ? Int32(offset) : offsets[offset])
            if !linksOwner.isEmpty, linksOwner[offset] {
                // The inverse of the relationship whose members are loading: its owner holds the model. The row's
                // key of it is the owner's, which the store has read already.
                let target: Int64?
                do {
                    target = try owner ?? reader.relatedKey(column)
                } catch {
                    throw fetcher.naming(error, property: property, binding: binding)
                }
                if !isNew, let linkedKey = model._$persistentState.linkedKey(property), linkedKey == target {
                    continue
                }
                if let target {
                    if rowLoaded {
                        // The owner (`target`) was linked as the model registered.
                        if !linkedOwner { model._$persistentState.link(property, to: target) }
                    } else {
                        model.link(property, to: target)
                    }
                } else {
                    try model._$set(property, .loaded(nil))
                }
                continue
            }
            if hasReferences, let relationship = references[offset] {
                let target: Int64?
                do {
                    target = try reader.relatedKey(column)
                } catch {
                    throw fetcher.naming(error, property: property, binding: binding)
                }
                let linkedKey = isNew ? nil : model._$persistentState.linkedKey(property)
                if let linkedKey, linkedKey == target { continue }
                if !isNew, linkedKey == nil, relationship !== linking,
                    let current = model._$get(property).relatedModels,
                    current.first?._$persistentState.key == target
                {
                    continue
                }
                guard let target, let destination = destinations[offset] else {
                    try model._$set(property, .loaded(nil))
                    continue
                }
                // A model of a hierarchy may be registered as any class below the destination's.
                let registered =
                    polymorphic[offset]
                    ? context.registeredModel(key: target, in: destination.binding.entity)
                    : targets[offset]?.model(target)
                if let inverse = inverses[offset], registered.map({ $0._$get(inverse.index).isLoaded }) == true {
                    if rowLoaded {
                        model._$persistentState.link(property, to: target)
                    } else {
                        model.link(property, to: target)
                    }
                } else if let registered {
                    try model._$set(property, .loaded(registered))
                } else if polymorphic[offset] {
                    // A model of a hierarchy whose row alone tells its class: found once the rows are read.
                    unresolved.append(UnresolvedReference(model, property: property, relationship, key: target))
                } else {
                    try model._$set(
                        property,
                        .loaded(
                            context.registeredOrHollow(destination.type, key: target, binding: destination.binding))
                    )
                }
            } else if rowLoaded {
                continue
            } else if !coded.isEmpty, coded.contains(property) {
                if !isNew, model._$persistentState.externalReferences?[property] == nil,
                    model._$get(property).isLoaded,
                    binding.externalAttributes.contains(property)
                {
                    continue  // a loaded external value stays until it changes through a save
                }
                do {
                    try fetcher.loadCoded(property, of: model, from: reader, column: column, binding: binding)
                } catch {
                    throw fetcher.naming(error, property: property, binding: binding)
                }
            } else {
                do {
                    if isNew {
                        try model._$load(property, from: reader, column: column)
                    } else {
                        try fetcher.refresh(property, of: model, from: reader, column: column)
                    }
                } catch {
                    throw fetcher.naming(error, property: property, binding: binding)
                }
            }
        }
        if isNew {
            for property in lazyRelationships { model.unload(property) }
            if isPartial {
                // The attributes left out load together, for every such model, when one is first read.
                for property in binding.attributeIndexes where !fetched.contains(property) {
                    model.unload(property)
                }
                registry.noteHollow(key, of: ObjectIdentifier(T.self), in: map)
            }
        }
        return model
    }
}
