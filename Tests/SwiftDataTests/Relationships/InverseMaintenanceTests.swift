import Foundation
import SwiftData
import Testing

@testable import ExampleModels

/// Both sides of a relationship change together, in memory, at once.
@Suite struct InverseMaintenanceTests {
    @Test func settingTheToOneSideUpdatesTheToManySide() {
        let mammals = AnimalCategory(name: "Mammal")
        let birds = AnimalCategory(name: "Bird")
        let dog = Animal(name: "Dog", diet: .carnivorous)
        dog.category = mammals
        #expect(mammals.animals.map(\.name) == ["Dog"])
        dog.category = birds
        #expect(mammals.animals.isEmpty)
        #expect(birds.animals.map(\.name) == ["Dog"])
        dog.category = nil
        #expect(birds.animals.isEmpty)
    }

    @Test func changingTheToManySideUpdatesTheToOneSide() {
        let mammals = AnimalCategory(name: "Mammal")
        let birds = AnimalCategory(name: "Bird")
        let cat = Animal(name: "Cat", diet: .carnivorous)
        let cow = Animal(name: "Cow", diet: .herbivorous)
        mammals.animals.append(cat)
        mammals.animals.append(cow)
        #expect(cat.category === mammals && cow.category === mammals)
        birds.animals = [cow]
        #expect(cow.category === birds)
        #expect(mammals.animals.map(\.name) == ["Cat"], "a model moved to another owner leaves the first")
        mammals.animals.removeAll()
        #expect(cat.category == nil)
    }

    @Test func manyToManyKeepsBothArraysInStep() {
        let ann = Student(name: "Ann")
        let bob = Student(name: "Bob")
        let math = Course(title: "Math")
        let art = Course(title: "Art")
        ann.courses = [math, art]
        bob.courses.append(math)
        #expect(math.students.map(\.name) == ["Ann", "Bob"])
        #expect(art.students.map(\.name) == ["Ann"])
        math.students.removeAll { $0 === ann }
        #expect(ann.courses.map(\.title) == ["Art"])
    }

    @Test func oneToOneMovesTheOtherSide() {
        let ann = Person(name: "Ann")
        let bob = Person(name: "Bob")
        let passport = Passport(number: "X1")
        ann.passport = passport
        #expect(passport.holder === ann)
        passport.holder = bob
        #expect(bob.passport === passport)
        #expect(ann.passport == nil)
    }

    @Test func twoRelationshipsBetweenTheSameModels() {
        let ann = Person(name: "Ann")
        let bob = Person(name: "Bob")
        let hello = Message(text: "hello")
        hello.sender = ann
        hello.recipient = bob
        #expect(ann.sent.map(\.text) == ["hello"] && ann.received.isEmpty)
        #expect(bob.received.map(\.text) == ["hello"] && bob.sent.isEmpty)
    }

    @Test func selfReferentialTree() {
        let root = Node(name: "root")
        let child = Node(name: "child", parent: root)
        let grandchild = Node(name: "grandchild")
        child.children.append(grandchild)
        #expect(root.children.map(\.name) == ["child"])
        #expect(grandchild.parent === child)
    }

    @Test(arguments: StoreKind.all) func insertingAModelInsertsEverythingNewItReaches(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(AnimalCategory.self, Node.self))
        let mammals = AnimalCategory(name: "Mammal")
        mammals.animals = [Animal(name: "Dog", diet: .carnivorous), Animal(name: "Cow", diet: .herbivorous)]
        context.insert(mammals)
        #expect(context.insertedModelsArray.count == 3)
        let root = Node(name: "root")
        context.insert(root)
        _ = Node(name: "late", parent: root)
        #expect(
            context.insertedModelsArray.count == 5, "a model that joins a managed model's relationship is inserted too")
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Animal>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Node>()) == 2)
    }

    @Test func observersSeeTheInverseChange() {
        let mammals = AnimalCategory(name: "Mammal")
        let fired = Flag()
        withObservationTracking {
            _ = mammals.animals
        } onChange: {
            fired.set()
        }
        Animal(name: "Dog", diet: .carnivorous).category = mammals
        #expect(fired.isSet)
    }
}
