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
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$name)
                            if case .none = _$name {
                                _$fault(0)
                            }
                            return _$name!
                        }
                        set {
                            _$attributeWillChange(0)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$name) {
                                    _$name = newValue
                                }
                            } else {
                                _$name = newValue
                            }
                            _$attributeDidChange(0)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$name)
                            _$attributeWillChange(0)
                            if case .none = _$name {
                                _$fault(0)
                            }
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: User._$keyPath$name)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: User._$keyPath$name)
                                }
                                _$attributeDidChange(0)
                            }
                            yield &_$name!
                        }
                    }

                    private static let _$keyPath$name = \User.name

                    @exclusivity(unchecked) private var _$name: Swift.Optional<String> = nil
                    var email: String {
                        get {
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$email)
                            if case .none = _$email {
                                _$fault(1)
                            }
                            return _$email!
                        }
                        set {
                            _$attributeWillChange(1)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$email) {
                                    _$email = newValue
                                }
                            } else {
                                _$email = newValue
                            }
                            _$attributeDidChange(1)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$email)
                            _$attributeWillChange(1)
                            if case .none = _$email {
                                _$fault(1)
                            }
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: User._$keyPath$email)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: User._$keyPath$email)
                                }
                                _$attributeDidChange(1)
                            }
                            yield &_$email!
                        }
                    }

                    private static let _$keyPath$email = \User.email

                    @exclusivity(unchecked) private var _$email: Swift.Optional<String> = .some("")
                    var nickname: String? {
                        get {
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$nickname)
                            if case .none = _$nickname {
                                _$fault(2)
                            }
                            return _$nickname!
                        }
                        set {
                            _$attributeWillChange(2)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$nickname) {
                                    _$nickname = newValue
                                }
                            } else {
                                _$nickname = newValue
                            }
                            _$attributeDidChange(2)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$nickname)
                            _$attributeWillChange(2)
                            if case .none = _$nickname {
                                _$fault(2)
                            }
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: User._$keyPath$nickname)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: User._$keyPath$nickname)
                                }
                                _$attributeDidChange(2)
                            }
                            yield &_$nickname!
                        }
                    }

                    private static let _$keyPath$nickname = \User.nickname

                    @exclusivity(unchecked) private var _$nickname: Swift.Optional<String?> = .some(nil)
                    var imageData {
                        get {
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$imageData)
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
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$imageData) {
                                    _$imageData = newValue
                                }
                            } else {
                                _$imageData = newValue
                            }
                            _$didSet(3, oldValue, newValue)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: User._$keyPath$imageData)
                            _$willSet(3, _$imageData)
                            if case .none = _$imageData {
                                _$fault(3)
                            }
                            let oldValue = _$imageData
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: User._$keyPath$imageData)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: User._$keyPath$imageData)
                                }
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

                    required init(backingData: borrowing any SwiftData.BackingData<User>) {
                    }

                    var persistentBackingData: any SwiftData.BackingData<User> {
                        get {
                            SwiftData.DefaultBackingData(for: self)
                        }
                        set {
                        }
                    }

                    static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        [
                            SwiftData.Schema.PropertyMetadata(name: "name", keypath: \User.name, defaultValue: nil, metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "email", keypath: \User.email, defaultValue: ("" as String), metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "nickname", keypath: \User.nickname, defaultValue: nil, metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "imageData", keypath: \User.imageData, defaultValue: Data(), metadata: SwiftData.Schema.Attribute(.externalStorage))
                        ]
                    }

                    func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws {
                        switch property {
                        case 0:
                            try reader.read(column, into: &_$name)
                        case 1:
                            try reader.read(column, into: &_$email)
                        case 2:
                            try reader.read(column, into: &_$nickname)
                        case 3:
                            try reader.read(column, into: &_$imageData)
                        default:
                            break
                        }
                    }

                    func _$loadRow(_ count: Int, from reader: any SwiftData._RowReader, column: Int32) throws -> Bool {
                        guard count == 4 else {
                            return false
                        }
                        try reader.read(column, into: &_$name)
                        try reader.read(column + 1, into: &_$email)
                        try reader.read(column + 2, into: &_$nickname)
                        try reader.read(column + 3, into: &_$imageData)
                        return true
                    }

                    func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws {
                        switch property {
                        case 0:
                            try writer.write(_$name, parameter, property: "User.name")
                        case 1:
                            try writer.write(_$email, parameter, property: "User.email")
                        case 2:
                            try writer.write(_$nickname, parameter, property: "User.nickname")
                        case 3:
                            try writer.write(_$imageData, parameter, property: "User.imageData")
                        default:
                            break
                        }
                    }

                    func _$get(_ property: Int) -> SwiftData._PropertyValue {
                        switch property {
                        case 0:
                            if let value = _$name {
                                return .loaded(value)
                            } else {
                                return _$linkedValue(0)
                            }
                        case 1:
                            if let value = _$email {
                                return .loaded(value)
                            } else {
                                return _$linkedValue(1)
                            }
                        case 2:
                            if let value = _$nickname {
                                return .loaded(value)
                            } else {
                                return _$linkedValue(2)
                            }
                        case 3:
                            if let value = _$imageData {
                                return .loaded(value)
                            } else {
                                return _$linkedValue(3)
                            }
                        default:
                            return .notLoaded
                        }
                    }

                    func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws {
                        switch property {
                        case 0:
                            let typed = try SwiftData._storedValue(value, as: _$name, of: self, property: property)
                            _$unlink(property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$name) {
                                    _$name = typed
                                }
                            } else {
                                _$name = typed
                            }
                        case 1:
                            let typed = try SwiftData._storedValue(value, as: _$email, of: self, property: property)
                            _$unlink(property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$email) {
                                    _$email = typed
                                }
                            } else {
                                _$email = typed
                            }
                        case 2:
                            let typed = try SwiftData._storedValue(value, as: _$nickname, of: self, property: property)
                            _$unlink(property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$nickname) {
                                    _$nickname = typed
                                }
                            } else {
                                _$nickname = typed
                            }
                        case 3:
                            let typed = try SwiftData._storedValue(value, as: _$imageData, of: self, property: property)
                            _$unlink(property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: User._$keyPath$imageData) {
                                    _$imageData = typed
                                }
                            } else {
                                _$imageData = typed
                            }
                        default:
                            break
                        }
                    }
                }

                extension User: SwiftData.PersistentModel, Observation.Observable {
                }
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
        #expect(plain.contains("access(self, keyPath: Item._$keyPath$name)"))
        let nested = expand("struct Box<T> { @Model final class Item { var name: String } }").expanded
        #expect(!nested.contains("static let _$keyPath$"))
        #expect(nested.contains("access(self, keyPath: \\.name)"))
    }
}
