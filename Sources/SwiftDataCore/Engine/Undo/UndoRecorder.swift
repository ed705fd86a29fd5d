import Foundation

/// Undo for one context: every insert, delete and property change registers with the undo manager the action that
/// reverts it, and every reverting action registers the one that reapplies it, so undo and redo alternate exactly.
///
/// It owns the context's undo manager and the count of the context's saves (so an undone change knows whether the
/// store moved on since it was recorded). The registered actions target the context; they change models through
/// the context's `insert`, `delete` and `registry`.
final class UndoRecorder {
    /// The context whose changes are recorded (which owns the recorder, so it never outlives it).
    unowned let context: ModelContext
    /// The undo manager actions are registered with; `nil` records nothing.
    var manager: UndoManager?
    /// How many saves the context made.
    private(set) var saves = 0
    /// While an action deferred past a save's writing runs (see `perform(_:)`), where what it registers goes.
    private var deferredInverse: DeferredActions?

    init(context: ModelContext) {
        self.context = context
    }

    /// Counts a save of the context.
    func noteSave() {
        saves += 1
    }

    /// Registers `action` with the undo manager, if there is one that records.
    func register(_ action: @escaping (ModelContext) -> Void) {
        guard let manager, manager.isUndoRegistrationEnabled else { return }
        if let deferredInverse {
            deferredInverse.actions.append(action)
            return
        }
        manager.registerUndo(withTarget: context) { $0.undo.perform(action) }
    }

    /// Runs an undo or redo action. While a save of the context writes its rows (an undo or redo called by a value
    /// transformer, an `Encodable` attribute's encoding, or an observer they set off), the action waits until the
    /// save is done, as `delete(_:)` and `rollback()` do: run now, it could cancel the insert of a model the save is
    /// writing, or restore a value the save then marks as saved. The undo manager gets at once, in the group it is
    /// filling, an action that runs what the deferred action registers when it runs; so redo still redoes it. When
    /// the deferred action registers nothing, that action is removed again (registered with the `DeferredActions` as
    /// its target, it is the only one to go): else a redo stack holding only it would offer a redo that does nothing.
    /// It stands in for the context's actions: `removeAllActions(withTarget: context)` removes it too, and then what
    /// the deferred action registers is dropped with it.
    private func perform(_ action: @escaping (ModelContext) -> Void) {
        guard context.isWritingSave else { return action(context) }
        let inverse = DeferredActions(context: context)
        let manager = manager
        // The action holds `inverse`: the undo manager keeps its target only while something else does.
        manager?.registerUndo(withTarget: inverse, standingFor: context) { [inverse] _ in
            inverse.context?.undo.perform { context in
                for action in inverse.actions.reversed() { action(context) }
            }
        }
        context.callsAfterWrite.append { context in
            let recorder = context.undo
            let outer = recorder.deferredInverse
            recorder.deferredInverse = inverse
            defer { recorder.deferredInverse = outer }
            action(context)
            if inverse.actions.isEmpty { manager?.removeAllActions(withTarget: inverse) }
        }
    }

    /// Records the current value of a property about to change. A value not loaded yet is loaded first, so that
    /// undo restores it even after a save stored the new one.
    func recordValue(of model: any PersistentModel, property: Int) {
        guard let manager, manager.isUndoRegistrationEnabled else { return }
        if !model._$get(property).isLoaded, model._$persistentState.status == .registered {
            context.loadUnloaded(model, property: property)
        }
        let value = model._$get(property)
        let wasChanged = model._$persistentState.changes.contains(property)
        let saves = saves
        register { context in
            context.undo.restore(model, property: property, to: value, wasChanged: wasChanged, saves: saves)
        }
    }

