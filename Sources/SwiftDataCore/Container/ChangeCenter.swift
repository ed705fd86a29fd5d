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
        let deliver: @Sendable (Notice) -> Void
    }

    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])

    package init() {}

    /// Delivers notices to `deliver` for as long as `owner` lives.
    package func subscribe(_ owner: AnyObject, deliver: @escaping @Sendable (Notice) -> Void) {
        let subscriber = Subscriber(owner: owner, deliver: deliver)
        subscribers.withLock { $0[ObjectIdentifier(owner)] = subscriber }
    }

    package func unsubscribe(_ owner: AnyObject) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(owner)) }
    }

    /// Sends a notice to every live subscriber but its origin.
    package func post(_ notice: Notice) {
        // One pass, which allocates nothing when the origin is the only subscriber (a context saving alone).
        let receivers = subscribers.withLock { subscribers in
            var receivers: [@Sendable (Notice) -> Void] = []
            var hasGone = false
            for (owner, subscriber) in subscribers {
                if subscriber.owner == nil {
                    hasGone = true
                } else if owner != notice.origin {
                    receivers.append(subscriber.deliver)
                }
            }
            if hasGone { subscribers = subscribers.filter { $0.value.owner != nil } }
            return receivers
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
