// listd: the daemon. Serves lists on stdio and, with --listen, on a Unix socket.
import Dispatch
import Foundation
import JSONRPC
import ListServer

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(DaemonOptions.help)
  exit(0)
}
if arguments.contains("--version") {
  print("\(ServerInfo.name) \(ServerInfo.version) (protocol \(ServerInfo.protocolVersion))")
  exit(0)
}

var options: DaemonOptions
do {
  options = try DaemonOptions.parse(arguments)
  if let path = options.logFile {
    options.server.logger = try LogFile(path: path).logger(minimumLevel: options.logLevel)
  } else {
    options.server.logger = .standardError(label: "listd", minimumLevel: options.logLevel)
  }
} catch {
  FileHandle.standardError.write(Data("listd: \(error)\nTry 'listd --help'.\n".utf8))
  exit(2)
}
let logger = options.server.logger

/// Everything that must happen before the process exits, exactly once.
let shutdown = Shutdown()

// Before anything is served: a client may signal as soon as the socket or stdio answers, and a
// signal that arrives before its source is installed would be lost (SIG_IGN) or kill the process.
for signalNumber in [SIGTERM, SIGINT] {
  signal(signalNumber, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
  // `@Sendable`: a closure formed in top-level code is otherwise main-actor isolated, and running
  // it on the global queue traps in the runtime's isolation check (SIGTERM crashed with SIGILL).
  source.setEventHandler { @Sendable in
    logger.info("received signal \(signalNumber); stopping")
    shutdown.exit(0)
  }
  source.resume()
  shutdown.keep(source)
}

let server = ListServer(options: options.server) { code in shutdown.exit(code) }
if options.demo {
  do {
    try server.loadDemo()
  } catch {
    logger.error("cannot load the demo lists: \(error)")
    exit(1)
  }
}

if let path = options.listenPath {
  do {
    let listener = try UnixSocketListener(path: path, logger: logger)
    shutdown.listener = listener
    listener.start { fd in
      do {
        var connectionOptions = server.connectionOptions(name: "socket")
        connectionOptions.closesDescriptors = true
        server.attach(try Connection(input: fd, output: fd, options: connectionOptions), primary: false)
      } catch {
        logger.error("cannot serve an accepted connection: \(error)")
        close(fd)
      }
    }
    logger.info("listening on \(path)")
  } catch {
    logger.error("\(error)")
    FileHandle.standardError.write(Data("listd: \(error)\n".utf8))
    exit(1)
  }
}

do {
  let stdio = try Connection.standardIO(options: server.connectionOptions(name: "stdio"))
  shutdown.stdio = stdio
  let stay = options.stay
  stdio.onClose { _ in
    if stay {
      logger.info("stdin closed; serving socket clients until SIGTERM (--stay)")
    } else {
      shutdown.exit(0)
    }
  }
  server.attach(stdio, primary: true)
} catch {
  logger.error("cannot serve stdio: \(error)")
  exit(1)
}

dispatchMain()
