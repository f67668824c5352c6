// listd: the daemon. Serves lists on stdio and, with --listen, on a Unix socket.
import CommandLineDescription
import Dispatch
import Foundation
import JSONRPC
import ListServer

// Few malloc arenas, so many small lists do not leave RSS stranded in many (MemoryTrim.swift).
MemoryTrim.limitArenas()

// SIGTERM and SIGINT are blocked in every thread (threads inherit the mask, so this comes before
// any thread is started) and taken by the main thread with sigwait at the end of this file: a
// signal sent at any moment is handled, never lost and never fatal. (Dispatch signal sources
// register asynchronously after `resume()`, so a signal sent as soon as the socket answered
// could be ignored under SIG_IGN; and `dispatchMain()` unblocks every signal on the main thread.)
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

// A file-size limit (RLIMIT_FSIZE) must fail the journal's write with EFBIG, not kill the daemon.
signal(SIGXFSZ, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
// --help, --version, --generate-man, --generate-completion SHELL.
if let status = DaemonOptions.commandLine.answerStandardOptions(
  arguments, version: ServerInfo.version, protocolVersion: ServerInfo.protocolVersion)
{
  exit(status)
}

// LISTD_EVENT_LOOP names the event loop's backend: a name this build lacks stops the daemon here,
// before anything is served.
let eventLoop: EventLoopKind
do {
  eventLoop = try EventLoopKind.chosen()
} catch {
  FileHandle.standardError.write(Data("listd: \(error)\n".utf8))
  exit(2)
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
  FileHandle.standardError.write(Data(UsageMessage.report("\(error)", tool: "listd").utf8))
  exit(2)
}
let logger = options.server.logger
/// The logger when logs go to --log-file: fatal errors go there as well as to stderr.
let logFile = options.logFile == nil ? nil : logger

/// Everything that must happen before the process exits, exactly once.
let shutdown = Shutdown()

let server = ListServer(options: options.server) { code in shutdown.exit(code, .exit) }
do {
  try server.openState()
} catch {
  fatal("\(error)", logFile: logFile)
}
shutdown.server = server
if options.demo {
  do {
    try server.loadDemo()
  } catch {
    fatal("cannot load the demo lists: \(error)", logFile: logFile)
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
    fatal("\(error)", logFile: logFile)
  }
}

do {
  let stdio = try Connection.standardIO(options: server.connectionOptions(name: "stdio"))
  let stay = options.stay
  // Which backend runs, so a user (or a bug report) can tell: once everything has started, so
  // that a failure to start stays the only line on stderr, and before stdio is served, since a
  // closed stdin stops the daemon at once.
  logger.info("event loop: \(eventLoop.rawValue)")
  server.attach(stdio, primary: true)
  // After the server's own close handler, which detaches the session: the stop then finds it
  // closed and answered (or runs at once if stdin is closed already).
  stdio.onClose { _ in
    if stay {
      logger.info("stdin closed; serving socket clients until SIGTERM (--stay)")
    } else {
      shutdown.exit(0, .endOfInput)
    }
  }
} catch {
  fatal("cannot serve stdio: \(error)", logFile: logFile)
}

// Nothing runs on the main queue; the main thread waits for SIGTERM / SIGINT.
while true {
  var received: Int32 = 0
  guard sigwait(&stopSignals, &received) == 0 else { continue }
  logger.info("received signal \(received); stopping")
  shutdown.exit(0, received == SIGINT ? .sigint : .sigterm)
}
