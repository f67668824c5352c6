// The event loop's backends keep its contract: one-shot reports, re-arming, the interest of now, removal; and LISTD_EVENT_LOOP's choice.
import Foundation
import XCTest

@testable import JSONRPC

final class EventBackendTests: XCTestCase {
  /// The backends this build has, fresh (not the process's shared loop).
  private var backends: [(EventLoopKind, any EventBackend)] {
    EventLoopKind.available.map { ($0, $0.makeBackend()) }
  }

  /// A connected socket pair, closed after the test.
  private func socketPair() throws -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Platform.streamSocket, 0, &fds) == 0 else {
      throw ConnectionError.system("socketpair", errno)
    }
    addTeardownBlock {
      close(fds[0])
      close(fds[1])
    }
    return (fds[0], fds[1])
  }

  /// The next report of `backend`, waited for on another thread (nil after 10 s: none came).
  private func nextReport(_ backend: any EventBackend) -> Readiness? {
    let result = Locked<Readiness?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      while true {
        if let event = backend.wait() {
          result.withLock { $0 = event }
          break
        }
      }
      done.signal()
    }.start()
    guard done.wait(timeout: .now() + 10) == .success else { return nil }
    return result.withLock { $0 }
  }

  func testEachBackendReportsReadinessOnceUntilRearmed() throws {
    for (kind, backend) in backends {
      let (mine, peer) = try socketPair()
      var byte: UInt8 = 7
      XCTAssertEqual(write(peer, &byte, 1), 1)
      XCTAssertTrue(backend.add(mine, token: 41, input: true, output: false), "\(kind)")
      let first = nextReport(backend)
      XCTAssertEqual(first?.token, 41, "\(kind)")
      XCTAssertEqual(first?.readable, true, "\(kind)")
      XCTAssertEqual(first?.writable, false, "\(kind): output was not asked for")

      // Re-armed for output only: the unread byte is not reported, room to write is.
      backend.rearm(mine, token: 41, input: false, output: true)
      let second = nextReport(backend)
      XCTAssertEqual(second?.token, 41, "\(kind)")
      XCTAssertEqual(second?.writable, true, "\(kind)")
      XCTAssertEqual(second?.readable, false, "\(kind)")

      // Removed: a descriptor ready for both reports nothing more; another one still does.
      backend.remove(mine, token: 41)
      let (other, otherPeer) = try socketPair()
      XCTAssertEqual(write(otherPeer, &byte, 1), 1)
      XCTAssertTrue(backend.add(other, token: 42, input: true, output: false), "\(kind)")
      XCTAssertEqual(nextReport(backend)?.token, 42, "\(kind): the removed descriptor was reported")
    }
  }

  func testAHangUpCountsAsFailedForAnyInterest() throws {
    for (kind, backend) in backends {
      let (mine, peer) = try socketPair()
      XCTAssertTrue(backend.add(mine, token: 9, input: true, output: false), "\(kind)")
      close(peer)
      let report = nextReport(backend)
      XCTAssertEqual(report?.token, 9, "\(kind)")
      XCTAssertTrue(
        report?.readable == true || report?.failed == true, "\(kind): \(String(describing: report))")
    }
  }

  func testLISTD_EVENT_LOOPChoosesAndAnUnknownNameIsRefusedNamingTheValue() throws {
    XCTAssertEqual(try EventLoopKind.chosen([:]), EventLoopKind.available[0])
    XCTAssertEqual(try EventLoopKind.chosen(["LISTD_EVENT_LOOP": ""]), EventLoopKind.available[0])
    XCTAssertEqual(try EventLoopKind.chosen(["LISTD_EVENT_LOOP": "poll"]), .poll)
    #if os(Linux)
      XCTAssertEqual(EventLoopKind.available[0], .epoll, "Linux keeps epoll as the default")
    #endif
    for value in ["select", "POLL", "kqueue ", "epoll,poll"] {
      XCTAssertThrowsError(try EventLoopKind.chosen(["LISTD_EVENT_LOOP": value])) { error in
        XCTAssertTrue("\(error)".contains("LISTD_EVENT_LOOP=\(value): unknown event loop"), "\(error)")
      }
    }
    let missing = EventLoopKind.allCases.first { !EventLoopKind.available.contains($0) }!
    XCTAssertThrowsError(try EventLoopKind.chosen(["LISTD_EVENT_LOOP": missing.rawValue])) { error in
      XCTAssertTrue("\(error)".contains("not available on this platform"), "\(error)")
    }
  }
}
