// todo: the ToDo seed app as a terminal program, on the default store
// ($XDG_DATA_HOME/todo/default.store).
import ExampleSupport
import Foundation
import SwiftData

let usage = """
    usage: todo                                         on a terminal: the interactive list
           todo [list]                                  show the list, highest priority first
           todo add <name> [--priority low|normal|high] add an item (normal priority by default)
           todo toggle <number>                         mark an item done, or not done
           todo delete <number>                         remove an item
    The numbers are those the last list showed: a later add or change does not move them.
    Every command takes \(ExampleStore.usage).
    """

/// The items in the order the list shows them: the seed's `@Query(sort: \ToDoItem.priorityNum, order: .reverse)`.
@MainActor func items(in context: ModelContext) throws -> [ToDoItem] {
    try context.fetch(FetchDescriptor<ToDoItem>(sortBy: [SortDescriptor(\.priorityNum, order: .reverse)]))
}

/// The list's numbers, as the last `todo list` (or a command that prints the list) showed them.
@MainActor func numbers(_ store: ExampleStore) -> NumberedList<ToDoItem> {
    NumberedList(noun: "item", listing: "todo list", store: store.name)
}

@MainActor func item(numbered argument: String?, in context: ModelContext, store: ExampleStore) throws -> ToDoItem {
    try numbers(store).model(numbered: argument, in: try items(in: context))
}

@MainActor func printList(_ context: ModelContext, store: ExampleStore) throws {
    let all = try items(in: context)
    numbers(store).record(all)
    guard !all.isEmpty else {
        print("Nothing to do. Add something with: todo add \"Buy milk\"")
        return
    }
    let isTerminal = isatty(STDOUT_FILENO) != 0
    let width = String(all.count).count
    for (index, item) in all.enumerated() {
        let number = String(index + 1).leftPadded(to: width)
        let mark = item.isComplete ? "✓" : "○"
        let priority = isTerminal ? item.priority.dot : "(\(item.priority.label))"
        let name = isTerminal && item.isComplete ? "\u{1B}[9m\(item.name)\u{1B}[0m" : item.name
        print("\(number) \(mark) \(name) \(priority)")
    }
}

extension Priority {
    var label: String {
        switch self {
        case .high: "high"
        case .normal: "normal"
        case .low: "low"
        }
    }

    /// A dot in the seed's colours: red, orange, green.
    var dot: String {
        switch self {
        case .high: "\u{1B}[31m●\u{1B}[0m"
        case .normal: "\u{1B}[33m●\u{1B}[0m"
        case .low: "\u{1B}[32m●\u{1B}[0m"
        }
    }

    init?(label: String) {
        switch label.lowercased() {
        case "high": self = .high
        case "normal": self = .normal
        case "low": self = .low
        default: return nil
        }
    }
}

@MainActor func run(_ arguments: [String]) throws {
    let (store, arguments) = try ExampleStore.split(arguments)
    let container = try store.container(for: ToDoItem.self)
    let context = container.mainContext
    if arguments.isEmpty, isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 {
        context.undoManager = UndoManager()
        try ListScreen(context: context).run()
    }
    switch arguments.first {
    case nil, "list":
        guard arguments.count <= 1 else { throw UsageError("list takes no arguments") }
        try printList(context, store: store)
    case "add":
        var name: String?
        var priority = Priority.normal
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--priority" || argument == "-p" {
                guard let value = rest.popFirst(), let parsed = Priority(label: value) else {
                    throw UsageError("--priority takes low, normal or high")
                }
                priority = parsed
            } else if name == nil, !argument.hasPrefix("-") {
                name = argument
            } else {
                throw UsageError("unexpected argument '\(argument)'")
            }
        }
        guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("add needs the item's name")
        }
        context.insert(ToDoItem(name: name, priority: priority))
        try context.saveOrDiscard()
        try printList(context, store: store)
    case "toggle":
        guard arguments.count == 2 else { throw UsageError("toggle takes one item number") }
        try item(numbered: arguments[1], in: context, store: store).isComplete.toggle()
        try context.saveOrDiscard()
        try printList(context, store: store)
    case "delete":
        guard arguments.count == 2 else { throw UsageError("delete takes one item number") }
        context.delete(try item(numbered: arguments[1], in: context, store: store))
        try context.saveOrDiscard()
        try printList(context, store: store)
    case "help", "--help", "-h":
        print(usage)
    case let command?:
        throw UsageError("unknown command '\(command)'")
    }
}

Program.run("todo", usage: usage, run)
