import ExampleSupport
import Foundation
import SwiftData

/// The interactive list, like the seed app's screen: arrows move, space toggles, `a` adds, `d` deletes, `u`
/// undoes, `q` quits. It draws from a `ResultsObserver`, so changes saved by another `todo` process appear
/// by themselves.
@MainActor final class ListScreen {
    /// What the keyboard is doing.
    enum Mode {
        case list
        case name(String)
        case priority(name: String)
    }

    private let context: ModelContext
    private let observer: ResultsObserver<ToDoItem, Never>
    private let terminal = Terminal()
    private var selection = 0
    private var selectOnNextDraw: PersistentIdentifier?
    private var mode = Mode.list
    private var message = ""
    private var sources: [any DispatchSourceProtocol] = []

    init(context: ModelContext) throws {
        self.context = context
        observer = try ResultsObserver(
            sortBy: [SortDescriptor(\ToDoItem.priorityNum, order: .reverse)], modelContext: context)
    }

    /// Takes over the terminal and runs until `q`.
    func run() -> Never {
        terminal.enter()
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { MainActor.assumeIsolated { self.readInput() } }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { MainActor.assumeIsolated { self.draw() } }
        for stop in [SIGTERM, SIGHUP] {
            signal(stop, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: stop, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { () -> Void in self.quit() } }
            sources.append(source)
        }
        sources += [input, resize]
        for source in sources { source.resume() }
        draw()
        dispatchMain()
    }

    /// Draws the screen, and draws it again when anything it showed changes.
    private func draw() {
        withObservationTracking {
            terminal.write(render())
        } onChange: {
            Task { @MainActor in self.draw() }
        }
    }

    private func render() -> String {
        let items = Array(observer.results)
        if let wanted = selectOnNextDraw, let index = items.firstIndex(where: { $0.persistentModelID == wanted }) {
            selection = index
            selectOnNextDraw = nil
        }
        selection = max(0, min(selection, items.count - 1))
        let (rows, columns) = terminal.size
        let done = items.filter(\.isComplete).count
        var screen =
            "\u{1B}[H\u{1B}[2J\u{1B}[1mTo Do\u{1B}[0m  \(items.count) item\(items.count == 1 ? "" : "s"), \(done) done\r\n\r\n"
        let visible = max(1, rows - 5)
        let first = max(0, min(selection - visible + 1, items.count - visible))
        if items.isEmpty { screen += "  Nothing to do. Press a to add an item.\r\n" }
        for (index, item) in items.enumerated().dropFirst(first).prefix(visible) {
            let mark = item.isComplete ? "✓" : "○"
            let name = String(item.name.prefix(max(10, columns - 8)))
            let styled = item.isComplete ? "\u{1B}[9m\(name)\u{1B}[29m" : name
            let line = " \(mark) \(styled) \(item.priority.dot)"
            screen += index == selection ? "\u{1B}[7m\(line)\u{1B}[27m\r\n" : "\(line)\r\n"
        }
        screen += "\u{1B}[\(rows - 1);1H"
        switch mode {
        case .list:
            screen += "\u{1B}[2m↑/↓ move  space toggle  a add  d delete  u undo  q quit\u{1B}[0m"
        case .name(let name):
            screen += "New item: \(name)▏  (enter to continue, esc to cancel)"
        case .priority(let name):
            screen += "Priority of \(name.prefix(20)): h high, n normal, l low (enter: normal, esc: cancel)"
        }
        screen += "\u{1B}[\(rows);1H\(message.prefix(columns - 1))"
        return screen
    }

    private func readInput() {
        guard let keys = terminal.readKeys() else { quit() }
        for key in keys { handle(key) }
        draw()
    }

    private func handle(_ key: Key) {
        message = ""
        if key == .interrupt { quit() }
        switch mode {
        case .list: handleInList(key)
        case .name(let name):
            switch key {
            case .character(let character): mode = .name(name + String(character))
            case .backspace: mode = .name(String(name.dropLast()))
            case .escape: mode = .list
            case .enter:
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                mode = trimmed.isEmpty ? .list : .priority(name: trimmed)
            default: break
            }
        case .priority(let name):
            let priority: Priority? =
                switch key {
                case .character("h"), .character("H"): .high
                case .character("n"), .character("N"), .enter: .normal
                case .character("l"), .character("L"): .low
                default: nil
                }
            if key == .escape { mode = .list }
            guard let priority else { return }
            let item = ToDoItem(name: name, priority: priority)
            context.insert(item)
            save()
            selectOnNextDraw = item.persistentModelID
            mode = .list
        }
    }

    private func handleInList(_ key: Key) {
        let items = observer.results
        switch key {
        case .up, .character("k"): selection = max(0, selection - 1)
        case .down, .character("j"): selection = min(max(0, items.count - 1), selection + 1)
        case .character(" "):
            guard items.indices.contains(selection) else { return }
            items[selection].isComplete.toggle()
            save()
        case .character("a"): mode = .name("")
        case .character("d"):
            guard items.indices.contains(selection) else { return }
            context.delete(items[selection])
            save()
        case .character("u"):
            guard let undoManager = context.undoManager, undoManager.canUndo else {
                message = "Nothing to undo."
                return
            }
            undoManager.undo()
            save()
        case .character("q"): quit()
        default: break
        }
    }

    /// Saves at once, so other `todo` processes see the change; closes the undo group first. A change that cannot be
    /// saved is dropped, and the message says why.
    private func save() {
        context.processPendingChanges()
        do {
            try context.saveOrDiscard()
        } catch {
            // The store's own words are the shortest reason: the line has the terminal's width.
            let reason = (error as? SwiftDataError).map { $0.storeMessage ?? $0.reason ?? "\($0)" } ?? "\(error)"
            message = "Could not save: \(reason)"
        }
    }

    private func quit() -> Never {
        terminal.restore()
        exit(0)
    }
}
