/// The save lock as one run of a save's transaction takes it (see "Saves" in `PostgresRowStore`): before the first
/// statement whose answer decides what the save writes, or, for a save that has none, with its `COMMIT`.
final class PostgresSaveLock {
    /// The statement that takes the lock (`PostgresRowStore.saveLockSQL`); `nil` in a store without a lock of its
    /// own (a migration stage's, whose migration holds the connection).
    let statement: String?
    /// Whether the statement draws the number of the save's history row.
    let drawsHistoryNumber: Bool
    /// Whether the transaction holds the lock, or sends it with its `COMMIT`.
    private(set) var isHeld = false
    /// The history number the lock drew when taken before the commit.
    private(set) var drawnNumber: Int64?
    /// Which of the commit's results is the lock's, when it went with the `COMMIT`.
    private var commitStep: Int?
    /// The history number the lock drew with the `COMMIT`, read once the transaction committed.
    private(set) var numberAtCommit: Int64?
    /// The timestamp and process of the history row sent with the `COMMIT`: how it is found when the answer to the
    /// `COMMIT` was lost.
    var recorded: (timestamp: Double, process: String)?

    init(statement: String?, drawsHistoryNumber: Bool) {
        self.statement = statement
        self.drawsHistoryNumber = drawsHistoryNumber
    }

    /// The statement to send when the lock is not held yet; `nil` when it is, or when the store has none.
    var pending: String? { isHeld ? nil : statement }

    /// Notes the lock as taken by `result`, the answer to `statement`.
    func took(_ result: PostgresResult?) throws {
        isHeld = true
        if drawsHistoryNumber { drawnNumber = try result?.int64(0, 1) }
    }

    /// Takes the lock now, in a round trip of its own, unless the transaction holds it.
    func take(on connection: PostgresConnection) throws {
        guard let pending else { return }
        try took(try PostgresRowStore.mapErrors { try connection.execute(pending) })
    }

    /// Sends the lock with the `COMMIT`, unless the transaction holds it: what a save that read nothing it decides
    /// from takes, so that other saves wait for it only while the server commits it.
    func takeAtCommit(on connection: PostgresConnection) throws {
        guard let pending else { return }
        commitStep = connection.commitSteps?.count
        try PostgresRowStore.mapErrors { try connection.executeAtCommit(pending, []) }
        isHeld = true
    }

    /// Reads the history number the lock drew with the `COMMIT`, once the transaction committed on `connection`.
    func committed(on connection: PostgresConnection) throws {
        guard drawsHistoryNumber, let commitStep, commitStep < connection.commitResults.count else { return }
        numberAtCommit = try connection.commitResults[commitStep].int64(0, 1)
    }

    /// Finds the number of the history row sent with a `COMMIT` whose answer was lost, once the save was found
    /// committed: the row of this process with the save's timestamp.
    func findNumber(on connection: PostgresConnection) throws {
        guard let recorded, numberAtCommit == nil else { return }
        numberAtCommit = try connection.preparedQuery(
            "SELECT max(number) FROM \(PostgresRowStore.historyTable) WHERE timestamp = $1 AND process = $2",
            [.float8(recorded.timestamp), .text(recorded.process)]
        ).int64(0, 0)
    }
}
