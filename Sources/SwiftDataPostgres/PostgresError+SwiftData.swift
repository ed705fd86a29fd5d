import SwiftDataCore

extension PostgresError {
    /// PostgreSQL's own integer form of the SQLSTATE (`MAKE_SQLSTATE` in its sources: six bits a character), so
    /// that `SwiftDataError.storeCode` identifies the error until the store seam carries string codes.
    package var sqlStateCode: Int32 {
        var code: Int32 = 0
        for (index, character) in sqlState.utf8.prefix(5).enumerated() {
            code += (Int32(character &- 48) & 0x3F) << (6 * index)
        }
        return code
    }

    /// The framework's error for this failure: `loadIssueModelContainer` when the server cannot be used at all,
    /// `modelValidationFailure` when a constraint refused a value, `storeError` otherwise. The store message names
    /// the SQLSTATE; the reason names the server.
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
            reason: summary + (server.map { " (\($0))" } ?? ""), sql: sql, storeCode: sqlStateCode,
            storeMessage: "SQLSTATE \(sqlState): \(message)" + (detail.map { " (\($0))" } ?? ""),
            suggestion: suggestion)
    }
}
