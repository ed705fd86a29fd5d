import Foundation
import Testing

/// The interactive `todo`, driven through a pseudo-terminal of the test's own as a user drives it, with a second
/// `todo` process changing the same store.
@Suite struct TodoInteractiveTests {
    let example = ExampleRunner(program: "todo")

    /// The item lines of the screen, trimmed.
    func items(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("○") || $0.hasPrefix("✓") }
    }

    @Test func theListIsDrivenByKeysAndFollowsOtherProcesses() throws {
        let terminal = try PseudoTerminal(
            program: example.path, environment: ["XDG_DATA_HOME": example.dataHome.url.path])

        #expect(try terminal.screen(until: "the empty list") { $0.contains("Nothing to do") }.contains("0 items"))
        #expect(terminal.screen.isAlternate, "the list takes the whole screen")

        try terminal.type("a")
        try terminal.screen(until: "the name prompt") { $0.contains("New item:") }
        try terminal.type("Walk the dog\r")
        try terminal.screen(until: "the priority prompt") { $0.contains("Priority of Walk the dog") }
        try terminal.press(.enter)
        try terminal.screen(until: "the first item") { items($0).count == 1 }
        try terminal.type("a")
        try terminal.screen(until: "the name prompt") { $0.contains("New item:") }
        try terminal.type("Buy milk\r")
        try terminal.screen(until: "the priority prompt") { $0.contains("Priority of Buy milk") }
        try terminal.type("h")
        #expect(
            items(try terminal.screen(until: "two items") { items($0).count == 2 })
                == ["○ Buy milk ●", "○ Walk the dog ●"], "high priority first")

        try terminal.press(.down)
        try terminal.type(" ")
        #expect(
            items(try terminal.screen(until: "one item done") { $0.contains("1 done") })
                == ["○ Buy milk ●", "✓ Walk the dog ●"])

        try terminal.press(.up)
        try terminal.type("d")
        #expect(items(try terminal.screen(until: "one item left") { items($0).count == 1 }) == ["✓ Walk the dog ●"])
        try terminal.type("u")
        #expect(
            items(try terminal.screen(until: "the deleted item back") { items($0).count == 2 })
                == ["○ Buy milk ●", "✓ Walk the dog ●"], "undo brings it back")

        // Another process adds an item: the screen shows it without a key press.
        #expect(try example.run("add", "Read a book", "--priority", "low").status == 0)
        #expect(
            items(try terminal.screen(until: "the item another process added") { items($0).count == 3 }).last
                == "○ Read a book ●")
        #expect(try example.run("toggle", "3").status == 0)
        #expect(
            items(try terminal.screen(until: "the item another process toggled") { $0.contains("2 done") }).last
                == "✓ Read a book ●")

        try terminal.type("q")
        #expect(try terminal.waitForExit() == 0)
        #expect(!terminal.screen.isAlternate, "q leaves the full-screen list")
        #expect(!terminal.screen.text.contains("To Do"))
        #expect(
            try example.run("list").output == "1 ○ Buy milk (high)\n2 ✓ Walk the dog (normal)\n3 ✓ Read a book (low)\n")
    }

    /// An item the store refuses is dropped from the list, with the reason in words at the bottom of the screen, and
    /// nothing more is reported when the program ends.
    @Test func aFailedSaveIsShownInWords() throws {
        #expect(try example.run("add", "first").status == 0)
        try sqlite(
            example.dataHome.url.appendingPathComponent("todo/default.store"),
            "CREATE TRIGGER refuse BEFORE INSERT ON ToDoItem BEGIN SELECT RAISE(ABORT, 'inserts refused'); END")
        let terminal = try PseudoTerminal(
            program: example.path, environment: ["XDG_DATA_HOME": example.dataHome.url.path])
        try terminal.screen(until: "the list") { items($0).count == 1 }
        try terminal.type("a")
        try terminal.screen(until: "the name prompt") { $0.contains("New item:") }
        try terminal.type("second\r")
        try terminal.screen(until: "the priority prompt") { $0.contains("Priority of second") }
        try terminal.press(.enter)
        let screen = try terminal.screen(until: "the failure") { $0.contains("Could not save:") }
        let line = screen.split(separator: "\n").first { $0.contains("Could not save:") } ?? ""
        #expect(line.contains("inserts refused") && !line.contains("SwiftDataError"), "\(line)")
        #expect(items(screen) == ["○ first ●"], "the refused item is dropped")
        try terminal.type("q")
        #expect(try terminal.waitForExit() == 0)
        #expect(terminal.screen.text.isEmpty, "nothing more is reported: \(terminal.screen.text)")
    }
}
