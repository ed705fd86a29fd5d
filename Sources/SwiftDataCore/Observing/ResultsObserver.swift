import Foundation
import Observation

/// Keeps the results of a fetch current: after a save in any context of the container, or a change another
/// process makes to the store, `results` (and `sections`) hold what the fetch returns now. Observe it with
/// `withObservationTracking`, or iterate `snapshots()` in server code.
///
/// ```swift
/// let observer = try ResultsObserver<Trip, Never>(
///     filterBy: #Predicate { $0.notes != nil }, sortBy: [SortDescriptor(\.startDate)], modelContainer: container)
/// print(observer.results.map(\.name))  // current after every save of the container
/// for await identifiers in observer.snapshots() {
///     print("\(identifiers.count) trips with notes")
/// }
/// ```
///
/// Differences from Apple's: the refetch happens when `results` or `sections` is next read (observers are told
/// at once, when the save happens), so an observer nobody reads costs nothing; unsaved changes of the observer's
/// own context show after they are saved or when `filterBy` or `sortBy` is set; another process's changes are
/// noticed within a quarter of a second.
public final class ResultsObserver<Element: PersistentModel, SectionTitle: Hashable>: Observable {
    /// The context the observer fetches with.
    public final let modelContext: ModelContext

    private var descriptor: FetchDescriptor<Element>
    private var userSort: [SortDescriptor<Element>]
    private var storedResults = FetchResultsCollection<Element>([])
    private var storedSections: SectionedResults<Element, SectionTitle>?
    private let sectioning: Sectioning?
    private let registrar = ObservationRegistrar()
    private let signal = ResultsSignal()
    private let isolation: (any Actor)?

    /// How results are grouped: a title per model, and the sort that keeps equal titles together. (The sort is
    /// kept in an array: a `SortDescriptor` stored inline makes optimized builds refer to a symbol Foundation on
    /// Linux does not export.)
    struct Sectioning {
        var title: (Element) -> SectionTitle
        var sort: [SortDescriptor<Element>]
    }

    init(
        descriptor: FetchDescriptor<Element>, sectioning: Sectioning?, modelContext: ModelContext,
        isolation: (any Actor)?
    ) throws {
        self.modelContext = modelContext
        self.sectioning = sectioning
        self.isolation = isolation
        userSort = descriptor.sortBy
        self.descriptor = descriptor
        self.descriptor.sortBy = (sectioning?.sort ?? []) + descriptor.sortBy
        try refetch()
        subscribe()
    }

    deinit {
        modelContext.container.changes.unsubscribe(self)
        signal.finish()
    }

    // MARK: What is fetched

    /// The fetch the observer keeps current; when sectioned, its first sort descriptor is the section's.
    public final var fetchDescriptor: FetchDescriptor<Element> {
        registrar.access(self, keyPath: \.fetchDescriptor)
        return descriptor
    }

    /// The predicate results must match. Setting it refetches at once.
    public final var filterBy: Predicate<Element>? {
        get {
            registrar.access(self, keyPath: \.filterBy)
            return descriptor.predicate
        }
        set {
            registrar.withMutation(of: self, keyPath: \.filterBy) { descriptor.predicate = newValue }
            refetchAnnouncing()
        }
    }

    /// The order of the results (after the section order, when sectioned). Setting it refetches at once.
    public final var sortBy: [SortDescriptor<Element>] {
        get {
            registrar.access(self, keyPath: \.sortBy)
            return userSort
        }
        set {
            registrar.withMutation(of: self, keyPath: \.sortBy) {
                userSort = newValue
                descriptor.sortBy = (sectioning?.sort ?? []) + newValue
            }
            refetchAnnouncing()
        }
    }

    // MARK: Results

    /// The models the fetch returns now.
    public final var results: FetchResultsCollection<Element> {
        get {
            registrar.access(self, keyPath: \.results)
            refreshIfStale()
            return storedResults
        }
        set {
            registrar.withMutation(of: self, keyPath: \.results) { storedResults = newValue }
        }
    }

    /// The results grouped by the `sectionBy` key path; `nil` for an observer without sections.
    public final var sections: SectionedResults<Element, SectionTitle>? {
        get {
            registrar.access(self, keyPath: \.sections)
            refreshIfStale()
            return storedSections
        }
        set {
            registrar.withMutation(of: self, keyPath: \.sections) { storedSections = newValue }
        }
    }

    /// The identifiers of the current results, in order, after every change that can affect them: the first
    /// element is the current state. The stream ends when the observer is gone, or when the task iterating it is
    /// cancelled. An addition to Apple's API, for
    /// code that runs without observation tracking. The results are read on the observer's actor (the one it
    /// was created on); an observer created outside any actor is read by the iterating task.
    public func snapshots() -> AsyncStream<[PersistentIdentifier]> {
        let signal = self.signal
        let isolation = self.isolation
        let observer = WeakObserver(self)
        let cursor = SnapshotCursor()
        return AsyncStream {
            guard let generation = await signal.change(after: cursor.last) else { return nil }
            cursor.last = generation
            let read: @Sendable () -> [PersistentIdentifier]? = { observer.object?.currentIdentifiers() }
            if let isolation { return await isolation.runResultsWork(read) }
            return read()
        }
    }

    // MARK: Refetching

    /// Fetches now and stores the results without telling observers.
    private func refetch() throws {
        let models = try modelContext.fetch(descriptor)
        storedResults = FetchResultsCollection(models)
        storedSections = sectioning.map { SectionedResults(models, title: $0.title) }
    }

