import Foundation
import XCTest
@testable import LabKit
import LabMetadata

/// `class-report.html` as an instructor meets it: a class of 20 built like `.ci/bench-grade`'s (`SyntheticClass`),
/// written by the same code `lab grade` uses, then read back as a document — its numbers must be the CSV's, its
/// mistakes grouped by kind, learner-written text never markup, and a second grading must say what changed.
final class ClassReportPageTests: FolderTestCase {
    var catalog: LessonCatalog!
    var titles: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        let root = try KitRoot.find()
        catalog = try LessonCatalog.load(from: root.appendingPathComponent("lessons.json"))
        titles = LessonSections.titles(ofKitAt: root)
    }

    func writeReport(_ report: ClassReport) throws -> (page: PageNode, csv: [[String]], bytes: Int, seconds: Double) {
        let start = Date()
        try ClassReportFiles.write(report, to: folder, sectionTitles: titles)
        let seconds = Date().timeIntervalSince(start)
        let data = try Data(contentsOf: folder.appendingPathComponent("class-report.html"))
        let csv = try String(contentsOf: folder.appendingPathComponent("class-report.csv"), encoding: .utf8)
        return (try PageNode.read(data), CSVTable.rows(csv), data.count, seconds)
    }

    func test_classOf20_pageNumbersAreTheCSVs() throws {
        let synthetic = SyntheticClass(catalog: catalog)
        let report = synthetic.report
        XCTAssertEqual(report.rows.count, 20)
        let (page, csv, bytes, seconds) = try writeReport(report)
        print("class-report.html for a class of 20: \(bytes) bytes, written (with the CSV, Markdown and JSON) in \(String(format: "%.3f", seconds)) s")
        if let keep = ProcessInfo.processInfo.environment["LAB_KEEP_REPORT"] {  // to open it in a browser
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: folder, to: URL(fileURLWithPath: keep))
        }
        let header = csv[0], body = Array(csv.dropFirst())
        XCTAssertEqual(body.count, 20)
        let lessons = catalog.lessons.map(\.name)

        // The learners' table: every score cell is the CSV's.
        let table = try XCTUnwrap(page.all("table").first { $0.attributes["class"] == "learners" })
        for line in body {
            let row = try XCTUnwrap(table.first("tr", where: "data-learner", is: line[0]), "no row for \(line[0])")
            XCTAssertEqual(row.all("td").first?.text, line[0])
            for lesson in lessons {
                let cell = try XCTUnwrap(row.first("td", where: "data-lesson", is: lesson))
                XCTAssertEqual(cell.text, line[header.firstIndex(of: lesson)!], "\(line[0]) \(lesson)")
            }
            XCTAssertEqual(row.all("td").first { $0.attributes["data-total"] != nil }?.text, line[header.firstIndex(of: "total")!])
            XCTAssertEqual(row.all("td").first { $0.attributes["data-max"] != nil }?.text, line[header.firstIndex(of: "max")!])
        }

        // Each lesson's chart: the learners per score band, counted from the CSV (full marks: the solved copy's).
        let solved = try XCTUnwrap(body.first { $0[0] == "solved-01" })
        for lesson in lessons {
            let column = header.firstIndex(of: lesson)!
            let maximum = Double(solved[column])!
            var bands = Array(repeating: 0, count: ScoreBands.labels.count)
            for line in body { bands[ScoreBands.band(score: Double(line[column])!, of: maximum)] += 1 }
            let figure = try XCTUnwrap(page.first("figure", where: "data-lesson", is: lesson))
            XCTAssertEqual(figure.attributes["data-max"], solved[column])
            XCTAssertEqual(figure.all("rect").map { Int($0.attributes["data-count"]!)! }, bands, lesson)
            XCTAssertEqual(figure.all("svg").count, 1)
        }

        // Each exercise: who passes every one of its tests, counted from the results.
        for lesson in catalog.lessons {
            for exercise in lesson.exercises {
                let passing = report.rows.filter { row in
                    row.results!.tests.filter { $0.exercise == exercise.section }.allSatisfy { $0.outcome == .passed }
                }.count
                let row = try XCTUnwrap(page.first("tr", where: "data-exercise", is: "\(lesson.name)§\(exercise.section)"))
                XCTAssertEqual(row.attributes["data-passing"], "\(passing)", exercise.section)
                XCTAssertEqual(row.attributes["data-graded"], "20")
            }
        }
        // Lesson 1 §1.3 passes for the 8 solved, only-Lesson1, lessons-1-2 and broken-lesson3.
        XCTAssertEqual(page.first("tr", where: "data-exercise", is: "Lesson1§1.3")?.attributes["data-passing"], "11")

        // The mistakes: the same kind with different values is one group, most common first, each with its section.
        let mistakes = page.all("ol").first { $0.attributes["class"] == "mistakes" }!.children.filter { $0.name == "li" }
        let counts = mistakes.map { Int($0.attributes["data-learners"]!)! }
        XCTAssertEqual(counts, counts.sorted(by: >), "most common first")
        let post = try XCTUnwrap(mistakes.first { $0.text.contains("createMessageThread sent POST") }, "POST for PUT is not a mistake")
        XCTAssertEqual(post.attributes["data-learners"], "2", "two learners, two UUIDs, one mistake: \(post.text)")
        XCTAssertTrue(post.text.contains("Revisit LESSONS.md §1.1 PUT and POST"), post.text)
        let stopped = try XCTUnwrap(mistakes.first { $0.text.contains("this test took longer than") })
        XCTAssertEqual(stopped.attributes["data-learners"], "2", stopped.text)
        XCTAssertEqual(mistakes.filter { $0.text.contains("Lesson3 does not compile") }.count, catalog.lesson(named: "Lesson3")!.exercises.count)

        // Learners with notes, apart, for a human look; and a section of each learner's own.
        let noted = page.all("ul").first { $0.attributes["class"] == "noted" }!.children.compactMap { $0.attributes["data-learner"] }
        XCTAssertEqual(noted, ["broken-lesson1", "broken-lesson3", "endless-loop", "sleeps-30s"])
        let articles = page.all("article")
        XCTAssertEqual(articles.map { $0.attributes["data-learner"]! }, body.map { $0[0] })
        let loop = try XCTUnwrap(articles.first { $0.attributes["data-learner"] == "endless-loop" })
        XCTAssertEqual(loop.first("tr", where: "data-section", is: "1.3")?.attributes["class"], "failed")
        XCTAssertTrue(loop.text.contains("took longer than 5 s"), loop.text)
        XCTAssertEqual(articles.first { $0.attributes["data-learner"] == "solved-01" }?.all("tr").count, 0)
        let stubs = try XCTUnwrap(articles.first { $0.attributes["data-learner"] == "stubs" })
        XCTAssertTrue(stubs.text.contains("Not started: §1.3, §1.4, §2.2"), stubs.text)
        XCTAssertEqual(stubs.all("tr").count, 0, "a stub is not a failure to read")
    }

    func test_learnerText_isNeverMarkup_andThePageNeedsNothingFromElsewhere() throws {
        let (page, _, _, _) = try writeReport(SyntheticClass(catalog: catalog).report)
        XCTAssertTrue(page.all("script").isEmpty, "a script element")
        XCTAssertTrue(page.all("b").isEmpty && page.all("img").isEmpty, "learner text became elements")
        for node in page.all {
            XCTAssertFalse(node.attributes.keys.contains { $0.lowercased().hasPrefix("on") }, "an event handler on <\(node.name)>")
            for attribute in ["src", "href"] {
                if let value = node.attributes[attribute] { XCTAssertTrue(value.hasPrefix("#"), "<\(node.name) \(attribute)=\(value)>: only links within the page") }
            }
        }
        XCTAssertEqual(page.all("link").count, 0, "no stylesheet or font from elsewhere")
        let hostile = try XCTUnwrap(page.first("tr", where: "data-learner", is: SyntheticClass.hostileName), "the folder name, as text")
        XCTAssertEqual(hostile.all("td").first?.text, SyntheticClass.hostileName)
        XCTAssertTrue(page.text.contains(SyntheticClass.hostileMessage), "the message is shown as the text it is")
        let html = try String(contentsOf: folder.appendingPathComponent("class-report.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("<script") || html.contains("<img") || html.contains("http://") && !html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
    }

    func test_gradedAgain_thePageSaysWhoMovedAndWhichMistakesFaded() throws {
        let synthetic = SyntheticClass(catalog: catalog)
        let (first, _, _, _) = try writeReport(synthetic.report)
        XCTAssertTrue(first.first("section", where: "id", is: "changes")!.text.contains("first report"))
        var learners = synthetic.learners
        let fixed = learners.firstIndex { $0.name == "post-for-put" }!
        learners[fixed].failures = [:]
        learners.removeAll { $0.name == "stubs" }
        learners.append(.init(name: "late-joiner", solved: ["Lesson1"]))
        let (page, _, _, _) = try writeReport(ClassReport(catalog: catalog, rows: learners.map(synthetic.row)))
        let changes = try XCTUnwrap(page.first("section", where: "id", is: "changes"))
        let moved = changes.all("li").filter { $0.attributes["data-learner"] != nil }
        XCTAssertEqual(moved.map { $0.attributes["data-learner"]! }, ["post-for-put"], changes.text)
        XCTAssertTrue(moved[0].text.contains("Lesson1"), moved[0].text)
        XCTAssertTrue(changes.text.contains("New: late-joiner"), changes.text)
        XCTAssertTrue(changes.text.contains("Not in this grading: stubs"), changes.text)
        let faded = try XCTUnwrap(changes.all("li").first { $0.attributes["class"] == "faded" }, changes.text)
        XCTAssertTrue(faded.text.contains("2 → 1") && faded.text.contains("§1.3"), faded.text)
    }

    func test_failureKind_stripsValues_andKeepsTheClause() {
        let a = FailureKind(testCode: "T/test_a", message: "createMessageThread sent POST /695398C4-498C-40A8-AA76-CB2B20DFD9FA.json  body: {\"title\":\"x. y\"}  -> 200. Use PUT. See LESSONS.md §1.1.")
        let b = FailureKind(testCode: "T/test_a", message: "createMessageThread sent POST /0E1B1F5A-0000-40A8-AA76-CB2B20DFD9FA.json  body: {\"title\":\"other\"}  -> 201. Use PUT: … See LESSONS.md §1.2.")
        XCTAssertEqual(a.key, b.key)
        XCTAssertEqual(a.clause, "createMessageThread sent POST …")
        XCTAssertEqual(a.section, "1.1")
        XCTAssertEqual(FailureKind(testCode: "T/t", message: "the entry -LJNQ2zNeL4bwG1qpwYB was never created; it has 3 keys").clause,
                       "the entry … was never created")
        XCTAssertEqual(FailureKind(testCode: "T/t", message: "expected \"Ada\" and 42, got \"Bob\" and 7.5 [(\"a\") is not equal to (\"b\")]").clause,
                       "expected … and …, got … and …")
        XCTAssertNotEqual(FailureKind(testCode: "T/t", message: "Use PUT. x").key, FailureKind(testCode: "T/u", message: "Use PUT. x").key)
        XCTAssertEqual(HTMLText.escaped("<a href='x'>&\"\u{1}</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\u{FFFD}&lt;/a&gt;")
    }
}

/// Rows of a CSV file as `ClassReport` writes it: fields in double quotes may hold commas and doubled quotes.
enum CSVTable {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = characters.next()
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else { field.append(character) }
            } else if character == "\"" { quoted = true
            } else if character == "," { row.append(field); field = ""
            } else if character == "\n" { row.append(field); rows.append(row); row = []; field = ""
            } else { field.append(character) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
