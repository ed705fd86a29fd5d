import Testing

@testable import SwiftDataCore

/// The identity map's hash table agrees with a dictionary through random inserts, replacements and removals, as it
/// grows and shrinks.
@Suite struct IdentityMapTests {
    final class Object {}

    @Test func agreesWithADictionary() {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SplitMix(seed: seed)
        let map = IdentityMap()
        var reference: [Int64: (object: Object, state: _PersistentState)] = [:]
        for step in 0..<60_000 {
            // Keys come in runs, as primary keys do, and sometimes from anywhere.
            let key = random.next() % 4 == 0 ? Int64(random.next() % 1_000_000) : Int64(step / 3 % 5_000)
            switch step % 20_000 == 19_999 ? 9 : random.next() % 9 {
            case 0..<5:
                let entry = (Object(), _PersistentState())
                map.set(entry.0, state: entry.1, for: key)
                reference[key] = entry
            case 5..<8:
                if let entry = reference[key] {
                    map.forget(entry.state)
                    reference[key] = nil
                }
            case 8:
                map.forget(_PersistentState())  // a state not in the map: nothing changes
            default:
                // Removes most entries at once, so the table shrinks.
                for key in reference.keys.filter({ _ in random.next() % 8 != 0 }) {
                    map.forget(reference[key]!.state)
                    reference[key] = nil
                }
            }
            if step % 997 == 0 {
                #expect(map.count == reference.count, "seed \(seed)")
                #expect(Set(map.keys) == Set(reference.keys), "seed \(seed)")
            }
            #expect(map.model(key) === reference[key]?.object, "seed \(seed), step \(step)")
        }
        for (key, entry) in reference { #expect(map.model(key) === entry.object, "seed \(seed)") }
        #expect(map.models().count == reference.count)
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
