import Foundation
import SwiftDataCore

/// What a save does when its connection is lost at the `COMMIT`: the server may have committed the transaction
/// before the connection broke, so that only its answer was lost, or not. Throwing in the first case would make the
/// context keep changes that are already saved, and a retry would write them twice (new models as second rows);
/// returning in the second would lose them. So the store asks the server, on the same connection connected again,
/// what became of the transaction (`txid_status` of the identifier `lockSaves` read in it).
extension PostgresRowStore {
    /// How long `confirmCommit` waits for a transaction the server still reports in progress (its session is
    /// ending) before it reports the outcome unknown.
    static let commitOutcomeWait: Duration = .seconds(5)

    /// Returns when the transaction `transaction` committed; throws a `.connectionLost` error otherwise: one saying
    /// it was not saved (the server aborted it: saving again is safe), or one saying its outcome is unknown (the
    /// server cannot be reached, or the transaction is too old to tell).
    static func confirmCommit(of transaction: Int64, on connection: PostgresConnection, lost: PostgresError) throws {
        func failure(_ detail: String) -> PostgresError {
            PostgresError(
                .connectionLost, sqlState: lost.sqlState, server: lost.server, message: lost.message,
                detail: detail, sql: lost.sql)
        }
        let deadline = ContinuousClock.now + commitOutcomeWait
        while true {
            let status: String?
            do {
                if connection.isBroken { try connection.reset() }
                status = try connection.preparedQuery("SELECT txid_status($1)", [.int8(transaction)]).string(0, 0)
            } catch {
                throw failure(
                    "the connection was lost while the save committed, and whether it committed cannot be learned "
                        + "now (\(error)); fetch to see whether its changes are there before saving again")
            }
            switch status {
            case "committed":
                Log.debug("the connection was lost at the COMMIT of transaction \(transaction), which committed")
                return
            case "aborted":
                throw failure(
                    "the save was not committed (the server rolled its transaction back); saving again is safe")
            case "in progress" where ContinuousClock.now < deadline:
                Thread.sleep(forTimeInterval: 0.02)
            default:
                throw failure(
                    "the connection was lost while the save committed, and the server cannot tell whether it did "
                        + "(transaction \(transaction): \(status ?? "unknown")); fetch to see whether its changes are "
                        + "there before saving again")
            }
        }
    }
}
