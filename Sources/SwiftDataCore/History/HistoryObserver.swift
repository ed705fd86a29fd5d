import Foundation
import Observation
import Synchronization

/// Watches the history of a container's stores and counts the moments new transactions arrive that concern it:
/// `eventCounter` increases (once per batch of transactions found together) after a save of any context or
/// process writes transactions of the observed models, by the observed authors. Observe `eventCounter` with
/// `withObservationTracking`, then fetch the new transactions with `ModelContext.fetchHistory(_:)`.
///
/// The observer keeps its position in each store's history (`historyTokens`) and reads only the transactions
/// after it. A store of your own that conforms to `HistoryProviding` is asked for the transactions after the token
/// of the last one the observer saw; a transaction of such a store concerns `observedModels` when one of its
/// `changes` is of one of those models. Differences from Apple's: saves of this process are noticed at once and other processes' within a
/// quarter of a second (Linux has no remote-change notifications); `observedModels` matches a transaction that
/// changed a model of one of those types, including the changes a save made to related models' relationships;
/// when history after its position was deleted, the observer counts an event and goes on from the newest
/// transaction. `historyTokens` is an addition.
// @unchecked: `observedModels` holds model types, which are immutable; the rest is `Sendable` or guarded by `state`.
public final class HistoryObserver: Observable, @unchecked Sendable {
    /// The container whose stores the observer watches.
    public final let modelContainer: ModelContainer
    /// The model types a transaction must change to count; any when empty.
    public final let observedModels: [any PersistentModel.Type]
    /// The authors a transaction must have to count; any (and none) when empty.
    public final let authors: Set<String>

