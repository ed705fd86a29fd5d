import CSQLite
import Foundation
import SwiftData

/// A note with a `.search` index on its body, for the search measurements.
@Model final class IndexedNote {
    #Index<IndexedNote>(.search([\.body]))
    var key: Int
    var body: String
    var isArchived: Bool

    init(key: Int, body: String) {
        self.key = key
        self.body = body
        isArchived = false
    }
}

/// The same note without the index.
@Model final class PlainNote {
    var key: Int
    var body: String
    var isArchived: Bool

    init(key: Int, body: String) {
        self.key = key
        self.body = body
        isArchived = false
    }
}

/// The search and batch-update measurements (`--search`), in this process: a rare term found with
/// `localizedStandardContains` through a `.search` index, without it, and with raw FTS5; and a batch update of every
/// note (`ModelContext.update(model:where:set:to:)`) against a raw `UPDATE`. Each query runs once untimed before its
/// timed runs, and each update writes the first note untimed first, as `TrialSetup` has every workload do.
enum SearchWorkloads {
    /// The rare term: in ten notes, whatever the number of notes.
    static let rareTerm = "Quixotic"
    private static let words = [
        "apple", "river", "mountain", "Zürich", "morning", "letter", "garden", "meeting", "budget", "travel",
        "café", "window", "report", "coffee", "summer", "engine", "forest", "market", "winter", "journey",
    ]

    /// The body of note `index` of `rows`: eight words, and the rare term in ten of them.
    static func body(_ index: Int, rows: Int) -> String {
        var text = (0..<8).map { words[(index &* 7 &+ $0 &* 13 &+ $0 &* index / 3) % words.count] }
        if index % max(rows / 10, 1) == 5 { text[3] = rareTerm.lowercased() }
        return text.joined(separator: " ") + " #\(index)"
    }

    /// One measured line: what ran, its median seconds and the number it read or wrote (the same for every side).
    struct Line {
        let name: String
        let seconds: Double
        let check: Int
    }

    static func run(rows: Int, repetitions: Int, json: Bool) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openswiftdata-search-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let indexed = try ModelContainer(
            for: IndexedNote.self,
            configurations: ModelConfiguration(url: directory.appendingPathComponent("indexed.store")))
        let plain = try ModelContainer(
            for: PlainNote.self,
            configurations: ModelConfiguration(url: directory.appendingPathComponent("plain.store")))
        let raw = try RawDatabase(path: directory.appendingPathComponent("raw.sqlite").path)
        try fill(indexed: indexed, plain: plain, raw: raw, rows: rows)

