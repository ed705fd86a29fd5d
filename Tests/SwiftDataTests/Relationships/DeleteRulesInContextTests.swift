import SwiftData
import Testing

/// A project with tasks that go with it, and an owner who cannot be deleted while projects remain.
@Model final class ProjectOwner {
    var name: String
    @Relationship(deleteRule: .deny, inverse: \Project.owner) var projects: [Project] = []
    init(name: String) { self.name = name }
}

@Model final class Project {
    @Attribute(.unique) var name: String
    var owner: ProjectOwner?
    @Relationship(deleteRule: .cascade, inverse: \ProjectTask.project) var tasks: [ProjectTask] = []
    init(name: String) { self.name = name }
}

@Model final class ProjectTask {
    var title: String
    var project: Project?
    @Relationship(deleteRule: .cascade, inverse: \Subtask.task) var subtasks: [Subtask] = []
    init(title: String) { self.title = title }
}

@Model final class Subtask {
    var title: String
    var task: ProjectTask?
    init(title: String) { self.title = title }
}

/// Delete rules as the context sees them: cascades show before the save, `.deny` looks at what the save leaves,
/// and a saved delete leaves the deleted model related to nothing.
@Suite struct DeleteRulesInContextTests {
    let container: ModelContainer

    init() throws {
        container = try ModelContainer(
            for: ProjectOwner.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let owner = ProjectOwner(name: "Kim")
        for name in ["Garden", "Kitchen"] {
            let project = Project(name: name)
            project.owner = owner
            for index in 1...3 {
                let task = ProjectTask(title: "\(name) \(index)")
                task.subtasks = [Subtask(title: "\(name) \(index).a")]
                project.tasks.append(task)
            }
        }
        context.insert(owner)
        try context.save()
    }

    private func project(_ name: String, in context: ModelContext) throws -> Project {
        try #require(try context.fetch(FetchDescriptor<Project>(predicate: #Predicate { $0.name == name })).first)
    }

    @Test func cascadesShowBeforeTheSave() throws {
        let context = ModelContext(container)
        let garden = try project("Garden", in: context)
        context.delete(garden)
        #expect(try context.fetchCount(FetchDescriptor<ProjectTask>()) == 3, "the garden's tasks are gone")
        #expect(try context.fetchCount(FetchDescriptor<Subtask>()) == 3, "and their subtasks, at any depth")
        #expect(try context.fetch(FetchDescriptor<ProjectTask>()).allSatisfy { $0.title.hasPrefix("Kitchen") })
        #expect(context.deletedModelsArray.count == 7)
        var stored = FetchDescriptor<ProjectTask>()
        stored.includePendingChanges = false
        #expect(try context.fetchCount(stored) == 6, "the store is unchanged until the save")
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Subtask>()) == 3)
    }

    @Test func batchDeleteCascadesBeforeTheSave() throws {
        let context = ModelContext(container)
        try context.delete(model: Project.self, where: #Predicate { $0.name == "Kitchen" })
        #expect(try context.fetch(FetchDescriptor<ProjectTask>()).allSatisfy { $0.title.hasPrefix("Garden") })
        #expect(try context.fetchCount(FetchDescriptor<Subtask>()) == 3)
        #expect(context.hasChanges)
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Project>()).map(\.name) == ["Garden"])
        #expect(try fresh.fetchCount(FetchDescriptor<Subtask>()) == 3)
    }

    @Test func aTaskMovedAwayBeforeTheDeleteStays() throws {
        let context = ModelContext(container)
        let garden = try project("Garden", in: context)
        let kitchen = try project("Kitchen", in: context)
        let moved = garden.tasks[0]
        moved.project = kitchen
        try context.delete(model: Project.self, where: #Predicate { $0.name == "Garden" })
        #expect(!moved.isDeleted)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<ProjectTask>()).map(\.title).sorted()
        #expect(stored == ["Garden 1", "Kitchen 1", "Kitchen 2", "Kitchen 3"])
    }

    @Test func denyRefusesOnlyWhileARelatedModelRemains() throws {
        let context = ModelContext(container)
        let owner = try #require(try context.fetch(FetchDescriptor<ProjectOwner>()).first)
        context.delete(owner)
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<ProjectOwner>()) == 1, "nothing was written")
        // Deleting the related projects too, in the same save, leaves nothing the rule protects.
        for project in owner.projects { context.delete(project) }
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<ProjectOwner>()) == 0)
        #expect(try fresh.fetchCount(FetchDescriptor<Project>()) == 0)
        #expect(try fresh.fetchCount(FetchDescriptor<ProjectTask>()) == 0)
    }

    @Test func denyCountsModelsTheSaveInserts() throws {
        let context = ModelContext(container)
        let owner = try #require(try context.fetch(FetchDescriptor<ProjectOwner>()).first)
        for project in owner.projects { context.delete(project) }
        context.delete(owner)
        let late = Project(name: "Attic")
        context.insert(late)
        late.owner = owner
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        late.owner = nil
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Project>()).map(\.name) == ["Attic"])
        #expect(try fresh.fetchCount(FetchDescriptor<ProjectOwner>()) == 0)
    }

    @Test func aSavedDeleteLeavesTheModelRelatedToNothing() throws {
        let context = ModelContext(container)
        let garden = try project("Garden", in: context)
        let task = garden.tasks[0]
        #expect(task.project === garden)
        context.delete(garden)
        try context.save()
        #expect(garden.tasks.isEmpty)
        #expect(garden.owner == nil)
        #expect(task.project == nil && task.subtasks.isEmpty)
        #expect(garden.name == "Garden", "attributes keep their values")
        #expect(garden.modelContext == nil)
    }

    @Test func batchDeleteThenInsertWithTheSameUniqueValues() throws {
        let context = ModelContext(container)
        let registered = try project("Garden", in: context)
        try context.delete(model: Project.self)
        let garden = Project(name: "Garden")
        garden.tasks = [ProjectTask(title: "New garden task")]
        context.insert(garden)
        #expect(!garden.isDeleted, "a model inserted after the delete is never affected by it")
        #expect(registered.isDeleted)
        #expect(try context.fetch(FetchDescriptor<Project>()).map(\.name) == ["Garden"])
        #expect(try context.fetch(FetchDescriptor<ProjectTask>()).map(\.title) == ["New garden task"])
        try context.save()
        #expect(garden.modelContext == context && !garden.isDeleted)
        let fresh = ModelContext(container)
        let projects = try fresh.fetch(FetchDescriptor<Project>())
        #expect(projects.map(\.name) == ["Garden"])
        #expect(projects.first?.tasks.map(\.title) == ["New garden task"])
        #expect(projects.first?.owner == nil)
        #expect(try fresh.fetchCount(FetchDescriptor<Subtask>()) == 0)
        #expect(try fresh.fetchCount(FetchDescriptor<ProjectOwner>()) == 1)
    }

    @Test func batchDeleteActsOnTheModelsOfTheContextToo() throws {
        let context = ModelContext(container)
        let unsaved = Project(name: "Shed")
        context.insert(unsaved)
        let kitchen = try project("Kitchen", in: context)
        kitchen.name = "Old kitchen"
        try context.delete(model: Project.self, where: #Predicate { $0.name.starts(with: "Old") || $0.name == "Shed" })
        #expect(kitchen.isDeleted, "a registered model that matches with its unsaved values")
        #expect(unsaved.modelContext == nil, "an inserted model that matches is not inserted")
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Project>()).map(\.name) == ["Garden"])
    }
}
