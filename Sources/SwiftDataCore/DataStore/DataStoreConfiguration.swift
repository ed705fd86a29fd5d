/// Apple's description of a store to open: its name, the models it holds, and (through `Store`) the store type that
/// opens it. `ModelConfiguration` is one, whose store is `DefaultStore` (this package's SQLite store); a store of
/// your own comes with a configuration type of its own.
public protocol DataStoreConfiguration: Hashable {
    /// The store this configuration opens.
    associatedtype Store: DataStore where Self == Store.Configuration

    /// The configuration's name.
    var name: String { get }
    /// The models the store holds; `nil` means all of the container's. The container sets it before opening the
    /// store.
    var schema: Schema? { get set }

    /// Throws when the configuration cannot open a store.
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts every configuration.
    public func validate() throws {}
}
