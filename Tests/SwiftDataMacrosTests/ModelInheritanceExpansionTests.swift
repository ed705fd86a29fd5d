import Testing

/// Expansions for model inheritance: a class that may have subclasses, and a subclass of a `@Model` class.
@Suite("@Model expansion with inheritance")
struct ModelInheritanceExpansionTests {
    /// A root that is not final: its metadata is rooted at whichever subclass asks, subclasses can name it in
    /// `init(backingData:)`, and its constraints can be overridden.
    @Test func expandsARootThatMayHaveSubclasses() {
        assertExpansion(
            """
            @Model class Media {
                #Unique<Media>([\\.title])
                var title: String
                init(title: String) { self.title = title }
            }
            """,
            expandsTo: #"""
                class Media {
                    #Unique<Media>([\.title])
                    var title: String {
                        get {
                            _$access(Media._$keyPath$title, _$observationRegistrar)
                            if case .none = _$title {
                                _$fault(0)
                            }
                            return _$title!
                        }
                        set {
                            let observed = _$willChange(0, Media._$keyPath$title, _$observationRegistrar)
                            _$title = newValue
                            _$didChange(0, Media._$keyPath$title, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModify(0, Media._$keyPath$title, _$observationRegistrar, _$title)
                            defer {
                                _$didChange(0, Media._$keyPath$title, _$observationRegistrar, observed)
                            }
                            yield &_$title!
                        }
                    }

                    private static let _$keyPath$title = \Media.title

                    @exclusivity(unchecked) private var _$title: Swift.Optional<String> = nil
                    init(title: String) { self.title = title }

                    @exclusivity(unchecked) var _$persistentState = SwiftData._PersistentState()

                    @exclusivity(unchecked) var _$isObserved = false

                    let _$observationRegistrar = Observation.ObservationRegistrar()

                    required init(backingData: borrowing any SwiftData.BackingData<Media>) {}

                    var persistentBackingData: any SwiftData.BackingData<Media> {
                        get {
                            SwiftData.DefaultBackingData(for: self)
                        }
                        set {}
                    }

                    typealias _$RootModel = Media

                    class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        _$propertyMetadata(Media.self)
                    }

                    static func _$propertyMetadata<Root: Media>(_ root: Root.Type) -> [SwiftData.Schema.PropertyMetadata] {
                        [
                            SwiftData.Schema.PropertyMetadata(name: "title", keypath: \Root.title, defaultValue: nil, metadata: nil)
                        ]
                    }

                    class var _$uniquenessConstraints: [[AnyKeyPath]] { [[\Media.title] as [AnyKeyPath]] }

                    class var _$indices: [[AnyKeyPath]] { [] }

                    class var _$spatialIndices: [[AnyKeyPath]] { [] }

                    class var _$searchIndices: [[AnyKeyPath]] { [] }

                    func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws {
                        switch property {
                        case 0: _$title = try reader.string(column)
                        default: break
                        }
                    }

                    func _$loadRow(_ count: Int, from reader: any SwiftData._RowReader, column: Int32) throws -> Bool {
                        guard _$readsRow(count, 1) else {
                            return false
                        }
                        _$title = try reader.string(column)
                        return true
                    }

                    func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws {
                        switch property {
                        case 0: try writer.write(_$title, parameter, property: "Media.title")
                        default: break
                        }
                    }

                    func _$get(_ property: Int) -> SwiftData._PropertyValue {
                        switch property {
                        case 0: return _$value(0, _$title)
                        default: return .notLoaded
                        }
                    }

                    func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws {
                        switch property {
                        case 0: try _$assign(property, value, &_$title, Media._$keyPath$title, _$observationRegistrar)
                        default: break
                        }
                    }
                }

                extension Media: SwiftData.PersistentModel, Observation.Observable {}
                """#)
    }

    /// A subclass: the compiler passes no conformance to add, since the superclass has them. Its properties are
    /// numbered after the inherited ones, may be assigned before `super.init`, and its functions pass the
    /// inherited properties to `super`.
    @Test func expandsASubclassWithAnInitializer() {
        assertExpansion(
            """
            @Model final class Movie: Media {
                var director: String
                init(title: String, director: String) {
                    self.director = director
                    super.init(title: title)
                }
            }
            """,
            expandsTo: #"""
                final class Movie: Media {
                    var director: String {
                        @storageRestrictions(initializes: _$director)
                        init(initialValue) {
                            _$director = .some(initialValue)
                        }
                        get {
                            _$access(Movie._$keyPath$director, _$observationRegistrar)
                            if case .none = _$director {
                                _$fault(_$InheritedProperties.count + 0)
                            }
                            return _$director!
                        }
                        set {
                            let observed = _$willChange(_$InheritedProperties.count + 0, Movie._$keyPath$director, _$observationRegistrar)
                            _$director = newValue
                            _$didChange(_$InheritedProperties.count + 0, Movie._$keyPath$director, _$observationRegistrar, observed)
                        }
                        _modify {
                            let observed = _$willModify(_$InheritedProperties.count + 0, Movie._$keyPath$director, _$observationRegistrar, _$director)
                            defer {
                                _$didChange(_$InheritedProperties.count + 0, Movie._$keyPath$director, _$observationRegistrar, observed)
                            }
                            yield &_$director!
                        }
                    }

                    private static let _$keyPath$director = \Movie.director

                    @exclusivity(unchecked) private var _$director: Swift.Optional<String> = nil
                    init(title: String, director: String) {
                        self.director = director
                        super.init(title: title)
                    }

                    enum _$InheritedProperties {
                        static let count = Media.schemaMetadata.count
                    }

                    required init(backingData: borrowing any SwiftData.BackingData<_$RootModel>) {
                        super.init(backingData: backingData)
                    }

                    override class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        _$propertyMetadata(Movie.self)
                    }

                    static func _$propertyMetadata<Root: Movie>(_ root: Root.Type) -> [SwiftData.Schema.PropertyMetadata] {
                        Media._$propertyMetadata(root) + [
                            SwiftData.Schema.PropertyMetadata(name: "director", keypath: \Root.director, defaultValue: nil, metadata: nil)
                        ]
                    }

                    override func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws {
                        switch property - _$InheritedProperties.count {
                        case 0: _$director = try reader.string(column)
                        default: try super._$load(property, from: reader, column: column)
                        }
                    }

                    override func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws {
                        switch property - _$InheritedProperties.count {
                        case 0: try writer.write(_$director, parameter, property: "Movie.director")
                        default: try super._$store(property, into: writer, parameter: parameter)
                        }
                    }

                    override func _$get(_ property: Int) -> SwiftData._PropertyValue {
                        switch property - _$InheritedProperties.count {
                        case 0: return _$value(property, _$director)
                        default: return super._$get(property)
                        }
                    }

                    override func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws {
                        switch property - _$InheritedProperties.count {
                        case 0: try _$assign(property, value, &_$director, Movie._$keyPath$director, _$observationRegistrar)
                        default: try super._$set(property, value)
                        }
                    }
                }
                """#, conformances: [])
    }

    /// Without an initializer of its own a subclass keeps every inherited initializer, so none is generated; its
    /// own constraints override the parent's list.
    @Test func subclassWithoutAnInitializerInheritsThem() {
        let expanded = expand(
            """
            @Model final class Episode: Podcast {
                #Unique<Episode>([\\.number])
                var number: Int = 1
            }
            """, conformances: []
        ).expanded
        #expect(!expanded.contains("init(backingData:"))
        #expect(expanded.contains("override class var _$uniquenessConstraints: [[AnyKeyPath]] {"))
        #expect(expanded.contains("[[\\Episode.number] as [AnyKeyPath]]"))
        #expect(expanded.contains("Podcast._$propertyMetadata(root) + ["))
        #expect(!expanded.contains("_$persistentState"), "the bookkeeping is inherited")
    }

    /// A class that inherits from a class that is not a model is a root: the compiler still asks for
    /// `PersistentModel`. Its properties count from `SwiftData._$InheritedProperties`, which is zero.
    @Test func inheritanceClauseWithoutAModelParentIsARoot() {
        let expanded = expand(
            """
            @Model class Item: NSObject {
                var name: String
                init(name: String) { self.name = name }
            }
            """
        ).expanded
        #expect(expanded.contains("_$fault(_$InheritedProperties.count + 0)"))
        #expect(expanded.contains("@storageRestrictions(initializes: _$name)"))
        #expect(expanded.contains("@exclusivity(unchecked) var _$persistentState = SwiftData._PersistentState()"))
        #expect(expanded.contains("required init(backingData: borrowing any SwiftData.BackingData<Item>) {"))
        #expect(expanded.contains("extension Item: SwiftData.PersistentModel, Observation.Observable {"))
        #expect(!expanded.contains("enum _$InheritedProperties"))
    }

    /// A class whose inheritance clause starts with a standard protocol has no superclass: its properties are
    /// numbered from zero, and a fixed-size attribute has plain storage, as in a class without the clause.
    @Test func aClauseOfProtocolsNumbersPropertiesFromZero() {
        let expanded = expand(
            """
            @Model final class Item: Identifiable, Hashable {
                var name: String
                var count: Int
                init(name: String, count: Int) {
                    self.name = name
                    self.count = count
                }
            }
            """
        ).expanded
        #expect(expanded.contains("_$fault(0)"))
        #expect(!expanded.contains("_$InheritedProperties.count"))
        #expect(!expanded.contains("@storageRestrictions"))
        #expect(expanded.contains("@exclusivity(unchecked) private var _$count: Int = 0"))
        #expect(expanded.contains("extension Item: SwiftData.PersistentModel, Observation.Observable {"))
    }

    /// Spelling out `PersistentModel` in the inheritance clause keeps a class a root, though it conforms already.
    @Test func explicitConformanceIsARoot() {
        let expanded = expand("@Model class Note: PersistentModel {\n    var text = \"\"\n}", conformances: []).expanded
        #expect(expanded.contains("var _$persistentState"))
        #expect(!expanded.contains("override"))
    }
}
