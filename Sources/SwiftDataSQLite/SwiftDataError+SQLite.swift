import SwiftDataCore

extension SwiftDataError {
    /// SQLite's primary result code of the failure (`SQLITE_BUSY`, ...): the low byte of the extended code that
    /// `storeCode` holds; 0 when the error carries no SQLite code.
    var sqlitePrimaryCode: Int32 { storeCode.flatMap { Int32($0) }.map { $0 & 0xFF } ?? 0 }
}
