import Testing

@testable import SwiftDataCore

/// `ModelList` hands back the models it gathered as an array of their class, in order.
@Suite struct ModelListTests {
    class Animal {
        let number: Int
        init(_ number: Int) { self.number = number }
    }
    final class Dog: Animal {}

    @Test func givesBackEveryModelInOrder() {
        var list = ModelList()
        let animals = (0..<1_000).map { $0 % 3 == 0 ? Dog($0) : Animal($0) }
        for animal in animals { list.append(animal) }
        #expect(list.count == 1_000)
        let models = list.models(of: Animal.self)
        #expect(models.count == 1_000)
        #expect(zip(models, animals).allSatisfy { $0 === $1 })
        #expect(models.filter { $0 is Dog }.count == 334)
    }

    /// A list made with room for some models gathers fewer or more as any other.
    @Test func givesBackWhatItGatheredWhateverItsCapacity() {
        for count in [0, 3, 10, 25] {
            var list = ModelList(capacity: 10)
            for number in 0..<count { list.append(Dog(number)) }
            #expect(list.count == count)
            #expect(list.models(of: Dog.self).map(\.number) == Array(0..<count))
        }
        #expect(ModelList().models(of: Dog.self).isEmpty)
    }

    /// The array it hands over is an ordinary `[T]`: it grows, shrinks and copies on write.
    @Test func handsOverAnArrayThatChangesAsAnyOther() {
        var list = ModelList()
        for number in 0..<100 { list.append(Dog(number)) }
        var dogs = list.models(of: Dog.self)
        let copy = dogs
        for number in 100..<1_000 { dogs.append(Dog(number)) }
        dogs.removeFirst(10)
        dogs.sort { $0.number > $1.number }
        #expect(dogs.map(\.number) == Array((10..<1_000).reversed()))
        #expect(copy.map(\.number) == Array(0..<100))
        #expect(list.count == 100)
        let animals: [Animal] = list.models(of: Animal.self)
        #expect(animals.map(\.number) == Array(0..<100))
    }

    /// The array it builds holds its models as any array does: they live while it does, and go away after.
    @Test func holdsTheModelsItGathered() {
        weak var gone: Animal?
        do {
            var models: [Animal] = []
            do {
                var list = ModelList()
                let animal = Animal(1)
                gone = animal
                list.append(animal)
                models = list.models(of: Animal.self)
            }
            #expect(gone != nil)
            #expect(models.first?.number == 1)
        }
        #expect(gone == nil)
    }
}
