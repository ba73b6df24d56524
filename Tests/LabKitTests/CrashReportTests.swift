import Foundation
import XCTest
@testable import LabKit

/// A crash names the learner's function and line where Swift's runtime reports them, and a recursion by its
/// repeating frame — not "often a force unwrap of nil" with no place (issue 20).
final class CrashReportTests: XCTestCase {
    static func frame(_ number: Int, _ function: String, _ place: String) -> String {
        "  \(number) [ra]          0x0000563b76712e85 \(function) + 36 in RESTLabPackageTests.xctest at \(place)"
    }

    func test_aFunctionThatCallsItself_isNamedAsARecursion_atTheCall() throws {
        let output = (["Test Case 'EntryRepresentationTests.test_x' started at 2026-11-24", "",
                       "*** Program crashed: Bad pointer dereference at 0x00007ffd0c042ff8 ***", "",
                       "Thread 0 \"RESTLabPackageT\" crashed:", "",
                       Self.frame(0, "== infix(_:_:)", "/kit/.lab/grading/Exercises/Lesson5/EntryRepresentation.swift:35")]
                      + (1...40).map { Self.frame($0, "== infix(_:_:)", "/kit/.lab/grading/Exercises/Lesson5/EntryRepresentation.swift:37:16") }
                      + ["   ...", "", "Thread 1 \"r-initiated-qos\":", Self.frame(0, "other", "/x.swift:1")]).joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report, CrashReport(reason: "Bad pointer dereference at 0x00007ffd0c042ff8", function: "== infix(_:_:)",
                                           place: "Exercises/Lesson5/EntryRepresentation.swift:37", isRecursion: true))
        XCTAssertTrue(report.explanation.contains("calls itself"), report.explanation)
    }

    /// encode(to:) that encodes `self` again: JSONEncoder's frames sit between the learner's, and the runtime prints
    /// only the top and the bottom of the 60 000 frames — a handful of the learner's, numbered far apart.
    func test_aRecursionThroughALibrary_withTheMiddleOfTheStackLeftOut_isNamedAsARecursion() throws {
        let place = "/kit/.lab/mutants-1/Exercises/Lesson3/MessageThread.swift:72:23"
        var lines = ["*** Program crashed: Bad pointer dereference at 0x00007ffe75033ff0 ***", "", "Thread 0 \"RESTLabPackageT\" crashed:", ""]
        for cycle in 0..<5 {
            lines += (0..<7).map { Self.frame(cycle * 8 + 3 + $0, "__JSONEncoder.encode<A>(_:)", "") }
            lines.append(Self.frame(cycle * 8 + 10, "MessageThread.encode(to:)", place))
        }
        lines += ["  ...", Self.frame(59842, "MessageThread.encode(to:)", place),
                  Self.frame(59851, "Lesson3TestCase.encodeThread(_:file:line:)", "/kit/Tests/Lesson3Tests/Lesson3TestCase.swift:488:38")]
        let report = try XCTUnwrap(CrashReport(output: lines.joined(separator: "\n")))
        XCTAssertTrue(report.isRecursion)
        XCTAssertEqual(report.function, "MessageThread.encode(to:)")
        XCTAssertTrue(report.explanation.contains("calls itself"), report.explanation)
    }

    func test_aForceUnwrap_namesTheFatalError_andTheLearnersLine() throws {
        let output = ["Lesson1/MessageThreadController.swift:40: Fatal error: Unexpectedly found nil while unwrapping an Optional value",
                      "*** Program crashed: System trap at 0x000055d1 ***", "Thread 0 crashed:",
                      Self.frame(0, "closure #1 in XCTestCase.run()", "/kit/Tests/X.swift:3"),
                      Self.frame(1, "MessageThreadController.createMessageThread(title:completion:)", "/kit/Exercises/Lesson1/MessageThreadController.swift:40:9")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.place, "Exercises/Lesson1/MessageThreadController.swift:40")
        XCTAssertFalse(report.isRecursion)
        XCTAssertTrue(report.explanation.contains("Fatal error: Unexpectedly found nil"), report.explanation)
        XCTAssertTrue(report.explanation.contains("MessageThreadController.createMessageThread(title:completion:)` at Exercises/Lesson1/MessageThreadController.swift:40"), report.explanation)
    }

    /// A failed `assert` prints its own message before the crash report ("…: Assertion failed: A thread needs a
    /// title"), not "Fatal error": the report quotes it and names the learner's own check.
    func test_aFailedAssert_quotesItsMessage_andNamesTheLearnersCheck() throws {
        let output = ["Lesson2/MessageThread.swift:25: Assertion failed: A thread needs a title",
                      "*** Program crashed: Illegal instruction at 0x00007f2612ef9361 ***", "Thread 0 crashed:",
                      Self.frame(0, "_assertionFailure(_:_:file:line:flags:)", "/swift/AssertCommon.swift:1"),
                      Self.frame(1, "MessageThread.init(title:identifier:messages:)", "/kit/Exercises/Lesson2/MessageThread.swift:25:9")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.reason, "Assertion failed: A thread needs a title")
        XCTAssertEqual(report.place, "Exercises/Lesson2/MessageThread.swift:25")
        XCTAssertNil(report.collection)
        XCTAssertTrue(report.explanation.contains("(Assertion failed: A thread needs a title): an `assert` or `precondition` of yours"), report.explanation)
        XCTAssertFalse(report.explanation.contains("force unwrap"), report.explanation)
        XCTAssertFalse(LessonRun.endedWithoutReport(output: "x\nLesson2/MessageThread.swift:25: Precondition failed: no title\n"))
    }

    func test_aContinuationResumedTwice_saysToResumeOncePerPath() throws {
        let output = ["*** Program crashed: Fatal error: SWIFT TASK CONTINUATION MISUSE: todo(id:) tried to resume its continuation more than once ***",
                      "Thread 3 crashed:",
                      Self.frame(0, "closure #1 in closure #1 in TodoAPI.todo(id:)", "/kit/Exercises/Lesson6/TodoAPI+Async.swift:21:34")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.place, "Exercises/Lesson6/TodoAPI+Async.swift:21")
        XCTAssertTrue(report.explanation.contains("resumed exactly once on every path"), report.explanation)
        XCTAssertFalse(report.explanation.contains("force unwrap"), report.explanation)
    }

    func test_aTaskOnAnInvalidatedSession_saysNotToInvalidateTheGivenSession() throws {
        let output = ["Foundation/URLSession.swift:312: Fatal error: Session invalidated",
                      "*** Program crashed: System trap at 0x000055d1 ***", "Thread 0 crashed:",
                      Self.frame(0, "URLSession.dataTask(with:completionHandler:)", "/swift/URLSession.swift:312"),
                      Self.frame(1, "MessageThreadController.fetchMessageThreads(completion:)", "/kit/Exercises/Lesson4/FetchMessageThreads.swift:24:17")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.place, "Exercises/Lesson4/FetchMessageThreads.swift:24")
        XCTAssertTrue(report.explanation.contains("finishTasksAndInvalidate()"), report.explanation)
        XCTAssertTrue(report.explanation.contains("Fatal error: Session invalidated"), report.explanation)
        XCTAssertFalse(report.explanation.contains("force unwrap"), report.explanation)
    }

    func test_jsonSerializationOfABareValue_namesFragmentsAndJSONEncoder() throws {
        let output = ["Foundation/JSONSerialization.swift:171: Fatal error: Top-level object was not NSArray or NSDictionary",
                      "*** Program crashed: Illegal instruction at 0x00007fddccef9361 ***", "Thread 5 crashed:",
                      Self.frame(0, "static JSONSerialization.data(withJSONObject:options:)", "/swift/JSONSerialization.swift:171"),
                      Self.frame(1, "LikeCounter.like(_:)", "/kit/Exercises/Lesson10/LikeCounter+Conditional.swift:30:42")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.place, "Exercises/Lesson10/LikeCounter+Conditional.swift:30")
        XCTAssertTrue(report.explanation.contains(".fragmentsAllowed"), report.explanation)
        XCTAssertTrue(report.explanation.contains("JSONEncoder"), report.explanation)
        XCTAssertFalse(report.explanation.contains("force unwrap"), report.explanation)
    }

    /// A failed `as!` prints what it could not cast before the report (Lesson 6: `mapError { $0 as! TodoAPIError }`
    /// met a URLError): the reason quotes it, without the types' addresses, and the message is about the cast.
    func test_aFailedForcedCast_quotesTheTypes() throws {
        let output = ["Could not cast value of type 'Foundation.URLError' (0x7f3a1c2b4e80) to 'Lesson6.TodoAPIError' (0x55d1e2f3a4b0).",
                      "*** Program crashed: Aborted at 0x00007fddccef9361 ***", "Thread 5 crashed:",
                      Self.frame(0, "swift_dynamicCastFailure", ""),
                      Self.frame(1, "closure #1 in TodoAPI.todo(id:completion:)", "/kit/Exercises/Lesson6/TodoAPI+Completion.swift:21:58")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.reason, "Could not cast value of type 'Foundation.URLError' to 'Lesson6.TodoAPIError'.")
        XCTAssertTrue(report.explanation.contains("`as?`"), report.explanation)
        XCTAssertFalse(report.explanation.contains("force unwrap"), report.explanation)
    }

    func test_noReport_noFrameOfTheLearners() {
        XCTAssertNil(CrashReport(output: "Test Case 'A.b' started\n"))
        let kitOnly = CrashReport(output: "*** Program crashed: Bad pointer dereference at 0x0 ***\nThread 0 crashed:\n" + Self.frame(0, "f()", "/kit/Tests/X.swift:3"))
        XCTAssertNil(kitOnly?.place)
        XCTAssertEqual(kitOnly?.explanation.contains("your code stopped the program"), true)
    }

    /// A process that ended on a signal without Swift's crash report said only "your code stopped the program": a
    /// reference solution was graded so once, with nothing to tell why. The signal is named now, and a kill from
    /// outside (SIGKILL) is not blamed on the code as a force unwrap.
    func test_aCrashWithoutReport_namesItsSignal() {
        let killed = LessonRun.crashExplanation(output: "Test Case 'A.b' started\n", status: 128 + 9)
        XCTAssertTrue(killed.hasPrefix(" (signal 9, SIGKILL, with no crash report): the process was killed from outside"), killed)
        XCTAssertFalse(killed.contains("force unwrap"), killed)
        let segv = LessonRun.crashExplanation(output: "", status: 128 + 11)
        XCTAssertEqual(segv, " (signal 11, SIGSEGV, with no crash report): your code stopped the program — often a force unwrap (!) of nil, an index out of range, or a fatalError.")
        XCTAssertTrue(LessonRun.crashExplanation(output: "", status: 128 + 24).contains("SIGXCPU"))
        XCTAssertEqual(LessonRun.crashExplanation(output: "x\nFatal error: boom\n", status: 128 + 4),
                       " (Fatal error: boom): your code stopped the program — often a force unwrap (!) of nil, an index out of range, or a fatalError.")
    }

    /// A process that ended without a word is run again once (`LessonRun.run`); a crash that Swift explained is not.
    func test_onlyAnEndWithoutReport_isRunAgain() {
        XCTAssertTrue(LessonRun.endedWithoutReport(output: "Test Case 'A.b' started\nunshare: sigprocmask unblock failed: Invalid argument\n"),
                      "util-linux's unshare after its child's SIGKILL (exit status 1)")
        XCTAssertFalse(LessonRun.endedWithoutReport(output: "x\nFatal error: Unexpectedly found nil\n"),
                       "Swift said why: the learner's own crash")
        XCTAssertFalse(LessonRun.endedWithoutReport(output: "*** Program crashed: Bad pointer dereference at 0x0 ***\n"))
    }

    func test_memoryBrokenInsideADictionary_isNamedAsTwoThreadsChangingIt() throws {
        let output = ["*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***", "",
                      "Thread 0 \"RESTLabPackageT\":", Self.frame(0, "ppoll", "/lib/x.c:1"), "",
                      "Thread 5 \"oot.default-qos\" crashed:", "",
                      Self.frame(0, "__RawDictionaryStorage.find<A>(_:)", "/swift/Dictionary.swift:3"),
                      Self.frame(1, "Dictionary.removeValue(forKey:)", "/swift/Dictionary.swift:9"),
                      Self.frame(2, "ChatCaveService.finish(_:)", "/kit/Exercises/Lesson7/ChatCaveService.swift:112:22")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.collection, "Dictionary.removeValue(forKey:)")
        XCTAssertTrue(report.explanation.contains("two threads change one value"), report.explanation)
    }

    func test_memoryBrokenInTheRuntimesUniquenessCheck_isNamedTheSameWay() throws {
        let output = ["*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***",
                      "Thread 10 \"oot.default-qos\" crashed:",
                      "  0              0x00007fb3e04c14c0 swift_isUniquelyReferenced_nonNull_native in libswiftCore.so",
                      Self.frame(1, "ChatCaveService.finish(_:)", "/kit/Exercises/Lesson7/ChatCaveService.swift:112:22")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertEqual(report.collection, "swift_isUniquelyReferenced_nonNull_native")
        XCTAssertEqual(report.place, "Exercises/Lesson7/ChatCaveService.swift:112")
    }

    /// libdispatch traps a `sync` onto the serial queue the thread already runs (Lesson 8: onEnd called inside
    /// `state.sync { }`, and the app's onEnd calling stop(), which syncs again).
    func test_aSyncOntoItsOwnQueue_isNamedAsAWaitForItself() throws {
        let output = ["*** Program crashed: Illegal instruction at 0x00007fcc2335e7d8 ***", "",
                      "Thread 7 crashed:", "",
                      "  0              0x00007fcc2335e7d8 __DISPATCH_WAIT_FOR_QUEUE__ + 344 in libdispatch.so",
                      "  1 [ra]         0x00007fcc2335e2d3 _dispatch_sync_f_slow + 194 in libdispatch.so",
                      "  2 [ra]         0x00007fcc23d57be2 DispatchQueue.sync(execute:) + 145 in libswiftDispatch.so",
                      Self.frame(3, "ForumListener.stop()", "/kit/Exercises/Lesson8/ForumListener.swift:97:24")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertTrue(report.isSyncOnItsOwnQueue)
        XCTAssertEqual(report.place, "Exercises/Lesson8/ForumListener.swift:97")
        XCTAssertTrue(report.explanation.contains("wait for itself"), report.explanation)
        XCTAssertFalse(report.explanation.contains("force unwrap"), report.explanation)
    }

    /// `MainActor.assumeIsolated` in a data task's handler (Lesson 1: "silencing" a Swift 6 warning) traps in the
    /// runtime's isolation check: named as that, not as memory broken by two threads (the runtime frame is swift_…).
    func test_anAssumedIsolationOffTheMainThread_isNamedAsSuch() throws {
        let output = ["*** Program crashed: Illegal instruction at 0x00007f1771bf32a2 ***", "",
                      "Thread 1 \"oot.default-qos\" crashed:", "",
                      "  0              0x00007f1771bf32a2 _dispatch_assert_queue_fail + 82 in libdispatch.so",
                      "  1 [ra]         0x00007f1771bfdc47 dispatch_assert_queue + 118 in libdispatch.so",
                      "  2 [ra]         0x00007f17725602e3 _swift_task_checkIsolatedSwift + 18 in libswift_Concurrency.so",
                      "  3 [ra]         0x00007f17725a7eaa swift_task_isCurrentExecutorWithFlags + 409 in libswift_Concurrency.so",
                      Self.frame(4, "closure #1 in MessageThreadController.createMessage(messageThread:text:sender:completion:)",
                                 "/kit/Exercises/Lesson1/MessageThreadController.swift:95:13")].joined(separator: "\n")
        let report = try XCTUnwrap(CrashReport(output: output))
        XCTAssertTrue(report.isIsolationAssumption)
        XCTAssertNil(report.collection)
        XCTAssertEqual(report.place, "Exercises/Lesson1/MessageThreadController.swift:95")
        XCTAssertTrue(report.explanation.contains("assumeIsolated"), report.explanation)
        XCTAssertFalse(report.explanation.contains("two threads"), report.explanation)
    }
}
