// listd's command line as --help, listd(1) and the completions describe it: the option table and the text around it.
import CommandLineDescription
import JSONRPC

extension DaemonOptions {
  /// The description `--help`, `--generate-man` and `--generate-completion` render.
  static var commandLine: ToolDescription {
    ToolDescription(
      name: "listd",
      summary: "live list data sources over JSON-RPC 2.0 (LSP framing) on stdio and a Unix socket.",
      usage: ["listd [options]"],
      about: [
        "listd holds live lists — sections, items with stable identity, outlines, selection: the model of "
          + "Apple's diffable data sources — and serves them over JSON-RPC 2.0 to the client on its standard "
          + "input and output and, with --listen, to every client of a Unix socket. Every change is answered "
          + "with an exact diff and streamed to every subscribed client. stdout carries the protocol only; "
          + "logs go to stderr or --log-file."
      ],
      options: table.options,
      sections: [
        Section(
          "EXIT STATUS",
          [
            "The daemon exits when the stdio client sends `exit` (0 after `shutdown`, 1 otherwise) or closes "
              + "stdin (0), unless --listen came with --stay; SIGTERM and SIGINT stop it cleanly (0) and remove "
              + "the socket. A usage error exits with 2, a failure to start (a socket it cannot serve) with 1."
          ], inHelp: true),
        Section(
          "FILES",
          [
            "{socket}: the default socket. Its directory must be one only you can enter (mode 0700, yours); "
              + "listd creates it if missing and refuses to serve anywhere another user could reach."
          ]),
        Section(
          "ENVIRONMENT",
          [
            UnixSocket.environmentHelp,
            EventLoopKind.environmentHelp,
          ], inHelp: true),
        Section(
          "PROTOCOL",
          ["The protocol is specified in Protocol/README.md of the listd repository."], inHelp: true),
      ],
      seeAlso: ["listctl(1)", "listd-tui(1)"],
      variables: ["socket": Variable(here: UnixSocket.defaultPath, rule: UnixSocket.defaultPathRule)]
    )
  }
}
