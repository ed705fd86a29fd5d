import Foundation
import Testing

/// The `jsonstore` example, run as a user runs it: a store of the program's own, in a JSON file.
@Suite struct JSONStoreExampleTests {
    let jsonstore = ExampleRunner(program: "jsonstore")

    func output(_ arguments: String...) throws -> String {
        let result = try jsonstore.run(arguments: arguments)
        #expect(result.status == 0, "jsonstore \(arguments.joined(separator: " ")): \(result.errors)")
        #expect(result.errors.isEmpty, "\(result.errors)")
        return result.output
    }

    @Test func tripsAndBucketListsPersistInTheFile() throws {
        #expect(try output() == "No trips. Add one with: jsonstore add\n")
        #expect(
            try output("add", "Tokyo", "--to", "Japan", "--from", "2027-04-01", "--until", "2027-04-10")
                == "Added Tokyo (Japan) 2027-04-01 to 2027-04-10.\n")
        _ = try output("add", "Lisbon", "--to", "Portugal", "--from", "2027-02-01", "--until", "2027-02-05")
        #expect(try output("plan", "2", "Climb Mount Fuji") == "Tokyo: planned Climb Mount Fuji.\n")
        _ = try output("plan", "2", "Eat sushi")
        _ = try output("plan", "1", "Ride tram 28")
        #expect(try output("done", "2", "2") == "Tokyo: did Eat sushi.\n")
        #expect(
            try output() == """
                1 Lisbon (Portugal) 2027-02-01 to 2027-02-05
                    1 [ ] Ride tram 28
                2 Tokyo (Japan) 2027-04-01 to 2027-04-10
                    1 [ ] Climb Mount Fuji
                    2 [x] Eat sushi

                """)
        #expect(try output("upcoming", "--after", "2027-03-01") == "Tokyo (Japan) 2027-04-01 to 2027-04-10\n")
        let file = jsonstore.dataHome.url.appendingPathComponent("jsonstore/trips.json")
        let snapshots = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        #expect(snapshots?.count == 5)

        #expect(try output("delete", "2") == "Deleted Tokyo (Japan) 2027-04-01 to 2027-04-10 and its bucket list.\n")
        #expect(try output() == "1 Lisbon (Portugal) 2027-02-01 to 2027-02-05\n    1 [ ] Ride tram 28\n")
        let left = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        #expect(left?.count == 2, "the bucket list went with its trip")

        #expect(try output("erase") == "Erased every trip.\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try output() == "No trips. Add one with: jsonstore add\n")
    }

    @Test func mistakesAreReportedAndChangeNothing() throws {
        let unknown = try jsonstore.run(arguments: ["plan", "1", "Anything"])
        #expect(unknown.status == 1 && unknown.errors == "jsonstore: there is no trip 1; the list has 0 trips\n")
        let backwards = try jsonstore.run(
            arguments: ["add", "Oslo", "--to", "Norway", "--from", "2027-05-02", "--until", "2027-05-01"])
        #expect(backwards.status == 1 && backwards.errors == "jsonstore: a trip cannot end before it starts\n")
        #expect(try output() == "No trips. Add one with: jsonstore add\n")
    }

    /// A damaged or unreadable file is reported once, in a sentence that names it, and is left as it was.
    @Test func aDamagedFileIsReportedOnceInWords() throws {
        let file = jsonstore.dataHome.url.appendingPathComponent("jsonstore/trips.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (content, reason) in [
            ("not json", "it is not valid JSON"), (#"[{"a": 1}]"#, #"the entry at [0] lacks "persistentIdentifier""#),
        ] {
            try Data(content.utf8).write(to: file)
            for arguments in [
                ["trips"], ["add", "Oslo", "--to", "Norway", "--from", "2027-05-01", "--until", "2027-05-02"],
            ] {
                let result = try jsonstore.run(arguments: arguments)
                #expect(result.status == 1)
                #expect(
                    result.errors
                        == "jsonstore: \(file.path) is damaged: \(reason); repair it, or move it away to start afresh\n",
                    "jsonstore \(arguments.joined(separator: " "))")
                #expect(try String(contentsOf: file, encoding: .utf8) == content)
            }
        }
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let unreadable = try jsonstore.run(arguments: ["trips"])
        #expect(unreadable.status == 1)
        #expect(unreadable.errors == "jsonstore: cannot read \(file.path): is a directory\n")
    }

    /// `--store` names the JSON file; a PostgreSQL URL is refused with what to give instead.
    @Test func storeOptionNamesTheFile() throws {
        let file = jsonstore.dataHome.url.appendingPathComponent("elsewhere.json")
        #expect(
            try output(
                "--store", file.path, "add", "Oslo", "--to", "Norway", "--from", "2027-05-01", "--until", "2027-05-02")
                == "Added Oslo (Norway) 2027-05-01 to 2027-05-02.\n")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(try output("trips", "--store", file.path) == "1 Oslo (Norway) 2027-05-01 to 2027-05-02\n")
        #expect(try output() == "No trips. Add one with: jsonstore add\n", "the default file is another")
        let url = try jsonstore.run(arguments: ["--store", "postgresql://localhost/trips"])
        #expect(url.status == 2)
        #expect(
            url.errors.hasPrefix("jsonstore: jsonstore keeps its trips in a JSON file: --store takes the file's path\n")
        )
    }
}
