import Foundation
import SwiftData
import Testing

/// Random sequences of relationship changes (sets of either side, appends, removals, whole-array assignments,
/// inserts, deletes under each delete rule, saves, rollbacks) on models with every relationship form
/// (`RelationshipDifferentialModels.swift`). After each step, both sides of every relationship of every model the
/// context holds must match a plain in-memory reference; after saves and rollbacks, a fetch in the same context and
/// one in a new context must find what the reference saved. `SWIFTDATA_RELATIONSHIP_STEPS` sets the number of steps
/// a sequence takes (default 300 on SQLite, 120 on PostgreSQL) and `SWIFTDATA_RELATIONSHIP_SEED` runs one seed (the
/// failing seed and step are printed).
@Suite struct RelationshipDifferentialTests {
    static let environment = ProcessInfo.processInfo.environment
    static let steps = environment["SWIFTDATA_RELATIONSHIP_STEPS"].flatMap(Int.init)
    static let seeds: [UInt64] =
        environment["SWIFTDATA_RELATIONSHIP_SEED"].flatMap(UInt64.init).map { [$0] } ?? [1, 2, 3]

    @Test(arguments: StoreKind.all) func bothSidesMatchAPlainReference(store: StoreKind) throws {
        for seed in Self.seeds {
            var run = try RelationshipRun(store: store, seed: seed)
            let completed = try run.run(steps: Self.steps ?? (store == .sqlite ? 300 : 120))
            #expect(completed, "seed \(seed) on \(store): see the issue recorded above")
            #expect(run.saves > 0 && run.checks > 0, "seed \(seed) saved and compared")
            if !completed { break }
        }
    }
}

/// The classes of the test's models.
enum RKind: String, CaseIterable {
    case hub, cascaded, nullified, denied, tag, badge, loose
    /// The kinds whose models have a `hub` (or, for badges, a `holder`) to-one relationship.
    static let children: [RKind] = [.cascaded, .nullified, .denied]
}

/// The relationships as plain values: who relates to whom, with the delete rules applied by hand.
struct RelationshipReference {
    /// The models that exist (inserted or saved, not deleted).
    var alive: [RKind: Set<Int>] = Dictionary(uniqueKeysWithValues: RKind.allCases.map { ($0, []) })
    /// The hub of each cascaded, nullified and denied model, and the holder of each badge.
    var hubOf: [RKind: [Int: Int]] = [.cascaded: [:], .nullified: [:], .denied: [:], .badge: [:]]
    /// Hub and tag numbers of the many-to-many relationship.
    var tags: Set<[Int]> = []
    /// Hub and loose numbers of the to-many relationship without inverse.
    var loose: Set<[Int]> = []
    /// The favorite of each hub (to-one without inverse).
    var favorite: [Int: Int] = [:]

