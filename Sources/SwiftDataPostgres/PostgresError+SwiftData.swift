import SwiftDataCore

extension PostgresError {
    /// The framework's error for this failure: `loadIssueModelContainer` when the server cannot be used at all,
    /// `modelValidationFailure` when a constraint refused a value, `storeError` otherwise. The store code is the
    /// SQLSTATE, which the store message names too; the reason names the server.
    package var swiftDataError: SwiftDataError {
        let base: SwiftDataError
        switch kind {
        case .invalidConnectionString, .unreachable, .authenticationFailed, .databaseMissing:
            base = .loadIssueModelContainer
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
