import Testing

@testable import SwiftDataMacros

@Suite("@Model expansion")
struct ModelMacroExpansionTests {
    /// Every form of persisted property: typed, with an initial value, optional, untyped; and the members
    /// that are left alone (transient, computed, the initializer).
    @Test func expandsEveryPropertyForm() {
        assertExpansion(
            """
            @Model
            final class User {
                var name: String
                var email: String = ""
                var nickname: String?
                @Attribute(.externalStorage) var imageData = Data()
                @Transient var cache: Int = 0
                var computed: Int { name.count }

                init(name: String, email: String) {
                    self.name = name
                    self.email = email
                }
            }
            """,
            expandsTo: #"""
                final class User {
                    var name: String {
                        get {
                            _$access(User._$keyPath$name, _$observationRegistrar)
                            if case .none = _$name {
                                _$fault(0)
                            }
                            return _$name!
                        }
                        set {
                            let observed = _$willChange(0, User._$keyPath$name, _$observationRegistrar)
                            _$name = newValue
                            _$didChange(0, User._$keyPath$name, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModify(0, User._$keyPath$name, _$observationRegistrar, _$name)
                            defer {
                                _$didChange(0, User._$keyPath$name, _$observationRegistrar, observed)
                            }
                            yield &_$name!
                        }
                    }

                    private static let _$keyPath$name = \User.name

                    @exclusivity(unchecked) private var _$name: Swift.Optional<String> = nil
                    var email: String {
                        get {
                            _$access(User._$keyPath$email, _$observationRegistrar)
                            if case .none = _$email {
                                _$fault(1)
                            }
                            return _$email!
                        }
                        set {
                            let observed = _$willChange(1, User._$keyPath$email, _$observationRegistrar)
                            _$email = newValue
                            _$didChange(1, User._$keyPath$email, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModify(1, User._$keyPath$email, _$observationRegistrar, _$email)
                            defer {
                                _$didChange(1, User._$keyPath$email, _$observationRegistrar, observed)
                            }
                            yield &_$email!
                        }
                    }

                    private static let _$keyPath$email = \User.email

                    @exclusivity(unchecked) private var _$email: Swift.Optional<String> = .some("")
                    var nickname: String? {
                        get {
                            _$access(User._$keyPath$nickname, _$observationRegistrar)
                            if case .none = _$nickname {
                                _$fault(2)
                            }
                            return _$nickname!
                        }
                        set {
                            let observed = _$willChange(2, User._$keyPath$nickname, _$observationRegistrar)
                            _$nickname = newValue
                            _$didChange(2, User._$keyPath$nickname, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModify(2, User._$keyPath$nickname, _$observationRegistrar, _$nickname)
                            defer {
                                _$didChange(2, User._$keyPath$nickname, _$observationRegistrar, observed)
                            }
                            yield &_$nickname!
                        }
                    }

                    private static let _$keyPath$nickname = \User.nickname

                    @exclusivity(unchecked) private var _$nickname: Swift.Optional<String?> = .some(nil)
                    var imageData {
                        get {
                            _$access(User._$keyPath$imageData, _$observationRegistrar)
                            if case .none = _$imageData {
                                if let linked = _$linked(3, _$imageData) {
                                    return linked
                                }
                                _$fault(3)
                            }
                            return _$imageData!
                        }
                        set {
                            _$willSet(3, _$imageData)
                            let oldValue = _$imageData
                            let observed = _$willMutate(User._$keyPath$imageData, _$observationRegistrar)
                            _$imageData = newValue
                            _$didMutate(User._$keyPath$imageData, _$observationRegistrar, observed)
                            _$didSet(3, oldValue, newValue)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$access(User._$keyPath$imageData, _$observationRegistrar)
                            _$willSet(3, _$imageData)
                            if case .none = _$imageData {
                                _$fault(3)
                            }
                            let oldValue = _$imageData
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: User._$keyPath$imageData)
                            }
                            defer {
                                _$didMutate(User._$keyPath$imageData, _$observationRegistrar, observed)
                                _$didSet(3, oldValue, _$imageData!)
                            }
                            yield &_$imageData!
                        }
                    }

                    private static let _$keyPath$imageData = \User.imageData

                    @exclusivity(unchecked) private var _$imageData = SwiftData._initialPersistedValue(Data())
                    var cache: Int = 0
                    var computed: Int { name.count }

                    init(name: String, email: String) {
                        self.name = name
                        self.email = email
                    }

                    @exclusivity(unchecked) var _$persistentState = SwiftData._PersistentState()

                    @exclusivity(unchecked) var _$isObserved = false

                    let _$observationRegistrar = Observation.ObservationRegistrar()

                    required init(backingData: borrowing any SwiftData.BackingData<User>) {}

                    var persistentBackingData: any SwiftData.BackingData<User> {
                        get {
                            SwiftData.DefaultBackingData(for: self)
                        }
                        set {}
                    }

                    static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        [
                            SwiftData.Schema.PropertyMetadata(name: "name", keypath: User._$keyPath$name, defaultValue: nil, metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "email", keypath: User._$keyPath$email, defaultValue: ("" as String), metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "nickname", keypath: User._$keyPath$nickname, defaultValue: nil, metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "imageData", keypath: User._$keyPath$imageData, defaultValue: Data(), metadata: SwiftData.Schema.Attribute(.externalStorage))
                        ]
                    }

                    func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws {
                        switch property {
                        case 0: _$name = try reader.string(column)
                        case 1: _$email = try reader.string(column)
                        case 2: try reader.readValue(column, into: &_$nickname)
                        case 3: try reader.read(column, into: &_$imageData)
                        default: break
                        }
                    }

                    func _$loadRow(_ count: Int, from reader: any SwiftData._RowReader, column: Int32) throws -> Bool {
                        guard _$readsRow(count, 4) else {
                            return false
                        }
                        _$name = try reader.string(column)
                        _$email = try reader.string(column + 1)
                        try reader.readValue(column, offset: 2, into: &_$nickname)
                        try reader.read(column + 3, into: &_$imageData)
                        return true
                    }

                    func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws {
                        switch property {
                        case 0: try writer.write(_$name, parameter, property: "User.name")
                        case 1: try writer.write(_$email, parameter, property: "User.email")
                        case 2: try writer.writeValue(_$nickname, parameter, property: "User.nickname")
                        case 3: try writer.write(_$imageData, parameter, property: "User.imageData")
                        default: break
                        }
                    }

                    func _$get(_ property: Int) -> SwiftData._PropertyValue {
                        switch property {
                        case 0: return _$value(0, _$name)
                        case 1: return _$value(1, _$email)
                        case 2: return _$optionalValue(2, _$nickname)
                        case 3: if let value = _$imageData { return .loaded(value) } else { return _$linkedValue(3) }
                        default: return .notLoaded
                        }
                    }

                    func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws {
                        switch property {
                        case 0: try _$assign(property, value, &_$name, User._$keyPath$name, _$observationRegistrar)
                        case 1: try _$assign(property, value, &_$email, User._$keyPath$email, _$observationRegistrar)
                        case 2: try _$assign(property, value, &_$nickname, User._$keyPath$nickname, _$observationRegistrar)
                        case 3: try _$assign(property, value, &_$imageData, User._$keyPath$imageData, _$observationRegistrar)
                        default: break
                        }
                    }
                }

                extension User: SwiftData.PersistentModel, Observation.Observable {}
                """#)
    }

    /// `#Unique` and `#Index` in the class body become the lists of key paths a container reads; `#Index` takes
    /// lists of key paths, Apple's `.binary(...)` and `.rtree(...)` index kinds, with or without their type, and
    /// `.search(...)`.
    @Test func collectsConstraintsAndIndexKinds() {
        let expansion = expand(
            """
            @Model
            final class Place {
                #Unique<Place>([\\.name])
                #Index<Place>(.binary([\\.name]), .rtree([\\.latitude, \\.longitude]))
                #Index<Place>([\\.name, \\.latitude], Schema.Index<Place>.Types<Place>.rtree([\\.elevation]))
                #Index<Place>(.search([\\.name]))
                var name: String
                var latitude: Double
                var longitude: Double
                var elevation: Double
                init() {}
            }
            """, macros: allMacros.merging(["Unique": ConstraintMacro.self, "Index": ConstraintMacro.self]) { $1 })
        let flat = expansion.expanded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            flat.contains("static var _$uniquenessConstraints: [[AnyKeyPath]] { [[\\Place.name] as [AnyKeyPath]] }"))
        #expect(
            flat.contains(
                "static var _$indices: [[AnyKeyPath]] { [[\\Place.name] as [AnyKeyPath], [\\Place.name, \\Place.latitude] as [AnyKeyPath]] }"
            ))
        #expect(
            flat.contains(
                "static var _$spatialIndices: [[AnyKeyPath]] { [[\\Place.latitude, \\Place.longitude] as [AnyKeyPath], [\\Place.elevation] as [AnyKeyPath]] }"
            ))
        #expect(flat.contains("static var _$searchIndices: [[AnyKeyPath]] { [[\\Place.name] as [AnyKeyPath]] }"))
        #expect(!expansion.expanded.contains("#Index"), "the declarations expand to nothing")
        #expect(expansion.diagnostics.isEmpty)
    }

    /// A read gives the registrar a key path the class made once; a class inside a generic type, which Swift lets
    /// have no static stored property, gives a key path literal instead.
    @Test func keyPathsAreMadeOncePerClassWhereSwiftAllowsIt() {
        let plain = expand("@Model final class Item { var name: String }").expanded
        #expect(plain.contains("private static let _$keyPath$name = \\Item.name"))
        #expect(plain.contains("_$access(Item._$keyPath$name, _$observationRegistrar)"))
        let nested = expand("struct Box<T> { @Model final class Item { var name: String } }").expanded
        #expect(!nested.contains("static let _$keyPath$"))
        #expect(nested.contains("_$access(\\.name, _$observationRegistrar)"))
    }

    /// Model code is compiled on every build, so what `@Model` writes for attributes of standard types is calls the
    /// compiler checks quickly: no closures (the registrar is told through its `willSet` and `didSet`), no comparison
    /// of the row's count, and rows read by the reader's own method for the type, or through functions with names of
    /// their own rather than the overloads; each case of the functions by number is one call, and a final class's
    /// schema gives the key paths its accessors use.
    @Test func writesPlainCallsForStandardAttributes() {
        let expanded = expand(
            """
            @Model final class Item {
                var name: String
                var count: Int = 0
                var note: String?
                init(name: String) { self.name = name }
            }
            """
        ).expanded
        #expect(!expanded.contains("withMutation") && !expanded.contains(" == "))
        #expect(!expanded.contains("reader.read("))
        #expect(expanded.contains("_$name = try reader.string(column)"))
        #expect(expanded.contains("_$count = try reader.int(column + 1)"))
        #expect(expanded.contains("try reader.readValue(column, offset: 2, into: &_$note)"))
        #expect(expanded.contains("try writer.writeValue(_$note, parameter, property: \"Item.note\")"))
        // One call a case in the functions by number.
        #expect(expanded.contains("let value: Swift.Optional<Int> = _$persistentState._isLoaded(1) ? _$count : nil"))
        #expect(expanded.contains("case 2: return _$optionalValue(2, _$note)"))
        #expect(
            expanded.contains(
                "case 1: try _$assignPlain(1, value, &_$count, Item._$keyPath$count, _$observationRegistrar)"))
        #expect(expanded.contains("keypath: Item._$keyPath$count, defaultValue: (0 as Int)"))
    }
}