    /// Fetches now, telling observers that the results change.
    private func refetchAnnouncing() {
        _ = signal.takeStale()
        registrar.withMutation(of: self, keyPath: \.results) {
            registrar.withMutation(of: self, keyPath: \.sections) { refetchLogging() }
        }
        signal.bump()
    }

    private func refreshIfStale() {
        if signal.takeStale() { refetchLogging() }
    }

    private func refetchLogging() {
        do {
            try refetch()
        } catch {
            Log.error("ResultsObserver<\(Element.self)> kept its previous results: the refetch failed: \(error)")
        }
    }

    /// Listens for saves and other processes' changes that touch the fetched entity or one it relates to:
    /// observers are told at once, on the thread that saved; the refetch waits for the next read.
    private func subscribe() {
        let container = modelContext.container
        let entities = Self.entityNames(reachableFrom: Element.self, in: container.schema)
        let signal = self.signal
        let observer = WeakObserver(self)
        container.changes.subscribe(self) { notice in
            guard notice.isExternal || notice.touches(entities) else { return }
            signal.markStale()
            observer.object?.announceChange()
            signal.bump()
        }
        container.watchForExternalChanges(while: self)
    }

    /// The entity of `type` and every entity a chain of its relationships reaches: what a predicate or sort on
    /// it can read.
    private static func entityNames(reachableFrom type: Element.Type, in schema: Schema) -> Set<String> {
        guard
            let start = schema.entities.first(where: {
                $0.modelType.map(ObjectIdentifier.init) == ObjectIdentifier(type)
            })
        else { return [] }
        // A hierarchy's entities are one table's: a save of any of them (a subclass's model, a superclass's batch
        // delete) may change what a fetch of another returns.
        var names: Set<String> = []
        var pending: [Schema.Entity] = []
        func reach(_ entity: Schema.Entity) {
            for member in entity.rootEntity.selfAndDescendants where names.insert(member.name).inserted {
                pending.append(member)
            }
        }
        reach(start)
        while let entity = pending.popLast() {
            for relationship in entity.relationships where !names.contains(relationship.destination) {
                if let destination = schema.entitiesByName[relationship.destination] {
                    reach(destination)
                } else {
                    names.insert(relationship.destination)
                }
            }
        }
        return names
    }
}

extension ResultsObserver: ObservedResults {
    /// Tells observers that `results` and `sections` change; safe on any thread, as it only uses the registrar.
    func announceChange() {
        registrar.withMutation(of: self, keyPath: \.results) {
            registrar.withMutation(of: self, keyPath: \.sections) {}
        }
    }

    func currentIdentifiers() -> [PersistentIdentifier] { results.map(\.persistentModelID) }
}

extension ResultsObserver where SectionTitle == Never {
    /// Observes the results of `fetchDescriptor` in `modelContext`. Throws when the first fetch fails.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(descriptor: fetchDescriptor, sectioning: nil, modelContext: modelContext, isolation: isolation)
    }

    /// Observes the results of `fetchDescriptor` in a new context of `modelContainer`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectioning: nil, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the models matching `filterBy`, in `sortBy` order, in `modelContext`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectioning: nil,
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models matching `filterBy`, in `sortBy` order, in a new context of `modelContainer`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectioning: nil,
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}

extension ResultsObserver where SectionTitle == String {
    /// Observes the results of `fetchDescriptor` in `modelContext`, grouped by the value at `sectionBy`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectioning: .init(sectionBy), modelContext: modelContext, isolation: isolation)
    }

    /// Observes the results of `fetchDescriptor` in `modelContext`, grouped by the value at `sectionBy`; models
    /// with `nil` there share the section titled "".
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectioning: .init(sectionBy), modelContext: modelContext, isolation: isolation)
    }

    /// Observes the results of `fetchDescriptor` in a new context of `modelContainer`, grouped by `sectionBy`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectioning: .init(sectionBy), modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the results of `fetchDescriptor` in a new context of `modelContainer`, grouped by `sectionBy`.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectioning: .init(sectionBy), modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the models matching `filterBy` in `modelContext`, grouped by `sectionBy`, in `sortBy` order
    /// within a section.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String>, modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectioning: .init(sectionBy),
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models matching `filterBy` in `modelContext`, grouped by `sectionBy`, in `sortBy` order
    /// within a section.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String?>, modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectioning: .init(sectionBy),
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models matching `filterBy` in a new context of `modelContainer`, grouped by `sectionBy`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String>, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectioning: .init(sectionBy),
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models matching `filterBy` in a new context of `modelContainer`, grouped by `sectionBy`.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String?>, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectioning: .init(sectionBy),
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}

extension ResultsObserver.Sectioning where SectionTitle == String {
    init(_ keyPath: KeyPath<Element, String>) {
        self.init(
            title: { $0[keyPath: keyPath] },
            sort: [SortDescriptor(assumingSendable(keyPath), comparator: .localizedStandard)])
    }

    init(_ keyPath: KeyPath<Element, String?>) {
        self.init(
            title: { $0[keyPath: keyPath] ?? "" },
            sort: [SortDescriptor(assumingSendable(keyPath), comparator: .localizedStandard)])
    }
}

/// Apple's initializers take plain key paths, Foundation's `SortDescriptor` wants `Sendable` ones; a key path to
/// a stored property captures nothing, so it is safe to send.
private func assumingSendable<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> any KeyPath<Root, Value> & Sendable {
    unsafeBitCast(keyPath, to: (any KeyPath<Root, Value> & Sendable).self)
}
