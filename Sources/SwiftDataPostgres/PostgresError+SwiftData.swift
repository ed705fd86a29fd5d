import SwiftDataCore

extension PostgresError {
    /// The framework's error for this failure while a store opens (`swiftDataError(opening: true)`).
    package var swiftDataError: SwiftDataError { swiftDataError(opening: true) }

    /// The framework's error for this failure: `loadIssueModelContainer` when a store being opened cannot use the
    /// server at all, `modelValidationFailure` when a constraint refused a value, `storeError` otherwise (a save or
    /// fetch of an open store while the server is down, too). The store code is the SQLSTATE, which the store
    /// message names too; the reason names the server.
    package func swiftDataError(opening: Bool) -> SwiftDataError {
        let base: SwiftDataError
        switch kind {
        case .invalidConnectionString, .unreachable, .authenticationFailed, .databaseMissing:
            base = opening ? .loadIssueModelContainer : .storeError
        case .uniqueViolation, .constraintViolation:
            base = .modelValidationFailure
        default:
            base = .storeError
        }
        return base.with(
            reason: summary + (server.map { " (\($0))" } ?? ""), sql: sql, storeCode: sqlState,
            storeMessage: "SQLSTATE \(sqlState): \(message)" + (detail.map { " (\($0))" } ?? ""),
            suggestion: suggestion)
    }
}
