/// The models a fetch loop makes, gathered one by one and handed over as one `[T]`.
///
/// The loops that turn rows into models are generic code the compiler does not specialise, and there each append
/// to an array of a generic type (`[T]`, or any generic wrapper of it) looked up that type's metadata (a hash table
/// search, about 330 instructions a model). References of any class are kept alike, so the list gathers them as
/// `AnyObject`, whose array code is specialised, and hands its storage over as the `[T]` at the end.
struct ModelList {
    private var objects: [AnyObject] = []

    /// An empty list.
    init() {}

    /// An empty list with room for `capacity` models.
    init(capacity: Int) { objects.reserveCapacity(capacity) }

    /// The number of models gathered so far.
    var count: Int { objects.count }

    /// Adds `model`, taking the caller's reference to it (the loops hand over each new model, so no retain and
    /// release is spent on passing it on).
    mutating func append(_ model: consuming AnyObject) { objects.append(model) }

    /// The models gathered, in order, in the list's own storage; every one must be a `T`.
    func models<T: AnyObject>(of type: T.Type) -> [T] {
        assert(objects.allSatisfy { $0 is T }, "a ModelList gathered a model that is not a \(T.self)")
        // unsafeBitCast: an array of class references keeps one strong reference per element and releases them
        // alike whatever their class, so `[AnyObject]` and `[T]` share one layout, and every element is a T. (A copy
        // into a new `[T]` cost an allocation and a copy of the whole array.)
        return unsafeBitCast(objects, to: [T].self)
    }
}