    /// Every relationship of every model that exists, as sorted numbers of the models that exist, by a name such as
    /// `"hub 3 tags"`.
    func snapshot() -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        func existing(_ kind: RKind, _ numbers: [Int]) -> [Int] {
            numbers.filter { self.alive[kind]!.contains($0) }.sorted()
        }
        for hub in alive[.hub]! {
            for kind in RKind.children {
                result["hub \(hub) \(kind)"] = existing(kind, hubOf[kind]!.filter { $0.value == hub }.map(\.key))
            }
            result["hub \(hub) tags"] = existing(.tag, tags.filter { $0[0] == hub }.map { $0[1] })
            result["hub \(hub) badge"] = existing(.badge, hubOf[.badge]!.filter { $0.value == hub }.map(\.key))
            result["hub \(hub) loose"] = existing(.loose, loose.filter { $0[0] == hub }.map { $0[1] })
            result["hub \(hub) favorite"] = existing(.loose, favorite[hub].map { [$0] } ?? [])
        }
        for kind in RKind.children + [.badge] {
            for number in alive[kind]! {
                result["\(kind) \(number) hub"] = existing(.hub, hubOf[kind]![number].map { [$0] } ?? [])
            }
        }
        for tag in alive[.tag]! {
            result["tag \(tag) hubs"] = existing(.hub, tags.filter { $0[1] == tag }.map { $0[0] })
        }
        return result
    }

    /// Whether a save must be refused: a denied model still relates to a deleted hub.
    var saveIsDenied: Bool {
        hubOf[.denied]!.contains { alive[.denied]!.contains($0.key) && !alive[.hub]!.contains($0.value) }
    }

    /// Sets the hub of a child (or the holder of a badge; a hub holds one badge, so its previous badge is left
    /// without holder).
    mutating func setHub(_ kind: RKind, _ number: Int, to hub: Int?) {
        if kind == .badge, let hub {
            for (badge, holder) in hubOf[.badge]! where holder == hub && badge != number { hubOf[.badge]![badge] = nil }
        }
        hubOf[kind]![number] = hub
    }

    /// Deletes a model, with the delete rules of its relationships; a model never saved (`unsaved`) leaves every
    /// relationship at once, `.deny` ones included, as its insert is cancelled.
    mutating func delete(_ kind: RKind, _ number: Int, unsaved: Bool = false) {
        alive[kind]!.remove(number)
        switch kind {
        case .hub:
            for (child, hub) in hubOf[.cascaded]! where hub == number { delete(.cascaded, child) }
            for kind in [RKind.nullified, .badge] {
                for (child, hub) in hubOf[kind]! where hub == number { hubOf[kind]![child] = nil }
            }
            // `.deny`: the denied models keep the deleted hub, and the save is refused while they do.
            if unsaved {
                for (child, hub) in hubOf[.denied]! where hub == number { hubOf[.denied]![child] = nil }
            }
            tags = tags.filter { $0[0] != number }
            loose = loose.filter { $0[0] != number }
            favorite[number] = nil
        case .cascaded, .nullified, .denied, .badge: hubOf[kind]![number] = nil
        case .tag: tags = tags.filter { $0[1] != number }
        case .loose:
            loose = loose.filter { $0[1] != number }
            favorite = favorite.filter { $0.value != number }
        }
    }
}

/// One random sequence on one store: the live models by number beside the reference.
struct RelationshipRun {
    let container: ModelContainer
    let context: ModelContext
    var random: SeededRandom
    let seed: UInt64
    let store: StoreKind
    var reference = RelationshipReference()
    var saved = RelationshipReference()
    /// Models deleted since the last save or rollback, which the live side may still show in relationships.
    var deleted: Set<String> = []
    var next = 0
    var log: [String] = []
    var saves = 0
    var checks = 0

    var hubs: [Int: RHub] = [:]
    var cascaded: [Int: RCascaded] = [:]
    var nullified: [Int: RNullified] = [:]
    var denied: [Int: RDenied] = [:]
    var tags: [Int: RTag] = [:]
    var badges: [Int: RBadge] = [:]
    var loose: [Int: RLoose] = [:]

    init(store: StoreKind, seed: UInt64) throws {
        container = try store.makeContainer(
            RHub.self, RCascaded.self, RNullified.self, RDenied.self, RTag.self, RBadge.self, RLoose.self)
        context = ModelContext(container)
        context.autosaveEnabled = false
        random = SeededRandom(seed: seed)
        self.seed = seed
        self.store = store
    }

    /// Runs `steps` random steps; `false` after the first step whose result differs from the reference (recorded as
    /// an issue with the steps that led to it).
    mutating func run(steps: Int) throws -> Bool {
        for kind in RKind.allCases { for _ in 0..<2 { insert(kind) } }
        for step in 0..<steps {
            do { try self.step() } catch {
                Issue.record("seed \(seed) on \(store), step \(step) threw: \(error)\n\(trail)")
                return false
            }
            guard compare(reference.snapshot(), liveSnapshot(), what: "step \(step)") else { return false }
            if log.last?.hasPrefix("save") == true || log.last == "rollback" {
                guard try compareFetches(step: step) else { return false }
            }
        }
        try save()
        return try compareFetches(step: steps)
    }

    // MARK: Steps

