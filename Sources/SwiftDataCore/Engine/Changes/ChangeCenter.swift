import Foundation
import Synchronization

/// Carries what a context saved, or what another process changed, to the other contexts and observers of a
/// container. Each subscriber receives notices on whatever thread posts them, and decides where to apply them.
package final class ChangeCenter: Sendable {
    /// One save, or a change by another process (then anything may have changed).
    package struct Notice: Sendable {
        package var inserted: [PersistentIdentifier] = []
        package var updated: [PersistentIdentifier] = []
        package var deleted: [PersistentIdentifier] = []
        /// Another process changed the store; the lists are empty.
        package var isExternal = false
        /// The context that saved, which needs no notice.
        package var origin: ObjectIdentifier?
    }

    // @unchecked Sendable: `owner` is only compared with nil (to drop a subscriber that is gone), never used.
    private struct Subscriber: @unchecked Sendable {
        weak var owner: AnyObject?
        /// Tells this subscription from a later one of an owner at the same address.
        let token: UInt64
        let deliver: @Sendable (Notice) -> Void
    }

    /// The subscribers by owner. Nothing under this lock reads an owner or releases a subscriber: reading a weak
    /// reference takes a strong one, and if that is the owner's last, its `deinit` runs there and unsubscribes, which
    /// takes the lock again.
    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])
    private let tokens = Atomic<UInt64>(0)

    package init() {}

    /// Delivers notices to `deliver` for as long as `owner` lives.
    package func subscribe(_ owner: AnyObject, deliver: @escaping @Sendable (Notice) -> Void) {
        let token = tokens.add(1, ordering: .relaxed).newValue
        let subscriber = Subscriber(owner: owner, token: token, deliver: deliver)
        let replaced = subscribers.withLock { $0.updateValue(subscriber, forKey: ObjectIdentifier(owner)) }
        _ = replaced  // released here, outside the lock
    }

    package func unsubscribe(_ owner: AnyObject) {
        let removed = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(owner)) }
        _ = removed  // released here, outside the lock
    }

    /// Sends a notice to every live subscriber but its origin.
    package func post(_ notice: Notice) {
        // The subscribers are copied (a reference to the dictionary's storage, no allocation) and their owners
        // read outside the lock; a pass over them allocates nothing when the origin is the only subscriber.
        let current = subscribers.withLock { $0 }
        var receivers: [@Sendable (Notice) -> Void] = []
        var gone: [(owner: ObjectIdentifier, token: UInt64)] = []
        for (owner, subscriber) in current {
            if subscriber.owner == nil {
                gone.append((owner, subscriber.token))
            } else if owner != notice.origin {
                receivers.append(subscriber.deliver)
            }
        }
        if !gone.isEmpty {
            let removed = subscribers.withLock { subscribers in
                gone.compactMap { owner, token in
                    subscribers[owner]?.token == token ? subscribers.removeValue(forKey: owner) : nil
                }
            }
            _ = removed  // released here, outside the lock
        }
        for deliver in receivers { deliver(notice) }
    }
}

/// Notices waiting for a context, safe to fill from any thread.
package final class ChangeInbox: Sendable {
    private let notices = Mutex<[ChangeCenter.Notice]>([])
    /// Where the context runs, when it has a place: notices are applied there as soon as they arrive.
    let schedule = Mutex<(@Sendable (@escaping @Sendable () -> Void) -> Void)?>(nil)

    init() {}

    func append(_ notice: ChangeCenter.Notice) -> Bool {
        notices.withLock { notices in
            notices.append(notice)
            return notices.count == 1
        }
    }

    func drain() -> [ChangeCenter.Notice] {
        notices.withLock { notices in
            defer { notices = [] }
            return notices
        }
    }

    var isEmpty: Bool { notices.withLock { $0.isEmpty } }
}
