/// The models a context manages, and the only code that moves a model from one stage of its life to another
/// (`_PersistentState.status` and `.context`) and that records which of its properties changed since the last save
/// (`.changes`, and the list of changed models).
///
/// Memory: the identity maps (one per model type) do not keep models alive; the pending lists (inserted, changed,
/// deleted) do, because the next save needs those models even when the program no longer holds them. A model keeps
/// its context alive, so a model with unsaved changes and its context refer to each other: `resetPending()`, which
/// every save and rollback ends with, breaks that cycle.
///
/// It keeps no reference to its context (which owns it): the transitions that make a model the context's take the
/// context as an argument.
final class ModelRegistry {
    // The lists skip Swift's run-time exclusivity checks (two per model for each change, insert or delete): the
    // registry is used on its context's thread, one statement at a time, and no access re-enters another.

    /// Registered models (saved, in the store) by model type.
    @exclusivity(unchecked) private var maps: [ObjectIdentifier: IdentityMap] = [:]
    /// Models inserted since the last save, in order (some may have been deleted or rolled back since).
    @exclusivity(unchecked) private(set) var inserted: [any PersistentModel] = []
    /// Registered models with changed properties (may include models deleted since).
    @exclusivity(unchecked) private(set) var changed: [any PersistentModel] = []
    /// Registered models deleted since the last save.
    @exclusivity(unchecked) private(set) var deleted: [any PersistentModel] = []
    /// Keys of registered models whose values are not loaded yet, by model type.
    var hollow: [ObjectIdentifier: [Int64]] = [:]
    /// Counts the changes to the pending lists and to the changes they record, so that a save can tell whether its
    /// `willSave` observers changed, inserted or deleted a model.
    @exclusivity(unchecked) private(set) var generation = 0
    /// Whether every model in the pending lists is still pending (inserted, changed, deleted): no transition that can
    /// take a listed model out of its pending state (an undone change, a changed model deleted, a model detached or
    /// registered) happened since the lists started. Then the pending lists are the lists themselves, unfiltered.
    @exclusivity(unchecked) private var listsArePending = true

    /// The anchor the context's models hold (see `ContextAnchor`), while one of them does: not retained, since it
    /// retains the context, which owns the registry; its `deinit` clears it.
    @exclusivity(unchecked) private unowned(unsafe) var anchor: ContextAnchor?

    /// The anchor a model of `context` (the context that owns this registry) holds to keep it alive.
    func anchor(of context: ModelContext) -> ContextAnchor {
        if let anchor { return anchor }
        let made = ContextAnchor(context)
        anchor = made
        return made
    }

    /// The anchor `gone` is going away (no model holds it any more).
    func anchorWentAway(_ gone: ContextAnchor) {
        if anchor === gone { anchor = nil }
    }

    // MARK: Identity maps

    /// The identity map of a model type, created on first use.
    @inline(__always)
    func map(for type: ObjectIdentifier) -> IdentityMap {
        if let map = maps[type] { return map }
        let map = IdentityMap()
        maps[type] = map
        return map
    }

    /// The registered model of type `T` for the row `key`.
    func model<T: PersistentModel>(_ type: T.Type, key: Int64) -> T? {
        // unsafeDowncast: each map holds only models of the type whose ObjectIdentifier files it.
        maps[ObjectIdentifier(T.self)]?.model(key).map { unsafeDowncast($0, to: T.self) }
    }

    /// The registered model of `type` for the row `key`.
    func anyModel(_ type: any PersistentModel.Type, key: Int64) -> (any PersistentModel)? {
        maps[ObjectIdentifier(type)]?.model(key)
    }

    /// Whether a model of the type is registered for the row `key`.
    func contains(_ type: any PersistentModel.Type, key: Int64) -> Bool {
        maps[ObjectIdentifier(type)]?.contains(key) ?? false
    }

    /// The keys of the registered models of a type.
    func keys(of type: any PersistentModel.Type) -> [Int64] {
        maps[ObjectIdentifier(type)]?.keys ?? []
    }

    /// The registered models of type `T`, held while the caller uses them.
    func models<T: PersistentModel>(of type: T.Type) -> [T] {
        // unsafeDowncast: each map holds only models of the type whose ObjectIdentifier files it.
        (maps[ObjectIdentifier(T.self)]?.models() ?? []).map { unsafeDowncast($0, to: T.self) }
    }

    /// The registered models of a type, held while the caller uses them.
    func models(ofType type: any PersistentModel.Type) -> [any PersistentModel] {
        maps[ObjectIdentifier(type)]?.models() ?? []
    }

    /// Every registered model, held while the caller uses them.
    func allModels() -> [any PersistentModel] {
        maps.values.flatMap { $0.models() }
    }

    /// Remembers that the model of the row `key` (of the type whose identity map is `map`) has values to load.
    func noteHollow(_ key: Int64, of type: ObjectIdentifier, in map: IdentityMap) {
        hollow[type, default: []].append(key)
        if let keys = hollow[type], keys.count > 2 * map.count + 64 {
            // Models that went away unread need no loading: forget their keys.
            hollow[type] = keys.filter { map.contains($0) }
        }
    }

