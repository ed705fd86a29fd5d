import SwiftData

enum Priority: Int {
    case low = 0
    case normal = 1
    case high = 2
}

@Model class ToDoItem: Identifiable {
    var id: UUID
    var name: String

    @Transient var priority: Priority {
        get {
            return Priority(rawValue: Int(priorityNum)) ?? .normal
        }

        set {
            self.priorityNum = Int(newValue.rawValue)
        }
    }
    @Attribute(originalName: "priority") var priorityNum: Priority.RawValue

    var isComplete: Bool

    init(id: UUID = UUID(), name: String = "", priority: Priority = .normal, isComplete: Bool = false) {
        self.id = id
        self.name = name
        self.priority = priority
        self.isComplete = isComplete
    }
}

@MainActor func run() throws {
    let url = URL(fileURLWithPath: "/tmp/smoke/todo.store")
    let container = try ModelContainer(for: ToDoItem.self, configurations: ModelConfiguration(url: url))
    let context = container.mainContext
    if CommandLine.arguments.count > 1 {
        context.insert(ToDoItem(name: CommandLine.arguments[1], priority: .high))
        try context.save()
    }
    let items = try context.fetch(FetchDescriptor<ToDoItem>(sortBy: [SortDescriptor(\.priorityNum, order: .reverse)]))
    for item in items { print(item.name, item.priority, item.isComplete, item.persistentModelID) }
    let high = try context.fetch(FetchDescriptor<ToDoItem>(predicate: #Predicate { $0.priorityNum == 2 && !$0.isComplete }))
    print("high:", high.count)
}
try run()
