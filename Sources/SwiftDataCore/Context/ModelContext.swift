import Foundation

/// Tracks models, fetches them, and saves their changes to the container's stores.
///
/// ```swift
/// let context = ModelContext(container)
/// let trip = Trip(name: "Tokyo", startDate: .now)
/// context.insert(trip)
/// try context.save()
///
/// trip.name = "Kyoto"  // tracked: hasChanges is true until the next save
/// try context.save()
///
/// context.delete(trip)
/// try context.save()
/// ```
///
/// A context is not `Sendable`: use it on one actor (`mainContext` on the main actor, or a `@ModelActor`).
/// It keeps one object per stored row (an identity map). A save refreshes the models the container's other
/// contexts hold: `mainContext` and model actors' contexts apply it at once on their own queue, other contexts when
/// they next fetch, save or look up a model; another process's saves are seen at the next fetch.
///
/// A model keeps its context alive; the context keeps only models with unsaved changes alive (see
/// `ModelRegistry`), so models fetched through a context the program let go of stay fully usable, and a
/// long-lived context holds the models the program still uses, not every model it ever fetched.
public class ModelContext: Equatable, CustomDebugStringConvertible {
    /// The container the context belongs to.
    public let container: ModelContainer
    /// The context's identity and author, as stores see them.
    public var editingState = EditingState()
    /// A name for the context's saves, recorded as the `author` of each history transaction they write. It is the
    /// author of the context's `editingState`.
    public var author: String? {
        get { editingState.author }
        set { editingState.author = newValue }
    }
    /// Whether the context saves by itself after changes. Defaults to `false`, and to `true` for the
    /// container's `mainContext`. An autosaving context saves shortly after a change: on the main queue when the
    /// change is made on the main thread (and when the program exits), on a model actor's queue for its context,
    /// and otherwise at the context's next fetch.
    @exclusivity(unchecked) public var autosaveEnabled: Bool {
        didSet { if autosaveEnabled && hasChanges { scheduleAutosave() } }
    }

    /// The models the context manages, and their pending inserts, changes and deletes.
    ///
    /// The context's flags skip Swift's run-time exclusivity checks, which every insert, delete and change of a model
    /// paid: a context is used on one thread, one statement at a time. The registry is a constant, which needs none.
    let registry = ModelRegistry()
    /// Stored rows the next save deletes that no registered model stands for, by entity name: what
    /// `delete(model:where:)` found in the store, and what their cascade rules reach.
    var deletedRows: [String: Set<Int64>] = [:]
    let isMainContext: Bool
    @exclusivity(unchecked) var autosaveScheduled = false
    /// Whether an autosave waits for the context's next fetch (a context with no queue of its own to save on).
    var autosaveWaitsForFetch = false
    /// Saves of other contexts and changes by other processes, waiting to be applied.
    let inbox = ChangeInbox()
    /// Records inserts, deletes and property changes so they can be undone. `nil`, the default, records
    /// nothing. `rollback()` empties it.
    public var undoManager: UndoManager? {
        get { undo.manager }
        set {
            undo.manager = newValue
            hasUndoManager = newValue != nil
            recordsUndo = hasUndoManager || changedWhileWriting != nil
        }
    }
    /// Whether setters tell the context of a change before making it (`recordUndo(of:property:)`): while the context
    /// has an undo manager, and while a save writes its rows; read by the setters of every model.
    @exclusivity(unchecked) @usableFromInline final var recordsUndo = false
    /// Whether `undoManager` is set.
    @exclusivity(unchecked) private var hasUndoManager = false
    /// While a save writes its rows, the properties of models changed meanwhile (see `watchWrites()`); else `nil`.
    @exclusivity(unchecked) private var changedWhileWriting: [(model: any PersistentModel, property: Int)]?
    /// Whether a save is writing its rows (between `watchWrites()` and `endWatchingWrites()`).
    var isWritingSave: Bool { changedWhileWriting != nil }
    /// The calls made while a save wrote its rows that wait until it is done, in order: `delete(model:where:)` (see
    /// `+DeleteRules`), `delete(_:)` of a new model, `rollback()`, and undo and redo actions (see `UndoRecorder`).
    var callsAfterWrite: [(ModelContext) throws -> Void] = []
    /// The part of the context that records its changes for undo, and owns its undo manager.
    private(set) lazy var undo = UndoRecorder(context: self)
    /// The binding `cachedBinding(for:)` found last.
    var lastBinding: (type: ObjectIdentifier, binding: EntityBinding)?
    /// The `userInfo` of the context's last `didSave`, its values emptied, which the next save fills in place (see
    /// `ModelContext.save()`); empty before the first save.
    @exclusivity(unchecked) var didSaveInfo: [AnyHashable: Any] = [:]

    /// A context of `container`, with autosave off.
    public convenience init(_ container: ModelContainer) {
        self.init(container, isMainContext: false)
    }