    // MARK: Transitions

    /// Makes `model` `context`'s object for the saved row `key` (in `map`, the identity map of its type).
    /// `isNew` says that the map has no model for `key` (see `IdentityMap.set`); `isListed: false`, that the model
    /// is in no pending list (a save's new model once the save ended its lists), so that the lists stay pending.
    @inline(__always)
    func register<T: PersistentModel>(
        _ model: T, of context: ModelContext, key: Int64, binding: EntityBinding, in map: IdentityMap,
        isNew: Bool = false, isListed: Bool = true
    ) {
        if isListed { listsArePending = false }
        model._$persistentState.register(in: context, key: key, binding: binding, map: map)
        map.set(model, for: key, isNew: isNew)
    }

    /// Makes `model` `context`'s object for the saved row `key`.
    func register<T: PersistentModel>(_ model: T, of context: ModelContext, key: Int64, binding: EntityBinding) {
        register(model, of: context, key: key, binding: binding, in: map(for: ObjectIdentifier(T.self)))
    }

    /// A model deleted and saved becomes a new model that was never inserted, with a new identity (undoing a saved
    /// delete inserts it as a new model).
    func forgetIdentity(of model: any PersistentModel) {
        listsArePending = false
        model._$persistentState.forgetIdentity()
    }

    /// A model that was not managed (or was removed) becomes a new, unsaved model of `context`.
    func insert<T: PersistentModel>(_ model: T, into context: ModelContext) {
        model._$persistentState.insert(into: context)
        inserted.append(model)
        generation &+= 1
    }

    /// An inserted model leaves the context before it was saved: `.detached` when deleted or rolled back,
    /// `.unmanaged` when its insert is undone (it keeps its identifier, and may be inserted again).
    func cancelInsert(_ model: any PersistentModel, becoming status: _PersistentState.Status = .detached) {
        model._$persistentState.status = status
        model._$persistentState.context = nil
        inserted.removeAll { $0 === model }
        generation &+= 1
    }

    /// A detached model that was never saved may be inserted again, as by undo.
    func makeUnmanaged(_ model: any PersistentModel) {
        listsArePending = false
        model._$persistentState.status = .unmanaged
    }

    /// A registered model is deleted: the next save removes it.
    func markDeleted(_ model: any PersistentModel) {
        model._$persistentState.status = .deleted
        deleted.append(model)
        // The model may be in the changed list, where it is no longer pending as changed.
        listsArePending = false
        generation &+= 1
    }

    /// A deleted model that was not saved yet stays after all.
    func undelete(_ model: any PersistentModel) {
        model._$persistentState.status = .registered
        deleted.removeAll { $0 === model }
        generation &+= 1
    }

    /// Property `property` of a registered model changed for the first time since the last save. Returns whether it
    /// is the model's first changed property (the model joined the changed models).
    @inline(__always)
    func noteChanged(_ model: any PersistentModel, property: Int) -> Bool {
        generation &+= 1
        guard model._$persistentState.noteChanged(property) else { return false }
        changed.append(model)
        return true
    }

    /// The models' values are the stored ones again (saved, reloaded): none of their properties changed.
    func markUnchanged(_ models: [any PersistentModel]) {
        listsArePending = false
        for model in models { model._$persistentState.changes.removeAll() }
    }

    /// Property `property` of a registered model has its stored value again (an undone change).
    func markUnchanged(_ model: any PersistentModel, property: Int) {
        model._$persistentState.changes.remove(property)
        listsArePending = false
        generation &+= 1
    }

    /// A model leaves the context: it is no longer the object of its row, and reads as deleted (`modelContext` is
    /// `nil`). It holds the targets of its linked relationships, which it could find only through the context; its
    /// other unloaded relationships read as empty from now on (see `_$fault`).
    func detach(_ model: any PersistentModel) {
        listsArePending = false
        if model._$persistentState.hasLinks {
            for property in model._$persistentState.linkedProperties {
                if let target = model._$resolveLink(property) { model.setBuilt(property, target) }
            }
        }
        // The model leaves the map before its state releases the context, which holds the map.
        if let (map, position) = model._$persistentState.leaveIdentityMap() { map.remove(model, at: position) }
        model._$persistentState.detach()
    }

    /// Detaches the registered model of the row `key`, if there is one.
    func detachRegistered(_ type: any PersistentModel.Type, key: Int64) {
        if let model = anyModel(type, key: key) { detach(model) }
    }

    /// Ends the pending lists after a save or a rollback; their models stay registered (or not) as they are. This
    /// releases the models the program does not hold, and with them the cycle between those models and the context.
    func resetPending() {
        for model in changed { model._$persistentState.isInChangedList = false }
        inserted = []
        changed = []
        deleted = []
        listsArePending = true
    }

    /// Ends the pending lists once a save has committed them, and returns the changed list, whose models the caller
    /// must take out of it (`isInChangedList`) before any other code runs. Lists started from here on are the next
    /// save's.
    func endPending() -> [any PersistentModel] {
        let listed = changed
        inserted = []
        changed = []
        deleted = []
        listsArePending = true
        return listed
    }

