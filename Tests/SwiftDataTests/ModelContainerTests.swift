import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Containers, configurations and the stores they open.
@Suite struct ModelContainerTests {
    @Test func defaultStoreLivesInTheXDGDataHome() {
        let directory = ModelConfiguration.defaultDirectory(
            environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"], executable: "/usr/bin/todo")
        #expect(directory.path == "/data/todo")
        let fallback = ModelConfiguration.defaultDirectory(
            environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/me"], executable: "todo")
        #expect(fallback.path == "/home/me/.local/share/todo")
        #expect(ModelConfiguration().url.lastPathComponent == "default.store")
        #expect(ModelConfiguration("Notes").url.lastPathComponent == "Notes.store")
        #expect(ModelConfiguration(isStoredInMemoryOnly: true).url.path == "/dev/null")
    }

    @Test func configurationsAndSchemas() throws {
        let container = try ModelContainer(
            for: Counter.self, User.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(container.schema.entities.map(\.name) == ["Counter", "User"])
        #expect(container.configurations.count == 1)
        #expect(container.configurations.first?.isStoredInMemoryOnly == true)
        let context = ModelContext(container)
        #expect(context.container === container)
        #expect(!context.autosaveEnabled)
    }

    @MainActor @Test func mainContextAutosaves() throws {
        let container = try makeMemoryContainer(User.self)
        #expect(container.mainContext === container.mainContext)
        #expect(container.mainContext.autosaveEnabled)
    }

    @Test func inMemoryContainersAreSeparate() throws {
        let first = ModelContext(try makeMemoryContainer(User.self))
        first.insert(User(name: "only here", email: ""))
        try first.save()
        #expect(try ModelContext(try makeMemoryContainer(User.self)).fetchCount(FetchDescriptor<User>()) == 0)
    }

    @Test func readOnlyStoreReadsButRefusesToSave() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(User.self, in: directory))
            context.insert(User(name: "stored", email: ""))
            try context.save()
        }
        let context = ModelContext(try makeContainer(User.self, in: directory, allowsSave: false))
        let user = try #require(try context.fetch(FetchDescriptor<User>()).first)
        #expect(user.name == "stored")
        user.name = "edited"
        #expect(throws: SwiftDataError.storeError) { try context.save() }
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try makeContainer(User.self, in: directory, name: "missing", allowsSave: false)
        }
    }

    @Test func fileThatIsNotAStoreIsLeftUntouched() throws {
        let directory = TemporaryDirectory()
        let text = Data("just some notes, not a database\n".utf8)
        try text.write(to: directory.store())
        #expect {
            try makeContainer(User.self, in: directory)
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .loadIssueModelContainer && (error.reason ?? "").contains("not an SQLite store")
        }
        #expect(try Data(contentsOf: directory.store()) == text)
    }

    @Test func corruptStoreIsAClearErrorAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data(repeating: 0xAB, count: 4096 - bytes.count))
        try bytes.write(to: directory.store())
        #expect {
            try makeContainer(User.self, in: directory)
        } throws: { error in
            let error = try #require(error as? SwiftDataError)
            return error == .loadIssueModelContainer && error.storeCode != nil
        }
        #expect(try Data(contentsOf: directory.store()) == bytes)
    }

    @Test func foreignSQLiteDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        try sqlite(directory.store(), "CREATE TABLE other (x INTEGER);", creating: true)
        #expect {
            try makeContainer(User.self, in: directory)
        } throws: { error in
            ((error as? SwiftDataError)?.reason ?? "").contains("did not create")
        }
    }

    @Test func duplicateAndInvalidConfigurationsAreRefused() throws {
        let directory = TemporaryDirectory()
        let configuration = ModelConfiguration(url: directory.store())
        #expect(throws: SwiftDataError.duplicateConfiguration) {
            try ModelContainer(for: Schema([User.self]), configurations: [configuration, configuration])
        }
        #expect(throws: SwiftDataError.configurationFileNameContainsInvalidCharacters) {
            try ModelContainer(for: User.self, configurations: ModelConfiguration("a/b", isStoredInMemoryOnly: true))
        }
    }

    @Test func configurationsSplitTheSchemaBetweenStores() throws {
        let directory = TemporaryDirectory()
        let users = ModelConfiguration("users", schema: Schema([User.self]), url: directory.store("users"))
        let counters = ModelConfiguration("counters", schema: Schema([Counter.self]), url: directory.store("counters"))
        let container = try ModelContainer(for: Schema([User.self, Counter.self]), configurations: [users, counters])
        let context = ModelContext(container)
        context.insert(User(name: "u", email: ""))
        context.insert(Counter(label: "c"))
        try context.save()
        let userStore = ModelContext(
            try ModelContainer(for: User.self, configurations: ModelConfiguration(url: directory.store("users"))))
        #expect(try userStore.fetchCount(FetchDescriptor<User>()) == 1)
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) {
            try userStore.fetchCount(FetchDescriptor<Counter>())
        }
    }

    @Test func errorsCarryContextAndMatchByCode() {
        let error = SwiftDataError.storeError.with(
            reason: "it broke", model: "User", property: "name", sql: "SELECT 1", storeCode: "5",
            storeMessage: "database is locked", suggestion: "Retry")
        #expect(error == .storeError)
        #expect(error != .loadIssueModelContainer)
        #expect(SwiftDataError.storeError ~= error)
        #expect(
            error.description
                == "SwiftDataError.storeError: it broke (model User, property name). Store error 5: database is locked. SQL: SELECT 1. Retry"
        )
        #expect(error.localizedDescription == error.description)
    }
}

/// A failed autosave is reported, never silent.
@Suite struct AutosaveFailureTests {
    @MainActor @Test func failedAutosavePostsANotification() async throws {
        let (_, log) = try await capturingLog {
            let directory = TemporaryDirectory()
            _ = try makeContainer(User.self, in: directory)
            let container = try makeContainer(User.self, in: directory, allowsSave: false)
            let failures = FailureRecorder(container.mainContext)
            container.mainContext.insert(User(name: "cannot be saved", email: ""))
            await mainQueueCaughtUp()
            #expect(failures.errors.count == 1)
            #expect((failures.errors.first as? SwiftDataError) == .storeError)
            #expect(container.mainContext.hasChanges, "the changes stay pending")
            container.mainContext.rollback()
        }
        #expect(
            log.count == 1
                && log.allSatisfy { $0.hasPrefix("SwiftData error: autosave failed; the changes are still pending: ") },
            "\(log)")
    }
}

final class FailureRecorder: @unchecked Sendable {
    // @unchecked Sendable: autosave posts on the main queue, where the test reads `errors` after it waited.
    private(set) var errors: [any Error] = []
    private var token: (any NSObjectProtocol)?

    init(_ context: ModelContext) {
        token = NotificationCenter.default.addObserver(
            forName: ModelContext.didFailAutosave, object: context, queue: nil
        ) {
            [unowned self] note in
            if let error = note.userInfo?["error"] as? any Error { errors.append(error) }
        }
    }

    deinit { token.map(NotificationCenter.default.removeObserver) }
}
