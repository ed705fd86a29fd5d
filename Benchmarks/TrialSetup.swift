/// What one side supplies for one workload: its query or its write, with everything it needs made beforehand
/// (connections opened, statements prepared, the N models or records a write starts from loaded). Each side only
/// says what its work is; `TrialSetup.trial` decides, the same way for both, what runs before the timed part.
enum Plan {
    /// A query. The closure makes a run of it (on our side in a context of its own, on the raw side through the
    /// statements it prepared once), which returns a digest of everything it read.
    case query(() throws -> () throws -> Int)
    /// A write of the given records of the workload's (by index: inserted, changed or deleted) in one transaction,
    /// and a digest of every row the store holds afterwards.
    case write((Range<Int>) throws -> Void, stored: () throws -> Int)
    /// Workload 10: a write timed while another thread fetches, whose fetch ran once before (`ConcurrentFetches`).
    case concurrent(Trial)
}

/// The one routine both sides' setups go through, so that neither gets a warm-up the other does not.
///
/// - A query runs once, whole, before the timed part, and the timed part runs it again in a new run (a new
///   context on our side): statements are prepared and have run, and the same pages are in SQLite's cache.
/// - A write first writes one record (the first) in a transaction of its own, untimed, so that the statements of
///   the write and of the transaction are prepared and have run; the timed part writes the rest (`timedRecords`).
enum TrialSetup {
    static func trial(_ workload: Workload, rows: Int, plan: Plan) throws -> Trial {
        switch plan {
        case .query(let makeRun):
            _ = try makeRun()()
            let run = try makeRun()
            var digest = 0
            return Trial(run: { digest = try run() }, check: { digest })
        case .write(let write, let stored):
            try write(0..<1)
            let records = timedRecords(workload, rows: rows)
            return Trial(run: { try write(records) }, check: stored)
        case .concurrent(let trial):
            return trial
        }
    }

    /// The records a write workload's timed part writes, after the untimed first: the other N for an insert (of
    /// `insertedRecords`), the middle one for workload 7, and all but the first otherwise.
    static func timedRecords(_ workload: Workload, rows: Int) -> Range<Int> {
        switch workload {
        case .insert: 1..<rows + 1
        case .changeOne: rows / 2..<rows / 2 + 1
        default: 1..<rows
        }
    }

    /// The records workload 1 inserts: the untimed first and the N of the timed part.
    static func insertedRecords(rows: Int) -> [RecordValues] {
        SampleData.records(rows + 1)
    }
}
