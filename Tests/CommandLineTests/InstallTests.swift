// script/install: binaries, man pages, completions and the Neovim plugin under a prefix, then used as a user would.
import Foundation
import XCTest

final class InstallTests: XCTestCase {
  /// Checks what `script/install` put under `prefix` (its output `printed`): the binaries, the man
  /// pages man reads without a warning and finds through PATH, the completions bash, zsh and fish
  /// load and complete list ids with from a running daemon, and the Neovim line it printed.
  func checkInstallation(_ prefix: String, printed: String, environment: [String: String?], scratch: Scratch)
    throws
  {
    let path = prefix + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    var environment = environment
    environment["PATH"] = path
    environment["MANPATH"] = .some(nil)
    for name in tools {
      let binary = "\(prefix)/bin/\(name)"
      XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), binary)
      let page = "\(prefix)/share/man/man1/\(name).1"
      XCTAssertEqual(
        try String(contentsOfFile: page, encoding: .utf8), try runProcess(binary, ["--generate-man"]).stdout)
      let man = try runProcess("/usr/bin/env", ["man", "--warnings", "-l", page], environment: environment)
      XCTAssertEqual(man.status, 0, man.stderr)
      XCTAssertEqual(man.stderr, "", "groff warns about \(page)")
      XCTAssertTrue(man.stdout.contains("NAME\n       \(name) - "), man.stdout)
      // man finds the page in PREFIX/share/man because PREFIX/bin is on the PATH.
      let found = try runProcess("/usr/bin/env", ["man", "-w", name], environment: environment)
      XCTAssertEqual(found.stdout, page + "\n", found.stderr)
      for (shell, file) in [
        ("bash", "share/bash-completion/completions/\(name)"), ("zsh", "share/zsh/site-functions/_\(name)"),
        ("fish", "share/fish/vendor_completions.d/\(name).fish"),
      ] {
        XCTAssertEqual(
          try String(contentsOfFile: "\(prefix)/\(file)", encoding: .utf8),
          try runProcess(binary, ["--generate-completion", shell]).stdout, file)
      }
    }

    // A daemon on the default socket (in a private XDG_RUNTIME_DIR) and one on a socket of its own.
    let runtime = scratch("runtime")
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    environment["XDG_RUNTIME_DIR"] = runtime
    let daemonScratch = try Scratch(self)
    let daemon = try Daemon(self, in: daemonScratch, listd: prefix + "/bin/listd")
    let defaultDaemon = Process()
    defaultDaemon.executableURL = URL(fileURLWithPath: prefix + "/bin/listd")
    defaultDaemon.arguments = ["--listen", "--stay", "--log-level", "error"]
    defaultDaemon.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) {
      $1
    }
    defaultDaemon.standardInput = Pipe()
    defaultDaemon.standardOutput = FileHandle.nullDevice  // its stdio session's last word, daemon/stopping
    try defaultDaemon.run()
    addTeardownBlock {
      defaultDaemon.terminate()
      defaultDaemon.waitUntilExit()
    }
    let defaultSocket = runtime + "/listd/listd.sock"
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: defaultSocket) && Date() < deadline { usleep(5_000) }
    let created = try runProcess(prefix + "/bin/listctl", ["create", "groceries"], environment: environment)
    XCTAssertEqual(created.status, 0, created.stderr)
    let demo = ["contacts", "files", "inbox", "live", "processes", "settings"]
    XCTAssertEqual(
      try runProcess(prefix + "/bin/listctl", ["--socket", daemon.socket, "lists", "--ids"]).stdout
        .split(separator: "\n").sorted(), demo[...].map { Substring($0) })

    // bash: source the script as bash-completion would load it, complete as readline would.
    let bash = "\(prefix)/share/bash-completion/completions/"
    XCTAssertEqual(
      try Shells.bash(bash + "listctl", ["listctl", "--so"], environment: environment), ["--socket"])
    XCTAssertEqual(try Shells.bash(bash + "listctl", ["listctl", "wa"], environment: environment), ["watch"])
    XCTAssertEqual(
      try Shells.bash(
        bash + "listctl", ["listctl", "--socket", daemon.socket, "show", ""], environment: environment
      )
      .sorted(), demo)
    XCTAssertEqual(
      try Shells.bash(
        bash + "listctl", ["listctl", "--socket", daemon.socket, "query", "item", "se"],
        environment: environment),
      ["settings"])
    XCTAssertEqual(
      try Shells.bash(bash + "listctl", ["listctl", "watch", "g"], environment: environment), ["groceries"])
    XCTAssertEqual(
      try Shells.bash(bash + "listctl", ["listctl", "show", "--json", "g"], environment: environment),
      ["groceries"])
    XCTAssertEqual(
      try Shells.bash(
        bash + "listd-tui", ["listd-tui", "--socket", daemon.socket, "--list", "f"], environment: environment),
      ["files"])
    XCTAssertEqual(
      try Shells.bash(bash + "listd", ["listd", "--log-level", "w"], environment: environment), ["warning"])
    // A socket given as ~/PATH, as the shell would expand it when running the command.
    var home = environment
    home["HOME"] = daemonScratch.path
    XCTAssertEqual(
      try Shells.bash(bash + "listctl", ["listctl", "--socket", "~/s", "show", "l"], environment: home),
      ["live"])
    // No daemon: nothing to offer, at once.
    XCTAssertEqual(
      try Shells.bash(
        bash + "listctl", ["listctl", "--socket", scratch("none"), "show", ""], environment: environment), [])

    // zsh: each script parses, and compinit registers it for its program.
    if let zsh = installed("zsh") {
      let functions = "\(prefix)/share/zsh/site-functions"
      for name in tools {
        let syntax = try runProcess(zsh, ["-n", "\(functions)/_\(name)"])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
      }
      let registered = try runProcess(
        zsh,
        [
          "-f", "-c",
          "fpath=(\(functions) $fpath); autoload -U compinit; compinit -u -d \(scratch("zcompdump")); "
            + "print -r -- $_comps[listd] $_comps[listctl] $_comps[listd-tui]",
        ], environment: environment)
      XCTAssertEqual(registered.stdout, "_listd _listctl _listd-tui\n", registered.stderr)
    }

    // fish: each script parses; fish finds them itself in PREFIX/share (XDG_DATA_DIRS) and
    // completes from the daemon.
    if let fishBinary = installed("fish") {
      for name in tools {
        let syntax = try runProcess(
          fishBinary, ["-n", "\(prefix)/share/fish/vendor_completions.d/\(name).fish"])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
      }
      var fish = environment
      fish["XDG_DATA_DIRS"] = "\(prefix)/share:/usr/local/share:/usr/share"
      XCTAssertEqual(
        try Shells.fish("listctl --socket \(daemon.socket) show ", environment: fish).sorted(), demo)
      XCTAssertEqual(try Shells.fish("listctl watch g", environment: fish), ["groceries"])
      XCTAssertEqual(
        try Shells.fish("listd-tui --socket \(daemon.socket) --list s", environment: fish), ["settings"])
      XCTAssertEqual(try Shells.fish("listd --log-l", environment: fish), ["--log-level"])
      fish["HOME"] = daemonScratch.path
      XCTAssertEqual(try Shells.fish("listctl --socket ~/s show l", environment: fish), ["live"])
    }

    // Neovim: the line install printed puts the plugin on the runtimepath (:Listd, :help listd).
    let line = try XCTUnwrap(
      printed.split(separator: "\n").first { $0.contains("runtimepath:append") }, printed)
    XCTAssertEqual(
      line.trimmingCharacters(in: .whitespaces), "vim.opt.runtimepath:append('\(prefix)/share/listd/nvim')")
    if let nvim = installed("nvim") {
      let run = try runProcess(
        nvim,
        [
          "--headless", "--clean", "--cmd", "lua " + line.trimmingCharacters(in: .whitespaces),
          "-c", "if exists(':Listd') == 2 | help listd | echo expand('%:p') | qa | else | cq | endif",
        ], environment: environment)
      XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
      XCTAssertTrue(
        (run.stdout + run.stderr).contains("\(prefix)/share/listd/nvim/doc/listd.txt"),
        run.stdout + run.stderr)
    }

    // Emacs: the line install printed loads the package from PREFIX/share/emacs/site-lisp/listd.
    let emacsLine = try XCTUnwrap(
      printed.split(separator: "\n").first { $0.contains("(require 'listd)") }, printed)
    XCTAssertEqual(
      emacsLine.trimmingCharacters(in: .whitespaces),
      "(add-to-list 'load-path \"\(prefix)/share/emacs/site-lisp/listd\") (require 'listd)")
    if let emacs = installed("emacs") {
      let run = try runProcess(
        emacs,
        [
          "-Q", "--batch", "--eval",
          "(progn \(emacsLine.trimmingCharacters(in: .whitespaces)) "
            + "(princ (and (commandp 'listd-open) (locate-library \"listd\"))))",
        ], environment: environment)
      XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
      // Byte-compiled by install, as Emacs is there.
      XCTAssertEqual(run.stdout, "\(prefix)/share/emacs/site-lisp/listd/listd.elc", run.stdout + run.stderr)
    }
  }

  /// `script/install PREFIX` with the binaries `swift test` built (LISTD_INSTALL_FROM), checked as
  /// a user would use them.
  func testInstallIntoAPrefixWithTheTestedBuild() throws {
    let scratch = try Scratch(self)
    let prefix = scratch("prefix")
    let install = try runProcess(
      repositoryRoot.appendingPathComponent("script/install").path, [prefix],
      environment: ["LISTD_INSTALL_FROM": buildDirectory.path])
    XCTAssertEqual(install.status, 0, install.stderr)
    XCTAssertTrue(install.stdout.hasPrefix("installed listd 0.1.0 (protocol 1), commit "), install.stdout)
    try checkInstallation(prefix, printed: install.stdout, environment: [:], scratch: scratch)
    // Installing again replaces everything in place.
    let again = try runProcess(
      repositoryRoot.appendingPathComponent("script/install").path, [prefix],
      environment: ["LISTD_INSTALL_FROM": buildDirectory.path])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(
      try runProcess(repositoryRoot.appendingPathComponent("script/install").path, ["a", "b"]).status, 2)
  }

  /// What the README tells a user to run: `script/install` in a clean clone (with the working
  /// tree's uncommitted changes), building in release, into the default `~/.local`; then man and
  /// fish find what it installed on their own, and --version names the clone's commit.
  ///
  /// The clone lives in `.build/install-test/clone` and is reset to a clean clone of HEAD before
  /// each run, all but its `.build`: the first run in a fresh checkout (as in CI) builds from
  /// nothing, later runs rebuild only what changed, keeping the suite's time down.
  func testTheDefaultInstallFromACleanClone() throws {
    let scratch = try Scratch(self)
    let clone = repositoryRoot.appendingPathComponent(".build/install-test/clone").path
    let home = scratch("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
    let head = try VersionTests.head()
    if head != nil {
      // HEAD, plus what the working tree changes: what a commit made now would hold.
      let copy = try bash(
        """
        if [[ -d $CLONE/.git ]]; then
          git -C "$CLONE" fetch -q "$ROOT" HEAD
          git -C "$CLONE" reset -q --hard FETCH_HEAD
          git -C "$CLONE" clean -q -fdx -e /.build
        else
          rm -rf "$CLONE"
          git clone -q "$ROOT" "$CLONE"
        fi
        cd "$ROOT"
        git ls-files -z --modified --others --exclude-standard | while IFS= read -r -d '' file; do
          if [[ -e $file ]]; then mkdir -p "$CLONE/$(dirname "$file")"; cp -p "$file" "$CLONE/$file"; fi
        done
        git ls-files -z --deleted | while IFS= read -r -d '' file; do rm -f "$CLONE/$file"; done
        """, environment: ["ROOT": repositoryRoot.path, "CLONE": clone])
      XCTAssertEqual(copy.status, 0, copy.stderr)
    } else {
      let copy = try bash(
        "rm -rf \"$CLONE\" && mkdir -p \"$CLONE\" && tar -C \"$ROOT\" --exclude=./.build -cf - . | tar -C \"$CLONE\" -xf -",
        environment: ["ROOT": repositoryRoot.path, "CLONE": clone])
      XCTAssertEqual(copy.status, 0, copy.stderr)
    }
    let install = try runProcess(
      clone + "/script/install", [],
      environment: ["HOME": home, "LISTD_INSTALL_FROM": nil, "XDG_DATA_HOME": nil],
      directory: clone, timeout: 1800)
    XCTAssertEqual(install.status, 0, install.stderr)
    let prefix = home + "/.local"
    XCTAssertTrue(install.stdout.contains(" into \(prefix):\n"), install.stdout)
    XCTAssertTrue(FileManager.default.fileExists(atPath: clone + "/.build/release/listd"), "a release build")
    let version = try runProcess(prefix + "/bin/listd", ["--version"]).stdout
    if let head {
      XCTAssertTrue(version.hasPrefix("listd 0.1.0 (protocol 1)\ncommit \(head)"), version)
    } else {
      XCTAssertEqual(version, "listd 0.1.0 (protocol 1)\ncommit unknown (not built from a git checkout)\n")
    }
    try checkInstallation(prefix, printed: install.stdout, environment: ["HOME": home], scratch: scratch)
    // fish finds ~/.local/share/fish/vendor_completions.d by itself (for a program on the PATH).
    if installed("fish") != nil {
      let path = prefix + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
      XCTAssertEqual(
        try Shells.fish(
          "listctl --so",
          environment: ["HOME": home, "PATH": path, "XDG_DATA_HOME": nil, "XDG_DATA_DIRS": nil]),
        ["--socket"])
    }
  }
}