    /// The models the pending lists hold beyond a save's own (`inserts`, `updates`, `deletes`): those inserted,
    /// changed or deleted while the save wrote its rows, which the next save must write. Only called when something
    /// was, so the sets it makes cost nothing in a save that nothing disturbed.
    func pending(
        besides inserts: [any PersistentModel], _ updates: [any PersistentModel], _ deletes: [any PersistentModel]
    ) -> (inserted: [any PersistentModel], changed: [any PersistentModel], deleted: [any PersistentModel]) {
        func others(_ list: [any PersistentModel], _ saved: [any PersistentModel]) -> [any PersistentModel] {
            let saved = Set(saved.map(ObjectIdentifier.init))
            return list.filter { !saved.contains(ObjectIdentifier($0)) }
        }
        return (others(inserted, inserts), others(changed, updates), others(deleted, deletes))
    }

    /// Puts models a save did not write back into the lists that `endPending()` ended: those of them that are still
    /// inserted, changed or deleted (see `pending(besides:_:_:)`).
    func relist(
        _ others: (inserted: [any PersistentModel], changed: [any PersistentModel], deleted: [any PersistentModel])
    ) {
        for model in others.inserted where model._$persistentState.status == .inserted { inserted.append(model) }
        for model in others.changed {
            guard model._$persistentState.status == .registered, !model._$persistentState.changes.isEmpty,
                !model._$persistentState.isInChangedList
            else { continue }
            model._$persistentState.isInChangedList = true
            changed.append(model)
        }
        for model in others.deleted where model._$persistentState.status == .deleted { deleted.append(model) }
        generation &+= 1
    }

    /// Puts back what a rollback restores: unsaved inserts leave the context, deletes are undone. Returns the
    /// registered models that had changed properties (their values must be reloaded), the undeleted ones among them:
    /// while deleted, a model's relationships change with their inverses (a member moved away, a delete rule applied)
    /// without being recorded as changes, so each of its relationships kept outside its row counts as changed.
    func rollBack() -> [any PersistentModel] {
        listsArePending = false
        for model in inserted where model._$persistentState.status == .inserted {
            model._$persistentState.status = .detached
            model._$persistentState.context = nil
        }
        var undeleted: [any PersistentModel] = []
        for model in deleted where model._$persistentState.status == .deleted {
            model._$persistentState.status = .registered
            for property in model._$persistentState.binding?.lazyRelationships ?? [] {
                model._$persistentState.changes.insert(property)
            }
            undeleted.append(model)
        }
        var reverted = changed.filter { $0._$persistentState.status == .registered }
        let listed = Set(reverted.map(ObjectIdentifier.init))
        reverted += undeleted.filter { !listed.contains(ObjectIdentifier($0)) }
        return reverted
    }

    // MARK: Pending changes

    /// Models inserted and not yet saved.
    var pendingInserts: [any PersistentModel] {
        listsArePending ? inserted : Self.pending(inserted) { $0.status == .inserted }
    }

    /// Registered models with unsaved changes.
    var pendingChanges: [any PersistentModel] {
        listsArePending ? changed : Self.pending(changed) { $0.status == .registered && !$0.changes.isEmpty }
    }

    /// Registered models that the next save deletes.
    var pendingDeletes: [any PersistentModel] {
        listsArePending ? deleted : Self.pending(deleted) { $0.status == .deleted }
    }

    /// The models of a list whose state is still pending: the list itself when all are, which is the common case
    /// (and shares its storage), else a copy of those that are.
    private static func pending(
        _ models: [any PersistentModel], _ isPending: (borrowing _PersistentState) -> Bool
    ) -> [any PersistentModel] {
        guard let first = models.firstIndex(where: { !isPending($0._$persistentState) }) else { return models }
        var kept = Array(models[..<first])
        kept.reserveCapacity(models.count - 1)
        for model in models[(first + 1)...] where isPending(model._$persistentState) { kept.append(model) }
        return kept
    }

    /// Whether there is any unsaved insert, change or delete of a model.
    var hasPendingChanges: Bool {
        if listsArePending { return !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty }
        return inserted.contains { $0._$persistentState.status == .inserted }
            || changed.contains {
                $0._$persistentState.status == .registered && !$0._$persistentState.changes.isEmpty
            } || deleted.contains { $0._$persistentState.status == .deleted }
    }

    /// Whether there is an unsaved insert, change or delete of a model of type `T`.
    func hasPendingChanges<T: PersistentModel>(for type: T.Type) -> Bool {
        inserted.contains { $0 is T && $0._$persistentState.status == .inserted }
            || changed.contains { $0 is T && !$0._$persistentState.changes.isEmpty }
            || deleted.contains { $0 is T && $0._$persistentState.status == .deleted }
    }

    /// The unsaved model with a temporary identifier.
    func insertedModel(withTemporaryKey key: Int64) -> (any PersistentModel)? {
        inserted.first { $0._$persistentState.status == .inserted && $0._$persistentState.key == key }
    }
}
