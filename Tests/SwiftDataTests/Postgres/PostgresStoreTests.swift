import Foundation
import PostgresTestSupport
import SharedTestModels
import SwiftData
import SwiftDataSQL
import Synchronization
import Testing

@testable import SwiftDataCore
@testable import SwiftDataPostgres

/// What only the PostgreSQL store does, or does its own way: the configuration, the tables it makes, values in
/// native columns, external storage in a side table, unique constraints and indexes, migration in one transaction,
/// and several instances on one database. The behaviour suites run on it too (`StoreKind`).
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct PostgresStoreTests {
    /// A superuser connection to the test database, for looking at what the store made.
    func inspect(_ sql: String, _ values: [PostgresValue] = []) throws -> [String] {
        let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        let result = values.isEmpty ? try connection.execute(sql) : try connection.query(sql, values, format: .text)
        return try (0..<result.rowCount).map { row in
            try (0..<result.columnCount).map { try result.string(row, $0) ?? "NULL" }.joined(separator: "|")
        }
    }

    func configuration(_ schema: String, url: String? = nil) throws -> PostgresConfiguration {
        PostgresConfiguration(url: try url ?? PostgresTestServer.shared().url, postgresSchema: schema)
    }

    @Test func applesInitializerOpensAStoreInItsOwnSchema() throws {
        let location = StoreKind.postgres.location()
        let container = try ModelContainer(
            for: Counter.self, configurations: try configuration(location.postgresSchema))
        let context = ModelContext(container)
        context.insert(Counter(label: "one"))
        try context.save()
        let tables = try inspect(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", [.text(location.postgresSchema)]
        )
        #expect(
            tables == [
                "Counter", "_swiftdata_external", "_swiftdata_history", "_swiftdata_metadata", "_swiftdata_saves",
                "_swiftdata_sequence",
            ])
        #expect(
            try inspect("SELECT label, value FROM \"\(location.postgresSchema)\".\"Counter\"") == ["one|0"])
        // Another schema of the same database is another store.
        let other = ModelContext(
            try ModelContainer(for: Counter.self, configurations: try configuration(location.postgresSchema + "_b")))
        #expect(try other.fetchCount(FetchDescriptor<Counter>()) == 0)
        #expect(container.configurations.isEmpty, "configurations lists ModelConfigurations only, as Apple's")
        #expect(!String(reflecting: try configuration("x")).contains(try PostgresTestServer.shared().password))
    }

    @Test func aModelHierarchyRoundTripsInOneTable() throws {
        let location = StoreKind.postgres.location()
        do {
            let context = ModelContext(try location.container(Schema(mediaModels)))
            context.insert(Media(title: "Radio", year: 1920))
            context.insert(Movie(title: "Heat", year: 1995, director: "Mann"))
            context.insert(Documentary(title: "Planet", year: 2006, director: "Fothergill", subject: "nature"))
            try context.save()
        }
        let container = try location.container(Schema(mediaModels))
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<Media>(sortBy: [SortDescriptor(\.year)]))
        #expect(all.map { String(describing: type(of: $0)) } == ["Media", "Movie", "Documentary"])
        #expect((all[2] as? Documentary)?.subject == "nature" && (all[1] as? Movie)?.director == "Mann")
        #expect(
            try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)])).map(\.title) == [
                "Heat", "Planet",
            ])
        let schema = location.postgresSchema
        #expect(
            try inspect("SELECT \"_entity\", title, director FROM \"\(schema)\".\"Media\" ORDER BY \"_pk\"")
                == ["Media|Radio|NULL", "Movie|Heat|Mann", "Documentary|Planet|Fothergill"])
        #expect(
            try inspect(
                "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename IN ('Movie', 'Documentary')",
                [.text(schema)]
            )
            .isEmpty, "no table per subclass")
        // A subclass's fetch is the root's table with a condition on the entity column, which the root's index serves.
        let store = try #require(container.stores.compactMap { $0 as? PostgresRowStore }.first)
        let entity = try #require(container.binding(for: Movie.self)).entity
        let request = FetchRequest<Movie>(entity: entity, predicate: #Predicate { $0.year == 2000 }, properties: [])
        let prepared = try #require(store.prepare(request).prepared as? PreparedSelect)
        let statement = try #require(prepared.statements(for: request).first)
        #expect(statement.sql.contains("\"_entity\" IN"), "\(statement.sql)")
        let connection = try PostgresConnection(PostgresTestServer.shared().superuserConnectionString)
        try connection.execute("SET search_path TO \"\(schema)\"; SET enable_seqscan = off")
        let plan = try connection.query(
            "EXPLAIN " + statement.sql, statement.parameters.map(PostgresValue.init(storing:)), format: .text)
        let lines = try (0..<plan.rowCount).map { try plan.string($0, 0) ?? "" }
        #expect(lines.joined().contains("Media_index_year"), "\(lines)")
    }

    @Test func libpqKeyValueStringsWorkAndBadConfigurationsAreRefused() throws {
        let server = try PostgresTestServer.shared()
        let location = StoreKind.postgres.location()
        let configuration = PostgresConfiguration(
            url:
                "host=127.0.0.1 port=\(server.port) dbname=\(server.database) user=\(server.user) password=\(server.password)",
            postgresSchema: location.postgresSchema)
        let context = ModelContext(try ModelContainer(for: Counter.self, configurations: configuration))
        context.insert(Counter(label: "kv"))
        try context.save()
        #expect(try ModelContext(try location.container(Counter.self)).fetchCount(FetchDescriptor<Counter>()) == 1)
        #expect(!String(reflecting: configuration).contains(server.password))
        for bad in [
            PostgresConfiguration(url: " "), PostgresConfiguration(url: server.url, postgresSchema: ""),
            PostgresConfiguration(url: server.url, maximumConnections: 0),
        ] {
            #expect(throws: SwiftDataError.loadIssueModelContainer) {
                try ModelContainer(for: Counter.self, configurations: bad)
            }
        }
    }

    @Test func valuesKeepTheirMeaningInNativeColumns() throws {
        let location = StoreKind.postgres.location()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789_012_345_6)
        do {
            let context = ModelContext(try location.container(Sample.self))
            let sample = Sample()
            sample.double = -0.0
            sample.decimal = .nan
            sample.optionalDecimal = Decimal(string: "-0.000000000000000000000000000001")!
            sample.date = date
            sample.uint64 = .max
            sample.string = "e\u{301}"
            context.insert(sample)
            try context.save()
        }
        let sample = try #require(
            try ModelContext(try location.container(Sample.self)).fetch(FetchDescriptor<Sample>()).first)
        #expect(sample.double == 0 && sample.double.sign == .minus)
        #expect(sample.decimal.isNaN)
        #expect(sample.optionalDecimal == Decimal(string: "-0.000000000000000000000000000001")!)
        #expect(sample.date == date, "a date keeps every bit, not only microseconds")
        #expect(sample.uint64 == .max)
        let types = try inspect(
            """
            SELECT column_name || ':' || data_type FROM information_schema.columns WHERE table_schema = $1 \
            AND table_name = 'Sample' AND column_name IN ('date', 'uuid', 'decimal', 'address', 'data', 'bool', 'int') \
            ORDER BY column_name
            """, [.text(location.postgresSchema)])
        #expect(
            types == [
                "address:jsonb", "bool:boolean", "data:bytea", "date:double precision", "decimal:numeric",
                "int:bigint", "uuid:uuid",
            ])
        // A predicate compares strings as Swift does: "é" written two ways is one string.
        let context = ModelContext(try location.container(Sample.self))
        let composed = "\u{e9}"
        #expect(try context.fetchCount(FetchDescriptor<Sample>(predicate: #Predicate { $0.string == composed })) == 1)
    }

    @Test func externalStorageLivesInASideTableWrittenWithTheRow() throws {
        let location = StoreKind.postgres.location()
        let big = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        let container = try location.container(SharedTestModels.Attachment.self)
        let context = ModelContext(container)
        let attachment = SharedTestModels.Attachment(name: "big", bytes: big)
        context.insert(attachment)
        context.insert(SharedTestModels.Attachment(name: "empty", bytes: Data()))
        try context.save()
        let side = "\"\(location.postgresSchema)\"._swiftdata_external"
        #expect(try inspect("SELECT octet_length(data) FROM \(side)") == ["100000"])
        let reader = ModelContext(try location.container(SharedTestModels.Attachment.self))
        let fetched = try reader.fetch(
            FetchDescriptor<SharedTestModels.Attachment>(sortBy: [SortDescriptor(\.name)]))
        #expect(fetched.map(\.bytes) == [big, Data()])
        attachment.bytes = Data([1, 2, 3])
        try context.save()
        #expect(try inspect("SELECT octet_length(data) FROM \(side)") == ["3"], "the replaced value is gone")
        context.delete(attachment)
        try context.save()
        #expect(try inspect("SELECT count(*) FROM \(side)") == ["0"], "a deleted model's value is gone")
    }

    @Test func uniqueConstraintsAndIndexesAreIndexesOfTheTable() throws {
        let location = StoreKind.postgres.location()
        let context = ModelContext(try location.container(Shop.Item.self))
        context.insert(Shop.Item(name: "apple", price: 3))
        context.insert(Shop.Item(name: "apple", price: 4))
        try context.save()
        // A unique constraint that the stored models break is refused, and the store is left as it was.
        #expect {
            try location.container(ShopUnique.Item.self)
        } throws: { error in
            let reason = (error as? SwiftDataError)?.reason ?? ""
            return reason.contains("unique constraint") && reason.contains("apple")
        }
        _ = try location.container(ShopIndexed.Item.self)
        let indexes = try inspect(
            "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'Item' ORDER BY indexname",
            [.text(location.postgresSchema)])
        #expect(indexes.contains("Item_index_price") && indexes.contains("Item_index_name_price"))
        let plan = try inspect(
            """
            SET enable_seqscan = off; EXPLAIN SELECT "_pk" FROM "\(location.postgresSchema)"."Item" \
            WHERE (normalize("name", NFC) COLLATE "C" = normalize('apple'::text, NFC) COLLATE "C")
            """)
        #expect(plan.joined().contains("Item_index_name_price"), "the index serves the predicate's comparison")
    }

    @Test func theUpsertLookupIsOneProbeOfTheUniqueIndex() throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(Country.self)
        let store = try #require(container.stores.first as? PostgresRowStore)
        let entity = try #require(container.schema.entitiesByName["Country"])
        let code = try #require(entity.attributesByName["code"]?.index)
        let lookup = try #require(PostgresTransaction.existingKeyQuery(in: entity, properties: [code], store: store))
        let plan = try inspect(
            """
            SET search_path TO "\(location.postgresSchema)"; SET enable_seqscan = off; PREPARE lookup AS \(lookup); \
            EXPLAIN EXECUTE lookup('FR')
            """)
        #expect(plan.joined().contains("Country_unique_code"), "the lookup uses the unique index: \(plan)")
        // Uniqueness stays Swift's `==` on strings: the same text in another Unicode normalization is the same.
        let context = ModelContext(container)
        context.insert(Country(code: "Cafe\u{301}", name: "decomposed"))
        try context.save()
        context.insert(Country(code: "Caf\u{E9}", name: "precomposed"))
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Country>()).map(\.name) == ["precomposed"])
    }

    @Test func savesOfAnotherInstanceReachContextsAndObservers() async throws {
        let location = StoreKind.postgres.location()
        let mine = try location.container(Visit.self)
        let theirs = try location.container(Visit.self)
        let context = ModelContext(mine)
        let visit = Visit(name: "here")
        context.insert(visit)
        try context.save()
        let count = visit.count
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\Visit.name)], modelContainer: mine)
        let fired = Flag()
        withObservationTracking {
            _ = observer.results
        } onChange: {
            fired.set()
        }
        let other = ModelContext(theirs)
        other.insert(Visit(name: "there"))
        for seen in try other.fetch(FetchDescriptor<Visit>()) { seen.count += 5 }
        try other.save()
        #expect(await fired.wait(), "the notification reached the observer without a fetch")
        #expect(observer.results.map(\.name) == ["here", "there"])
        _ = try context.fetchCount(FetchDescriptor<Visit>())
        #expect(visit.count == count + 5, "the registered model refreshed")
    }

    @Test func threeProcessesWritingAndObservingAtOnceLoseNothing() async throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(Visit.self)
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\Visit.name)], modelContainer: container)
        let writers = ["a", "b", "c"]
        let perWriter = 40
        let expected = writers.flatMap { writer in (0..<perWriter).map { "\(writer)-\($0)" } }.sorted()
        // Each process saves its visits one at a time while its own observer watches all three processes' visits.
        let children = try writers.map { writer in
            let output = Pipe()
            let child = try location.runChild(
                ["write-and-observe", writer, "\(perWriter)", "\(expected.count)"], output: output)
            return (child, output)
        }
        for (writer, (child, output)) in zip(writers, children) {
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(try child.wait() == 0)
            let seen = printed.split(separator: "\n").map(String.init)
            #expect(
                seen.sorted() == expected,
                "process \(writer) saw every process's visits, once each (\(seen.count) seen)")
        }
        _ = await observer.waitForSnapshot { $0.count >= expected.count }
        #expect(observer.results.map(\.name).sorted() == expected, "an observer in a fourth process saw them all too")
        let names = try ModelContext(container).fetch(FetchDescriptor<Visit>()).map(\.name)
        #expect(names.sorted() == expected)
    }

    @Test func serverErrorsNameTheServerAndTheirSQLStateNeverThePassword() throws {
        let server = try PostgresTestServer.shared()
        func failure(_ url: String) -> SwiftDataError? {
            do {
                _ = try ModelContainer(for: Counter.self, configurations: PostgresConfiguration(url: url))
                return nil
            } catch {
                return error as? SwiftDataError
            }
        }
        let cases: [(String, String)] = [
            (server.url(database: server.database, password: "wrong-password"), "28P01"),
            (server.url(database: "no_such_database"), "3D000"),
            (server.url(database: server.database, port: 1), "08001"),
        ]
        for (url, sqlState) in cases {
            let error = try #require(failure(url), "\(sqlState)")
            #expect(error == .loadIssueModelContainer)
            #expect(error.storeCode == sqlState)
            let text = "\(error)"
            #expect(text.contains("127.0.0.1:"), "the error names the server: \(text)")
            #expect(!text.contains(server.password) && !text.contains("wrong-password"), "\(text)")
        }
    }

    @Test func aConnectionLostMidSaveKeepsTheChangesForARetry() throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(Counter.self)
        _ = try inspect(
            """
            CREATE FUNCTION "\(location.postgresSchema)".die() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            IF NEW.label = 'die' THEN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); END IF; \
            RETURN NEW; END $$; CREATE TRIGGER die BEFORE INSERT ON "\(location.postgresSchema)"."Counter" \
            FOR EACH ROW EXECUTE FUNCTION "\(location.postgresSchema)".die()
            """)
        let context = ModelContext(container)
        let counter = Counter(label: "die")
        context.insert(counter)
        #expect {
            try context.save()
        } throws: { error in
            let error = error as? SwiftDataError
            return error?.storeCode.map { ["57P01", "08006"].contains($0) } == true
                && (error?.reason ?? "").contains("connection to the PostgreSQL server was lost")
        }
        #expect(context.hasChanges && context.insertedModelsArray.count == 1, "the context keeps its changes")
        counter.label = "lived"
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label) == ["lived"])
    }

    @Test func aConnectionLostAtTheCommitBeforeItCommittedThrowsAndARetrySavesOnce() throws {
        let location = StoreKind.postgres.location()
        let schema = location.postgresSchema
        let container = try location.container(Counter.self)
        // A deferred constraint trigger runs inside the COMMIT, before the transaction commits: it ends the session.
        _ = try inspect(
            """
            CREATE FUNCTION "\(schema)".die() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            IF NEW.label = 'die' THEN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); END IF; \
            RETURN NEW; END $$; CREATE CONSTRAINT TRIGGER die AFTER INSERT ON "\(schema)"."Counter" \
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "\(schema)".die()
            """)
        let context = ModelContext(container)
        let counter = Counter(label: "die")
        context.insert(counter)
        #expect {
            try context.save()
        } throws: { error in
            let error = error as? SwiftDataError
            return error?.storeCode.map { ["57P01", "08006"].contains($0) } == true
                && (error?.reason ?? "").contains("connection to the PostgreSQL server was lost")
                && "\(error.map { "\($0)" } ?? "")".contains("the save was not committed")
        }
        #expect(context.hasChanges && context.insertedModelsArray.count == 1, "the context keeps its changes")
        #expect(try inspect(#"SELECT count(*) FROM "\#(schema)"."Counter""#) == ["0"])
        counter.label = "lived"
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label) == ["lived"])
        #expect(try inspect(#"SELECT count(*) FROM "\#(schema)"."Counter""#) == ["1"], "saved once")
    }

    @Test func aConnectionLostAtTheCommitAfterItCommittedIsASuccessNotADuplicate() throws {
        let location = StoreKind.postgres.location()
        let schema = location.postgresSchema
        let container = try location.container(Counter.self)
        // A deferred constraint trigger holds the COMMIT for a while; meanwhile the client's socket is shut, so the
        // server commits but its answer is lost.
        _ = try inspect(
            """
            CREATE FUNCTION "\(schema)".slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            IF NEW.label = 'slow' THEN PERFORM pg_sleep(1.5); END IF; RETURN NEW; END $$; \
            CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON "\(schema)"."Counter" \
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "\(schema)".slow()
            """)
        let store = try #require(container.stores.first as? PostgresRowStore)
        let shut = Flag()
        let server = try PostgresTestServer.shared()
        // Once the COMMIT is sent and the server holds it in the trigger (the session waits in `pg_sleep`), the
        // client's socket is shut.
        store.willCommit = { connection in
            guard !shut.isSet else { return }
            shut.set()
            let socket = connection.socket
            let backend = Int64(connection.backendPID)
            Thread.detachNewThread {
                defer { _ = shutdown(socket, Int32(SHUT_RDWR)) }
                guard let watcher = try? PostgresConnection(server.superuserConnectionString) else { return }
                let deadline = Date(timeIntervalSinceNow: 30)
                while Date() < deadline {
                    let state = try? watcher.query(
                        "SELECT coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $1::int", [.int8(backend)],
                        format: .text)
                    if let state, state.rowCount == 1, (try? state.string(0, 0)) == "PgSleep" { return }
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
        }
        let context = ModelContext(container)
        context.insert(Counter(label: "slow"))
        try context.save()
        #expect(shut.isSet)
        #expect(!context.hasChanges, "the save committed, so it succeeded")
        #expect(try inspect(#"SELECT label FROM "\#(schema)"."Counter""#) == ["slow"], "written once")
        // The connection, connected again, still works in the store's schema.
        context.insert(Counter(label: "next"))
        try context.save()
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<Counter>()).map(\.label).sorted() == ["next", "slow"])
    }

    /// A save of one changed model waits for the server three times, as a hand-written one does (with its history
    /// and its notification): the `BEGIN`, the `UPDATE`, and the save lock with the history row and the `COMMIT`.
    @Test func aSaveOfOneChangeWaitsForTheServerThreeTimes() throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(Counter.self)
        let store = try #require(container.stores.first as? PostgresRowStore)
        let context = ModelContext(container)
        let counter = Counter(label: "one")
        context.insert(counter)
        try context.save()
        // The first save of this shape prepares its statements.
        counter.value = 1
        try context.save()
        counter.value = 2
        #expect(try store.roundTrips { try context.save() }.count == 3)
        #expect(try inspect(#"SELECT value FROM "\#(location.postgresSchema)"."Counter""#) == ["2"])
        #expect(try inspect(#"SELECT count(*) FROM "\#(location.postgresSchema)"._swiftdata_history"#) == ["3"])
    }

    /// A save's history row goes with its `COMMIT`, under the number drawn with the save lock: the number its
    /// `didSave` token names, larger than the last save's.
    @Test func aSavesHistoryRowCommitsUnderTheNumberItsTokenNames() throws {
        let location = StoreKind.postgres.location()
        let container = try location.container(Counter.self)
        let context = ModelContext(container)
        let numbers = Mutex<[Int64]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { notification in
            let token = notification.userInfo?[ModelContext.NotificationKey.historyTokens.rawValue]
            if let token = token as? DefaultHistoryToken, let number = token.positions.values.first {
                numbers.withLock { $0.append(number) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let counter = Counter(label: "first")
        context.insert(counter)
        try context.save()
        counter.label = "second"
        try context.save()
        let drawn = numbers.withLock { $0 }
        #expect(drawn.count == 2 && drawn[0] < drawn[1], "\(drawn)")
        let rows = try inspect(#"SELECT number FROM "\#(location.postgresSchema)"._swiftdata_history ORDER BY number"#)
        #expect(rows == drawn.map(String.init))
    }

    /// A history row that cannot be written fails the save as a whole, though it is sent with the `COMMIT`: the
    /// changed row is not written, the context keeps its changes, and a retry saves them once.
    @Test func aHistoryRowThatFailsAtTheCommitRollsTheSaveBack() throws {
        let location = StoreKind.postgres.location()
        let schema = location.postgresSchema
        let container = try location.container(Counter.self)
        let context = ModelContext(container)
        let counter = Counter(label: "kept")
        context.insert(counter)
        try context.save()
        _ = try inspect(
            """
            CREATE FUNCTION "\(schema)".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            RAISE EXCEPTION 'no history today'; END $$; CREATE TRIGGER refuse BEFORE INSERT ON \
            "\(schema)"._swiftdata_history FOR EACH ROW EXECUTE FUNCTION "\(schema)".refuse()
            """)
        counter.label = "changed"
        #expect {
            try context.save()
        } throws: { error in
            "\(error)".contains("no history today")
        }
        #expect(context.hasChanges && context.changedModelsArray.count == 1, "the context keeps its changes")
        #expect(try inspect(#"SELECT label FROM "\#(schema)"."Counter""#) == ["kept"], "nothing was written")
        #expect(try inspect(#"SELECT count(*) FROM "\#(schema)"._swiftdata_history"#) == ["1"])
        _ = try inspect(#"DROP TRIGGER refuse ON "\#(schema)"._swiftdata_history"#)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try inspect(#"SELECT label FROM "\#(schema)"."Counter""#) == ["changed"])
        #expect(try inspect(#"SELECT count(*) FROM "\#(schema)"._swiftdata_history"#) == ["2"])
    }

    @Test func aNotificationReachesTheContainerWithoutATimer() async throws {
        let location = StoreKind.postgres.location()
        let mine = try location.container(Visit.self)
        let theirs = try location.container(Visit.self)
        // No observer or context of `mine` watches for other processes' changes, so nothing checks the store: only
        // the listener can pass the notification on.
        let heard = Flag()
        let subscriber = NSObject()
        mine.changes.subscribe(subscriber) { notice in if notice.isExternal { heard.set() } }
        let other = ModelContext(theirs)
        other.insert(Visit(name: "there"))
        try other.save()
        #expect(await heard.wait(), "the other instance's save reached the container")
        withExtendedLifetime(subscriber) {}
    }

    @Test func aStatementTimeoutIsAClearError() throws {
        let location = StoreKind.postgres.location()
        let slow = try location.container(Counter.self)
        _ = try inspect(
            """
            CREATE FUNCTION "\(location.postgresSchema)".slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
            PERFORM pg_sleep(2); RETURN NEW; END $$; CREATE TRIGGER slow BEFORE INSERT ON \
            "\(location.postgresSchema)"."Counter" FOR EACH ROW EXECUTE FUNCTION "\(location.postgresSchema)".slow()
            """)
        _ = slow
        let url = try PostgresTestServer.shared().url + "?options=-c%20statement_timeout%3D200"
        let context = ModelContext(
            try ModelContainer(
                for: Counter.self,
                configurations: PostgresConfiguration(url: url, postgresSchema: location.postgresSchema)))
        context.insert(Counter(label: "late"))
        #expect {
            try context.save()
        } throws: { error in
            (error as? SwiftDataError)?.storeCode == "57014"
        }
        #expect(context.hasChanges)
    }
}

/// One model in two versions: its data kept in the row, then in external storage.
enum BlobV1 {
    @Model final class Blob {
        var name: String
        var bytes: Data
        init(name: String, bytes: Data) {
            self.name = name
            self.bytes = bytes
        }
    }
}

enum BlobV2 {
    @Model final class Blob {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        init(name: String, bytes: Data) {
            self.name = name
            self.bytes = bytes
        }
    }
}

extension PostgresStoreTests {
    @Test func valuesMoveIntoAndOutOfExternalStorageWhenTheOptionChanges() throws {
        let location = StoreKind.postgres.location()
        let side = "\"\(location.postgresSchema)\"._swiftdata_external"
        do {
            let context = ModelContext(try location.container(BlobV1.Blob.self))
            context.insert(BlobV1.Blob(name: "a", bytes: Data([1, 2, 3])))
            context.insert(BlobV1.Blob(name: "b", bytes: Data()))
            try context.save()
        }
        do {
            let context = ModelContext(try location.container(BlobV2.Blob.self))
            let blobs = try context.fetch(FetchDescriptor<BlobV2.Blob>(sortBy: [SortDescriptor(\.name)]))
            #expect(blobs.map(\.bytes) == [Data([1, 2, 3]), Data()])
            #expect(try inspect("SELECT count(*) FROM \(side)") == ["1"], "the value moved to the side table")
        }
        let context = ModelContext(try location.container(BlobV1.Blob.self))
        let blobs = try context.fetch(FetchDescriptor<BlobV1.Blob>(sortBy: [SortDescriptor(\.name)]))
        #expect(blobs.map(\.bytes) == [Data([1, 2, 3]), Data()])
        #expect(try inspect("SELECT count(*) FROM \(side)") == ["0"], "and back into the row")
    }
}
