// swift-tools-version:6.0
// listd: live list data sources served over JSON-RPC 2.0. Zero package dependencies.
import PackageDescription

let package = Package(
  name: "listd",
  // Synchronization's Mutex: macOS 15. Linux builds are not affected.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "ListModel", targets: ["ListModel"]),
    .library(name: "JSONRPC", targets: ["JSONRPC"]),
    .library(name: "ListProtocol", targets: ["ListProtocol"]),
    .library(name: "ListServer", targets: ["ListServer"]),
    .executable(name: "listd", targets: ["listd"]),
    .executable(name: "listd-bench", targets: ["listd-bench"]),
    .library(name: "ListClient", targets: ["ListClient"]),
    .executable(name: "listctl", targets: ["listctl"]),
    .executable(name: "listd-tui", targets: ["listd-tui"]),
  ],
  targets: [
    // A seeded random generator shared by the property tests, fuzzers and benchmarks.
    .target(name: "SeededRandom"),
    // The JSON value type with its strict parser and writer. Pure: no I/O.
    .target(name: "JSON"),
    // "Did you mean …?": the name nearest a typo, one rule for listctl's words and the protocol's
    // enum values. A leaf of its own, as neither of its users may depend on the other.
    .target(name: "ClosestName"),
    // Pure value types: snapshots, outlines, selection, payloads, changesets and the diff.
    // Release builds skip the run-time exclusivity checks, which cost a third of a diff's time
    // on the chunks and location pages versions share; debug builds (every test) keep them.
    .target(
      name: "ListModel", dependencies: ["JSON"],
      swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
    // <sys/epoll.h>, which Swift's Glibc module leaves out (a system header, no code of its own).
    .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
    // LSP framing, JSON-RPC messages, a duplex connection over file descriptors, the Unix socket transport.
    .target(
      name: "JSONRPC", dependencies: ["JSON", .target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
    // The wire form of Protocol/README.md, shared by the daemon and every Swift client: content,
    // rows, changesets (full, lean, windowed), snapshots and windows, their encoding and
    // decoding, edits, columns, checks, explanations, and listd's error codes and data. No I/O,
    // no server state. JSONRPC for its params reader and the error value a request answers with.
    .target(name: "ListProtocol", dependencies: ["JSON", "JSONRPC", "ListModel", "ClosestName"]),
    // The daemon's logic: registry, sessions, handlers, subscriptions, demo lists.
    .target(name: "ListServer", dependencies: ["JSON", "JSONRPC", "ListModel", "ListProtocol"]),
    // The commit the binaries are built from: BuildCommit.swift, written at build time by the plugin below.
    .target(name: "BuildInfo", plugins: ["BuildInfoPlugin"]),
    // Runs script/build-info (git) during every build that could change the commit or the sources.
    .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
    // One description per tool of its command line, rendered as --help, a man page and bash, zsh and
    // fish completions; --version; a table-driven option parser. No listd module.
    .target(name: "CommandLineDescription", dependencies: ["BuildInfo", "ClosestName"]),
    // The daemon executable.
    .executableTarget(name: "listd", dependencies: ["JSONRPC", "ListServer", "CommandLineDescription"]),
    // Benchmarks: `swift run -c release listd-bench model|jsonrpc|daemon|tui`.
    .executableTarget(
      name: "listd-bench",
      dependencies: ["ListModel", "JSONRPC", "ListServer", "SeededRandom", "listd", "ListClient", "ListTUI"]),
    // A typed async client of the daemon and a mirror of a subscribed list.
    .target(name: "ListClient", dependencies: ["JSON", "JSONRPC", "ListProtocol"]),
    // The command-line client: `listctl [--socket PATH | --spawn [listd args] --] COMMAND`.
    // Depends on `listd` so that building listctl (`swift run listctl demo`) builds the daemon it runs.
    .executableTarget(
      name: "listctl",
      dependencies: ["JSON", "JSONRPC", "ListProtocol", "ListClient", "CommandLineDescription", "listd"]),
    // The terminal UI's logic: view state, window fetch, rendering, screen diff, keys. No terminal I/O.
    .target(
      name: "ListTUI", dependencies: ["JSON", "JSONRPC", "ListProtocol", "ListClient"],
      path: "clients/tui/Sources/ListTUI"),
    // The terminal UI: `listd-tui [--socket PATH | --spawn [--demo]]`. Depends on `listd` so `--spawn` finds it built.
    .executableTarget(
      name: "listd-tui",
      dependencies: ["JSON", "JSONRPC", "ListTUI", "ListClient", "CommandLineDescription", "listd"],
      path: "clients/tui/Sources/listd-tui"),
    // Seeded random JSON values and texts for the JSON and JSON-RPC property and fuzz tests.
    .target(name: "RandomJSON", dependencies: ["JSON", "SeededRandom"], path: "Tests/RandomJSON"),
    // Test targets follow modules; the end-to-end targets (ListdTests, ListctlTests, ...) start binaries.
    .testTarget(name: "JSONTests", dependencies: ["JSON", "RandomJSON", "SeededRandom"]),
    .testTarget(name: "ListModelTests", dependencies: ["ListModel", "SeededRandom"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSON", "JSONRPC", "RandomJSON", "SeededRandom"]),
    // The wire coding against the model: content from bytes and from trees, edits, changesets.
    .testTarget(
      name: "ListProtocolTests",
      dependencies: ["JSON", "JSONRPC", "ListModel", "ListProtocol", "SeededRandom"]),
    // ListClient: its mirrors on wire JSON, and its typed methods over a spawned `listd`.
    .testTarget(
      name: "ListClientTests",
      dependencies: [
        "JSON", "JSONRPC", "ListModel", "ListProtocol", "ListClient", "SeededRandom", "ListdTestSupport",
        "listd",
      ]),
    // What protocol tests share, in-process or end to end: a client that validates every server
    // message against Protocol/protocol.json (TestClient, ProtocolSpec, SchemaValidator), and the
    // mirror property's random batches with the model's expected outcomes (MirrorRun).
    .target(
      name: "ListdTestSupport",
      dependencies: ["JSON", "JSONRPC", "ListModel", "ListProtocol", "ListClient", "SeededRandom"],
      path: "Tests/ListdTestSupport"),
    // Protocol-rule tests of the server in the test process: a ListServer attached to one end of
    // an in-memory connection pair, no binary started.
    .testTarget(
      name: "ListServerTests",
      dependencies: [
        "ListServer", "ListProtocol", "JSONRPC", "JSON", "ListModel", "SeededRandom", "ListClient",
        "ListdTestSupport",
      ]),
    // End-to-end tests: they start the built `listd` binary and talk to it over pipes and sockets.
    .testTarget(
      name: "ListdTests",
      dependencies: [
        "JSON", "JSONRPC", "ListModel", "ListProtocol", "ListServer", "SeededRandom", "listd", "ListClient",
        "ListdTestSupport",
      ]),
    // End-to-end tests of listctl: they run the built `listctl` against a built `listd`.
    .testTarget(
      name: "ListctlTests",
      dependencies: ["JSON", "JSONRPC", "ListProtocol", "ListClient", "SeededRandom", "listctl", "listd"]),
    // The terminal UI's view-state tests, and end-to-end tests that run `listd-tui` in tmux against a real daemon.
    .testTarget(
      name: "ListTUITests",
      dependencies: [
        "JSON", "ListModel", "ListProtocol", "ListTUI", "ListClient", "SeededRandom", "listd-tui", "listd",
      ],
      path: "clients/tui/Tests/ListTUITests"),
    // The command-line conventions end to end: --help, man pages and completions agree, --version
    // names the commit, and script/install installs them into a prefix (listd-tui built for it too).
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["CommandLineDescription", "BuildInfo", "listd", "listctl", "listd-tui"]),
    // Runs the Neovim plugin's headless specs (`clients/nvim/test/`) against the built daemon.
    .testTarget(
      name: "NeovimPluginTests", dependencies: ["listd", "ListClient", "ListdTestSupport"],
      path: "clients/nvim/test/NeovimPluginTests"),
    // Runs the Emacs package's ERT tests (`clients/emacs/test/`) in `emacs --batch` against the built daemon,
    // and byte-compiles, checkdocs and package-lints the package.
    .testTarget(
      name: "EmacsPackageTests", dependencies: ["listd", "ListdTestSupport"],
      path: "clients/emacs/test/EmacsPackageTests"),
  ]
)
