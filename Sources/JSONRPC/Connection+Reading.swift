// Reading a connection's input: frames from the event loop or a blocking thread, end of input.
import Foundation
import JSON

extension Connection {
  // MARK: - Reading

  /// The event loop says the input is readable or the output writable (on a loop thread).
  func channelReady(readable: Bool, writable: Bool, context: inout LoopContext) {
    if writable { outgoing.drain() }
    if readable { readAvailable(&context, reads: inputKind == .stream ? 16 : 1) }
  }

  /// Reads what is available (up to `reads` reads, fewer once it would block) and handles
  /// its frames, unless another thread is reading or reading has ended.
  private func readAvailable(_ context: inout LoopContext, reads: Int) {
    guard reading.begin() else { return }
    context.parser.maxDepth = options.maxDepth
    var outcome = ReadOutcome.more
    // Answers to this read's frames go out together once they are all handled.
    outgoing.hold()
    for _ in 0..<reads {
      let count = Platform.read(input, context.buffer.baseAddress, context.buffer.count)
      if count > 0 {
        handle(UnsafeRawBufferPointer(rebasing: context.buffer[0..<count]), parser: &context.parser)
        if state.withLock({ $0.closed || $0.stopRequested }) { break }
        // A short read took what there was: no second read just to hear EAGAIN (the channel is
        // re-armed level-triggered, so bytes that arrive meanwhile fire at once).
        if count < context.buffer.count { break }
        continue
      }
      if count == 0 {
        for event in reading.reader.finish() { handle(event, parser: &context.parser) }
        outcome = .endOfFile
      } else if errno == EINTR {
        continue
      } else if errno != EAGAIN && errno != EWOULDBLOCK {
        outcome = .failed(errno)
      }
      break
    }
    if outgoing.release() { outgoing.drain() }
    switch outcome {
    case .more:
      // Reading was stopped or the connection closed meanwhile: it ends here.
      if reading.end(if: { state.withLock { $0.closed || $0.stopRequested } }) { readingEnded() }
    case .endOfFile:
      _ = reading.end(if: { true })
      inputEnded()
      readingEnded(inputEndedAlready: true)
    case .failed(let code):
      _ = reading.end(if: { true })
      let message = "read failed: \(String(cString: strerror(code)))"
      logger.error("\(options.name): \(message)")
      close(reason: .ioError(message))
      readingEnded(inputEndedAlready: true)
    }
  }

  private enum ReadOutcome {
    case more, endOfFile
    case failed(Int32)
  }

  /// Handles the frames in `bytes`, just read.
  private func handle(_ bytes: UnsafeRawBufferPointer, parser: inout JSONParser) {
    if reading.framingKnown {
      // Bodies are parsed straight from the read buffer.
      reading.reader.feedBorrowed(bytes) { event in handle(event, parser: &parser) }
    } else {
      // Until the framing is known, collect the events so it can be recorded before answering.
      let events = reading.reader.feed(bytes)
      if let framing = reading.reader.framing {
        reading.framingKnown = true
        state.withLock { $0.detectedFraming = framing }
      }
      for event in events { handle(event, parser: &parser) }
    }
  }

  /// Ends the reading now unless a thread is reading (that thread ends it when done): after
  /// ``stopReading(holdingOpen:refusing:)`` or a close.
  func endReadingIfIdle() {
    if reading.end(if: { true }, unlessBusy: true) { readingEnded() }
  }

  /// The reading has just ended: stops watching the input; a stop ends the input as at end of
  /// file (a close does not: nothing more will be answered).
  func readingEnded(inputEndedAlready: Bool = false) {
    for channel in reading.withLock({ $0.channels }) where channel.fd == input { channel.setInput(false) }
    if !inputEndedAlready && state.withLock({ $0.stopRequested && !$0.closed }) { inputEnded() }
    sideEnded()
  }

  /// Reads an input the event loop cannot watch (a regular file, /dev/null) on a thread of its
  /// own: such reads never wait for long.
  func readBlocking() {
    var context = LoopContext(bufferSize: 64 << 10)
    defer { context.buffer.deallocate() }
    while !reading.withLock({ $0.ended }) { readAvailable(&context, reads: 1) }
  }

  /// At end of input: once every handler already dispatched has run and every request in
  /// progress is answered, close. A loop thread never waits for handlers: with none queued (the
  /// reading thread alone queues them, and it is done) this runs at once, otherwise after them —
  /// 2,000 idle sessions closing at once would otherwise wake 2,000 queues, and as many threads.
  func inputEnded() {
    if queuedHandlers.load(ordering: .acquiring) == 0 {
      markInputDrained()
    } else {
      handlerQueue.async(flags: .barrier) { [self] in markInputDrained() }
    }
  }

  func markInputDrained() {
    let (answeredAll, awaiting) = state.withLock { state -> (Bool, Bool) in
      state.inputDrained = true
      return (state.answeredAll, !state.pending.isEmpty)
    }
    if awaiting { failPendingRequests(with: ConnectionError.closed) }  // no answer can be read now
    if answeredAll { didAnswerAll() }
  }

  /// Reading has ended and every request read is answered: wakes ``waitUntilAnswered()`` and
  /// closes, unless held open.
  func didAnswerAll() {
    let (closes, stopped) = state.withLock { (!$0.holdsOpen, $0.stopRequested) }
    wakeWaiters()
    if closes { close(reason: stopped ? .closedLocally : .endOfInput) }
  }
}
