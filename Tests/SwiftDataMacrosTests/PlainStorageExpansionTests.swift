import Testing

@testable import SwiftDataMacros

@Suite("@Model plain storage expansion")
struct PlainStorageExpansionTests {
    /// A fixed-size attribute of a root model is stored as a plain value, with whether it holds one in the state's
    /// bits: set by every write and load (`_$loadRow` sets all at once), cleared by `_$set(.notLoaded)`, tested by
    /// reads, `_$get` and `_$store`. One declared with an initial value holds it from the start (the state's initial
    /// bits). Other attributes keep optional storage.
    @Test func expandsFixedSizeAttributesToPlainStorage() {
        assertExpansion(
            """
            @Model
            final class Reading {
                var value: Int
                var at: Foundation.Date = .now
                var label: String
                init(value: Int) {
                    self.value = value
                    label = ""
                }
            }
            """,
            expandsTo: #"""
                final class Reading {
                    var value: Int {
                        get {
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: Reading._$keyPath$value)
                            if !_$persistentState._isLoaded(0) {
                                _$fault(0)
                            }
                            return _$value
                        }
                        set {
                            _$attributeWillChange(0)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: Reading._$keyPath$value) {
                                    _$value = newValue
                                    _$persistentState._setLoaded(0)
                                }
                            } else {
                                _$value = newValue
                                _$persistentState._setLoaded(0)
                            }
                            _$attributeDidChange(0)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: Reading._$keyPath$value)
                            _$attributeWillChange(0)
                            if !_$persistentState._isLoaded(0) {
                                _$fault(0)
                            }
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: Reading._$keyPath$value)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: Reading._$keyPath$value)
                                }
                                _$attributeDidChange(0)
                            }
                            yield &_$value
                        }
                    }

                    private static let _$keyPath$value = \Reading.value

                    @exclusivity(unchecked) private var _$value: Int = 0
                    var at: Foundation.Date {
                        get {
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: Reading._$keyPath$at)
                            if !_$persistentState._isLoaded(1) {
                                _$fault(1)
                            }
                            return _$at
                        }
                        set {
                            _$attributeWillChange(1)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: Reading._$keyPath$at) {
                                    _$at = newValue
                                    _$persistentState._setLoaded(1)
                                }
                            } else {
                                _$at = newValue
                                _$persistentState._setLoaded(1)
                            }
                            _$attributeDidChange(1)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: Reading._$keyPath$at)
                            _$attributeWillChange(1)
                            if !_$persistentState._isLoaded(1) {
                                _$fault(1)
                            }
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: Reading._$keyPath$at)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: Reading._$keyPath$at)
                                }
                                _$attributeDidChange(1)
                            }
                            yield &_$at
                        }
                    }

                    private static let _$keyPath$at = \Reading.at

                    @exclusivity(unchecked) private var _$at: Foundation.Date = .now
                    var label: String {
                        get {
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: Reading._$keyPath$label)
                            if case .none = _$label {
                                _$fault(2)
                            }
                            return _$label!
                        }
                        set {
                            _$attributeWillChange(2)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: Reading._$keyPath$label) {
                                    _$label = newValue
                                }
                            } else {
                                _$label = newValue
                            }
                            _$attributeDidChange(2)
                        }
                        _modify {
                            let observed = _$isObserved
                            _$isObserved = true
                            _$observationRegistrar.access(self, keyPath: Reading._$keyPath$label)
                            _$attributeWillChange(2)
                            if case .none = _$label {
                                _$fault(2)
                            }
                            if observed {
                                _$observationRegistrar.willSet(self, keyPath: Reading._$keyPath$label)
                            }
                            defer {
                                if observed {
                                    _$observationRegistrar.didSet(self, keyPath: Reading._$keyPath$label)
                                }
                                _$attributeDidChange(2)
                            }
                            yield &_$label!
                        }
                    }

                    private static let _$keyPath$label = \Reading.label

                    @exclusivity(unchecked) private var _$label: Swift.Optional<String> = nil
                    init(value: Int) {
                        self.value = value
                        label = ""
                    }

                    @exclusivity(unchecked) var _$persistentState = SwiftData._PersistentState(loadedProperties: 0x2)

                    @exclusivity(unchecked) var _$isObserved = false

                    let _$observationRegistrar = Observation.ObservationRegistrar()

                    required init(backingData: borrowing any SwiftData.BackingData<Reading>) {
                    }

                    var persistentBackingData: any SwiftData.BackingData<Reading> {
                        get {
                            SwiftData.DefaultBackingData(for: self)
                        }
                        set {
                        }
                    }

                    static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        [
                            SwiftData.Schema.PropertyMetadata(name: "value", keypath: \Reading.value, defaultValue: nil, metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "at", keypath: \Reading.at, defaultValue: (.now as Foundation.Date), metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "label", keypath: \Reading.label, defaultValue: nil, metadata: nil)
                        ]
                    }

                    func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws {
                        switch property {
                        case 0:
                            try reader.read(column, intoPlain: &_$value)
                            _$persistentState._setLoaded(0)
                        case 1:
                            try reader.read(column, intoPlain: &_$at)
                            _$persistentState._setLoaded(1)
                        case 2:
                            try reader.read(column, into: &_$label)
                        default:
                            break
                        }
                    }

                    func _$loadRow(_ count: Int, from reader: any SwiftData._RowReader, column: Int32) throws -> Bool {
                        guard count == 3 else {
                            return false
                        }
                        try reader.read(column, intoPlain: &_$value)
                        try reader.read(column + 1, intoPlain: &_$at)
                        try reader.read(column + 2, into: &_$label)
                        _$persistentState._setLoaded(properties: 0x3)
                        return true
                    }

                    func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws {
                        switch property {
                        case 0:
                            let value: Swift.Optional<Int> = _$persistentState._isLoaded(0) ? _$value : nil
                            try writer.write(value, parameter, property: "Reading.value")
                        case 1:
                            let value: Swift.Optional<Foundation.Date> = _$persistentState._isLoaded(1) ? _$at : nil
                            try writer.write(value, parameter, property: "Reading.at")
                        case 2:
                            try writer.write(_$label, parameter, property: "Reading.label")
                        default:
                            break
                        }
                    }

                    func _$get(_ property: Int) -> SwiftData._PropertyValue {
                        switch property {
                        case 0:
                            return _$persistentState._isLoaded(0) ? .loaded(_$value) : .notLoaded
                        case 1:
                            return _$persistentState._isLoaded(1) ? .loaded(_$at) : .notLoaded
                        case 2:
                            if let value = _$label {
                                return .loaded(value)
                            } else {
                                return _$linkedValue(2)
                            }
                        default:
                            return .notLoaded
                        }
                    }

                    func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws {
                        switch property {
                        case 0:
                            let typed = try SwiftData._storedValue(value, as: _$value, of: self, property: property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: Reading._$keyPath$value) {
                                    if let typed {
                                        _$value = typed
                                        _$persistentState._setLoaded(0)
                                    } else {
                                        _$persistentState._setUnloaded(0)
                                    }
                                }
                            } else if let typed {
                                _$value = typed
                                _$persistentState._setLoaded(0)
                            } else {
                                _$persistentState._setUnloaded(0)
                            }
                        case 1:
                            let typed = try SwiftData._storedValue(value, as: _$at, of: self, property: property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: Reading._$keyPath$at) {
                                    if let typed {
                                        _$at = typed
                                        _$persistentState._setLoaded(1)
                                    } else {
                                        _$persistentState._setUnloaded(1)
                                    }
                                }
                            } else if let typed {
                                _$at = typed
                                _$persistentState._setLoaded(1)
                            } else {
                                _$persistentState._setUnloaded(1)
                            }
                        case 2:
                            let typed = try SwiftData._storedValue(value, as: _$label, of: self, property: property)
                            _$unlink(property)
                            if _$isObserved {
                                _$observationRegistrar.withMutation(of: self, keyPath: Reading._$keyPath$label) {
                                    _$label = typed
                                }
                            } else {
                                _$label = typed
                            }
                        default:
                            break
                        }
                    }
                }

                extension Reading: SwiftData.PersistentModel, Observation.Observable {
                }
                """#)
    }

    /// The zero a plain storage starts with, for each recognised type.
    @Test func plainStorageStartsAtItsTypesZero() {
        let expanded = expand(
            """
            @Model final class Sample {
                var a: Swift.Int64
                var b: UInt8
                var c: Double
                var d: Float
                var e: Bool
                var f: Date
                var g: Foundation.UUID
            }
            """
        ).expanded
        #expect(expanded.contains("private var _$a: Swift.Int64 = 0"))
        #expect(expanded.contains("private var _$b: UInt8 = 0"))
        #expect(expanded.contains("private var _$c: Double = 0"))
        #expect(expanded.contains("private var _$d: Float = 0"))
        #expect(expanded.contains("private var _$e: Bool = false"))
        #expect(expanded.contains("private var _$f: Date = .init(timeIntervalSinceReferenceDate: 0)"))
        #expect(
            expanded.contains(
                "private var _$g: Foundation.UUID = .init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))"))
        #expect(expanded.contains("_$persistentState._setLoaded(properties: 0x7f)"))
        #expect(expanded.contains("var _$persistentState = SwiftData._PersistentState()"), "none has an initial value")
    }

    /// Optional types, other types, transformable attributes, relationships, properties numbered 32 and later, and
    /// the properties of a class that inherits from anything keep optional storage.
    @Test func otherPropertiesKeepOptionalStorage() {
        let expanded = expand(
            """
            @Model final class Sample {
                var maybe: Int?
                var count: Swift.Optional<Int>
                var name: Name
                var generic: Array<Int>
                @Attribute(.transformable(by: Scaler.self)) var scaled: Double
                @Relationship var number: Int
            }
            """
        ).expanded
        for declaration in [
            "_$maybe: Swift.Optional<Int?>", "_$count: Swift.Optional<Swift.Optional<Int>>",
            "_$name: Swift.Optional<Name>",
            "_$generic: Swift.Optional<Array<Int>>", "_$scaled: Swift.Optional<Double>",
            "_$number: Swift.Optional<Int>",
        ] {
            #expect(expanded.contains("private var \(declaration) = "), "\(declaration)")
        }
        #expect(!expanded.contains("_isLoaded"))
        let wide = expand(
            "@Model final class Wide {\n" + (0..<34).map { "var v\($0): Int\n" }.joined() + "}"
        ).expanded
        #expect(wide.contains("private var _$v31: Int = 0"))
        #expect(wide.contains("private var _$v32: Swift.Optional<Int> = nil"))
        #expect(wide.contains("_$persistentState._setLoaded(properties: 0xffffffff)"))
        let inheriting = expand("@Model class Child: Parent { var count: Int }").expanded
        #expect(inheriting.contains("private var _$count: Swift.Optional<Int> = nil"))
    }

    /// Setters of attributes of standard types, spelled plainly, qualified or optional, call the attribute hooks,
    /// which need no overload resolution; any other type (an enum, a generic, a transformable, a relationship)
    /// keeps the overloaded hooks that pick by type what a change does.
    @Test func standardAttributesCallTheAttributeHooks() {
        let expanded = expand(
            """
            @Model final class Sample {
                var text: String?
                var count: Swift.Optional<Int>
                var blob: Foundation.Data
                var link: URL!
                var amount: Decimal
                var name: Name
                var generic: Array<Int>
                @Attribute(.transformable(by: Scaler.self)) var scaled: Double
                @Relationship var number: Int
                var inferred = ""
            }
            """
        ).expanded
        for (index, standard) in ["text", "count", "blob", "link", "amount"].enumerated() {
            #expect(expanded.contains("_$attributeWillChange(\(index))"), "\(standard)")
            #expect(expanded.contains("_$attributeDidChange(\(index))"), "\(standard)")
            #expect(!expanded.contains("_$willSet(\(index), _$\(standard))"), "\(standard)")
            #expect(!expanded.contains("let oldValue = _$\(standard)"), "\(standard)")
            #expect(!expanded.contains("_$linked(\(index),"), "\(standard)")
        }
        for (index, other) in ["name", "generic", "scaled", "number", "inferred"].enumerated() {
            #expect(expanded.contains("_$willSet(\(index + 5), _$\(other))"), "\(other)")
            #expect(expanded.contains("let oldValue = _$\(other)"), "\(other)")
        }
        #expect(!expanded.contains("_$attributeWillChange(5)"))
    }
}
