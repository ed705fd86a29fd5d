import Testing

@testable import SwiftDataCore

/// The identity map's hash table agrees with a dictionary through random inserts, replacements and removals, as it
/// grows and shrinks; a model leaves it when it is forgotten or when it goes away.
@Suite struct IdentityMapTests {
    @Test func agreesWithADictionary() {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SplitMix(seed: seed)
        let map = IdentityMap()
        var reference: [Int64: HandWrittenNote] = [:]
        for step in 0..<60_000 {
            // Keys come in runs, as primary keys do, and sometimes from anywhere.
            let key = random.next() % 4 == 0 ? Int64(random.next() % 1_000_000) : Int64(step / 3 % 5_000)
            switch step % 20_000 == 19_999 ? 9 : random.next() % 9 {
            case 0..<5:
                let model = HandWrittenNote(title: "")
                // Registered as a context registers it: its state knows the map, and tells it when the model goes.
                model._$persistentState.key = key
                model._$persistentState.identityMap = map
                if reference[key] == nil, random.next() % 2 == 0 {
                    // As a fetch registers a new row: the state takes its position with its other fields, and the
                    // map appends the model without touching the state.
                    model._$persistentState.identityPosition = map.nextPosition
                    map.append(model, for: key)
                } else {
                    map.set(model, for: key)
                }
                reference[key] = model
            case 5..<8:
                if let model = reference[key] {
                    // Forgotten explicitly (as a detached model), or by going away (its state's `deinit`).
                    if random.next() % 2 == 0 { map.forget(model) }
                    reference[key] = nil
                }
            case 8:
                map.forget(HandWrittenNote(title: ""))  // a model not in the map: nothing changes
            default:
                // Removes most entries at once, so the table shrinks; most by letting their models go.
                for key in reference.keys.filter({ _ in random.next() % 8 != 0 }) {
                    if random.next() % 4 == 0 { map.forget(reference[key]!) }
                    reference[key] = nil
                }
            }
            if step % 997 == 0 {
                #expect(map.count == reference.count, "seed \(seed)")
                #expect(Set(map.keys) == Set(reference.keys), "seed \(seed)")
                #expect(map.models().count == reference.count, "seed \(seed)")
            }
            #expect(map.model(key) === reference[key], "seed \(seed), step \(step)")
        }
        for (key, model) in reference { #expect(map.model(key) === model, "seed \(seed)") }
        #expect(map.models().count == reference.count)
    }

    /// A model that leaves frees its entry, which the next model registered takes; the other models keep their
    /// positions. A free entry holds the position of the next free one where a model's key would be: a model going
    /// away with that key and position does not take it for its own.
    @Test func aFreedEntryIsTakenByTheNextModelAndNeverMistakenForAModel() {
        let map = IdentityMap()
        var models: [HandWrittenNote] = []
        for key in Int64(0)..<4 {
            let model = HandWrittenNote(title: "")
            model._$persistentState.key = key
            model._$persistentState.identityMap = map
            model._$persistentState.identityPosition = map.nextPosition
            map.append(model, for: key)
            models.append(model)
        }
        #expect(models.map { $0._$persistentState.identityPosition } == [0, 1, 2, 3])
        map.forget(models[1])
        map.forget(models[2])
        #expect(map.count == 2)
        #expect(map.nextPosition == 2, "the entry freed last is taken first")
        // Entry 2 is free and holds the position of the next free entry, 1: not a model with the key 1.
        map.forgetGone(at: 2, key: 1)
        #expect(map.count == 2)
        #expect(map.model(0) === models[0] && map.model(3) === models[3])
        #expect(models[3]._$persistentState.identityPosition == 3, "no entry moved")
        let next = HandWrittenNote(title: "")
        next._$persistentState.key = 9
        next._$persistentState.identityMap = map
        map.set(next, for: 9)
        #expect(next._$persistentState.identityPosition == 2)
        #expect(map.nextPosition == 1)
        #expect(Set(map.keys) == [0, 3, 9])
        #expect(map.model(9) === next && map.model(1) == nil && map.model(2) == nil)
        for model in models { map.forget(model) }
        map.forget(next)
        #expect(map.isEmpty && map.nextPosition == 0, "an emptied map starts again")
    }

    /// A small deterministic generator, so a failure can be replayed from its printed seed.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
