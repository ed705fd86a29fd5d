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
                            _$readPlain(0, Reading._$keyPath$value, _$observationRegistrar)
                            return _$value
                        }
                        set {
                            let observed = _$willChange(0, Reading._$keyPath$value, _$observationRegistrar)
                            _$value = newValue
                            _$didChangePlain(0, Reading._$keyPath$value, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModifyPlain(0, Reading._$keyPath$value, _$observationRegistrar)
                            defer {
                                _$didChange(0, Reading._$keyPath$value, _$observationRegistrar, observed)
                            }
                            yield &_$value
                        }
                    }

                    private static let _$keyPath$value = \Reading.value

                    @exclusivity(unchecked) private var _$value: Int = 0
                    var at: Foundation.Date {
                        get {
                            _$readPlain(1, Reading._$keyPath$at, _$observationRegistrar)
                            return _$at
                        }
                        set {
                            let observed = _$willChange(1, Reading._$keyPath$at, _$observationRegistrar)
                            _$at = newValue
                            _$didChangePlain(1, Reading._$keyPath$at, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModifyPlain(1, Reading._$keyPath$at, _$observationRegistrar)
                            defer {
                                _$didChange(1, Reading._$keyPath$at, _$observationRegistrar, observed)
                            }
                            yield &_$at
                        }
                    }

                    private static let _$keyPath$at = \Reading.at

                    @exclusivity(unchecked) private var _$at: Foundation.Date = .now
                    var label: String {
                        get {
                            _$access(Reading._$keyPath$label, _$observationRegistrar)
                            if case .none = _$label {
                                _$fault(2)
                            }
                            return _$label!
                        }
                        set {
                            let observed = _$willChange(2, Reading._$keyPath$label, _$observationRegistrar)
                            _$label = newValue
                            _$didChange(2, Reading._$keyPath$label, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModify(2, Reading._$keyPath$label, _$observationRegistrar, _$label)
                            defer {
                                _$didChange(2, Reading._$keyPath$label, _$observationRegistrar, observed)
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

                    required init(backingData: borrowing any SwiftData.BackingData<Reading>) {}

                    var persistentBackingData: any SwiftData.BackingData<Reading> {
                        get {
                            SwiftData.DefaultBackingData(for: self)
                        }
                        set {}
                    }

                    static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        [
                            SwiftData.Schema.PropertyMetadata(name: "value", keypath: Reading._$keyPath$value, defaultValue: nil, metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "at", keypath: Reading._$keyPath$at, defaultValue: (.now as Foundation.Date), metadata: nil),
                            SwiftData.Schema.PropertyMetadata(name: "label", keypath: Reading._$keyPath$label, defaultValue: nil, metadata: nil)
                        ]
                    }

                    func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws {
                        switch property {
                        case 0:
                            _$value = try reader.int(column)
                            _$persistentState._setLoaded(0)
                        case 1:
                            _$at = try reader.date(column)
                            _$persistentState._setLoaded(1)
                        case 2: _$label = try reader.string(column)
                        default: break
                        }
                    }

                    func _$loadRow(_ count: Int, from reader: any SwiftData._RowReader, column: Int32) throws -> Bool {
                        guard _$readsRow(count, 3) else {
                            return false
                        }
                        _$value = try reader.int(column)
                        _$at = try reader.date(column + 1)
                        _$label = try reader.string(column + 2)
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
                        case 2: try writer.write(_$label, parameter, property: "Reading.label")
                        default: break
                        }
                    }

                    func _$get(_ property: Int) -> SwiftData._PropertyValue {
                        switch property {
                        case 0: return _$plainValue(0, _$value)
                        case 1: return _$plainValue(1, _$at)
                        case 2: return _$value(2, _$label)
                        default: return .notLoaded
                        }
                    }

                    func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws {
                        switch property {
                        case 0: try _$assignPlain(0, value, &_$value, Reading._$keyPath$value, _$observationRegistrar)
                        case 1: try _$assignPlain(1, value, &_$at, Reading._$keyPath$at, _$observationRegistrar)
                        case 2: try _$assign(property, value, &_$label, Reading._$keyPath$label, _$observationRegistrar)
                        default: break
                        }
                    }
                }

                extension Reading: SwiftData.PersistentModel, Observation.Observable {}
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
            #expect(expanded.contains("_$willChange(\(index), Sample._$keyPath$\(standard)"), "\(standard)")
            #expect(expanded.contains("_$didChange(\(index), Sample._$keyPath$\(standard)"), "\(standard)")
            #expect(!expanded.contains("_$willSet(\(index), _$\(standard))"), "\(standard)")
            #expect(!expanded.contains("let oldValue = _$\(standard)"), "\(standard)")
            #expect(!expanded.contains("_$linked(\(index),"), "\(standard)")
        }
        for (index, other) in ["name", "generic", "scaled", "number", "inferred"].enumerated() {
            #expect(expanded.contains("_$willSet(\(index + 5), _$\(other))"), "\(other)")
            #expect(expanded.contains("let oldValue = _$\(other)"), "\(other)")
        }
        #expect(!expanded.contains("_$willChange(5,"))
    }
}
