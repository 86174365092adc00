import Foundation
import ShareKitAppSupport
import ShareKitCore
import ShareKitTargetStoreInterface
import Synchronization

/// The full-screen target picker of `share send` without `--to`: it takes
/// the terminal over, lets the person write a comment and choose a recent
/// target or search for one as they type, and gives the terminal back
/// however it ends.
///
/// Searches run on tasks of their own after a pause in typing
/// (``debounce``); typing never waits for them, a newer query makes an
/// older answer stale (dropped), and a failing search shows its reason in
/// the list's heading instead of ending the picker.
struct TargetPicker: Sendable {
    /// Where searches go.
    let directory: any TargetDirectory
    /// The recent targets, newest first.
    let recents: [ShareTarget]
    /// The first item's name, type and size.
    let preview: String
    /// How long typing must pause before a search starts.
    var debounce: Duration = .milliseconds(250)
    /// The most results shown.
    var limit = 30

    /// What reaches the picker's loop.
    private enum Event: Sendable {
        case keys([Key])
        case answer(Result<[ShareTarget], ProgramError>, generation: Int)
        case resized
        case terminalGone
    }

    /// Runs the picker on the terminal of standard input and output.
    /// - Parameter comment: the comment to start with (`--comment`).
    /// - Returns: the chosen target and comment, or `.cancel`.
    /// - Throws: `ProgramError` when standard input is not a terminal.
    func run(comment: String) async throws -> PickerState.Outcome {
        let terminal = try RawTerminal(input: STDIN_FILENO, output: STDOUT_FILENO)
        defer { terminal.restore() }
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let reader = KeyReader(
            fd: terminal.input, deliver: { continuation.yield(.keys($0)) },
            ended: { continuation.yield(.terminalGone) })
        defer { reader.stop() }
        // Watched before the first frame is drawn: a resize from then on is
        // never lost (see SignalRelay).
        SignalRelay.resize.watch { continuation.yield(.resized) }
        defer { SignalRelay.resize.unwatch() }
        let search = Mutex<Task<Void, Never>?>(nil)
        defer { search.withLock { $0?.cancel() } }

        var state = PickerState(preview: preview, comment: comment, recents: recents)
        draw(state, on: terminal)
        for await event in events {
            switch event {
            case .keys(let keys):
                for key in keys where state.outcome == nil {
                    guard let effect = state.handle(key) else { continue }
                    if case .search(let query, let generation) = effect {
                        let task = startSearch(query, generation: generation, into: continuation)
                        search.withLock {
                            $0?.cancel()
                            $0 = task
                        }
                    }
                }
            case .answer(let answer, let generation): state.receive(answer, generation: generation)
            case .resized: break
            case .terminalGone: return .cancel
            }
            if let outcome = state.outcome { return outcome }
            draw(state, on: terminal)
        }
        return .cancel
    }

    private func startSearch(
        _ query: String, generation: Int, into continuation: AsyncStream<Event>.Continuation
    ) -> Task<Void, Never> {
        Task { [directory, debounce, limit] in
            do {
                try await Task.sleep(for: debounce)
            } catch {
                return
            }
            let answer: Result<[ShareTarget], ProgramError>
            do {
                answer = .success(try await directory.search(query: query, limit: limit).map(\.target))
            } catch {
                // Worded now, in the language of the search.
                answer = .failure(ProgramError(LocalizedText(describing: error).localized))
            }
            guard !Task.isCancelled else { return }
            continuation.yield(.answer(answer, generation: generation))
        }
    }

    private func draw(_ state: PickerState, on terminal: RawTerminal) {
        let size = terminal.size
        terminal.write(PickerScreen.frame(state, rows: size.rows, columns: size.columns))
    }
}