        let term = rareTerm
        var lines: [Line] = []
        func measure(_ name: String, _ trial: Trial) throws {
            var times: [Double] = []
            for _ in 0..<repetitions {
                let start = ContinuousClock.now
                try trial.run()
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            lines.append(Line(name: name, seconds: Measurement.median(times), check: try trial.check()))
        }
        /// A rare-term search through SwiftData, with or without the index, by the model type.
        func search<Note: PersistentModel>(_ type: Note.Type, _ predicate: Predicate<Note>, key: KeyPath<Note, Int>)
            throws -> Trial
        {
            let container = type == IndexedNote.self ? indexed : plain
            return try TrialSetup.trial(
                .fetchIndexed, rows: rows,
                plan: .query {
                    let context = ModelContext(container)
                    let descriptor = FetchDescriptor<Note>(predicate: predicate)
                    return { try context.fetch(descriptor).reduce(0) { $0 &+ $1[keyPath: key] } }
                })
        }
        try measure(
            "search, .search index",
            search(IndexedNote.self, #Predicate { $0.body.localizedStandardContains(term) }, key: \.key))
        try measure(
            "search, no index",
            search(PlainNote.self, #Predicate { $0.body.localizedStandardContains(term) }, key: \.key))
        try measure(
            "search, raw FTS5",
            TrialSetup.trial(
                .fetchIndexed, rows: rows,
                plan: .query {
                    let statement = try raw.prepare(
                        "SELECT key, body FROM note WHERE id IN (SELECT rowid FROM note_fts WHERE note_fts MATCH ?)")
                    return {
                        defer { statement.reset() }
                        try statement.bind("\"\(term.lowercased())\"", at: 1)
                        var digest = 0
                        while try statement.step() {
                            // The exact condition, as our side's predicate decides.
                            if statement.string(1).localizedStandardContains(term) { digest &+= statement.int(0) }
                        }
                        return digest
                    }
                }))
        try measure(
            "batch update, SwiftData",
            TrialSetup.trial(
                .updateAll, rows: rows,
                plan: .write(
                    { range in
                        let (low, high) = (range.lowerBound, range.upperBound)
                        try ModelContext(plain).update(
                            model: PlainNote.self, where: #Predicate { $0.key >= low && $0.key < high },
                            set: \.isArchived, to: true)
                    },
                    stored: {
                        try ModelContext(plain).fetchCount(
                            FetchDescriptor<PlainNote>(predicate: #Predicate { $0.isArchived }))
                    })))
        try measure(
            "batch update, raw UPDATE",
            TrialSetup.trial(
                .updateAll, rows: rows,
                plan: .write(
                    { range in
                        try raw.transaction {
                            let statement = try raw.prepare("UPDATE note SET isArchived = 1 WHERE key >= ? AND key < ?")
                            try statement.bind(range.lowerBound, at: 1)
                            try statement.bind(range.upperBound, at: 2)
                            try statement.run()
                        }
                    },
                    stored: {
                        let statement = try raw.prepare("SELECT count(*) FROM note WHERE isArchived")
                        _ = try statement.step()
                        return statement.int(0)
                    })))
        guard Set(lines.prefix(3).map(\.check)).count == 1, Set(lines.suffix(2).map(\.check)).count == 1 else {
            throw ChildError("the search measurements did different work: \(lines.map(\.check))")
        }
        return report(lines, rows: rows, repetitions: repetitions, json: json)
    }

    /// Fills the three stores with the same notes, and gives the raw one its FTS5 trigram index.
    private static func fill(indexed: ModelContainer, plain: ModelContainer, raw: RawDatabase, rows: Int) throws {
        let indexedContext = ModelContext(indexed)
        let plainContext = ModelContext(plain)
        for index in 0..<rows {
            let body = body(index, rows: rows)
            indexedContext.insert(IndexedNote(key: index, body: body))
            plainContext.insert(PlainNote(key: index, body: body))
            if index % 100_000 == 99_999 {
                try indexedContext.save()
                try plainContext.save()
            }
        }
        try indexedContext.save()
        try plainContext.save()
        try raw.execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
            CREATE TABLE note (id INTEGER PRIMARY KEY, key INTEGER NOT NULL, body TEXT NOT NULL,
                isArchived INTEGER NOT NULL);
            CREATE INDEX note_key ON note (key);
            CREATE VIRTUAL TABLE note_fts USING fts5(body, content = 'note', content_rowid = 'id',
                tokenize = 'trigram');
            """)
        try raw.transaction {
            let insert = try raw.prepare("INSERT INTO note (key, body, isArchived) VALUES (?, ?, 0)")
            for index in 0..<rows {
                try insert.bind(index, at: 1)
                try insert.bind(body(index, rows: rows), at: 2)
                try insert.run()
            }
            try raw.execute("INSERT INTO note_fts (note_fts) VALUES ('rebuild')")
        }
    }

    private static func report(_ lines: [Line], rows: Int, repetitions: Int, json: Bool) -> String {
        let seconds = Dictionary(uniqueKeysWithValues: lines.map { ($0.name, $0.seconds) })
        let ratios = [
            (
                "search: no index / .search index (goal ≥ 100)",
                seconds["search, no index"]! / seconds["search, .search index"]!
            ),
            ("search: .search index / raw FTS5", seconds["search, .search index"]! / seconds["search, raw FTS5"]!),
            (
                "batch update: SwiftData / raw UPDATE (goal ≤ 1.2)",
                seconds["batch update, SwiftData"]! / seconds["batch update, raw UPDATE"]!
            ),
        ]
        if json {
            let entries = lines.map { "{\"name\": \"\($0.name)\", \"seconds\": \($0.seconds), \"check\": \($0.check)}" }
            let ratioEntries = ratios.map { "{\"name\": \"\($0.0)\", \"ratio\": \($0.1)}" }
            return
                "{\"rows\": \(rows), \"repetitions\": \(repetitions), \"results\": [\(entries.joined(separator: ", "))], "
                + "\"ratios\": [\(ratioEntries.joined(separator: ", "))]}"
        }
        // One table, in the format of the other modes' tables, which `scripts/benchmark-tables` copies into the docs.
        func row(_ number: Int, _ name: String, _ ours: String, _ other: String, ratio: Int, goal: String, met: Bool?)
            -> [String]
        {
            let time = { (line: String) in Report.time(seconds[line]!) }
            let met = met.map { $0 ? "yes" : "no" } ?? "-"
            return ["\(number)", name, time(ours), time(other), String(format: "%.2f", ratios[ratio].1), goal, met]
        }
        let speedUp = ratios[0].1
        let update = ratios[2].1
        let table = [
            ["#", "measurement", "SwiftData", "compared with", "ratio", "goal", "met"],
            row(
                1, "search: .search index vs no index", "search, .search index", "search, no index", ratio: 0,
                goal: "≥ 100×", met: speedUp >= 100),
            row(
                2, "search: .search index vs raw FTS5", "search, .search index", "search, raw FTS5", ratio: 1,
                goal: "-", met: nil),
            row(
                3, "batch update vs raw UPDATE", "batch update, SwiftData", "batch update, raw UPDATE", ratio: 2,
                goal: "≤ 1.2", met: update <= 1.2),
        ]
        let widths = table[0].indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 2, 3, 4]
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = widths.indices.map { column in
            let dashes = String(repeating: "-", count: widths[column] + 1)
            return rightAligned.contains(column) ? dashes + ":" : ":" + dashes
        }
        let title = "Search and batch update, N = \(Report.grouped(rows)) notes, median of \(repetitions) repetitions"
        return ([title, "", line(table[0]), "|" + rule.joined(separator: "|") + "|"] + table.dropFirst().map(line))
            .joined(separator: "\n")
    }
}
