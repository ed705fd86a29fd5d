import Foundation
import Testing

@testable import SwiftDataCore

/// The change center's subscribers go away on any thread, while another posts.
@Suite struct ChangeCenterTests {
    /// An owner that unsubscribes as it goes away, as a context does.
    private final class Owner: Sendable {
        let center: ChangeCenter
        init(_ center: ChangeCenter) { self.center = center }
        deinit { center.unsubscribe(self) }
    }

    /// One thread makes and drops subscribers while another posts. A post that looked at a subscriber's owner under
    /// its lock could hold the owner's last reference; the owner then unsubscribed from inside the post, and the
    /// lock, taken twice, stopped the program ("Recursive call to lock Mutex"). Each run makes the race likely,
    /// not certain: `SWIFTDATA_STRESS_ROUNDS` runs it longer.
    @Test func ownersGoingAwayWhileAPostLooksAtThemUnsubscribe() async {
        let center = ChangeCenter()
        let rounds = 100_000 * (Int(ProcessInfo.processInfo.environment["SWIFTDATA_STRESS_ROUNDS"] ?? "") ?? 1)
        let delivered = Task.detached {
            var posts = 0
            for _ in 0..<rounds {
                center.post(ChangeCenter.Notice(origin: nil))
                posts += 1
            }
            return posts
        }
        let subscribed = Task.detached {
            var owners = 0
            for _ in 0..<rounds {
                let owner = Owner(center)
                center.subscribe(owner) { _ in }
                owners += 1
            }
            return owners
        }
        #expect(await delivered.value == rounds)
        #expect(await subscribed.value == rounds)
        center.post(ChangeCenter.Notice(origin: nil))
    }
}
