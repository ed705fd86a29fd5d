// todo: the ToDo seed app as a terminal program, on the default store
// ($XDG_DATA_HOME/todo/default.store).
import Foundation
import SwiftData

let usage = """
    usage: todo                                         on a terminal: the interactive list
           todo [list]                                  show the list, highest priority first
           todo add <name> [--priority low|normal|high] add an item (normal priority by default)
           todo toggle <number>                         mark an item done, or not done
           todo delete <number>                         remove an item
    """

/// A mistake in how the program was called: reported with the usage text.
struct UsageError: Error { let message: String }
/// Any other failure, reported as is.
struct Failure: Error { let message: String }

/// The items in the order the list shows them: the seed's `@Query(sort: \ToDoItem.priorityNum, order: .reverse)`.
@MainActor func items(in context: ModelContext) throws -> [ToDoItem] {
    try context.fetch(FetchDescriptor<ToDoItem>(sortBy: [SortDescriptor(\.priorityNum, order: .reverse)]))
}

@MainActor func item(numbered argument: String?, in context: ModelContext) throws -> ToDoItem {
    guard let argument else { throw UsageError(message: "which item? Give its number from `todo list`") }
    guard let number = Int(argument), number > 0 else {
        throw UsageError(message: "'\(argument)' is not an item number")
    }
    let all = try items(in: context)
    guard number <= all.count else {
        throw Failure(message: "there is no item \(number); the list has \(all.count) item\(all.count == 1 ? "" : "s")")
    }
    return all[number - 1]
}

@MainActor func printList(_ context: ModelContext) throws {
    let all = try items(in: context)
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

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

@MainActor func run(_ arguments: [String]) throws {
    let container = try ModelContainer(for: ToDoItem.self)
    let context = container.mainContext
    if arguments.isEmpty, isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 {
        context.undoManager = UndoManager()
        try ListScreen(context: context).run()
    }
    switch arguments.first {
    case nil, "list":
        guard arguments.count <= 1 else { throw UsageError(message: "list takes no arguments") }
        try printList(context)
    case "add":
        var name: String?
        var priority = Priority.normal
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--priority" || argument == "-p" {
                guard let value = rest.popFirst(), let parsed = Priority(label: value) else {
                    throw UsageError(message: "--priority takes low, normal or high")
                }
                priority = parsed
            } else if name == nil, !argument.hasPrefix("-") {
                name = argument
            } else {
                throw UsageError(message: "unexpected argument '\(argument)'")
            }
        }
        guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError(message: "add needs the item's name")
        }
        context.insert(ToDoItem(name: name, priority: priority))
        try context.save()
        try printList(context)
    case "toggle":
        guard arguments.count == 2 else { throw UsageError(message: "toggle takes one item number") }
        try item(numbered: arguments[1], in: context).isComplete.toggle()
        try context.save()
        try printList(context)
    case "delete":
        guard arguments.count == 2 else { throw UsageError(message: "delete takes one item number") }
        context.delete(try item(numbered: arguments[1], in: context))
        try context.save()
        try printList(context)
    case "help", "--help", "-h":
        print(usage)
    case let command?:
        throw UsageError(message: "unknown command '\(command)'")
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("todo: \(error.message)\n\(usage)\n".utf8))
    exit(2)
} catch let error as Failure {
    FileHandle.standardError.write(Data("todo: \(error.message)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("todo: \(error)\n".utf8))
    exit(1)
}
