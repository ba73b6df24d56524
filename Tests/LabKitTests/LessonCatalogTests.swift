import Foundation
import XCTest
import LabMetadata

final class LessonCatalogTests: XCTestCase {
    func test_theKitsOwnLessonsJSONLoads() throws {
        let catalog = try LessonCatalog.load(from: LessonCatalog.defaultFile)
        XCTAssertEqual(catalog.lessons.first?.name, "Lesson1")
        XCTAssertFalse(catalog.lessons.flatMap(\.exercises).contains { $0.hints.isEmpty }, "every exercise has a hint")
    }

    func test_findsALessonByAnyNameALearnerTypes() throws {
        let catalog = try LessonCatalog.load(from: LessonCatalog.defaultFile)
        for name in ["Lesson1", "lesson1", "1"] { XCTAssertEqual(catalog.lesson(named: name)?.name, "Lesson1", name) }
        XCTAssertNil(catalog.lesson(named: "Lesson99"))
        XCTAssertEqual(catalog.exercise(forTestClass: "CreateMessageTests")?.exercise.section, "1.4")
    }

    func test_aMalformedFileGivesAnErrorNamingTheProblem_notACrash() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lessons-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"lessons": [{"name": "Lesson1", "title": "x", "chapter": "1"}]}"#.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try LessonCatalog.load(from: file)) { error in
            XCTAssertTrue("\(error)".contains("missing key `exercises`"), "\(error)")
        }
        try "{ not json".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try LessonCatalog.load(from: file)) { error in
            XCTAssertTrue("\(error)".contains(file.lastPathComponent), "\(error)")
        }
        // Where: an instructor's stray comma in a 400-line file is found by its line, not by reading it all.
        try "{\n  \"lessons\": [\n    {\"name\": \"Lesson1\" \"title\": \"x\"}\n  ]\n}".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try LessonCatalog.load(from: file)) { error in
            XCTAssertTrue("\(error)".contains("line 3"), "\(error)")
        }
    }
}
