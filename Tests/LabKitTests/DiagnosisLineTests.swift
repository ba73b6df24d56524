import Foundation
import XCTest
@testable import LabMetadata

/// Every failure's first line states the diagnosis in at most 200 characters; long data follows, trimmed (issue 20:
/// the §8.2 parser's diagnosis came after 2,700 characters of escaped JSON).
final class DiagnosisLineTests: XCTestCase {
    let body = #"{"identifier":"6A055190-9E47-4D7E-9B1F-7995BB0FC64E","messages":[],"title":"Codable nesting, the long way"}"#
    let url = "https://lab-c538c6d4.firebaseio.invalid/184C2EDD-E073-4328-9C1F-2B3D4E5F6A7B/messages"

    func firstLine(_ text: String) -> String { String(text.split(separator: "\n", omittingEmptySubsequences: false)[0]) }

    func test_aShortMessage_isLeftAsItIs() {
        let message = "createMessage's URL does not end in `.json`: https://x.invalid/a. Firebase answers 404."
        XCTAssertEqual(DiagnosisLine.shape(message), message)
    }

    func test_longDataOnTheFirstLine_isShortenedThere_andGivenInFullBelow() {
        let message = "createMessageThread sent POST /a.json  body: \(body) — a thread is made with PUT at its own key, "
            + "so that sending it twice leaves one thread, not two: LESSONS.md §1.3. Sent to \(url)."
        let shaped = DiagnosisLine.shape(message)
        let first = firstLine(shaped)
        XCTAssertLessThanOrEqual(first.count, FirstLine.limit, first)
        XCTAssertTrue(first.hasPrefix("createMessageThread sent POST /a.json  body: {\"identifier\":\"6A0551"), first)
        XCTAssertTrue(shaped.contains("\n  in full: \(body)"), shaped)
        // The URL is in the prose moved to the second line: a datum of modest size stays whole there.
        XCTAssertTrue(shaped.contains("Sent to \(url)."), "the URL whole, in the moved prose: \(shaped)")
        XCTAssertFalse(shaped.contains("in full: \(url)"), "and not again below: \(shaped)")
        XCTAssertTrue(shaped.contains("a thread is made with PUT at its own key"), "no prose is lost: \(shaped)")
    }

