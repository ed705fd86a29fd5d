import Foundation
import SwiftData
import Testing

/// A row loaded in one call of the generated `_$loadRow` reads each common attribute type through the reader's direct
/// path, inlined into the loader, and leaves its to-one relationships, optional or not, to the context.
@Suite struct RowLoaderTypesTests {
    @Test func everyDirectTypeAndBothKindsOfToOneLoad() throws {
        let directory = TemporaryDirectory()
        let date = Date(timeIntervalSinceReferenceDate: 98_765.4321)
        do {
            let context = ModelContext(try makeContainer(LoadedKinds.self, LoadedHolder.self, in: directory))
            let holders = (0..<2).map { LoadedHolder(name: "holder \($0)") }
            for index in 0..<4 {
                let kinds = LoadedKinds(holder: holders[index % 2])
                kinds.tally = index - 2
                kinds.count = Int64.max - Int64(index)
                kinds.flag = index % 2 == 0
                kinds.ratio = Double(index) / 4
                kinds.name = "kinds \(index), a name longer than fifteen bytes"
                kinds.blob = Data([UInt8(index), 0, 255])
                kinds.when = date.addingTimeInterval(Double(index))
                kinds.spare = index < 2 ? holders[1 - index % 2] : nil
                context.insert(kinds)
            }
            try context.save()
        }
        let context = ModelContext(try makeContainer(LoadedKinds.self, LoadedHolder.self, in: directory))
        let all = try context.fetch(FetchDescriptor<LoadedKinds>(sortBy: [SortDescriptor(\.tally)]))
        try #require(all.count == 4)
        #expect(all.map(\.tally) == [-2, -1, 0, 1])
        #expect(all.map(\.count) == (0..<4).map { Int64.max - Int64($0) })
        #expect(all.map(\.flag) == [true, false, true, false])
        #expect(all.map(\.ratio) == [0, 0.25, 0.5, 0.75])
        #expect(all.map(\.name) == (0..<4).map { "kinds \($0), a name longer than fifteen bytes" })
        #expect(all.map(\.blob) == (0..<4).map { Data([UInt8($0), 0, 255]) })
        #expect(all.map(\.when) == (0..<4).map { date.addingTimeInterval(Double($0)) })
        #expect(all.map(\.holder.name) == ["holder 0", "holder 1", "holder 0", "holder 1"])
        #expect(all.map { $0.spare?.name } == ["holder 1", "holder 0", nil, nil])
        // One object per row: the references resolve to the same registered holders.
        #expect(all[0].holder === all[2].holder && all[0].holder === all[1].spare)
        #expect(all.allSatisfy { !$0.hasChanges })
    }
}

/// A model whose row loads in one call: the reader's direct types, then a non-optional and an optional to-one
/// relationship (see `RowLoaderTypesTests`).
@Model final class LoadedKinds {
    var tally: Int = 0
    var count: Int64 = 0
    var flag: Bool = false
    var ratio: Double = 0
    var name: String = ""
    var blob = Data()
    var when = Date(timeIntervalSinceReferenceDate: 0)
    var holder: LoadedHolder
    var spare: LoadedHolder?

    init(holder: LoadedHolder) { self.holder = holder }
}

/// The target of `LoadedKinds`' relationships, with no inverse.
@Model final class LoadedHolder {
    var name: String

    init(name: String) { self.name = name }
}
