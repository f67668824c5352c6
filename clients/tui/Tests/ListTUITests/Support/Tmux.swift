// A private tmux server running one command in a pane of fixed size: send keys, read the screen.
import Foundation
import XCTest

/// A tmux session on its own server socket (`tmux -L NAME`), killed by ``kill()``.
final class Tmux {
  let name: String
  private let tmux: String

  /// Starts `command` (run by `sh -c`) in a `width`×`height` pane. Fails the test, naming the
  /// tool, when tmux is not installed (script/test installs it).
  init(_ command: String, width: Int = 100, height: Int = 30) throws {
    let candidates =
      ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
      + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/tmux" }
    guard let tmux = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      // script/test names the tools it could not install (macOS without Homebrew): a skip, said.
      if (ProcessInfo.processInfo.environment["LISTD_MISSING_TOOLS"] ?? "").split(separator: " ").contains(
        "tmux")
      {
        throw XCTSkip(
          "tmux is not installed and script/test could not install it: the terminal UI's tmux tests are skipped"
        )
      }
      throw SetupFailure(
        "tmux is required for the end-to-end tests of listd-tui; install tmux (script/test does)")
    }
    self.tmux = tmux
    name = "listd-tui-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    try run(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "t", command])
  }

  /// Runs a tmux command and waits for it with posix_spawn and waitpid. Not Foundation's
  /// Process: it learns of a child's exit through a descriptor the child inherits, which the
  /// server `new-session` forks keeps open for ever. Output goes through a file for the same
  /// reason.
  @discardableResult
  private func run(_ arguments: [String]) throws -> String {
    let outputPath = NSTemporaryDirectory() + "tmux-\(name)-\(UUID().uuidString.prefix(8)).out"
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // The server and the program under test must not inherit the test thread's blocked or
    // ignored signals: with SIGHUP blocked, neither would die on kill-server.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = [tmux, "-L", name, "-f", "/dev/null"] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = "xterm-256color"
    environment.removeValue(forKey: "TMUX")
    // A terminal as a user has it: `swift test` sets NO_COLOR=1; a test that wants it says so.
    environment.removeValue(forKey: "NO_COLOR")
    let envp = environment.map { "\($0)=\($1)" }
    var pid: pid_t = 0
    let status = withCStrings(argv) { argvPointers in
      withCStrings(envp) { envPointers in
        posix_spawn(&pid, tmux, &actions, &attributes, argvPointers, envPointers)
      }
    }
    guard status == 0 else { throw SetupFailure("cannot start tmux: \(String(cString: strerror(status)))") }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard exitStatus == 0 else {
      throw SetupFailure("tmux \(arguments.joined(separator: " ")) failed (\(exitStatus)): \(text)")
    }
    return text
  }

  /// Sends keys as tmux names them (`j`, `Enter`, `Escape`, `PageDown`, `Space`, …).
  func send(_ keys: String...) throws {
    for key in keys { try run(["send-keys", "-t", "t", key]) }
  }

  /// The pane's text, one string per line.
  func screen() -> String { (try? run(["capture-pane", "-p", "-t", "t"])) ?? "" }

  /// The pane's text with its SGR attributes (`capture-pane -e`), trailing blanks kept (`-N`).
  func styledScreen() -> String { (try? run(["capture-pane", "-p", "-e", "-N", "-t", "t"])) ?? "" }

  /// Gives the pane `theme`'s default foreground and background (`window-style`), as a terminal
  /// theme would: what cells without colours of their own show.
  func use(_ theme: Theme) throws {
    try run(["set-option", "-w", "-t", "t", "window-style", theme.tmuxStyle])
  }

  /// Polls the screen until `condition` holds (default 10 s); fails the test with the last
  /// screen otherwise. Returns the screen that matched.
  @discardableResult
  func wait(
    for what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
    _ condition: (String) -> Bool
  ) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = screen()
      if condition(last) { return last }
      usleep(50_000)
    }
    XCTFail("timed out waiting for \(what); screen:\n\(last)", file: file, line: line)
    return last
  }

  /// Waits until the screen contains every one of `texts`.
  @discardableResult
  func wait(
    forText texts: String..., timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
  )
    -> String
  {
    wait(for: texts.map { "'\($0)'" }.joined(separator: ", "), timeout: timeout, file: file, line: line) {
      screen in
      texts.allSatisfy { screen.contains($0) }
    }
  }

  /// The screen line containing `text`, if any.
  func line(containing text: String) -> String? {
    screen().split(separator: "\n").first { $0.contains(text) }.map(String.init)
  }

  /// Resizes the window (the program gets SIGWINCH).
  func resize(width: Int, height: Int) throws {
    try run(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
  }

  /// Kills the tmux server and everything in it.
  func kill() {
    _ = try? run(["kill-server"])
    // tmux leaves its socket file behind when killed.
    let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
    unlink("\(directory)/tmux-\(getuid())/\(name)")
  }

  deinit { kill() }
}

/// A failure that stops a test with a message (not a skip: a missing tool is a failure).
struct SetupFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Calls `body` with a NULL-terminated C array of `strings`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
  var pointers = strings.map { strdup($0) }
  pointers.append(nil)
  defer { for pointer in pointers { free(pointer) } }
  return body(pointers)
}
