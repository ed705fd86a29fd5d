import Foundation
import SwiftData

/// The numbers a program's listings show, kept from one run to the next, so that a number names the model the user
/// saw under it even when the order has changed since (an added model sorts before it, a renamed one moves):
/// `todo delete 2` deletes what `todo list` showed as 2, or refuses when that model is gone.
///
/// A listing records which models it numbered (`record`); `model(numbered:)` looks a number up in the last record
/// of that listing and that store. With no record (nothing listed yet), numbers count the models in their current
/// order. The records are a small file in the program's data directory.
@MainActor package struct NumberedList<Model: PersistentModel> {
    /// What the models are called in messages: "item", "trip".
    package let noun: String
    /// The command that prints the numbers: "todo list".
    package let listing: String
    /// The record's name: which store, and which list in it.
    private let key: String

    /// A numbered list of `noun`s that `listing` prints, from the store `store` names (a path or URL, or
    /// `"default"`); `scope` tells lists of the same models apart (the bucket list of one trip).
    package init(noun: String, listing: String, store: String, scope: String = "") {
        self.noun = noun
        self.listing = listing
        key = "\(store) \(Model.self) \(scope)"
    }

    /// Records that a listing numbered `models` from 1, in this order.
    package func record(_ models: [Model]) {
        var records = Self.readRecords()
        records[key] = models.map(\.persistentModelID)
        Self.writeRecords(records)
    }

    /// The model that `argument`, a number, named in the last listing; `current` are the models as they are now.
    package func model(numbered argument: String?, in current: [Model]) throws -> Model {
        guard let argument else { throw UsageError("which \(noun)? Give its number from `\(listing)`") }
        guard let number = Int(argument), number > 0 else {
            throw UsageError(
                "'\(argument)' is not \(Self.article(noun)) \(noun) number; `\(listing)` shows the numbers")
        }
        guard let recorded = Self.readRecords()[key], !recorded.isEmpty else {
            guard number <= current.count else {
                throw Failure(
                    "there is no \(noun) \(number); the list has \(current.count) \(Self.plural(noun, current.count))")
            }
            return current[number - 1]
        }
        guard number <= recorded.count else {
            throw Failure(
                "there is no \(noun) \(number); `\(listing)` showed \(recorded.count) \(Self.plural(noun, recorded.count))"
            )
        }
        guard let model = current.first(where: { $0.persistentModelID == recorded[number - 1] }) else {
            throw Failure(
                "the \(noun) that `\(listing)` showed as \(number) is gone: it was deleted since; "
                    + "run `\(listing)` to see the list as it is now")
        }
        return model
    }

    /// "an" before a vowel, "a" otherwise.
    private static func article(_ noun: String) -> String {
        noun.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    private static func plural(_ noun: String, _ count: Int) -> String { count == 1 ? noun : noun + "s" }

    /// The file of the records, beside the default store.
    private static var file: URL { ModelConfiguration.defaultDirectory.appendingPathComponent("numbered-lists.json") }

    private static func readRecords() -> [String: [PersistentIdentifier]] {
        guard let data = try? Data(contentsOf: file) else { return [:] }
        // A damaged file is a lost record: numbers then count the current order.
        return (try? JSONDecoder().decode([String: [PersistentIdentifier]].self, from: data)) ?? [:]
    }

    private static func writeRecords(_ records: [String: [PersistentIdentifier]]) {
        guard let data = try? JSONEncoder().encode(records) else { return }
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Without the record, the next command counts the current order: worth no failure of this one.
        try? data.write(to: file, options: .atomic)
    }
}
