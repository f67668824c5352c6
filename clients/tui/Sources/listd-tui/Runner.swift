// The main loop: terminal, signals, input, the daemon link and the app, until quit.
import Dispatch
import Foundation
import ListTUI

/// Runs the UI until the user quits (status 0) or a signal ends it (128 + signal).
@MainActor
final class Runner {
  private let options: Options
  private let log: Log
  private var daemon: SpawnedDaemon?
  private var link: Link?
  private var signalSources: [any DispatchSourceSignal] = []
  private var timer: (any DispatchSourceTimer)?
  private let colors = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
  private let clockStart = Date()

  init(options: Options, log: Log) {
    self.options = options
    self.log = log
  }

  private var now: Double { Date().timeIntervalSince(clockStart) }

  func run() async -> Int32 {
    let path: String
    if let spawn = options.spawn {
      do {
        let daemon = try SpawnedDaemon(arguments: (options.demo ? ["--demo"] : []) + spawn, log: options.log)
        self.daemon = daemon
        path = daemon.socket
      } catch {
        FileHandle.standardError.write(Data("listd-tui: \(error)\n".utf8))
        return 1
      }
    } else {
      path = options.socket ?? UnixSocketPath.defaultPath
    }
    do {
      try Terminal.enter()
    } catch {
      daemon?.stop()
      FileHandle.standardError.write(Data("listd-tui: \(error)\n".utf8))
      return 1
    }
    log.write("started: \(path), \(Terminal.size().width)x\(Terminal.size().height), colors \(colors)")

    let (events, continuation) = AsyncStream<AppEvent>.makeStream()
    installSignals(continuation)
    InputReader.start(
      deliver: { @Sendable key in continuation.yield(.key(key)) },
      ended: { @Sendable in continuation.yield(.inputClosed) })
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
    timer.setEventHandler { @Sendable in continuation.yield(.tick) }
    timer.resume()
    self.timer = timer
    let link = Link(
      path: path, socketOption: options.spawn == nil ? options.socket : path, events: continuation, log: log)
    self.link = link
    link.start()

    let size = Terminal.size()
    var app = TUIApp(width: size.width, height: size.height, endpoint: path, open: options.list)
    var screen = ScreenDiff()
    draw(app, &screen)
    for await event in events {
      let effects = app.handle(event, now: now)
      for effect in effects {
        switch effect {
        case .request(let tag, let method, let params): link.send(tag, method, params)
        case .redraw: screen.invalidate()
        case .quit:
          finish()
          return 0
        }
      }
      draw(app, &screen)
    }
    finish()
    return 0
  }

  private func draw(_ app: TUIApp, _ screen: inout ScreenDiff) {
    let lines = Renderer.render(Renderer.frame(app, time: now), width: app.width, colors: colors)
    let output = screen.update(lines, width: app.width)
    if !output.isEmpty { Terminal.write(output) }
  }

  /// Restores the terminal and stops what we started.
  private func finish() {
    timer?.cancel()
    Terminal.restore()
    link?.close()
    daemon?.stop()
    log.write("exit")
  }

  private func installSignals(_ events: AsyncStream<AppEvent>.Continuation) {
    // A parent may have started us with signals blocked; we must hear these.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT] {
      sigaddset(&handled, signalNumber)
    }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      // A strong capture: the runner lives as long as the process (a weak one drew a release
      // build warning that it "will always be nil").
      source.setEventHandler { [self] in
        MainActor.assumeIsolated { signalled(signalNumber, events) }
      }
      source.resume()
      signalSources.append(source)
    }
  }

  private func signalled(_ number: Int32, _ events: AsyncStream<AppEvent>.Continuation) {
    switch number {
    case SIGWINCH:
      let size = Terminal.size()
      events.yield(.resize(width: size.width, height: size.height))
    case SIGTSTP:
      // Suspend with the terminal as we found it; SIGCONT brings the UI back.
      Terminal.restore()
      signal(SIGTSTP, SIG_DFL)
      kill(getpid(), SIGTSTP)
    case SIGCONT:
      signal(SIGTSTP, SIG_IGN)
      Terminal.resume()
      let size = Terminal.size()
      events.yield(.resize(width: size.width, height: size.height))
    default:
      log.write("signal \(number)")
      finish()
      exit(128 + number)
    }
  }
}
