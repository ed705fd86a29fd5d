import Foundation

/// The one error type of the framework, with Apple's codes.
///
/// Beyond Apple's API, an error carries context: what happened (`reason`), the model and property involved,
/// the SQL that failed (values redacted), the store's own result code and message, and a sentence on how to
/// fix it. Equality compares the code only, so `catch SwiftDataError.unsupportedPredicate` matches whatever
/// the context. `storeError` is an addition for failures Apple reports through Core Data's `NSError`s
/// (I/O errors, a locked or corrupt store, a value that cannot be read back).
public struct SwiftDataError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    private enum Code: String, Sendable {
        case includePendingChangesWithBatchSize, unsupportedPredicate, unsupportedKeyPath
        case sortingPendingChangesWithIdentifiers, unsupportedSortDescriptor, historyTokenExpired
        case invalidTransactionFetchRequest, duplicateConfiguration, configurationFileNameTooLong
        case configurationFileNameContainsInvalidCharacters, configurationSchemaNotFoundInContainerSchema
        case loadIssueModelContainer, modelValidationFailure, missingModelContext, backwardMigration
        case unknownSchema, unknownDataStoreSchema, storeError
    }

    private let code: Code
    /// What happened, in one sentence.
    public private(set) var reason: String?
    /// The name of the model (entity) involved.
    public private(set) var modelName: String?
    /// The property or key path involved.
    public private(set) var propertyName: String?
    /// The SQL statement that failed; bound values never appear in it.
    public private(set) var sql: String?
    /// The store's own code for the failure: for SQLite its extended result code as a decimal number (`"2067"`,
    /// `SQLITE_CONSTRAINT_UNIQUE`), for PostgreSQL the five-character SQLSTATE (`"23505"`).
    public private(set) var storeCode: String?
    /// The store's own message.
    public private(set) var storeMessage: String?
    /// How to fix the problem.
    public private(set) var suggestion: String?

    private init(_ code: Code) { self.code = code }

    /// Returns this error with context added; values already set are kept unless replaced.
    public func with(
        reason: String? = nil, model: String? = nil, property: String? = nil, sql: String? = nil,
        storeCode: String? = nil, storeMessage: String? = nil, suggestion: String? = nil
    ) -> SwiftDataError {
        var copy = self
        copy.reason = reason ?? self.reason
        copy.modelName = model ?? modelName
        copy.propertyName = property ?? propertyName
        copy.sql = sql ?? self.sql
        copy.storeCode = storeCode ?? self.storeCode
        copy.storeMessage = storeMessage ?? self.storeMessage
        copy.suggestion = suggestion ?? self.suggestion
        return copy
    }

    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Lets `catch SwiftDataError.unsupportedPredicate` match any error of that code.
    public static func ~= (lhs: SwiftDataError, rhs: any Error) -> Bool {
        (rhs as? SwiftDataError).map { $0.code == lhs.code } ?? false
    }

    public var description: String {
        var text = "SwiftDataError.\(code.rawValue)"
        if let reason { text += ": \(reason)" }
        let subject = [modelName.map { "model \($0)" }, propertyName.map { "property \($0)" }].compactMap { $0 }
        if !subject.isEmpty { text += " (\(subject.joined(separator: ", ")))" }
        if let storeCode { text += ". Store error \(storeCode)" + (storeMessage.map { ": \($0)" } ?? "") }
        if let sql { text += ". SQL: \(sql)" }
        if let suggestion { text += ". \(suggestion)" }
        return text
    }

    public var errorDescription: String? { description }

    // Fetch errors
    /// A batched fetch (`fetch(_:batchSize:)`, `enumerate`) with `includePendingChanges`, while the context has
    /// unsaved changes it would have to merge.
    public static let includePendingChangesWithBatchSize = SwiftDataError(.includePendingChangesWithBatchSize)
    /// A predicate the fetch cannot run: where Swift would trap evaluating it (overflow, division by zero), or,
    /// for `delete(model:where:)`, a part without SQL translation that reads relationships or identifiers.
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate)
    /// A key path that names no stored property where one is needed (`propertiesToFetch`,
    /// `relationshipKeyPathsForPrefetching`), or an identifier of another store.
    public static let unsupportedKeyPath = SwiftDataError(.unsupportedKeyPath)
    /// Apple's code for sorting identifiers with pending changes; not thrown here, where such fetches sort in
    /// memory.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(.sortingPendingChangesWithIdentifiers)
    /// Apple's code for a sort descriptor the store cannot run; not thrown here, where such descriptors sort in
    /// memory.
    public static let unsupportedSortDescriptor = SwiftDataError(.unsupportedSortDescriptor)
    /// A history fetch compares with a token (`$0.token > token`) after which transactions were deleted: the
    /// fetch would miss them.
    public static let historyTokenExpired = SwiftDataError(.historyTokenExpired)
    /// A history fetch or delete of a transaction type the stores do not keep (they keep
    /// `DefaultHistoryTransaction`), or a `HistoryObserver` given tokens of another type.
    public static let invalidTransactionFetchRequest = SwiftDataError(.invalidTransactionFetchRequest)
    // Configuration errors
    /// Two configurations of a container name the same store file.
    public static let duplicateConfiguration = SwiftDataError(.duplicateConfiguration)
    /// A configuration's name is too long to be a file name.
    public static let configurationFileNameTooLong = SwiftDataError(.configurationFileNameTooLong)
    /// A configuration's name cannot be a file name (it is empty, or has `/` or NUL).
    public static let configurationFileNameContainsInvalidCharacters =
        SwiftDataError(.configurationFileNameContainsInvalidCharacters)
    /// A configuration names a model that the container's schema lacks.
    public static let configurationSchemaNotFoundInContainerSchema =
        SwiftDataError(.configurationSchemaNotFoundInContainerSchema)
    // Container errors
    /// The container cannot open its stores: a model that cannot be stored, a store that does not match the
    /// models and cannot be migrated, a failed migration stage, a file that is not a store of this framework.
    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer)
    // Context errors
    /// A save that would break a rule of the schema: a unique value taken, a relationship count out of bounds,
    /// a `.deny` delete rule with related models left.
    public static let modelValidationFailure = SwiftDataError(.modelValidationFailure)
    /// A saved relationship refers to a model that is not inserted in the saving context.
    public static let missingModelContext = SwiftDataError(.missingModelContext)
    // Migration errors
    /// The store was written by a newer schema version than the models'.
    public static let backwardMigration = SwiftDataError(.backwardMigration)
    /// The migration plan does not know the version the store was written by, or has no stages from it to the
    /// models' version.
    public static let unknownSchema = SwiftDataError(.unknownSchema)
    /// Apple's code for a store whose schema is unknown; this implementation throws `loadIssueModelContainer`
    /// with the reason instead.
    public static let unknownDataStoreSchema = SwiftDataError(.unknownDataStoreSchema)
    /// Not in Apple's API: the store failed to read or write (I/O, locking, corruption, a value that cannot be
    /// decoded). `storeCode` and `storeMessage` say what the store reported.
    public static let storeError = SwiftDataError(.storeError)
}

extension SwiftDataError {
    @usableFromInline
    static func unsetProperty(_ property: String) -> SwiftDataError {
        modelValidationFailure.with(
            reason: "the property was never given a value", property: property,
            suggestion: "Assign it in the model's initializer or give it a default value")
    }

    @usableFromInline
    package static func corruptValue(_ detail: String) -> SwiftDataError {
        storeError.with(
            reason: "a stored value cannot be read back: \(detail)",
            suggestion: "Check that the store was written by this schema, or migrate it")
    }

    @usableFromInline
    static func unsupportedType(_ typeName: String) -> SwiftDataError {
        loadIssueModelContainer.with(
            reason: "\(typeName) cannot be stored",
            suggestion: "Use a Codable or RawRepresentable type, or mark the property @Transient")
    }
}
