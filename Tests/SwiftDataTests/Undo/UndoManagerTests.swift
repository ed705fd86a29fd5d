import Foundation
import SwiftData
import Testing

/// The undo manager on its own, with Foundation's semantics.
@Suite struct UndoManagerTests {
    final class Document {
        var text = ""
        let undoManager: UndoManager
        init(_ undoManager: UndoManager) { self.undoManager = undoManager }

        /// Sets the text, registering the reverse: the usual way to use `registerUndo`.
        func setText(_ new: String) {
            let old = text
            undoManager.registerUndo(withTarget: self) { $0.setText(old) }
            text = new
        }
    }

    @Test func undoAndRedoAlternate() {
        let manager = UndoManager()
        let document = Document(manager)
        #expect(!manager.canUndo && !manager.canRedo)
        manager.beginUndoGrouping()
        document.setText("a")
        document.setText("ab")
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        document.setText("abc")
        manager.endUndoGrouping()
        #expect(manager.canUndo && manager.undoCount == 2)

        manager.undo()
        #expect(document.text == "ab")
        #expect(manager.canRedo)
        manager.undo()
        #expect(document.text == "", "a group's actions undo together, newest first")
        #expect(!manager.canUndo)
        manager.redo()
        #expect(document.text == "ab")
        manager.redo()
        #expect(document.text == "abc")
        #expect(!manager.canRedo && manager.undoCount == 2)
    }

    @Test func aNewChangeForgetsTheRedoStack() {
        let manager = UndoManager()
        let document = Document(manager)
        document.setText("one")
        manager.undo()
        #expect(manager.canRedo)
        document.setText("two")
        #expect(!manager.canRedo)
    }

    @Test func registrationsOutsideAGroupGroupByThemselves() {
        let (_, log) = capturingLog {
            let manager = UndoManager()
            let document = Document(manager)
            document.setText("x")
            document.setText("xy")
            #expect(manager.groupingLevel == 1, "the first registration opened a group")
            #expect(manager.canUndo)
            manager.undo()
            #expect(document.text == "", "undo closed the automatic group and reverted both")
            manager.groupsByEvent = false
            document.setText("dropped")
            #expect(!manager.canUndo, "without grouping by event a registration needs an open group")
        }
        #expect(
            log.count == 1
                && log[0].hasPrefix(
                    "SwiftData error: UndoManager.registerUndo(withTarget:handler:) was called with no group open and groupsByEvent off"
                ), "\(log)")
    }

    @Test func nestedGroupsUndoWithTheirParent() {
        let manager = UndoManager()
        let document = Document(manager)
        manager.beginUndoGrouping()
        document.setText("outer")
        manager.beginUndoGrouping()
        document.setText("inner")
        manager.endUndoGrouping()
        #expect(manager.groupingLevel == 1)
        manager.endUndoGrouping()
        manager.undo()
        #expect(document.text == "")
        manager.redo()
        #expect(document.text == "inner")
    }

    @Test func levelsOfUndoKeepsTheNewestGroups() {
        let manager = UndoManager()
        manager.levelsOfUndo = 2
        let document = Document(manager)
        for text in ["1", "2", "3"] {
            manager.beginUndoGrouping()
            document.setText(text)
            manager.endUndoGrouping()
        }
        #expect(manager.undoCount == 2)
        manager.undo()
        manager.undo()
        #expect(document.text == "1")
        #expect(!manager.canUndo)
    }

    @Test func disabledRegistrationIsNotRecorded() {
        let manager = UndoManager()
        let document = Document(manager)
        manager.disableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        document.setText("quiet")
        manager.enableUndoRegistration()
        #expect(!manager.canUndo)
    }

    @Test func namesAndNotifications() {
        let manager = UndoManager()
        let document = Document(manager)
        manager.beginUndoGrouping()
        document.setText("typed")
        manager.setActionName("Typing")
        manager.endUndoGrouping()
        #expect(manager.undoActionName == "Typing")
        #expect(manager.undoMenuItemTitle == "Undo Typing")
        let heard = Flag()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSUndoManagerDidUndoChange, object: manager, queue: nil
        ) { _ in heard.set() }
        manager.undo()
        NotificationCenter.default.removeObserver(observer)
        #expect(heard.isSet)
        #expect(manager.redoActionName == "Typing")
        #expect(manager.redoMenuItemTitle == "Redo Typing")
    }

    @Test func actionsOfAGoneTargetDoNothing() {
        let manager = UndoManager()
        var document: Document? = Document(manager)
        document?.setText("gone")
        document = nil
        manager.undo()
        #expect(!manager.canRedo, "the action did not run, so it registered nothing")
    }

    @Test func removingActions() {
        let manager = UndoManager()
        let first = Document(manager)
        let second = Document(manager)
        manager.beginUndoGrouping()
        first.setText("1")
        second.setText("2")
        manager.endUndoGrouping()
        manager.removeAllActions(withTarget: first)
        manager.undo()
        #expect(first.text == "1" && second.text == "")
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
    }
}