    init(_ container: ModelContainer, isMainContext: Bool) {
        self.container = container
        self.isMainContext = isMainContext
        self.autosaveEnabled = isMainContext
        if isMainContext { AutosaveRegistry.register(self) }
        subscribeToChanges()
        if isMainContext { runChanges { work in DispatchQueue.main.async(execute: work) } }
        for store in container.stores { store.initializeState(for: editingState) }
    }

    deinit {
        for store in container.stores { store.invalidateState(for: editingState) }
        // Every model the context managed is gone (a model keeps its context alive), so nothing is left to release.
        container.changes.unsubscribe(self)
    }

    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }

    public var debugDescription: String {
        "ModelContext(inserted: \(insertedModelsArray.count), changed: \(changedModelsArray.count), deleted: \(deletedModelsArray.count))"
    }

    // MARK: Pending changes

    /// Whether the context has unsaved inserts, changes or deletes.
    public var hasChanges: Bool { registry.hasPendingChanges || !deletedRows.isEmpty }

    /// Models inserted and not yet saved.
    public var insertedModelsArray: [any PersistentModel] { registry.pendingInserts }

    /// Registered models with unsaved changes.
    public var changedModelsArray: [any PersistentModel] { registry.pendingChanges }

    /// Registered models that the next save deletes.
    public var deletedModelsArray: [any PersistentModel] { registry.pendingDeletes }

    // MARK: Inserting and deleting

    /// Registers a new model; the next save stores it. Inserting a model twice does nothing; inserting a
    /// model deleted in this context undoes the delete.
    public func insert<T: PersistentModel>(_ model: T) {
        let isMine = model._$persistentState.isManaged(by: self)
        switch model._$persistentState.status {
        case .inserted, .registered:
            if !isMine {
                Log.error(
                    "insert(_:) was given a \(T.self) that belongs to another context; insert it there, or fetch it in this context by its persistentModelID"
                )
            }
            return
        case .deleted:
            guard isMine else {
                Log.error("insert(_:) was given a \(T.self) that belongs to another context; insert it there")
                return
            }
            registry.undelete(model)
            if recordsUndo { undo.register { $0.delete(model) } }
        case .detached where model._$persistentState.binding != nil:
            Log.error("insert(_:) was given a \(T.self) that was deleted; create a new model instead")
            return
        case .unmanaged, .detached:
            registry.insert(model, into: self)
            if recordsUndo { undo.register { $0.undo.undoInsert(model) } }
            // A model whose entity has no relationships brings no related models in.
            if (try? cachedBinding(for: type(of: model)))?.hasRelationships != false { insertRelated(of: model) }
        }
        scheduleAutosave()
    }

    /// Marks a model for deletion at the next save. Deleting an inserted, unsaved model cancels its insert. The
    /// models its `.cascade` relationships reach are deleted with it at once, as the context sees them (with its
    /// unsaved changes), as Core Data's pending-change processing does on Apple's platforms.
    ///
    /// Called while a save writes its rows (by a value transformer, an `Encodable` attribute's encoding, or an
    /// observer they set off) on a model not yet saved, it acts once that save is done: the save may be writing the
    /// model, which is then deleted by the next save (its insert is cancelled when the save failed).
    public func delete<T: PersistentModel>(_ model: T) {
        guard model._$persistentState.isManaged(by: self) else {
            if model._$persistentState.status != .unmanaged && model._$persistentState.status != .detached {
                Log.error("delete(_:) was given a \(T.self) that belongs to another context; delete it there")
            }
            return
        }
        switch model._$persistentState.status {
        case .inserted where isWritingSave:
            // The save may be writing its row: cancelling the insert now would be undone when the save registers it.
            callsAfterWrite.append { $0.delete(model) }
            return
        case .inserted:
            registry.cancelInsert(model)
            if recordsUndo { undo.register { $0.undo.reinsert(model) } }
            let entity = Relationships.entity(of: model)
            cascadeDelete(from: model, entity: entity)
            removeReferences(toCancelled: model, entity: entity)
        case .registered:
            let related = recordsUndo ? undo.keepValues(of: model) : []
            registry.markDeleted(model)
            if recordsUndo { undo.register { $0.undo.undoDelete(model, related: related) } }
            if let entity = model._$persistentState.binding?.entity, !entity.orderedRelationships.isEmpty {
                cascadeDelete(from: model, entity: entity)
            }
        default:
            return
        }
        scheduleAutosave()
    }

    /// Records the current value of a property about to change, for undo (see `UndoRecorder`); called by the
    /// setters of models when `recordsUndo` is set.
    @usableFromInline
    func recordUndo(of model: any PersistentModel, property: Int) {
        changedWhileWriting?.append((model, property))
        undo.recordValue(of: model, property: property)
    }

    /// Called when a property of a registered model changes for the first time since the last save.
    func modelDidChange(_ model: any PersistentModel, property: Int) {
        changedWhileWriting?.append((model, property))
        if registry.noteChanged(model, property: property), autosaveEnabled { scheduleAutosave() }
    }

    /// Starts noting the properties of models changed from now on (by code a save's writing runs: a value
    /// transformer, an `Encodable` attribute, an observer they set off), until `endWatchingWrites()`.
    func watchWrites() {
        changedWhileWriting = []
        recordsUndo = true
    }

    /// Stops noting changed properties, and returns those noted since `watchWrites()`.
    func endWatchingWrites() -> [(model: any PersistentModel, property: Int)] {
        let changed = changedWhileWriting ?? []
        changedWhileWriting = nil
        recordsUndo = hasUndoManager
        return changed
    }

    /// Discards unsaved inserts and deletes, and restores changed models to their stored values.
    ///
    /// Called while a save writes its rows (by a value transformer, an `Encodable` attribute's encoding, or an
    /// observer they set off), it acts once that save is done, on what the save left: what the save wrote stays
    /// saved, and what is still unsaved (every change made while it wrote, before or after the call; everything,
    /// when the save failed) is discarded.
    public func rollback() {
        guard !isWritingSave else {
            // The save holds the models it writes: discarding them now would be undone when it registers them.
            callsAfterWrite.append { $0.rollback() }
            return
        }
        let reverted = registry.rollBack()
        do {
            try fetcher.reload(reverted)
        } catch {
            Log.error("rollback() could not reload changed models, which keep their unsaved values: \(error)")
        }
        registry.markUnchanged(registry.changed)
        linkHeldReferences(of: reverted)
        registry.resetPending()
        deletedRows = [:]
        undoManager?.removeAllActions()
    }

    /// Ends the undo group that changes opened by themselves, so the next change starts a new one (when the
    /// undo manager groups by event). Changes are recorded as they happen; there is nothing else to process.
    public func processPendingChanges() {
        undoManager?.closeAutomaticGroup()
    }

    // MARK: Identity

    /// The model with the identifier: the registered one, or one loaded from the store. When the store has no
    /// such row, a model with that identity and no values is returned, as Apple's does. An identifier of a model
    /// type the container's schema lacks (from another container) has no model of this context to stand for it,
    /// and stops the program with a message, as Apple's does.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        applyNotices()
        if let model = registeredAnyModel(for: persistentModelID) { return model }
        guard let binding = container.binding(forEntityName: persistentModelID.entityName),
            let modelType = binding.entity.modelType
        else {
            preconditionViolated(
                "model(for:) was given an identifier of \(persistentModelID.entityName), which is not in this "
                    + "container's schema; look it up in the context of the container it came from, or add "
                    + "\(persistentModelID.entityName) to this container's models")
        }
        return placeholderOrLoaded(modelType, id: persistentModelID, binding: binding)
    }

    private func placeholderOrLoaded<T: PersistentModel>(
        _ type: T.Type, id: PersistentIdentifier, binding: EntityBinding
    ) -> T {
        let key = binding.key(for: id)
        if let key {
            do {
                if let model = try fetcher.load(T.self, keys: [key], binding: binding).first { return model }
            } catch {
                Log.error("model(for:) could not load \(id): \(error)")
            }
        }
        let model = T(backingData: DefaultBackingData(for: T.self))
        if let key { registry.register(model, of: self, key: key, binding: binding) }
        return model
    }

    /// The model with the identifier, registered or loaded from the store; `nil` when the store has no such
    /// row or the identifier's model is not `T`.
    package func existingModel<T: PersistentModel>(for id: PersistentIdentifier, as type: T.Type) -> T? {
        applyNotices()
        if let model = registeredAnyModel(for: id) { return model as? T }
        guard let binding = container.binding(forEntityName: id.entityName), let key = binding.key(for: id),
            let modelType = binding.entity.modelType, Schema.typesOverlap(modelType, T.self)
        else { return nil }
        func load<M: PersistentModel>(_ type: M.Type) throws -> T? {
            try fetcher.load(M.self, keys: [key], binding: binding).first as? T
        }
        do {
            return try load(modelType)
        } catch {
            Log.error("the model \(id) could not be loaded: \(error)")
            return nil
        }
    }

    /// The model with the identifier if this context has it, without touching the store.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        registeredAnyModel(for: persistentModelID) as? T
    }

    private func registeredAnyModel(for id: PersistentIdentifier) -> (any PersistentModel)? {
        if id.isTemporary {
            return registry.pendingInserts.first { $0.persistentModelID == id }
        }
        guard let binding = container.binding(forEntityName: id.entityName), let key = binding.key(for: id) else {
            return nil
        }
        return registeredModel(key: key, in: binding.entity)
    }

    /// `binding(for:)`, remembering the last type asked about: models mostly come one type at a time.
    func cachedBinding(for type: any PersistentModel.Type) throws -> EntityBinding {
        if let last = lastBinding, last.type == ObjectIdentifier(type) { return last.binding }
        let found = try binding(for: type)
        lastBinding = (ObjectIdentifier(type), found)
        return found
    }

    /// The entity and store of a model type, or an error that says the container lacks it.
    func binding(for type: any PersistentModel.Type) throws -> EntityBinding {
        guard let binding = container.binding(for: type) else {
            throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.with(
                reason: "\(type) is not one of the container's models", model: String(describing: type),
                suggestion: "Pass \(type).self to ModelContainer(for:)")
        }
        return binding
    }
}