    /// Puts a recorded value back, recording the current one for redo. The property counts as unchanged only
    /// if it was unchanged when recorded and no save happened since.
    private func restore(
        _ model: any PersistentModel, property: Int, to value: _PropertyValue, wasChanged: Bool, saves: Int
    ) {
        guard model._$persistentState.isManaged(by: context) else { return }
        recordValue(of: model, property: property)
        // The value was read from this property, so it has the property's type.
        if (try? model._$set(property, value)) == nil { model.unload(property) }
        guard model._$persistentState.status == .registered else { return }
        context.registry.markUnchanged(model, property: property)
        if wasChanged || saves != self.saves { model._$didSet(property) }
        if model._$persistentState.changes.isEmpty { context.linkHeldReferences(of: [model]) }
        context.scheduleAutosave()
    }

    /// Reverts an insert: an unsaved model leaves the context keeping its identifier; a saved one is deleted.
    func undoInsert(_ model: some PersistentModel) {
        switch model._$persistentState.status {
        case .inserted where model._$persistentState.isManaged(by: context):
            context.registry.cancelInsert(model, becoming: .unmanaged)
            register { $0.insert(model) }
            context.scheduleAutosave()
        case .registered where model._$persistentState.isManaged(by: context):
            context.delete(model)
        default:
            return
        }
    }

    /// Reverts the delete of an unsaved model: it is inserted again with its identifier.
    func reinsert(_ model: some PersistentModel) {
        guard model._$persistentState.status == .detached, model._$persistentState.binding == nil else { return }
        context.registry.makeUnmanaged(model)
        context.insert(model)
    }

    /// Reverts a delete. Before the save, the model simply stays; after it, the model is inserted again as a new
    /// model (with a new identifier) holding its values and its relationships to models that still exist.
    func undoDelete(_ model: some PersistentModel, related: [RelatedModels]) {
        switch model._$persistentState.status {
        case .deleted where model._$persistentState.isManaged(by: context):
            context.insert(model)
        case .detached where model._$persistentState.binding != nil:
            resurrect(model, related: related)
        default:
            return
        }
    }

    /// The models a relationship of a deleted model related to, by property index.
    typealias RelatedModels = (index: Int, models: [any PersistentModel])

    /// Loads every value of a model about to be deleted, so undoing the delete after a save can restore them; returns
    /// its related models (a saved delete leaves its relationships empty).
    func keepValues(of model: some PersistentModel) -> [RelatedModels] {
        for property in type(of: model).schemaMetadata.indices where !model._$get(property).isLoaded {
            context.loadUnloaded(model, property: property)
        }
        return (model._$persistentState.binding?.entity.orderedRelationships ?? []).map { relationship in
            (relationship.index, model._$get(relationship.index).relatedModels ?? [])
        }
    }

    private func resurrect<M: PersistentModel>(_ model: M, related snapshot: [RelatedModels]) {
        guard let entity = model._$persistentState.binding?.entity else { return }
        let related = snapshot.map { index, models in
            (
                index,
                models.filter { !($0._$persistentState.status == .detached && $0._$persistentState.binding != nil) }
            )
        }
        for relationship in entity.orderedRelationships {
            // A non-optional to-one relationship has no empty value: it keeps the model it holds until set below.
            _ = try? model._$set(relationship.index, .loaded(Relationships.emptyValue(of: relationship)))
        }
        context.registry.forgetIdentity(of: model)
        context.insert(model)
        for (index, models) in related where !models.isEmpty {
            guard let relationship = entity.relationship(at: index) else { continue }
            recordValue(of: model, property: index)
            let value: Any? =
                relationship.isToOneRelationship ? models[0] : Relationships.typedArray(models, of: relationship)
            model.setBuilt(index, value)
            Relationships.didChange(model, property: index, from: [], to: models)
        }
    }
}

/// The actions an undo or redo action deferred past a save's writing registered when it ran (see
/// `UndoRecorder.perform(_:)`), oldest first.
private final class DeferredActions {
    /// The context whose recorder deferred them.
    weak var context: ModelContext?
    var actions: [(ModelContext) -> Void] = []

    init(context: ModelContext) {
        self.context = context
    }
}