    private let registrar = ObservationRegistrar()
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "SwiftData.HistoryObserver", qos: .utility)
    private let isolation: (any Actor)?
    private let entityNames: Set<String>

    private struct State {
        /// The last transaction number seen in each store, by store identifier.
        var positions: [String: Int64]
        /// The token of the last transaction seen in each store of your own that provides history, by store
        /// identifier; none before its first transaction.
        var providedPositions: [String: any Sendable]
        var counter = 0
        /// Whether a check is scheduled and has not started yet.
        var isScheduled = false
    }

    /// How many times the observer found new transactions that concern it. Observable.
    public final var eventCounter: Int {
        registrar.access(self, keyPath: \.eventCounter)
        return state.withLock { $0.counter }
    }

    /// Not in Apple's API: the position the observer reached in each store's history, by store identifier; pass it
    /// to a new observer, or compare transactions' tokens with it.
    public final var historyTokens: [String: any HistoryToken] {
        registrar.access(self, keyPath: \.eventCounter)
        let (positions, provided) = state.withLock { ($0.positions, $0.providedPositions) }
        var tokens: [String: any HistoryToken] = positions.reduce(into: [:]) { tokens, position in
            tokens[position.key] = DefaultHistoryToken(storeIdentifier: position.key, number: position.value)
        }
        for (store, token) in provided {
            if let token = token as? any HistoryToken { tokens[store] = token }
        }
        return tokens
    }

    /// Watches `modelContainer`'s history from `historyTokens` (by store identifier; a store the dictionary lacks
    /// is watched from its first transaction), or, when `nil`, from now on. Events are counted on the actor the
    /// observer was created on, if any. Throws when the stores' current positions cannot be read, or a token is
    /// not a `DefaultHistoryToken` (for a store of your own, not a token of its transactions).
    public convenience init(
        historyTokens: [String: any HistoryToken]? = nil, observedModels: [any PersistentModel.Type] = [],
        authors: Set<String> = [], modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            tokens: historyTokens, observedModels: observedModels, authors: authors, container: modelContainer,
            isolation: isolation)
    }

    private init(
        tokens: [String: any HistoryToken]?, observedModels: [any PersistentModel.Type], authors: Set<String>,
        container: ModelContainer, isolation: (any Actor)?
    ) throws {
        var positions: [String: Int64] = [:]
        var providedPositions: [String: any Sendable] = [:]
        for store in container.stores {
            if let source = store as? any HistoryProvidingSource,
                let newest = try source.providedTransactions(after: nil)
            {
                if let tokens {
                    guard let token = tokens[store.identifier] else { continue }
                    guard source.isProvidedToken(token) else {
                        throw SwiftDataError.invalidTransactionFetchRequest.with(
                            reason:
                                "the token for store \(store.identifier) is a \(type(of: token)), not a token of its "
                                + "transactions",
                            suggestion: "Pass a token of a transaction that store returned")
                    }
                    providedPositions[store.identifier] = token
                } else if let last = newest.last {
                    providedPositions[store.identifier] = last.token
                }
                continue
            }
            if let tokens {
                guard let token = tokens[store.identifier] else {
                    positions[store.identifier] = 0
                    continue
                }
                guard let token = token as? DefaultHistoryToken else {
                    throw SwiftDataError.invalidTransactionFetchRequest.with(
                        reason: "a HistoryObserver's tokens must be DefaultHistoryTokens, not \(type(of: token))",
                        suggestion: "Pass tokens of transactions this package's stores returned")
                }
                positions[store.identifier] = token.number(in: store.identifier) ?? 0
            } else {
                positions[store.identifier] = try Self.newest(in: store)
            }
        }
        self.modelContainer = container
        self.observedModels = observedModels
        self.authors = authors
        self.isolation = isolation
        self.entityNames = Set(
            observedModels.map { type in container.binding(for: type)?.entity.name ?? String(describing: type) })
        self.state = Mutex(State(positions: positions, providedPositions: providedPositions))
        let observer = WeakHistoryObserver(self)
        container.changes.subscribe(self) { _ in observer.object?.scheduleCheck() }
        container.watchForExternalChanges(while: self)
        // Transactions after given tokens are new to the observer: count them now rather than at the next save.
        if tokens != nil { scheduleCheck() }
    }

    deinit {
        modelContainer.changes.unsubscribe(self)
    }

    /// The number of the newest transaction of a store's history; 0 when it has none.
    private static func newest(in store: any RowStore) throws -> Int64 {
        try store.fetchHistory(HistoryRequest(limit: 1, newestFirst: true)).first?.number ?? 0
    }

    /// Looks for new transactions soon, on the observer's queue; a check already waiting covers this call.
    private func scheduleCheck() {
        let isNew = state.withLock { state in
            defer { state.isScheduled = true }
            return !state.isScheduled
        }
        guard isNew else { return }
        let observer = WeakHistoryObserver(self)
        queue.async { observer.object?.check() }
    }

    /// Reads each store's transactions after the observer's position, moves the position to the newest, and
    /// counts an event when one of them concerns the observer.
    private func check() {
        let (positions, provided) = state.withLock { state in
            state.isScheduled = false
            return (state.positions, state.providedPositions)
        }
        var reached = positions
        var reachedProvided: [String: any Sendable] = [:]
        var isEvent = false
        for store in modelContainer.stores {
            if let source = store as? any HistoryProvidingSource {
                do {
                    if let transactions = try source.providedTransactions(after: provided[store.identifier]) {
                        guard let last = transactions.last else { continue }
                        reachedProvided[store.identifier] = last.token
                        if !isEvent { isEvent = transactions.contains(where: concerns) }
                        continue
                    }
                } catch {
                    Log.error("HistoryObserver could not read the history of store \(store.identifier): \(error)")
                    continue
                }
            }
            let position = positions[store.identifier] ?? 0
            do {
                let records = try store.fetchHistory(HistoryRequest(condition: .number(.greater, position)))
                guard let last = records.last else { continue }
                reached[store.identifier] = last.number
                if !isEvent { isEvent = records.contains(where: concerns) }
            } catch SwiftDataError.historyTokenExpired {
                isEvent = true
                reached[store.identifier] = (try? Self.newest(in: store)) ?? position
            } catch {
                Log.error("HistoryObserver could not read the history of store \(store.identifier): \(error)")
            }
        }
        state.withLock { state in
            for (store, number) in reached { state.positions[store] = max(state.positions[store] ?? 0, number) }
            // Checks run one at a time on the observer's queue, so a later token is never replaced by an earlier one.
            state.providedPositions.merge(reachedProvided) { $1 }
        }
        if isEvent { countEvent() }
    }

    /// Whether a transaction has one of the authors and changes one of the models the observer watches.
    private func concerns(_ record: HistoryRecord) -> Bool {
        if !authors.isEmpty {
            guard let author = record.entry.author, authors.contains(author) else { return false }
        }
        guard !entityNames.isEmpty else { return true }
        guard let names = try? HistoryPayload.entityNames(in: record.entry.changes) else { return true }
        return names.contains(where: entityNames.contains)
    }

    /// Whether a transaction of a store of your own has one of the authors and changes one of the models the
    /// observer watches (a transaction that lists no changes changes none).
    private func concerns(_ transaction: any HistoryTransaction) -> Bool {
        if !authors.isEmpty {
            guard let author = transaction.author, authors.contains(author) else { return false }
        }
        guard !entityNames.isEmpty else { return true }
        return transaction.changes.contains { entityNames.contains($0.changedPersistentIdentifier.entityName) }
    }

    /// Increases `eventCounter`, telling observers, on the observer's actor when it has one.
    private func countEvent() {
        let observer = WeakHistoryObserver(self)
        let count: @Sendable () -> Void = {
            guard let self = observer.object else { return }
            self.registrar.withMutation(of: self, keyPath: \.eventCounter) { self.state.withLock { $0.counter += 1 } }
        }
        if let isolation {
            Task { await isolation.runResultsWork(count) }
        } else {
            count()
        }
    }
}

/// A reference to a history observer that the threads that save may hold without keeping it alive.
// @unchecked: `object` is set once, in `init`, and a weak reference loads atomically.
private final class WeakHistoryObserver: @unchecked Sendable {
    weak var object: HistoryObserver?
    init(_ object: HistoryObserver) { self.object = object }
}