    func test_dataInTheMovedProse_stayWhole_unlessLong() {
        // Lesson 9's advice after a body that is no JSON: the example body in the advice lost its last field,
        // shortened to `{"email": …, "password":…}`, and came again on an `in full:` line.
        let sent = #"{"email": "ada@example.com", "password": "<the password>", "returnSecureToken": true}"#
        let example = #"{"email": …, "password": …, "returnSecureToken": true}"#
        let message = "signUp(email:password:)'s POST has no JSON object as its body (\(sent)). Ada's password has quotes "
            + "and a backslash, and the body holds it as it is: built by string interpolation, it is no JSON. Send "
            + "\(example), encoded by JSONEncoder, as `httpBody`. See LESSONS.md §9.2."
        let shaped = DiagnosisLine.shape(message)
        XCTAssertLessThanOrEqual(firstLine(shaped).count, FirstLine.limit, shaped)
        XCTAssertTrue(shaped.contains("Send \(example), encoded"), "the advice's example whole: \(shaped)")
        XCTAssertEqual(shaped.components(separatedBy: "in full: ").count, 2, "only the sent body in full: \(shaped)")
        XCTAssertTrue(shaped.contains("in full: \(sent)"), shaped)
        let long = "[" + Array(repeating: #""-P5QdiIlZv_zWnsfgYxA""#, count: 12).joined(separator: ", ") + "]"
        let withLongData = String(repeating: "Prose that fills the first line. ", count: 7) + "Then a long list: \(long) and more."
        let shapedLong = DiagnosisLine.shape(withLongData)
        XCTAssertTrue(shapedLong.contains("in full: \(long)"), "a long datum below the first line is still given in full: \(shapedLong)")
        XCTAssertFalse(shapedLong.contains("list: \(long)"), "and shortened where it stood: \(shapedLong)")
    }

    func test_theFirstLine_endsOutsideAParenthesis_whenASentenceEndsThere() {
        // Lesson 9's expiry: cut at the "; " inside the traffic's parenthesis, the first line ended in the middle of
        // it; the sentence ends after it, its full stop the limit's last character.
        let message = #"After one GET, database threw .status(401, "Auth token is expired") (the database received 1: "#
            + "GET /users/eKTWs4akUNG3D7pdPFezW2YqORLJ.json?auth=<ID token 1> -> 401 Auth token is expired; 0 refreshes). "
            + "On 401 \"Auth token is expired\": refresh the token, then send the request again with the new one. See LESSONS.md §9.4."
        let shaped = DiagnosisLine.shape(message)
        XCTAssertLessThanOrEqual(firstLine(shaped).count, FirstLine.limit, shaped)
        XCTAssertTrue(firstLine(shaped).hasSuffix("0 refreshes)."), shaped)
        XCTAssertEqual(shaped.replacingOccurrences(of: "\n", with: " "), message, "no prose moved or lost: \(shaped)")
        // A parenthesis that runs past the limit, with no sentence ending outside it: the line ends before it.
        let longer = message.replacingOccurrences(of: "; 0 refreshes)", with: "; GET /threads.json?auth=<ID token 1> -> 401 Auth token is expired; 0 refreshes)")
        let shapedLonger = DiagnosisLine.shape(longer)
        XCTAssertLessThanOrEqual(firstLine(shapedLonger).count, FirstLine.limit, shapedLonger)
        XCTAssertTrue(firstLine(shapedLonger).hasSuffix(#"threw .status(401, "Auth token is expired")"#), shapedLonger)
        XCTAssertEqual(shapedLonger.replacingOccurrences(of: "\n", with: " "), longer, "no prose moved or lost: \(shapedLonger)")
    }

    func test_comparedValuesAlone_pastTheFirstLine_areGivenInFullOnly() {
        // Lesson 10's tie order: the first line said it all, then `[("["-P5QdiIlZv_zWnsfgYx…]` on a line of its own.
        let values = "[(\"[" + Array(repeating: #"\"-P5QdiIlZv_zWnsfgYxA\""#, count: 9).joined(separator: ", ") + "]\") is not equal to (\"[…]\")]"
        let message = "Message.inOrder(_:): 8 messages with one timestamp came out as z A 7 - Z a k _; Firebase orders a "
            + "tie by key, code by code: - 7 A Z _ a k z (Swift's < on the keys). See LESSONS.md §10.2. \(values)"
        let shaped = DiagnosisLine.shape(message)
        let lines = shaped.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, shaped)
        XCTAssertEqual(lines.last, "  in full: \(values)", shaped)
    }

    func test_longProse_movesToTheNextLine_atASentencesEnd() {
        let sentence = "After the server accepted the message, the thread's `messages` should be the message it already had followed by the one you sent."
        let message = sentence + " " + String(repeating: "Then more advice follows here. ", count: 6)
        let shaped = DiagnosisLine.shape(message)
        XCTAssertTrue(firstLine(shaped).hasPrefix(sentence), shaped)
        XCTAssertTrue(firstLine(shaped).hasSuffix("."), "cut at a sentence's end: \(shaped)")
        XCTAssertLessThanOrEqual(firstLine(shaped).count, FirstLine.limit)
        XCTAssertEqual(shaped.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces),
                       message.trimmingCharacters(in: .whitespaces))
    }

    func test_hugeData_isTrimmedBelow_andLaterLinesKept() {
        let json = "[" + Array(repeating: #"{"a":"\"quoted\" and [bracketed]"}"#, count: 200).joined(separator: ",") + "]"
        let shaped = DiagnosisLine.shape("parse(_:) gave these events: \(json)\nsecond line")
        XCTAssertLessThanOrEqual(firstLine(shaped).count, FirstLine.limit)
        XCTAssertTrue(shaped.hasSuffix("…\nsecond line"), String(shaped.suffix(80)))
        XCTAssertLessThan(shaped.count, 1_300)
    }

    func test_shortQuotedStringsInProse_stayWhole_andTheProseBetweenThemIsNotTakenForData() {
        // The §8.2 \r\n diagnosis: read again from inside "\r\n", its closing quote opened a 60-character "string"
        // of advice, which went to an `in full:` line and left the first line cut mid-word.
        let message = #"Fed Fixtures/lesson8/firebase-forum-crlf.sse in one piece, parse(_:): with \r\n line endings it found 0 of 7 events, yet all of them once the \r are gone: in Swift "\r\n" is ONE Character, so splitting a String on "\n" never splits these lines. Split the bytes at 10 (\n) and drop a \r before it, or handle "\r\n", "\r" and "\n" (§8.2)."#
        let shaped = DiagnosisLine.shape(message)
        XCTAssertFalse(shaped.contains("in full:"), shaped)
        XCTAssertEqual(shaped.replacingOccurrences(of: "\n", with: " "), message, "no prose moved or lost: \(shaped)")
        XCTAssertLessThanOrEqual(firstLine(shaped).count, FirstLine.limit, shaped)
    }

    func test_everyFirstLine_fitsTheLimit_whateverTheText() {
        for message in [String(repeating: "x", count: 500), String(repeating: "word ", count: 100),
                        "\"" + String(repeating: "q", count: 400), "{" + String(repeating: "[", count: 300)] {
            XCTAssertLessThanOrEqual(firstLine(DiagnosisLine.shape(message)).count, FirstLine.limit, message)
        }
    }

    func test_prose_betweenTwoShortQuotedWords_isNotTakenForData() {
        let message = "The rules refused Ada's write below /users/<Ben's uid> (401 Permission denied), and the call threw "
            + "an error it should not have. A 401 whose error is \"Permission denied\" comes from the rules, not from an "
            + "old token: refreshing cannot help. Only \"Auth token is expired\" calls for a refresh."
        let shaped = DiagnosisLine.shape(message)
        XCTAssertFalse(shaped.contains("in full"), shaped)
        XCTAssertEqual(shaped.replacingOccurrences(of: "\n", with: " "), message, "no prose is shortened: \(shaped)")
    }

    func test_theSameLongDatumTwice_isGivenInFullOnce() {
        let text = "\"WEAK_PASSWORD : Password should be at least 6 characters\""
        let message = "Auth answered 400 \(text), and signUp(email:password:) threw .auth(\(text)); expected .weakPassword. "
            + "The message has its own case: compare the code before any detail."
        let shaped = DiagnosisLine.shape(message)
        XCTAssertEqual(shaped.components(separatedBy: "in full: ").count, 2, shaped)
    }
}
