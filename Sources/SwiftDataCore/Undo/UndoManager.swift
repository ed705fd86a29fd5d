// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Foundation's own names are kept verbatim, so the lowerCamelCase rule does not apply here.
#if !canImport(ObjectiveC)
    import Foundation

    /// Foundation's undo manager, which Foundation lacks on Linux: actions registered while no undo or redo runs
    /// go on the undo stack (and empty the redo stack), actions registered while undoing go on the redo stack, and
    /// actions registered while redoing go back on the undo stack. Actions are collected in groups; `undo()` reverts
    /// the latest group.
    ///
    /// As in Foundation, with `groupsByEvent` on, a registration outside any group opens a group by itself. Foundation
    /// closes that group at the end of the run loop pass; here it closes when the main queue next runs (if it was
    /// opened on the main thread), at `undo()`, or when `ModelContext.processPendingChanges()` or `save()` runs.
    /// Misuse that Foundation answers with an exception (ending a group that is not open, undoing inside a nested
    /// group) is reported on standard error and ignored.
    open class UndoManager: NSObject {
        /// A recorded action, or a nested group. An action's `principal` is the object it stands in for, when its
        /// target is not that object (see `registerUndo(withTarget:standingFor:handler:)`).
        private enum Entry {
            case action(target: Weak, principal: Weak, run: (AnyObject) -> Void)
            case group(Group)
        }

        private struct Weak {
            weak var object: AnyObject?
        }

        private final class Group {
            var entries: [Entry] = []
            var actionName = ""
            var isDiscardable = false
            var isEmpty: Bool {
                entries.allSatisfy { entry in
                    if case .group(let group) = entry { return group.isEmpty }
                    return false
                }
            }
        }

        private var undoStack: [Group] = []
        private var redoStack: [Group] = []
        /// The groups being built, outermost first.
        private var openGroups: [Group] = []
        /// Whether the outermost open group was opened by a registration rather than `beginUndoGrouping()`.
        private var isAutomaticGroupOpen = false
        private var disabledCount = 0

        /// Whether a registration outside any group opens one by itself. Defaults to `true`.
        open var groupsByEvent = true
        /// How many groups the undo stack keeps; the oldest are dropped beyond it. `0`, the default, keeps all.
        open var levelsOfUndo = 0 {
            didSet { trim() }
        }
        /// Whether an undo is running.
        open private(set) var isUndoing = false
        /// Whether a redo is running.
        open private(set) var isRedoing = false

        /// An empty undo manager.
        public override init() {}

        // MARK: Groups

        /// How deeply groups are nested now; `0` when none is open.
        open var groupingLevel: Int { openGroups.count }

        /// Opens a group: the actions registered until the matching `endUndoGrouping()` undo together.
        open func beginUndoGrouping() {
            if openGroups.isEmpty { post(.NSUndoManagerCheckpoint) }
            openGroups.append(Group())
            post(.NSUndoManagerDidOpenUndoGroup)
        }

        /// Closes the innermost open group.
        open func endUndoGrouping() {
            guard let group = openGroups.last else {
                Log.error("UndoManager.endUndoGrouping() was called with no group open; it was ignored")
                return
            }
            post(.NSUndoManagerWillCloseUndoGroup)
            openGroups.removeLast()
            if openGroups.isEmpty { isAutomaticGroupOpen = false }
            if !group.isEmpty {
                if let parent = openGroups.last {
                    parent.entries.append(.group(group))
                } else if isUndoing {
                    redoStack.append(group)
                } else {
                    undoStack.append(group)
                    trim()
                }
            }
            post(.NSUndoManagerDidCloseUndoGroup)
        }

        /// Stops recording registrations until a matching `enableUndoRegistration()`; calls nest.
        open func disableUndoRegistration() { disabledCount += 1 }

        /// Undoes one `disableUndoRegistration()`.
        open func enableUndoRegistration() {
            guard disabledCount > 0 else {
                Log.error(
                    "UndoManager.enableUndoRegistration() was called more often than disableUndoRegistration(); it was ignored"
                )
                return
            }
            disabledCount -= 1
        }

        /// Whether registrations are recorded.
        open var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

        // MARK: Registering

        /// Records `handler` to run with `target` when the current group is undone (or redone, when registered during
        /// an undo). The undo manager does not keep `target` alive; an action whose target is gone does nothing.
        open func registerUndo<TargetType: AnyObject>(
            withTarget target: TargetType, handler: @escaping (TargetType) -> Void
        ) {
            register(target: target, principal: nil, handler: handler)
        }

        /// Records `handler` as `registerUndo(withTarget:handler:)` does, for an action that acts for `principal`
        /// although it runs with another target: `removeAllActions(withTarget:)` removes it with either.
        package final func registerUndo<TargetType: AnyObject>(
            withTarget target: TargetType, standingFor principal: AnyObject, handler: @escaping (TargetType) -> Void
        ) {
            register(target: target, principal: principal, handler: handler)
        }

        private final func register<TargetType: AnyObject>(
            target: TargetType, principal: AnyObject?, handler: @escaping (TargetType) -> Void
        ) {
            guard isUndoRegistrationEnabled else { return }
            if openGroups.isEmpty {
                guard groupsByEvent else {
                    Log.error(
                        "UndoManager.registerUndo(withTarget:handler:) was called with no group open and groupsByEvent off; the action was dropped"
                    )
                    return
                }
                beginUndoGrouping()
                isAutomaticGroupOpen = true
                if Thread.isMainThread {
                    let reference = UncheckedReference(self)
                    DispatchQueue.main.async { reference.object?.closeAutomaticGroup() }
                }
            }
            if !isUndoing && !isRedoing && !redoStack.isEmpty { redoStack.removeAll() }
            // unsafeDowncast: the entry calls back with the target it was registered with, a TargetType.
            openGroups[openGroups.count - 1].entries.append(
                .action(
                    target: Weak(object: target), principal: Weak(object: principal),
                    run: { handler(unsafeDowncast($0, to: TargetType.self)) }))
        }

        /// Closes the group a registration opened by itself, if one is open.
        package func closeAutomaticGroup() {
            if isAutomaticGroupOpen && openGroups.count == 1 { endUndoGrouping() }
        }

        // MARK: Undo and redo

        /// Whether there is a group to undo.
        open var canUndo: Bool {
            !undoStack.isEmpty || (openGroups.count == 1 && isAutomaticGroupOpen && !openGroups[0].isEmpty)
        }

        /// Whether there is a group to redo.
        open var canRedo: Bool { !redoStack.isEmpty }

        /// The number of groups on the undo stack.
        open var undoCount: Int { undoStack.count }

        /// The number of groups on the redo stack.
        open var redoCount: Int { redoStack.count }

        /// Reverts the latest group, closing the group a registration opened by itself first. The actions the
        /// reverted group registers form a group on the redo stack.
        open func undo() {
            closeAutomaticGroup()
            guard openGroups.isEmpty else {
                Log.error(
                    "UndoManager.undo() was called inside an open group; close it with endUndoGrouping() first, or use undoNestedGroup()"
                )
                return
            }
            undoNestedGroup()
        }

        /// Reverts the latest group without closing open groups first.
        open func undoNestedGroup() {
            guard let group = undoStack.popLast() else { return }
            post(.NSUndoManagerCheckpoint)
            post(.NSUndoManagerWillUndoChange)
            isUndoing = true
            replay(group, into: &redoStack)
            isUndoing = false
            post(.NSUndoManagerDidUndoChange)
        }

        /// Reapplies the latest undone group.
        open func redo() {
            guard openGroups.isEmpty else {
                Log.error("UndoManager.redo() was called inside an open group; close it with endUndoGrouping() first")
                return
            }
            guard let group = redoStack.popLast() else { return }
            post(.NSUndoManagerCheckpoint)
            post(.NSUndoManagerWillRedoChange)
            isRedoing = true
            replay(group, into: &undoStack)
            isRedoing = false
            post(.NSUndoManagerDidRedoChange)
        }

        /// Runs a group's actions, newest first, collecting what they register into one group with the same name.
        private func replay(_ group: Group, into stack: inout [Group]) {
            let inverse = Group()
            inverse.actionName = group.actionName
            inverse.isDiscardable = group.isDiscardable
            openGroups.append(inverse)
            run(group)
            openGroups.removeLast()
            if !inverse.isEmpty { stack.append(inverse) }
        }

        private func run(_ group: Group) {
            for entry in group.entries.reversed() {
                switch entry {
                case .action(let target, _, let action):
                    if let object = target.object { action(object) }
                case .group(let nested):
                    run(nested)
                }
            }
        }

        /// Forgets every action.
        open func removeAllActions() {
            undoStack = []
            redoStack = []
            openGroups = []
            isAutomaticGroupOpen = false
        }

        /// Forgets the actions registered with `target` (and those that stand in for its actions), on both stacks and
        /// in the groups being built; a group left empty goes. As in Foundation, actions that merely capture `target`
        /// stay, and registration is not re-enabled. Actions whose target is gone, which would do nothing, go too.
        open func removeAllActions(withTarget target: AnyObject) {
            func prune(_ group: Group) {
                group.entries.removeAll { entry in
                    switch entry {
                    case .action(let weak, let principal, _):
                        return weak.object == nil || weak.object === target || principal.object === target
                    case .group(let nested):
                        prune(nested)
                        return nested.isEmpty
                    }
                }
            }
            for group in undoStack + redoStack + openGroups { prune(group) }
            undoStack.removeAll { $0.isEmpty }
            redoStack.removeAll { $0.isEmpty }
        }

        private func trim() {
            if levelsOfUndo > 0 && undoStack.count > levelsOfUndo {
                undoStack.removeFirst(undoStack.count - levelsOfUndo)
            }
        }

        // MARK: Names

        /// Names the current group, for menus ("Undo Typing").
        open func setActionName(_ actionName: String) {
            (openGroups.first ?? undoStack.last)?.actionName = actionName
        }

        /// The name of the group `undo()` reverts.
        open var undoActionName: String { undoStack.last?.actionName ?? "" }
        /// The name of the group `redo()` reapplies.
        open var redoActionName: String { redoStack.last?.actionName ?? "" }
        /// "Undo" followed by the undo action name.
        open var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }
        /// "Redo" followed by the redo action name.
        open var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }
        /// "Undo" followed by `actionName`.
        open func undoMenuTitle(forUndoActionName actionName: String) -> String {
            actionName.isEmpty ? "Undo" : "Undo \(actionName)"
        }
        /// "Redo" followed by `actionName`.
        open func redoMenuTitle(forUndoActionName actionName: String) -> String {
            actionName.isEmpty ? "Redo" : "Redo \(actionName)"
        }

        /// Marks the current group as one that changes no document state.
        open func setActionIsDiscardable(_ discardable: Bool) {
            (openGroups.first ?? undoStack.last)?.isDiscardable = discardable
        }
        /// Whether the group `undo()` reverts is discardable.
        open var undoActionIsDiscardable: Bool { undoStack.last?.isDiscardable ?? false }
        /// Whether the group `redo()` reapplies is discardable.
        open var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }

        private func post(_ name: Notification.Name) {
            NotificationCenter.default.post(name: name, object: self)
        }
    }

    /// A reference the main queue may hold to an undo manager created on the main thread. `@unchecked Sendable`:
    /// only the main queue dereferences it, the thread the manager belongs to.
    private final class UncheckedReference: @unchecked Sendable {
        weak var object: UndoManager?
        init(_ object: UndoManager) { self.object = object }
    }

    extension Notification.Name {
        /// Posted when an undo manager opens or closes a top-level group, and before an undo or redo.
        public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
        /// Posted before an undo manager undoes.
        public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
        /// Posted before an undo manager redoes.
        public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
        /// Posted after an undo manager undid.
        public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
        /// Posted after an undo manager redid.
        public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
        /// Posted after an undo manager opened a group.
        public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
        /// Posted before an undo manager closes a group.
        public static let NSUndoManagerWillCloseUndoGroup = Notification.Name(
            "NSUndoManagerWillCloseUndoGroupNotification")
        /// Posted after an undo manager closed a group.
        public static let NSUndoManagerDidCloseUndoGroup = Notification.Name(
            "NSUndoManagerDidCloseUndoGroupNotification")
    }
#endif
