import Foundation
import Testing

/// The `users` example, run as a user runs it.
@Suite struct UsersExampleTests {
    let users = ExampleRunner(program: "users")

    func output(_ arguments: String..., input: String = "") throws -> String {
        let result = try users.run(arguments: arguments, input: input)
        #expect(result.status == 0, "users \(arguments.joined(separator: " ")): \(result.errors)")
        #expect(result.errors.isEmpty, "\(result.errors)")
        return result.output
    }

    @Test func addEditAndDeleteThroughOptionsPersist() throws {
        #expect(try output() == "No users. Add one with: users add\n")
        #expect(
            try output("add", "--name", "Taylor", "--email", "taylor@example.com")
                == "Added Taylor <taylor@example.com>.\n")
        #expect(
            try output("add", "--email", "avery@example.com", "--name", "Avery") == "Added Avery <avery@example.com>.\n"
        )
        #expect(try output("list") == "1 Avery <avery@example.com>\n2 Taylor <taylor@example.com>\n")

        #expect(try output("edit", "2", "--email", "taylor@example.org") == "Saved Taylor <taylor@example.org>.\n")
        #expect(try output("edit", "1", "--name", "Zoe") == "Saved Zoe <avery@example.com>.\n")
        #expect(try output() == "1 Taylor <taylor@example.org>\n2 Zoe <avery@example.com>\n", "sorted by name")

        #expect(try output("delete", "1") == "Deleted Taylor <taylor@example.org>.\n")
        #expect(try output() == "1 Zoe <avery@example.com>\n")
        let store = users.dataHome.url.appendingPathComponent("users/default.store")
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    /// A rename moves a user in the sorted list, but not the number the last list showed: `delete 1` still deletes
    /// the user listed as 1.
    @Test func aRenameDoesNotMoveTheNumbers() throws {
        _ = try output("add", "--name", "Avery", "--email", "avery@example.com")
        _ = try output("add", "--name", "Blake", "--email", "blake@example.com")
        #expect(try output() == "1 Avery <avery@example.com>\n2 Blake <blake@example.com>\n")
        #expect(try output("edit", "1", "--name", "Zoe") == "Saved Zoe <avery@example.com>.\n")
        #expect(try output("delete", "1") == "Deleted Zoe <avery@example.com>.\n")
        #expect(try output() == "1 Blake <blake@example.com>\n")
    }

    /// Not on a terminal, the form reads one line per field, without prompts; an empty line keeps a value when editing.
    @Test func theFormReadsStandardInput() throws {
        #expect(try output("add", input: "Robin\nrobin@example.com\n") == "Added Robin <robin@example.com>.\n")
        #expect(try output("add", "--name", "Sam", input: "sam@example.com\n") == "Added Sam <sam@example.com>.\n")
        #expect(try output("edit", "1", input: "\nrobin@example.org\n") == "Saved Robin <robin@example.org>.\n")
        #expect(try output("edit", "2", input: "Samuel\n\n") == "Saved Samuel <sam@example.com>.\n")
        #expect(try output() == "1 Robin <robin@example.org>\n2 Samuel <sam@example.com>\n")

        let cut = try users.run(arguments: ["add"], input: "Kim\n")
        #expect(cut.status == 1 && cut.errors == "users: the form ended before the email was given\n")
        #expect(try output() == "1 Robin <robin@example.org>\n2 Samuel <sam@example.com>\n", "nothing was added")
    }

    /// On a terminal the form prompts for each field, showing the value an empty answer keeps.
    @Test func theFormPromptsOnATerminal() throws {
        let added = try users.runOnTerminal(arguments: ["add"], input: "Robin\nrobin@example.com\n")
        try #require(added.status == 0, "needs util-linux's script: \(added.shown)")
        #expect(added.shown.contains("Name: ") && added.shown.contains("Email: "), "\(added.shown)")
        #expect(added.shown.contains("Added Robin <robin@example.com>."), "\(added.shown)")

        let edited = try users.runOnTerminal(arguments: ["edit", "1"], input: "\nrobin@example.org\n")
        #expect(edited.status == 0)
        #expect(edited.shown.contains("Name [Robin]: "), "\(edited.shown)")
        #expect(edited.shown.contains("Email [robin@example.com]: "), "\(edited.shown)")
        #expect(edited.shown.contains("Saved Robin <robin@example.org>."), "\(edited.shown)")
    }

    @Test func badInputGetsAClearMessageAndChangesNothing() throws {
        for arguments in [
            ["bogus"], ["list", "x"], ["add", "Taylor"], ["add", "--colour", "red"], ["edit"], ["edit", "x"],
            ["delete"], ["delete", "1", "2"], ["add", "--name"],
        ] {
            let result = try users.run(arguments: arguments)
            #expect(result.status == 2, "users \(arguments.joined(separator: " "))")
            #expect(result.errors.contains("usage: users"), "users \(arguments.joined(separator: " "))")
        }
        for (arguments, message) in [
            (["add", "--name", "", "--email", "a@b"], "a user needs a name"),
            (["add", "--name", "Kim", "--email", "kim"], "'kim' is not an email address"),
            (["add", "--name", "Kim", "--email", "kim@"], "'kim@' is not an email address"),
            (["edit", "3", "--name", "Kim"], "there is no user 3; the list has 0 users"),
            (["delete", "1"], "there is no user 1; the list has 0 users"),
        ] {
            let result = try users.run(arguments: arguments)
            #expect(result.status == 1, "users \(arguments.joined(separator: " "))")
            #expect(result.errors == "users: \(message)\n")
        }
        #expect(try output("add", "--name", "Kim", "--email", "kim@example.com") == "Added Kim <kim@example.com>.\n")
        let refused = try users.run("edit", "1", "--email", "not an address")
        #expect(refused.status == 1 && refused.errors == "users: 'not an address' is not an email address\n")
        #expect(try output() == "1 Kim <kim@example.com>\n", "a refused edit leaves the user as it was")
    }
}