    mutating func step() throws {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<12: insert(random.pick(RKind.allCases))
        case 12..<30: setChildHub()
        case 30..<44: editHubMembers()
        case 44..<52: editTags()
        case 52..<58: editBadge()
        case 58..<64: editLoose()
        case 64..<74: deleteSomething()
        case 74..<88: try save()
        case 88..<93: rollback()
        default: try fetchAgain()
        }
    }

    mutating func pickAlive(_ kind: RKind) -> Int? {
        let numbers = reference.alive[kind]!.sorted()
        return numbers.isEmpty ? nil : random.pick(numbers)
    }

    mutating func insert(_ kind: RKind) {
        next += 1
        let number = next
        // Half of the new children join through a relationship to a hub of the context instead of `insert`.
        let hub = RKind.children.contains(kind) && random.chance(0.5) ? pickAlive(.hub) : nil
        log.append("insert \(kind) \(number)" + (hub.map { " with hub \($0)" } ?? ""))
        reference.alive[kind]!.insert(number)
        switch kind {
        case .hub:
            hubs[number] = RHub(number: number)
            context.insert(hubs[number]!)
        case .cascaded:
            let model = RCascaded(number: number)
            cascaded[number] = model
            if let hub { model.hub = hubs[hub] } else { context.insert(model) }
        case .nullified:
            let model = RNullified(number: number)
            nullified[number] = model
            if let hub { hubs[hub]!.nullified = (hubs[hub]!.nullified ?? []) + [model] } else { context.insert(model) }
        case .denied:
            let model = RDenied(number: number)
            denied[number] = model
            if let hub { model.hub = hubs[hub] } else { context.insert(model) }
        case .tag:
            tags[number] = RTag(number: number)
            context.insert(tags[number]!)
        case .badge:
            badges[number] = RBadge(number: number)
            context.insert(badges[number]!)
        case .loose:
            loose[number] = RLoose(number: number)
            context.insert(loose[number]!)
        }
        if let hub { reference.setHub(kind, number, to: hub) }
    }

    /// Sets the to-one side of a one-to-many relationship.
    mutating func setChildHub() {
        let kind = random.pick(RKind.children)
        guard let child = pickAlive(kind) else { return }
        let hub = random.chance(0.2) ? nil : pickAlive(.hub)
        log.append("\(kind) \(child).hub = \(hub.map(String.init) ?? "nil")")
        let model = hub.flatMap { hubs[$0] }
        switch kind {
        case .cascaded: cascaded[child]!.hub = model
        case .nullified: nullified[child]!.hub = model
        default: denied[child]!.hub = model
        }
        reference.setHub(kind, child, to: hub)
    }

    /// Appends to, removes from or assigns the to-many side of a one-to-many relationship.
    mutating func editHubMembers() {
        let kind = random.pick(RKind.children)
        guard let hubNumber = pickAlive(.hub), let child = pickAlive(kind) else { return }
        let hub = hubs[hubNumber]!
        let how = Int.random(in: 0..<4, using: &random)
        log.append("hub \(hubNumber).\(kind) " + ["append", "remove", "assign", "clear"][how] + " \(child)")
        let current = reference.hubOf[kind]!.filter { $0.value == hubNumber && reference.alive[kind]!.contains($0.key) }
            .map(\.key)
        switch how {
        case 0:
            switch kind {
            case .cascaded: hub.cascaded.append(cascaded[child]!)
            case .nullified:
                if hub.nullified != nil {
                    hub.nullified?.append(nullified[child]!)
                } else {
                    hub.nullified = [nullified[child]!]
                }
            default: hub.denied = (hub.denied ?? []) + [denied[child]!]
            }
            reference.setHub(kind, child, to: hubNumber)
        case 1:
            switch kind {
            case .cascaded: hub.cascaded.removeAll { $0.number == child }
            case .nullified: hub.nullified?.removeAll { $0.number == child }
            default: hub.denied = hub.denied?.filter { $0.number != child }
            }
            if reference.hubOf[kind]![child] == hubNumber { reference.setHub(kind, child, to: nil) }
        case 2:
            // The hub's members become the chosen child and one of its current members, if any.
            let keep = current.filter { $0 != child }.prefix(1)
            let members = [child] + keep
            switch kind {
            case .cascaded: hub.cascaded = members.map { cascaded[$0]! }
            case .nullified: hub.nullified = members.map { nullified[$0]! }
            default: hub.denied = members.map { denied[$0]! }
            }
            for member in current where !members.contains(member) { reference.setHub(kind, member, to: nil) }
            for member in members { reference.setHub(kind, member, to: hubNumber) }
        default:
            switch kind {
            case .cascaded: hub.cascaded = []
            case .nullified: hub.nullified = random.chance(0.5) ? nil : []
            default: hub.denied = nil
            }
            for member in current { reference.setHub(kind, member, to: nil) }
        }
    }

    /// Links or unlinks a hub and a tag, from either side of the many-to-many relationship.
    mutating func editTags() {
        guard let hub = pickAlive(.hub), let tag = pickAlive(.tag) else { return }
        let link = random.chance(0.6)
        let fromHub = random.chance(0.5)
        log.append("\(link ? "link" : "unlink") hub \(hub) and tag \(tag) from the \(fromHub ? "hub" : "tag")")
        switch (link, fromHub) {
        case (true, true): hubs[hub]!.tags.append(tags[tag]!)
        case (true, false): tags[tag]!.hubs = (tags[tag]!.hubs ?? []) + [hubs[hub]!]
        case (false, true): hubs[hub]!.tags.removeAll { $0.number == tag }
        case (false, false): tags[tag]!.hubs?.removeAll { $0.number == hub }
        }
        if link { reference.tags.insert([hub, tag]) } else { reference.tags.remove([hub, tag]) }
    }

    /// Sets either side of the one-to-one relationship.
    mutating func editBadge() {
        guard let badge = pickAlive(.badge) else { return }
        let hub = random.chance(0.25) ? nil : pickAlive(.hub)
        if random.chance(0.5) || hub == nil {
            log.append("badge \(badge).holder = \(hub.map(String.init) ?? "nil")")
            badges[badge]!.holder = hub.flatMap { hubs[$0] }
            reference.setHub(.badge, badge, to: hub)
        } else if let hub {
            log.append("hub \(hub).badge = \(badge)")
            hubs[hub]!.badge = badges[badge]!
            for (other, holder) in reference.hubOf[.badge]! where holder == hub && other != badge {
                reference.hubOf[.badge]![other] = nil
            }
            reference.setHub(.badge, badge, to: hub)
        }
    }

    /// Changes the relationships without inverse.
    mutating func editLoose() {
        guard let hub = pickAlive(.hub) else { return }
        let target = pickAlive(.loose)
        switch (Int.random(in: 0..<3, using: &random), target) {
        case (0, let target?):
            log.append("hub \(hub).loose append \(target)")
            hubs[hub]!.loose.append(loose[target]!)
            reference.loose.insert([hub, target])
        case (1, let target?):
            log.append("hub \(hub).loose remove \(target)")
            hubs[hub]!.loose.removeAll { $0.number == target }
            reference.loose.remove([hub, target])
        default:
            let favorite = random.chance(0.3) ? nil : target
            log.append("hub \(hub).favorite = \(favorite.map(String.init) ?? "nil")")
            hubs[hub]!.favorite = favorite.flatMap { loose[$0] }
            reference.favorite[hub] = favorite
        }
    }

    mutating func deleteSomething() {
        let kind = random.pick(RKind.allCases)
        guard let number = pickAlive(kind) else { return }
        log.append("delete \(kind) \(number)")
        let before = reference.alive
        reference.delete(kind, number, unsaved: !saved.alive[kind]!.contains(number))
        for kind in RKind.allCases {
            for gone in before[kind]!.subtracting(reference.alive[kind]!) { deleted.insert("\(kind) \(gone)") }
        }
        context.delete(model(kind, number)!)
    }

    mutating func save() throws {
        if reference.saveIsDenied {
            log.append("save (refused: a denied model keeps a deleted hub)")
            var refused = false
            do { try context.save() } catch { refused = true }
            #expect(refused, "seed \(seed) on \(store): the save should have been refused by .deny\n\(trail)")
            rollback()
            return
        }
        log.append("save")
        try context.save()
        saves += 1
        saved = reference
        forgetDeleted()
    }

    mutating func rollback() {
        log.append("rollback")
        context.rollback()
        reference = saved
        forgetDeleted()
    }

    /// After a save or rollback, the live side keeps only the models the reference has.
    mutating func forgetDeleted() {
        deleted = []
        hubs = hubs.filter { reference.alive[.hub]!.contains($0.key) }
        cascaded = cascaded.filter { reference.alive[.cascaded]!.contains($0.key) }
        nullified = nullified.filter { reference.alive[.nullified]!.contains($0.key) }
        denied = denied.filter { reference.alive[.denied]!.contains($0.key) }
        tags = tags.filter { reference.alive[.tag]!.contains($0.key) }
        badges = badges.filter { reference.alive[.badge]!.contains($0.key) }
        loose = loose.filter { reference.alive[.loose]!.contains($0.key) }
    }

    /// Fetches every model again in the context: the same objects, no more, no fewer.
    mutating func fetchAgain() throws {
        log.append("fetch again")
        let fetched = try Models(context)
        for kind in RKind.allCases {
            let numbers = fetched.numbers(kind)
            guard numbers == reference.alive[kind]! else {
                Issue.record(
                    "seed \(seed) on \(store): a fetch of \(kind) found \(numbers.sorted()), expected \(reference.alive[kind]!.sorted())\n\(trail)"
                )
                return
            }
            for number in numbers where fetched.model(kind, number) !== model(kind, number) {
                Issue.record(
                    "seed \(seed) on \(store): a fetch returned another object for \(kind) \(number)\n\(trail)")
            }
        }
    }

    // MARK: Comparing

    var trail: String { "steps:\n" + log.suffix(25).joined(separator: "\n") }

    /// The live models, by number.
    var live: Models {
        Models(
            hubs: hubs, cascaded: cascaded, nullified: nullified, denied: denied, tags: tags, badges: badges,
            loose: loose)
    }

    func model(_ kind: RKind, _ number: Int) -> (any PersistentModel)? { live.model(kind, number) }

    func liveSnapshot() -> [String: [Int]] { live.snapshot(of: reference.alive, hiding: deleted) }

    mutating func compare(_ expected: [String: [Int]], _ found: [String: [Int]], what: String) -> Bool {
        checks += 1
        guard expected != found else { return true }
        let differences = Set(expected.keys).union(found.keys).sorted().filter { expected[$0] != found[$0] }
            .map {
                "\($0): expected \(expected[$0].map { "\($0)" } ?? "none"), found \(found[$0].map { "\($0)" } ?? "none")"
            }
        Issue.record(
            "seed \(seed) on \(store), \(what): \(differences.prefix(8).joined(separator: "; "))\n\(trail)")
        return false
    }

    /// After a save or a rollback: a new context finds what the reference saved.
    mutating func compareFetches(step: Int) throws -> Bool {
        let other = try Models(ModelContext(container))
        for kind in RKind.allCases where other.numbers(kind) != saved.alive[kind]! {
            Issue.record(
                "seed \(seed) on \(store), step \(step): a new context found \(kind) \(other.numbers(kind).sorted()), expected \(saved.alive[kind]!.sorted())\n\(trail)"
            )
            return false
        }
        return compare(
            saved.snapshot(), other.snapshot(of: saved.alive, hiding: []), what: "a new context at step \(step)")
    }
}

