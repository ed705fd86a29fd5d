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
    /// The store's own result code (for SQLite, the extended result code).
    public private(set) var storeCode: Int32?
    /// The store's own message.
    public private(set) var storeMessage: String?
    /// How to fix the problem.
    public private(set) var suggestion: String?

    private init(_ code: Code) { self.code = code }

    /// Returns this error with context added; values already set are kept unless replaced.
    public func with(
        reason: String? = nil, model: String? = nil, property: String? = nil, sql: String? = nil,
        storeCode: Int32? = nil, storeMessage: String? = nil, suggestion: String? = nil
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
    public static let includePendingChangesWithBatchSize = SwiftDataError(.includePendingChangesWithBatchSize)
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate)
    public static let unsupportedKeyPath = SwiftDataError(.unsupportedKeyPath)
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(.sortingPendingChangesWithIdentifiers)
    public static let unsupportedSortDescriptor = SwiftDataError(.unsupportedSortDescriptor)
    public static let historyTokenExpired = SwiftDataError(.historyTokenExpired)
    public static let invalidTransactionFetchRequest = SwiftDataError(.invalidTransactionFetchRequest)
    // Configuration errors
    public static let duplicateConfiguration = SwiftDataError(.duplicateConfiguration)
    public static let configurationFileNameTooLong = SwiftDataError(.configurationFileNameTooLong)
    public static let configurationFileNameContainsInvalidCharacters =
        SwiftDataError(.configurationFileNameContainsInvalidCharacters)
    public static let configurationSchemaNotFoundInContainerSchema =
        SwiftDataError(.configurationSchemaNotFoundInContainerSchema)
    // Container errors
    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer)
    // Context errors
    public static let modelValidationFailure = SwiftDataError(.modelValidationFailure)
    public static let missingModelContext = SwiftDataError(.missingModelContext)
    // Migration errors
    public static let backwardMigration = SwiftDataError(.backwardMigration)
    public static let unknownSchema = SwiftDataError(.unknownSchema)
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
    static func corruptValue(_ detail: String) -> SwiftDataError {
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
