// End-to-end: what listctl says when it cannot connect, and the sockets it refuses to trust.
import Foundation
import XCTest

final class ListctlConnectTests: XCTestCase {
  private var directory = ""
  /// A script for `listctl run` that sends nothing.
  private var script = ""

  override func setUpWithError() throws {
    var template = Array("/tmp/listctl-connect-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw NSError(domain: "mkdtemp", code: Int(errno))
    }
    directory = String(cString: made)
    script = directory + "/script.jsonl"
    try Data(#"{"comment":"nothing to send"}"#.utf8).write(to: URL(fileURLWithPath: script))
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The environment that puts the default socket at `directory/listd/listd.sock`.
  private var runtime: [String: String] { ["XDG_RUNTIME_DIR": directory] }
  private var defaultSocket: String { directory + "/listd/listd.sock" }

  func testNoDaemonAtTheDefaultPathSaysHowToStartOneAndThatWorks() throws {
    let run = try runListctl(["lists"], environment: runtime)
    XCTAssertEqual(run.status, 3)
    XCTAssertEqual(
      run.stderr,
      "listctl: cannot connect to \(defaultSocket): No such file or directory"
        + " — start a daemon with 'listd --listen --stay', or use --spawn\n")
    XCTAssertEqual(run.stdout, "")

    // Following the advice works.
    let daemon = try StartedListd(["--listen", "--stay"], environment: runtime, socket: defaultSocket)
    defer { daemon.stop() }
    let lists = try runListctl(["lists", "--json"], environment: runtime)
    XCTAssertEqual(lists.status, 0, lists.stderr)
    XCTAssertEqual(lists.stdout, "{\n  \"lists\": []\n}\n")
  }

  func testNoDaemonAtAnExplicitPathSaysHowToStartOneThere() throws {
    let socket = directory + "/s"
    let expected =
      "listctl: cannot connect to \(socket): No such file or directory"
      + " — start a daemon with 'listd --listen \(socket) --stay', or use --spawn\n"
    for arguments in [["lists"], ["run", script]] {
      let run = try runListctl(["--socket", socket] + arguments)
      XCTAssertEqual(run.status, 3, "\(arguments)")
      XCTAssertEqual(run.stderr, expected, "\(arguments)")
    }

    // Following the advice works.
    let daemon = try StartedListd(["--listen", socket, "--stay"], socket: socket)
    defer { daemon.stop() }
    let lists = try runListctl(["--socket", socket, "lists", "--json"])
    XCTAssertEqual(lists.status, 0, lists.stderr)
  }

  func testAStaleSocketSaysConnectionRefusedAndHowToStartADaemon() throws {
    let socket = directory + "/s"
    let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socket.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    XCTAssertEqual(bound, 0)
    close(fd)  // bound, never listened on: what a daemon killed with SIGKILL leaves
    let run = try runListctl(["--socket", socket, "lists"])
    XCTAssertEqual(run.status, 3)
    XCTAssertEqual(
      run.stderr,
      "listctl: cannot connect to \(socket): Connection refused"
        + " — start a daemon with 'listd --listen \(socket) --stay', or use --spawn\n")
  }

  func testASocketPathThatIsADirectoryIsNamedSo() throws {
    for arguments in [["lists"], ["run", script]] {
      let run = try runListctl(["--socket", directory] + arguments)
      XCTAssertEqual(run.status, 3, "\(arguments)")
      XCTAssertEqual(run.stderr, "listctl: cannot connect to \(directory): it is a directory, not a socket\n")
    }
  }

  /// `listd` refuses to serve in a directory others can enter, so the hint must not suggest it.
  func testNoDaemonInASharedDirectorySuggestsAPrivateOne() throws {
    let run = try runListctl(["--socket", "/tmp/listctl-nobody-here.sock", "lists"])
    XCTAssertEqual(run.status, 3)
    XCTAssertTrue(run.stderr.contains("in a directory only you can enter (/tmp is mode 777)"), run.stderr)
  }

  /// Another user could make the default directory first and listen there; a directory others
  /// can enter is refused before connecting.
  func testADefaultDirectoryOthersCanEnterIsRefused() throws {
    let daemon = try StartedListd(["--listen", "--stay"], environment: runtime, socket: defaultSocket)
    defer { daemon.stop() }
    XCTAssertEqual(try runListctl(["lists"], environment: runtime).status, 0)
    XCTAssertEqual(chmod(directory + "/listd", 0o755), 0)
    for arguments in [["lists"], ["run", script]] {
      let run = try runListctl(arguments, environment: runtime)
      XCTAssertEqual(run.status, 3, "\(arguments): \(run.stderr)")
      XCTAssertEqual(
        run.stderr,
        "listctl: cannot connect to \(defaultSocket): \(directory)/listd can be entered by other users"
          + " (mode 755); use a directory only you can enter (chmod 700)\n")
    }
  }

  /// A socket file another user owns is refused, at the default path and at an explicit one.
  func testASocketOwnedBySomeoneElseIsRefused() throws {
    guard getuid() == 0 else { throw XCTSkip("needs root to give the socket to another uid") }
    let daemon = try StartedListd(["--listen", "--stay"], environment: runtime, socket: defaultSocket)
    defer { daemon.stop() }
    XCTAssertEqual(chown(defaultSocket, 65534, 65534), 0)
    let expected =
      "listctl: cannot connect to \(defaultSocket): the socket belongs to uid 65534, not to this user (uid 0)\n"
    for (arguments, environment) in [
      (["lists"], runtime), (["--socket", defaultSocket, "lists"], [:]), (["run", script], runtime),
    ] {
      let run = try runListctl(arguments, environment: environment)
      XCTAssertEqual(run.status, 3, "\(arguments): \(run.stderr)")
      XCTAssertEqual(run.stderr, expected, "\(arguments)")
    }
  }
}

/// A `listd` with `arguments` (and `environment` added to the test's), up once `socket` exists.
private final class StartedListd {
  private let process = Process()
  private let stdin = Pipe()

  init(_ arguments: [String], environment: [String: String] = [:], socket: String) throws {
    process.executableURL = buildDirectory.appendingPathComponent("listd")
    process.arguments = arguments + ["--log-level", "warning"]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice  // its stdio session's last word, daemon/stopping
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(5_000) }
    guard FileManager.default.fileExists(atPath: socket) else {
      stop()
      throw NSError(domain: "listd did not create \(socket)", code: 1)
    }
  }

  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}
