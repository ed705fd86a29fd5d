// users: the User CRUD tutorial as a terminal program, on the default store ($XDG_DATA_HOME/users/default.store).
import ExampleSupport
import Foundation
import SwiftData

let usage = """
    usage: users [list]                               the users, by name, numbered
           users add [--name <name>] [--email <email>]
                                                      add one; the form asks for what is not given
           users edit <number> [--name <name>] [--email <email>]
                                                      change one; without options, the form asks again
           users delete <number>                      remove one
    The numbers are those the last list showed: a later add or rename does not move them.
    Every command takes \(ExampleStore.usage).
    """

@MainActor func users(in context: ModelContext) throws -> [User] {
    try context.fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name), SortDescriptor(\.email)]))
}

/// The list's numbers, as the last `users list` showed them.
@MainActor func numbers(_ store: ExampleStore) -> NumberedList<User> {
    NumberedList(noun: "user", listing: "users list", store: store.name)
}

@MainActor func user(numbered argument: String?, in context: ModelContext, store: ExampleStore) throws -> User {
    try numbers(store).model(numbered: argument, in: try users(in: context))
}

func describe(_ user: User) -> String { "\(user.name) <\(user.email)>" }

/// A name and an email address as the form or the options give them, checked before they reach a model.
func checked(name: String, email: String) throws -> (name: String, email: String) {
    guard !name.isEmpty else { throw Failure("a user needs a name") }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !email.contains(" ") else {
        throw Failure("'\(email)' is not an email address")
    }
    return (name, email)
}

@MainActor func run(_ arguments: [String]) throws {
    let (store, arguments) = try ExampleStore.split(arguments)
    let context = try store.container(for: User.self).mainContext
    let command = arguments.first
    let rest = arguments.dropFirst()
    switch command {
    case nil, "list":
        guard rest.isEmpty else { throw UsageError("list takes no arguments") }
        let all = try users(in: context)
        numbers(store).record(all)
        if all.isEmpty { print("No users. Add one with: users add") }
        let width = String(all.count).count
        for (index, user) in all.enumerated() { print("\(String(index + 1).leftPadded(to: width)) \(describe(user))") }
    case "add":
        let words = try Arguments(rest, options: ["name", "email"])
        guard words.positional.isEmpty else { throw UsageError("add takes --name and --email, or asks for them") }
        let form = Form()
        let name = try words.options["name"] ?? form.ask("Name")
        let email = try words.options["email"] ?? form.ask("Email")
        let values = try checked(name: name, email: email)
        // The tutorial's save button.
        let newUser = User(name: values.name, email: values.email)
        context.insert(newUser)
        try context.saveOrDiscard()
        print("Added \(describe(newUser)).")
    case "edit":
        let words = try Arguments(rest, options: ["name", "email"])
        let user = try user(numbered: try words.single("user number"), in: context, store: store)
        var name = words.options["name"] ?? user.name
        var email = words.options["email"] ?? user.email
        if words.options.isEmpty {
            let form = Form()
            name = try form.ask("Name", current: user.name)
            email = try form.ask("Email", current: user.email)
        }
        let values = try checked(name: name, email: email)
        // Editing is assigning, as in the tutorial: the context sees the change and the save stores it.
        user.name = values.name
        user.email = values.email
        try context.saveOrDiscard()
        print("Saved \(describe(user)).")
    case "delete":
        let user = try user(numbered: try Arguments(rest).single("user number"), in: context, store: store)
        context.delete(user)
        try context.saveOrDiscard()
        print("Deleted \(describe(user)).")
    case "help", "--help", "-h":
        print(usage)
    case let command?:
        throw UsageError("unknown command '\(command)'")
    }
}

Program.run("users", usage: usage, run)