/// The models of one context by number, and the relationships they show.
struct Models {
    var hubs: [Int: RHub]
    var cascaded: [Int: RCascaded]
    var nullified: [Int: RNullified]
    var denied: [Int: RDenied]
    var tags: [Int: RTag]
    var badges: [Int: RBadge]
    var loose: [Int: RLoose]

    init(
        hubs: [Int: RHub], cascaded: [Int: RCascaded], nullified: [Int: RNullified], denied: [Int: RDenied],
        tags: [Int: RTag], badges: [Int: RBadge], loose: [Int: RLoose]
    ) {
        (self.hubs, self.cascaded, self.nullified, self.denied) = (hubs, cascaded, nullified, denied)
        (self.tags, self.badges, self.loose) = (tags, badges, loose)
    }

    /// Every model a context holds, fetched.
    init(_ context: ModelContext) throws {
        func all<T: PersistentModel>(_ type: T.Type, _ number: (T) -> Int) throws -> [Int: T] {
            Dictionary(try context.fetch(FetchDescriptor<T>()).map { (number($0), $0) }, uniquingKeysWith: { $1 })
        }
        self.init(
            hubs: try all(RHub.self, \.number), cascaded: try all(RCascaded.self, \.number),
            nullified: try all(RNullified.self, \.number), denied: try all(RDenied.self, \.number),
            tags: try all(RTag.self, \.number), badges: try all(RBadge.self, \.number),
            loose: try all(RLoose.self, \.number))
    }

