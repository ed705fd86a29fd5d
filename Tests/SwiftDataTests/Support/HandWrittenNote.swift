import Foundation
import Observation
import SwiftData

/// A model that conforms to `PersistentModel` by hand, exactly as `@Model` would, so that the runtime is tested
/// without the macro: a macro regression cannot hide a runtime bug.
final class HandWrittenNote: PersistentModel {
    var _$persistentState = _PersistentState()
    private let registrar = ObservationRegistrar()
    private var storedTitle: String?
    private var storedStars: Int? = .some(0)
    private var storedComment: String?? = .some(nil)

    var title: String {
        get {
            registrar.access(self, keyPath: \.title)
            if storedTitle == nil { _$fault(0) }
            return storedTitle!
        }
        set {
            registrar.withMutation(of: self, keyPath: \.title) { storedTitle = newValue }
            _$didSet(0)
        }
    }

    var stars: Int {
        get {
            registrar.access(self, keyPath: \.stars)
            if storedStars == nil { _$fault(1) }
            return storedStars!
        }
        set {
            registrar.withMutation(of: self, keyPath: \.stars) { storedStars = newValue }
            _$didSet(1)
        }
    }

    var comment: String? {
        get {
            registrar.access(self, keyPath: \.comment)
            if storedComment == nil { _$fault(2) }
            return storedComment!
        }
        set {
            registrar.withMutation(of: self, keyPath: \.comment) { storedComment = newValue }
            _$didSet(2)
        }
    }

    init(title: String, stars: Int = 0, comment: String? = nil) {
        self.title = title
        self.stars = stars
        self.comment = comment
    }

    required init(backingData: any BackingData<HandWrittenNote>) {}

    var persistentBackingData: any BackingData<HandWrittenNote> {
        get { DefaultBackingData(for: self) }
        set {}
    }

    static var schemaMetadata: [Schema.PropertyMetadata] {
        [
            Schema.PropertyMetadata(name: "title", keypath: \HandWrittenNote.title),
            Schema.PropertyMetadata(name: "stars", keypath: \HandWrittenNote.stars, defaultValue: 0),
            Schema.PropertyMetadata(name: "comment", keypath: \HandWrittenNote.comment),
        ]
    }

    func _$load(_ property: Int, from reader: any _RowReader, column: Int32) throws {
        switch property {
        case 0: storedTitle = try reader.read(column)
        case 1: storedStars = try reader.read(column)
        case 2: storedComment = try reader.read(column)
        default: break
        }
    }

    func _$store(_ property: Int, into writer: any _RowWriter, parameter: Int32) throws {
        switch property {
        case 0: try writer.write(storedTitle, parameter, property: "HandWrittenNote.title")
        case 1: try writer.write(storedStars, parameter, property: "HandWrittenNote.stars")
        case 2: try writer.write(storedComment, parameter, property: "HandWrittenNote.comment")
        default: break
        }
    }

    func _$get(_ property: Int) -> _PropertyValue {
        switch property {
        case 0: storedTitle.map { .loaded($0) } ?? .notLoaded
        case 1: storedStars.map { .loaded($0) } ?? .notLoaded
        case 2: storedComment.map { .loaded($0) } ?? .notLoaded
        default: .notLoaded
        }
    }

    func _$set(_ property: Int, _ value: _PropertyValue) throws {
        switch property {
        case 0:
            let typed = try _storedValue(value, as: storedTitle, of: self, property: property)
            registrar.withMutation(of: self, keyPath: \.title) { storedTitle = typed }
        case 1:
            let typed = try _storedValue(value, as: storedStars, of: self, property: property)
            registrar.withMutation(of: self, keyPath: \.stars) { storedStars = typed }
        case 2:
            let typed = try _storedValue(value, as: storedComment, of: self, property: property)
            registrar.withMutation(of: self, keyPath: \.comment) { storedComment = typed }
        default: break
        }
    }
}
