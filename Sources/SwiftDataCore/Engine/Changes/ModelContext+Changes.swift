import Foundation

extension ModelContext {
    /// Receives the container's notices: saves of other contexts and changes by other processes. They apply where
    /// the context runs (the main queue for `mainContext`, a model actor's queue for its context); a context with
    /// no known place applies them before its next fetch or save.
    func subscribeToChanges() {
        let inbox = self.inbox
        let reference = WeakContextReference(self)
        container.changes.subscribe(self) { notice in
            guard inbox.append(notice), let schedule = inbox.schedule.withLock({ $0 }) else { return }
            schedule { reference.context?.applyNotices() }
        }
    }

    /// Applies notices now: models deleted elsewhere leave the context, changed ones reload the values they have no
    /// unsaved edits for (observers hear of every value that changed), and after a change by another process every
    /// registered model reloads.
    func applyNotices() {
        let notices = inbox.drain()
        guard !notices.isEmpty else { return }
        var stale: [ObjectIdentifier: (type: any PersistentModel.Type, keys: Set<Int64>)] = [:]
        var deleted: [String: Set<Int64>] = [:]
        for notice in notices {
            if notice.isExternal {
                for entity in container.schema.entities {
                    guard let type = entity.modelType else { continue }
                    let keys = registry.keys(of: type)
                    if !keys.isEmpty { stale[ObjectIdentifier(type), default: (type, [])].keys.formUnion(keys) }
                }
                continue
            }
            for id in notice.updated {
                guard let binding = container.binding(forEntityName: id.entityName), let key = binding.key(for: id),
                    let type = binding.entity.modelType,
                    registry.contains(type, key: key)
                else { continue }
                stale[ObjectIdentifier(type), default: (type, [])].keys.insert(key)
            }
            for id in notice.deleted {
                guard let key = container.binding(forEntityName: id.entityName)?.key(for: id) else { continue }
                deleted[id.entityName, default: []].insert(key)
            }
        }
        if !deleted.isEmpty { holdLinkedTargets(deleted) }
        for (entityName, keys) in deleted {
            guard let binding = container.binding(forEntityName: entityName) else { continue }
            for key in keys { detachRegistered(binding, key: key) }
        }
        if !deleted.isEmpty { removeReferences(toDeleted: deleted) }
        for (type, keys) in stale.values {
            do {
                try refreshStale(type, keys: Array(keys))
            } catch {
                Log.error("changes saved elsewhere could not be loaded into a context: \(error)")
            }
        }
    }

    private func refreshStale<T: PersistentModel>(_ type: T.Type, keys: [Int64]) throws {
        // Rows that no longer exist (deleted by another process) leave the context.
        let binding = try binding(for: T.self)
        let found = Set(try fetcher.load(T.self, keys: keys, binding: binding).map { $0._$persistentState.key })
        let gone = keys.filter { !found.contains($0) }
        if !gone.isEmpty { holdLinkedTargets([binding.entity.name: Set(gone)]) }
        for key in gone { detachRegistered(binding, key: key) }
        if !gone.isEmpty { removeReferences(toDeleted: [binding.entity.name: Set(gone)]) }
    }

    /// Brings the context up to date before it reads or writes: notices waiting for it, and changes another process
    /// made to the stores.
    func catchUp() {
        container.checkForExternalChanges()
        applyNotices()
        if autosaveWaitsForFetch { autosave() }
    }

    /// Tells the container's other contexts and observers what a save changed.
    func postNotice(inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier])
    {
        container.changes.post(
            ChangeCenter.Notice(inserted: inserted, updated: updated, deleted: deleted, origin: ObjectIdentifier(self)))
    }

    /// Where the context's notices apply: `schedule` runs work on the context's thread or actor.
    package func runChanges(on schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        inbox.schedule.withLock { $0 = schedule }
    }
}