    func numbers(_ kind: RKind) -> Set<Int> {
        switch kind {
        case .hub: Set(hubs.keys)
        case .cascaded: Set(cascaded.keys)
        case .nullified: Set(nullified.keys)
        case .denied: Set(denied.keys)
        case .tag: Set(tags.keys)
        case .badge: Set(badges.keys)
        case .loose: Set(loose.keys)
        }
    }

    func model(_ kind: RKind, _ number: Int) -> (any PersistentModel)? {
        switch kind {
        case .hub: hubs[number]
        case .cascaded: cascaded[number]
        case .nullified: nullified[number]
        case .denied: denied[number]
        case .tag: tags[number]
        case .badge: badges[number]
        case .loose: loose[number]
        }
    }

    /// The relationships of the models numbered in `alive`, as `RelationshipReference.snapshot` names them; models in
    /// `hiding` (deleted, not saved yet) are left out of them, as the reference leaves deleted models out.
    func snapshot(of alive: [RKind: Set<Int>], hiding: Set<String>) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        func numbers(_ kind: RKind, _ numbers: [Int]) -> [Int] {
            numbers.filter { !hiding.contains("\(kind) \($0)") }.sorted()
        }
        for number in alive[.hub]! {
            guard let hub = hubs[number] else {
                result["hub \(number) missing"] = []
                continue
            }
            result["hub \(number) cascaded"] = numbers(.cascaded, hub.cascaded.map(\.number))
            result["hub \(number) nullified"] = numbers(.nullified, (hub.nullified ?? []).map(\.number))
            result["hub \(number) denied"] = numbers(.denied, (hub.denied ?? []).map(\.number))
            result["hub \(number) tags"] = numbers(.tag, hub.tags.map(\.number))
            result["hub \(number) badge"] = numbers(.badge, hub.badge.map { [$0.number] } ?? [])
            result["hub \(number) loose"] = numbers(.loose, hub.loose.map(\.number))
            result["hub \(number) favorite"] = numbers(.loose, hub.favorite.map { [$0.number] } ?? [])
        }
        func hubOf(_ kind: RKind, _ hub: (Int) -> RHub??) {
            for number in alive[kind]! {
                guard let found = hub(number) else {
                    result["\(kind) \(number) missing"] = []
                    continue
                }
                result["\(kind) \(number) hub"] = numbers(.hub, found.map { [$0.number] } ?? [])
            }
        }
        hubOf(.cascaded) { cascaded[$0].map(\.hub) }
        hubOf(.nullified) { nullified[$0].map(\.hub) }
        hubOf(.denied) { denied[$0].map(\.hub) }
        hubOf(.badge) { badges[$0].map(\.holder) }
        for number in alive[.tag]! {
            guard let tag = tags[number] else {
                result["tag \(number) missing"] = []
                continue
            }
            result["tag \(number) hubs"] = numbers(.hub, (tag.hubs ?? []).map(\.number))
        }
        for number in alive[.loose]! where loose[number] == nil { result["loose \(number) missing"] = [] }
        return result
    }
}
